#!/usr/bin/env bash
# Runs the CPU benchmark (vkcl-bench on lavapipe, its GLSL twins, rusticl on
# llvmpipe) with the Mesa that tools/lavapipe-bundle.sh packed, on a machine
# without our packages. Needs build-gpu/tools and build-lavapipe/, and root:
# rusticl reads libclc from /usr/lib/clc and clang's OpenCL headers from
# /usr/lib/llvm-15/lib/clang/15.0.6/include, so they are put there. Results
# as for tools/gpu-bench.sh, in $OUT else build-lavapipe/bench. Arguments go to
# vkcl-bench (default size: medium); LP_NUM_THREADS sets lavapipe's threads.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mesa=${VKCL_MESA_DIR:-/tmp/vkcl-mesa}
rm -rf "$mesa" && mkdir -p "$mesa"
tar -xJf "$root/build-lavapipe/mesa.tar.xz" -C "$mesa"
# (A bundle made with VKCL_BUNDLE_RUSTICL=0 has neither.)
if compgen -G "$mesa/clc/*" > /dev/null; then
  mkdir -p /usr/lib/clc /usr/lib/llvm-15/lib/clang/15.0.6/include
  cp -n "$mesa"/clc/* /usr/lib/clc/
  cp -n "$mesa"/include/* /usr/lib/llvm-15/lib/clang/15.0.6/include/
fi
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s/lib/libvulkan_lvp.so","api_version":"1.1.230"}}\n' "$mesa" \
  > "$mesa/lvp_icd.json"
export VK_DRIVER_FILES="$mesa/lvp_icd.json" LD_LIBRARY_PATH="$mesa/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OCL_ICD_FILENAMES="$mesa/lib/libRusticlOpenCL.so.1" RUSTICL_ENABLE=swrast
export VKCL_MODULE_CACHE="$root/build-lavapipe/modules"
# build-gpu's vkcl-bench reads its twins and kernels under the checkout it was made in.
made_in=$(cat "$root/build-lavapipe/made_in")
if [[ "$made_in" != "$root" && ! -e "$made_in" ]]; then
  mkdir -p "$(dirname "$made_in")"
  ln -s "$root" "$made_in"
fi
twins="$made_in/build-gpu/tools/bench/twins"
[[ -e "$twins" ]] || { echo "lavapipe-bench: $twins is missing (carry build-gpu/tools)" >&2; exit 1; }
exec "$made_in/build-gpu/tools/bench/vkcl-bench" --size medium --opencl rusticl --skip dispatch,compile \
  --out "${OUT:-$root/build-lavapipe/bench}" "$@"
