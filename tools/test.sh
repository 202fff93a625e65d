#!/usr/bin/env bash
# The whole test suite: build everything, then run every test through ctest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${VKCL_BUILD_DIR:-$root/build}
bash "$root/tools/build.sh"
cd "$build"
ctest --output-on-failure --timeout 900 -j "$(nproc)"
