#!/usr/bin/env bash
# Counts the instructions lavapipe executes in a kernel's compiled code, with
# callgrind: a figure that, unlike a time on a CPU device, does not move from
# run to run, so that two modules of one kernel (vkcl's and a GLSL twin's,
# or a hand-edited variant) can be compared one change at a time. The
# kernel runs once, on one lavapipe thread, with Mesa's shader cache off (a
# cached shader is not compiled in process, which changes what callgrind
# sees); "shader" counts the instructions in code that belongs to no file,
# which is what llvmpipe compiled for the kernel.
#
#   tools/lavapipe-instructions.sh <vkcl-run arguments...>
#   e.g. tools/lavapipe-instructions.sh histogram.spv histogram --global 4096 --local 256 \
#          --arg random:uint:4194304 --arg zeros:uint:256 --arg uint:4194304 --arg uint:64
#
# Needs valgrind (Debian's package) and build/tools/run/vkcl-run. Prints
# "total <n> shader <n>".
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run=${VKCL_RUN:-$root/build/tools/run/vkcl-run}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
MESA_SHADER_CACHE_DISABLE=true LP_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file="$work/out" \
  "$run" "$@" >"$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
total=$(grep -m1 -E '^(summary|totals):' "$work/out" | awk '{print $2}')
shader=$(callgrind_annotate --threshold=100 "$work/out" 2>/dev/null |
  awk '/\?\?\?:(0x|\?\?\?)/ {gsub(",", "", $1); sum += $1} END {print sum + 0}')
echo "total $total shader $shader"
