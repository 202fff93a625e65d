#!/usr/bin/env bash
# The main job: build vkcl, compile shaders/examples/reduce.cl with clc, run
# it on the default Vulkan device (VKCL_DEVICE picks another) and compare the
# sum with the host's. Arguments: [n] [local size].
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${VKCL_BUILD_DIR:-$root/build}
bash "$root/tools/build.sh" --target clc vkcl-reduce-example
"$build/tools/clc/clc" -cl-std=CL1.2 "$root/shaders/examples/reduce.cl" -o "$build/reduce.spv"
"$build/tools/examples/vkcl-reduce-example" "$build/reduce.spv" "$@"
