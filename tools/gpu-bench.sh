#!/usr/bin/env bash
# Runs the benchmark suite (vkcl-bench, README.md "Results") from build-gpu/
# (made by tools/gpu-bundle.sh, which also records the suite's modules) on
# this machine's GPU: large sizes, vkcl replaying the recorded modules, the
# GLSL twins, and every OpenCL platform the ICD loader finds (NVIDIA's on
# the H100). Compile time is skipped: build-gpu has no compiler.
# Results: the table on stdout, and vkcl-bench.{txt,csv,dat,gp} (and .png
# where gnuplot exists) in $OUT, else build-gpu/bench. Extra arguments go to
# vkcl-bench (e.g. --repeat 50, --only sgemm).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
made_in=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$root/build-gpu/CMakeCache.txt")
if [[ "$made_in" != "$root" && ! -e "$made_in" ]]; then
  mkdir -p "$(dirname "$made_in")"
  ln -s "$root" "$made_in"
fi
export VKCL_MODULE_CACHE="$made_in/build-gpu/modules"
# NVIDIA's OpenCL driver without an ICD file: name its library to the loader
# (ocl-icd's OCL_ICD_FILENAMES; vkcl-bench brings a copy of the loader).
if [[ ! -e /etc/OpenCL/vendors/nvidia.icd && -z "${OCL_ICD_FILENAMES:-}" ]] &&
  { ldconfig -p 2>/dev/null | grep -q 'libnvidia-opencl\.so\.1'; }; then
  export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
fi
out=${OUT:-$made_in/build-gpu/bench}
exec "$made_in/build-gpu/tools/bench/vkcl-bench" --size large --out "$out" "$@"
