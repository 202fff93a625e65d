#!/usr/bin/env bash
# Packs Debian's hashcat and piglit's OpenCL tests for the GPU machine
# (Ubuntu 24.04, without our packages) into .gpu-apps/, for tools/gpu-apps.sh:
# hashcat with its kernels, modules and the two libraries Ubuntu lacks, and
# piglit's cl-* programs, their libraries and tests/cl. About 12 MiB.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
piglit=usr/lib/x86_64-linux-gnu/piglit
rm -rf "$root/.gpu-apps"
mkdir -p "$root/.gpu-apps"
libraries=$(for l in /lib/x86_64-linux-gnu/libminizip.so.1 /lib/x86_64-linux-gnu/libxxhash.so.0; do
  echo "${l#/}"; readlink -f "$l" | sed 's|^/||'; done)
# shellcheck disable=SC2086
tar -C / -cJf "$root/.gpu-apps/hashcat.tar.xz" usr/bin/hashcat usr/lib/hashcat usr/share/hashcat/OpenCL \
  usr/share/hashcat/hashcat.hcstat2 usr/share/hashcat/charsets usr/share/hashcat/tunings usr/share/hashcat/modules \
  $libraries
(cd / && tar -cJf "$root/.gpu-apps/piglit-cl.tar.xz" $piglit/bin/cl-program-tester $piglit/bin/cl-api-* \
  $piglit/bin/cl-custom-* $piglit/lib $piglit/tests/cl)
du -sh "$root"/.gpu-apps/*
