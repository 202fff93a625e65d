#!/usr/bin/env bash
# Packs the CPU benchmark for another x86-64 Linux machine: a quiet host with
# more cores than CI's 2-core VM, whose timings move by 30% between runs (the
# device tool's H100 machine has 16 Xeon cores and none of our packages).
# Into build-lavapipe/ it puts
#   - Debian 12's lavapipe and rusticl (Mesa 22.3.6) with the libraries they
#     load, LLVM 15 included (glibc and libstdc++ excepted), the Vulkan
#     loader, libclc's SPIR-V and clang's OpenCL headers (rusticl reads both
#     from fixed paths), xz-compressed: about 60 MiB;
#   - the modules of vkcl-bench's kernels, recorded by a small run of
#     build/'s vkcl-bench, for build-gpu/'s (tools/gpu-bundle.sh), which has
#     no compiler.
# Then, there, with build-gpu/tools and build-lavapipe carried:
#   tools/lavapipe-bench.sh [vkcl-bench arguments]
# VKCL_BUNDLE_RUSTICL=0 leaves rusticl out, and what only it loads (clang,
# the SPIR-V translator, libclc, the headers): about 40 MiB, which fits the
# device tool's 64 MiB carry beside build-gpu/tools and the checkout, where
# the whole bundle does not; lavapipe-bench.sh then reports rusticl as n/a.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$root/build-lavapipe"
lib=/usr/lib/x86_64-linux-gnu
for f in "$lib/libvulkan_lvp.so" "$lib/libRusticlOpenCL.so.1" "$lib/libvulkan.so.1" /usr/lib/clc/spirv64-mesa3d-.spv \
         "$root/build/tools/bench/vkcl-bench" "$root/build-gpu/tools/bench/vkcl-bench"; do
  [[ -e "$f" ]] || { echo "lavapipe-bundle: $f is missing (tools/setup.sh, tools/build.sh, tools/gpu-bundle.sh)" >&2; exit 1; }
done
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib" "$stage/clc" "$stage/include"
with_rusticl=${VKCL_BUNDLE_RUSTICL:-1}
libraries=("$lib/libvulkan_lvp.so" "$lib/libvulkan.so.1")
[[ "$with_rusticl" == 0 ]] || libraries+=("$lib/libRusticlOpenCL.so.1")
for so in "${libraries[@]}"; do
  cp -L "$so" "$stage/lib/"
  ldd "$so" | awk '$3 ~ /^\// {print $3}' | while read -r dep; do
    case $(basename "$dep") in
      libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*|libstdc++.so.*|libgcc_s.so.*) ;;
      *) cp -L "$dep" "$stage/lib/" ;;
    esac
  done
done
if [[ "$with_rusticl" != 0 ]]; then
  cp /usr/lib/clc/spirv-mesa3d-.spv /usr/lib/clc/spirv64-mesa3d-.spv "$stage/clc/"
  cp /usr/lib/llvm-15/lib/clang/15.0.6/include/opencl-c.h /usr/lib/llvm-15/lib/clang/15.0.6/include/opencl-c-base.h "$stage/include/"
fi
rm -rf "$out"
mkdir -p "$out/modules"
tar -C "$stage" -cf - lib clc include | xz -T0 -9 > "$out/mesa.tar.xz"
# build-gpu's vkcl-bench reads its twins and kernels under the checkout it was made in.
sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$root/build-gpu/CMakeCache.txt" > "$out/made_in"
VKCL_MODULE_CACHE="$out/modules" "$root/build/tools/bench/vkcl-bench" --size small --repeat 1 --opencl none \
  --skip dispatch,compile --out "$stage/bench" > /dev/null 2>&1
echo "build-lavapipe: $(du -sh "$out" | cut -f1), $(ls "$out/modules" | grep -c '\.spv$') modules recorded"
