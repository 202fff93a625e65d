#!/usr/bin/env bash
# Times CTS sub-tests one at a time on the device tool's GPU machine, on vkcl
# (with libvkcl-sampler.so preloaded, samples of the client and its compile
# workers) and on NVIDIA's OpenCL, to find where vkcl's time goes. Carry
# .gl, .gpu-icd (with lib/libvkcl-sampler.so) and .gpu-cts, after a call that
# ran `tools/gpu-opencl.sh unpack` (as tools/cts/gpu-suites.sh).
#   tools/cts/gpu-profile.sh LIMIT SUITE/SUBTEST...
# $OUT/p/times.csv: suite,subtest,implementation,rc,wall,user,sys; $OUT/p.tgz
# the logs and samples (summarize with tools/sampling_profiler/report.py).
set -u
limit=$1; shift
# shellcheck source=tools/gpu-nvidia-vulkan.sh
source tools/gpu-nvidia-vulkan.sh
tools/gpu-opencl.sh headers
root=$PWD
mkdir -p "$OUT/p" /etc/OpenCL/vendors /tmp/p
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
echo "suite,subtest,implementation,rc,wall,user,sys" > "$OUT/p/times.csv"
for t in "$@"; do
  suite=${t%%/*} sub=${t#*/}
  dir=$root/.gpu-cts/test_conformance/$suite
  exe=$(find "$dir" -maxdepth 1 -type f -name 'test_*' | head -1)
  for impl in vkcl nvidia; do
    rm -rf /tmp/samples; mkdir -p /tmp/samples
    (
      cd "$dir"
      export LD_LIBRARY_PATH=$root/.gpu-cts/lib
      if [[ $impl == vkcl ]]; then
        eval "$("$root/tools/gpu-opencl.sh" env)"
        export VKCL_SAMPLES=/tmp/samples/s LD_PRELOAD=$root/.gpu-icd/lib/libvkcl-sampler.so
      else
        unset OCL_ICD_VENDORS
      fi
      args=(); [[ $suite == math_brute_force || $suite == conversions ]] && args=(-w)
      TIMEFORMAT="%R,%U,%S"
      log=/tmp/p/$suite.$sub.$impl.log
      { time timeout "$limit" "$exe" "${args[@]}" "$sub" > "$log" 2>&1; echo "rc=$?" >> "$log"; } 2> /tmp/time.txt
      rc=$(sed -n 's/^rc=//p' "$log")
      echo "$suite,$sub,$impl,$rc,$(tail -1 /tmp/time.txt)" >> "$OUT/p/times.csv"
    )
    [[ $impl == vkcl ]] && mkdir -p "/tmp/p/$suite.$sub" && mv /tmp/samples "/tmp/p/$suite.$sub/"
  done
  tail -2 "$OUT/p/times.csv"
done
tar czf "$OUT/p.tgz" -C /tmp p
