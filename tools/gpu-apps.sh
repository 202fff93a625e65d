#!/usr/bin/env bash
# Real applications on the GPU machine through vkcl's ICD and through
# NVIDIA's OpenCL, side by side: piglit's OpenCL tests and hashcat's
# benchmark. From the repository root, after tools/gpu-opencl.sh unpack (the
# compile worker's LLVM), with .gpu-icd (tools/gpu-opencl-bundle.sh) and
# .gpu-apps (tools/gpu-apps-bundle.sh) carried, and the NVIDIA Vulkan driver
# files and glvnd in place (the device tool's .gl packages):
#   tools/gpu-apps.sh piglit             piglit through vkcl, then through NVIDIA
#   tools/gpu-apps.sh hashcat vkcl|nvidia [hashcat -b options]
#                                        hashcat -b on one platform, OpenCL only
# hashcat caches its kernels under $HOME: a second run on a warm machine
# does not compile them again.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
icd=$root/.gpu-icd
unpack() {
  [[ -x /usr/bin/hashcat ]] || tar -C / -xJf "$root/.gpu-apps/hashcat.tar.xz"
  [[ -x /usr/lib/x86_64-linux-gnu/piglit/bin/cl-program-tester ]] || tar -C / -xJf "$root/.gpu-apps/piglit-cl.tar.xz"
  ldconfig
  "$root/tools/gpu-opencl.sh" headers
}
nvidia_vendors() {
  mkdir -p /tmp/nvidia-vendors
  echo libnvidia-opencl.so.1 > /tmp/nvidia-vendors/nvidia.icd
  echo /tmp/nvidia-vendors
}
export LD_LIBRARY_PATH=$icd/lib:/opt/vkcl-llvm${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
case ${1:-} in
  piglit)
    unpack
    "$root/tools/piglit/run.sh" "$icd/lib/libvkcl-opencl.so" /tmp/piglit-vkcl.tsv | tail -15
    echo "--- NVIDIA's OpenCL"
    OCL_ICD_VENDORS=$(nvidia_vendors) "$root/tools/piglit/run.sh" /tmp/nvidia-vendors /tmp/piglit-nvidia.tsv |
      grep -E "^piglit OpenCL|unexpected"
    ;;
  hashcat)
    unpack
    shift
    platform=${1:-vkcl}
    shift || true
    if [[ $platform == nvidia ]]; then
      export OCL_ICD_VENDORS=$(nvidia_vendors)
    else
      export OCL_ICD_VENDORS=$icd/lib/libvkcl-opencl.so
    fi
    cd /tmp && hashcat -b --backend-ignore-cuda --machine-readable --quiet "$@" 2>&1
    ;;
  *) echo "usage: $0 piglit | hashcat vkcl|nvidia [options]" >&2; exit 2 ;;
esac
