# Sourced (with $root, the repository root, set) by the scripts that run
# build-gpu/ (made by tools/gpu-bundle.sh) on the GPU machine: gpu-tests.sh,
# gpu-bench.sh, gpu-corpus-bench.sh. The build holds absolute paths of the
# machine that made it, so they are linked here; sets $made_in (that path),
# VKCL_MODULE_CACHE (the recorded modules to replay), and what the OpenCL
# side needs to find NVIDIA's driver: OCL_ICD_FILENAMES when there is no ICD
# file, and VKCL_DIFF_OPENCL_LIBRARY (the differential test's and the corpus
# benchmark's OpenCL worker) when there is no ICD loader but the copy that
# vkcl-bench's build puts beside it.
made_in=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$root/build-gpu/CMakeCache.txt")
if [[ "$made_in" != "$root" && ! -e "$made_in" ]]; then
  mkdir -p "$(dirname "$made_in")"
  ln -s "$root" "$made_in"
fi
export VKCL_MODULE_CACHE="$made_in/build-gpu/modules"
if [[ ! -e /etc/OpenCL/vendors/nvidia.icd && -z "${OCL_ICD_FILENAMES:-}" ]] &&
  { ldconfig -p 2>/dev/null | grep -q 'libnvidia-opencl\.so\.1'; }; then
  export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
fi
if ! { ldconfig -p 2>/dev/null | grep -q 'libOpenCL\.so\.1'; } && [[ -z "${VKCL_DIFF_OPENCL_LIBRARY:-}" &&
  -e "$made_in/build-gpu/tools/bench/libOpenCL.so.1" ]]; then
  export VKCL_DIFF_OPENCL_LIBRARY="$made_in/build-gpu/tools/bench/libOpenCL.so.1"
fi
