#!/usr/bin/env bash
# Runs the GPU tests of build-gpu/ (made by tools/gpu-bundle.sh) on this
# machine's default Vulkan device, replaying the recorded modules. The build
# holds absolute paths of the machine that made it, so they are linked here.
# Results: ctest's output, and JUnit XML in $OUT (or build-gpu/) when set.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=tools/gpu-env.sh
source "$root/tools/gpu-env.sh"
cd "$made_in/build-gpu"
ctest -L gpu --output-on-failure --output-junit "${OUT:-$made_in/build-gpu}/gpu-tests.xml" "$@"
