#!/usr/bin/env bash
# Installs every Debian 12 package vkcl builds, tests and benchmarks with.
# Idempotent: installs only what is missing and runs `apt-get update` at most once.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  clang-15 libclang-15-dev libclang-cpp15-dev llvm-15-dev
  llvm-spirv-15 libllvmspirvlib-15-dev
  spirv-tools spirv-headers
  libvulkan-dev libvulkan-volk-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  glslang-tools
  libgtest-dev
  pocl-opencl-icd ocl-icd-opencl-dev clinfo
  python3-pyopencl python3-numpy libclblast-dev clpeak
  piglit hashcat
  mesa-opencl-icd gnuplot-nox
  python3
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo_cmd=()
if ((EUID != 0)); then sudo_cmd=(sudo); fi
echo "vkcl setup: installing ${missing[*]}" >&2
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
