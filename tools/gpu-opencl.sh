#!/usr/bin/env bash
# On the GPU machine, from the repository root (tools/gpu-opencl-bundle.sh
# made .gpu-llvm and .gpu-icd here):
#   tools/gpu-opencl.sh unpack        .gpu-llvm -> /opt/vkcl-llvm (once per machine)
#   tools/gpu-opencl.sh headers       clang's OpenCL headers where the worker looks
#   tools/gpu-opencl.sh env           prints the exports that point ocl-icd at vkcl
#   tools/gpu-opencl.sh tests         the OpenCL API tests and the CLBlast client
# The NVIDIA Vulkan driver files and glvnd must be in place first (the
# device tool's .gl packages and VK_DRIVER_FILES; docs/benchmarks.md).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
icd=$root/.gpu-icd
case ${1:-} in
  unpack)
    mkdir -p /opt/vkcl-llvm
    for f in "$root"/.gpu-llvm/*.xz; do xz -dc "$f" > "/opt/vkcl-llvm/$(basename "$f" .xz)"; done
    ls /opt/vkcl-llvm ;;
  headers)
    # Where the worker looks for clang's OpenCL headers (its build's resource directory).
    mkdir -p /usr/lib/llvm-15/lib/clang/15.0.6/include
    cp "$icd"/clang-include/*.h /usr/lib/llvm-15/lib/clang/15.0.6/include/ ;;
  env)
    # The worker beside the ICD is found through dladdr; it needs LLVM's libraries.
    echo "export LD_LIBRARY_PATH=$icd/lib:/opt/vkcl-llvm OCL_ICD_VENDORS=$icd/lib/libvkcl-opencl.so" ;;
  tests)
    set +o pipefail
    "$0" headers
    eval "$("$0" env)"
    [[ -e /opt/vkcl-llvm/libLLVM-15.so.1 ]] || { echo "LLVM not unpacked (tools/gpu-opencl.sh unpack)" >&2; exit 1; }
    "$icd/tests/vkcl_opencl_icd_test" 2>&1 | grep -E "FAILED|PASSED|Failure" -A4 | head -30
    "$icd/tests/vkcl_opencl_api_test" 2>&1 | grep -E "FAILED|PASSED|Failure" -A4 | head -60
    "$icd/tests/vkcl_opencl_multi_device_test" 2>&1 | tail -3
    # Exit status too: a crash after the last line (in a release during
    # exit) shows only there.
    "$icd/tests/vkcl_opencl_clblast_client"; echo "CLBlast client exit status: $?"
    (cd /tmp && "$icd/tests/vkcl_opencl_exit_after_compile"; echo "exit_after_compile exit status: $?") ;;
  *) echo "usage: $0 unpack|env|tests" >&2; exit 2 ;;
esac
