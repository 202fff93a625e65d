#!/usr/bin/env bash
# Installs what is missing, then configures and builds vkcl into build/ (or $VKCL_BUILD_DIR).
# Extra arguments are passed to `cmake --build` (e.g. --target clc).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${VKCL_BUILD_DIR:-$root/build}
bash "$root/tools/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${VKCL_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
cmake --build "$build" "$@"
