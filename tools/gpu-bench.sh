#!/usr/bin/env bash
# Runs the benchmark suite (vkcl-bench, docs/benchmarks.md) from build-gpu/
# (made by tools/gpu-bundle.sh, which also records the suite's modules) on
# this machine's GPU: large sizes, vkcl replaying the recorded modules, the
# GLSL twins, and every OpenCL platform the ICD loader finds (NVIDIA's on
# the H100). Compile time is skipped: build-gpu has no compiler.
# Results: the table on stdout, and vkcl-bench.{txt,csv,dat,gp} (and .png
# where gnuplot exists) in $OUT, else build-gpu/bench. Extra arguments go to
# vkcl-bench (e.g. --repeat 50, --only sgemm).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=tools/gpu-env.sh
source "$root/tools/gpu-env.sh"
out=${OUT:-$made_in/build-gpu/bench}
exec "$made_in/build-gpu/tools/bench/vkcl-bench" --size large --out "$out" "$@"
