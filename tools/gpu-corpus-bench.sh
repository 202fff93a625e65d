#!/usr/bin/env bash
# Runs the corpus benchmark (vkcl-corpus-bench, issue 15) from build-gpu/
# (made by tools/gpu-bundle.sh, whose run of the tests labelled gpu records
# every corpus kernel's module: the differential test and the benchmark's
# test-scale run build the same source with the same options, so the
# bench-scale run here replays them) on this machine's GPU, against NVIDIA's
# OpenCL: every corpus kernel at its @bench-* size, checked against NVIDIA's
# outputs, then timed. Results: the report on stdout, and
# corpus-bench.{txt,csv,dat,gp} (and .png where gnuplot exists) in $OUT, else
# build-gpu/corpus-bench. Extra arguments go to vkcl-corpus-bench (e.g.
# --repeat 20, --only algo_sgemm_tile16, --opencl pocl for another platform;
# --help for the rest).
#
# A machine that allows a command 10 minutes: the run starts no kernel after
# --time-limit seconds (500 unless given) and says where it stopped; the
# same command with --from <that kernel> (and another $OUT) does the rest,
# and where both outputs are, `vkcl-corpus-bench --merge DIR1,DIR2 --out DIR`
# reports them as one (no device needed). --part 1/2 and --part 2/2 split
# the corpus in advance instead.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=tools/gpu-env.sh
source "$root/tools/gpu-env.sh"
out=${OUT:-$made_in/build-gpu/corpus-bench}
opencl=(--opencl nvidia) limit=(--time-limit 500)
for arg in "$@"; do
  case "$arg" in
    --opencl) opencl=() ;;
    --time-limit) limit=() ;;
  esac
done
exec "$made_in/build-gpu/tools/corpus_bench/vkcl-corpus-bench" "${opencl[@]}" "${limit[@]}" --out "$out" "$@"
