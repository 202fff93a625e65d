#!/usr/bin/env bash
# Seed corpora for the fuzz targets, from every kernel under shaders/ and the
# bad-input corpus: <out>/compile (an option byte, then OpenCL C source) and
# <out>/lower (`clc --emit-kernel-spirv` output, the translator's Kernel SPIR-V).
# Usage: tests/fuzz/make_seed_corpus.sh <clc> <out>
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
clc=$1
out=$2
mkdir -p "$out/compile" "$out/lower"
n=0
while IFS= read -r -d '' kernel; do
  name=$(realpath --relative-to="$root" "$kernel" | tr '/' '_')
  name=${name%.cl}
  # Option byte (compile_fuzzer.cpp): 0 CL1.2, 1 CL2.0, 2 CL3.0.
  for std in 0 1 2; do
    { printf "\\x0$std"; cat "$kernel"; } > "$out/compile/$name.$std"
  done
  for std in CL1.2 CL2.0 CL3.0; do
    if "$clc" -cl-std=$std --emit-kernel-spirv -I"$(dirname "$kernel")" "$kernel" -o "$out/lower/$name.$std.spv" 2>/dev/null; then
      n=$((n + 1))
    fi
  done
done < <(find "$root/shaders" "$root/tests/bad_input/cases" -name '*.cl' -print0 | sort -z)
echo "seeds: $(ls "$out/compile" | wc -l) sources, $n Kernel SPIR-V modules" >&2
