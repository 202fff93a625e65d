#!/usr/bin/env bash
# Runs vkcl-corpus-twins (the corpus kernels that have a GLSL twin, on vkcl
# and as the twin; tools/corpus_bench/twin_side.h) from build-gpu/ (made by
# tools/gpu-bundle.sh) on this machine's GPU. Results: one line per kernel on
# stdout, corpus-twins.csv in $OUT, else build-gpu/corpus-twins. Extra
# arguments go to vkcl-corpus-twins (--repeat, --only; --help for the rest).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=tools/gpu-env.sh
source "$root/tools/gpu-env.sh"
out=${OUT:-$made_in/build-gpu/corpus-twins}
mkdir -p "$out"
exec "$made_in/build-gpu/tools/corpus_bench/vkcl-corpus-twins" --out "$out" "$@"
