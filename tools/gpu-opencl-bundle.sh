#!/usr/bin/env bash
# Packs the OpenCL ICD for a GPU machine without our Debian toolchain (the
# device tool's H100, Ubuntu 24.04), in two folders that each fit one call's
# 64 MiB:
#   .gpu-llvm/  the libraries vkcl-compile-worker needs that Ubuntu lacks or
#               has in other versions (LLVM 15, clang 15, the SPIR-V
#               translator, z3, ...), xz-compressed: carry it in a first call
#               that unpacks it to /opt/vkcl-llvm (tools/gpu-opencl.sh unpack);
#   .gpu-icd/   libvkcl-opencl.so, vkcl.icd, vkcl-compile-worker, the OpenCL
#               API tests, the CLBlast client and Debian's libclblast and
#               ocl-icd libOpenCL, stripped: carry it in the calls that run.
# The ICD compiles in a child process (vkcl-compile-worker), so programs are
# built on the GPU machine itself, with the real compiler.
# Usage: tools/gpu-opencl-bundle.sh [build dir, default build]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
worker=$build/tools/clc/vkcl-compile-worker
[[ -x $worker ]] || { echo "no $worker: build first" >&2; exit 1; }

rm -rf "$root/.gpu-llvm" "$root/.gpu-icd"
mkdir -p "$root/.gpu-llvm" "$root/.gpu-icd/lib" "$root/.gpu-icd/tests"
# Every library the worker loads, except glibc's, libstdc++/libgcc (Ubuntu
# 24.04's are newer and compatible) and the loader.
ldd "$worker" | awk '$3 ~ /^\// {print $3}' | while read -r lib; do
  case $(basename "$lib") in
    libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|libstdc++.so*|libgcc_s.so*|ld-linux*) continue ;;
  esac
  xz -9 -T2 -c "$lib" > "$root/.gpu-llvm/$(basename "$lib").xz"
done

# clang's OpenCL headers, which the worker reads from the resource directory
# it was built with (VKCL_CLANG_RESOURCE_DIR); tools/gpu-opencl.sh unpack
# puts them there.
mkdir -p "$root/.gpu-icd/clang-include"
cp /usr/lib/llvm-15/lib/clang/15.0.6/include/opencl-c-base.h /usr/lib/llvm-15/lib/clang/15.0.6/include/opencl-c.h \
   "$root/.gpu-icd/clang-include/"
strip -o "$root/.gpu-icd/lib/libvkcl-opencl.so" "$build/api/opencl/libvkcl-opencl.so"
strip -o "$root/.gpu-icd/lib/vkcl-compile-worker" "$worker"
cp -L /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 /usr/lib/x86_64-linux-gnu/libclblast.so.1 "$root/.gpu-icd/lib/"
for t in opencl/vkcl_opencl_api_test opencl/vkcl_opencl_icd_test opencl/vkcl_opencl_multi_device_test \
         opencl/vkcl_opencl_exit_after_compile opencl/vkcl_opencl_il_test \
         opencl/vkcl_opencl_clblast_client; do
  strip -o "$root/.gpu-icd/tests/$(basename "$t")" "$build/tests/$t"
done
echo "$(du -sh "$root/.gpu-llvm" | cut -f1) .gpu-llvm, $(du -sh "$root/.gpu-icd" | cut -f1) .gpu-icd"
