#!/usr/bin/env bash
# Prepares the GPU test suite for a machine that has a GPU but not our
# Debian toolchain (the NVIDIA H100 of the device tool):
#   1. builds vkcl as usual (build/) and runs the GPU tests here once with
#      VKCL_MODULE_CACHE=build-gpu/modules, which records every module they
#      compile (the compile options follow the device, and lavapipe has the
#      same memory-model features as current NVIDIA drivers);
#   2. builds build-gpu/ with -DVKCL_WITH_COMPILER=OFF: the runtime and the
#      GPU tests, no LLVM, which replay those modules.
# Then, on the GPU machine, from the repository root with build-gpu carried:
#   tools/gpu-tests.sh [ctest arguments]
#   tools/gpu-bench.sh [vkcl-bench arguments]
#   tools/gpu-corpus-bench.sh [vkcl-corpus-bench arguments]
# The corpus benchmark's modules are the differential test's: both build each
# corpus file with the same source, name and options (the @bench-* sizes are
# kernel arguments and ND-ranges), and its test-scale run (corpus_bench_test_scale,
# labelled gpu) records them too.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/tools/build.sh"
rm -rf "$root/build-gpu/modules"
# build_program passes pointers as storage buffers on lavapipe and by address
# on a GPU (api/source_program.cpp), and the module key says which: record
# what the GPU will ask for.
export VKCL_STORAGE_BUFFER_ARGUMENTS=0
mkdir -p "$root/build-gpu/modules"
# Recording is all that matters here: a test that fails here fails there too.
(cd "$root/build" && VKCL_MODULE_CACHE="$root/build-gpu/modules" ctest -j "$(nproc)" -L gpu) ||
  echo "gpu-bundle: some GPU tests failed here (see build/Testing); their modules are recorded all the same" >&2
# The benchmark's modules too (its sizes are kernel arguments, so the small
# run records what tools/gpu-bench.sh replays at the large size).
(cd "$root/build" && VKCL_MODULE_CACHE="$root/build-gpu/modules" ctest -L bench) ||
  echo "gpu-bundle: the benchmark's smallest run failed here; its modules are recorded all the same" >&2
# The GPU tests include differential_storage_buffers, which records the
# corpus with storage-buffer arguments (another module key) for
# VKCL_STORAGE_BUFFER_ARGUMENTS=32 tools/gpu-corpus-bench.sh: the A/B of
# argument passing (docs/performance.md).
cmake -S "$root" -B "$root/build-gpu" -G Ninja -DVKCL_WITH_COMPILER=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/build-gpu"
echo "build-gpu: $(du -sh "$root/build-gpu" | cut -f1), $(ls "$root/build-gpu/modules" | grep -c '\.spv$') modules recorded"
