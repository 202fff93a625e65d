#!/usr/bin/env bash
# Runs CTS suites at once on the device tool's GPU machine, one process per
# sub-test, each suite limited to LIMIT seconds; results (CSV, summaries and
# a tarball of the logs) go to $OUT/r. From the repository root there, with
# .gl (the NVIDIA Vulkan loader and glvnd packages), .gpu-icd
# (tools/gpu-opencl-bundle.sh) and .gpu-cts (tools/cts/bundle.sh's bundle,
# copied) carried, after a first call that ran `tools/gpu-opencl.sh unpack`
# with .gpu-llvm (the machine is given back after 30 s idle, so the second
# call must follow at once; docs/opencl.md, "The Khronos CTS, second pass").
#   tools/cts/gpu-suites.sh LIMIT SUITE...
#   WITH_TESTS=1   also the OpenCL API tests and the CLBlast client (tools/gpu-opencl.sh tests)
#   CHECK_EXIT=1   first check that a CTS process and vkcl_opencl_exit_after_compile exit at
#                  once, and stop if not (an exit hang makes every sub-test run out of time)
set -u
limit=$1; shift
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
tools/gpu-opencl.sh headers
eval "$(tools/gpu-opencl.sh env)"
root=$PWD
mkdir -p "$OUT/r"
if [[ ${WITH_TESTS:-0} == 1 ]]; then
  tools/gpu-opencl.sh tests > "$OUT/r/api-tests.txt" 2>&1 &
fi
if [[ ${CHECK_EXIT:-0} == 1 ]]; then
  start=$(date +%s)
  ( cd /tmp && time timeout 60 "$root/.gpu-cts/test_conformance/api/test_api" binary_get
    time timeout 60 "$root/.gpu-icd/tests/vkcl_opencl_exit_after_compile"; echo "exit=$?" ) > "$OUT/r/exit-check.txt" 2>&1
  tail -12 "$OUT/r/exit-check.txt"
  if (( $(date +%s) - start > 30 )); then echo "exit check too slow" >&2; exit 1; fi
fi
for s in "$@"; do
  timeout -k 10 $((limit + 30)) env TIMEOUT_conversions="$limit" TIMEOUT_math_brute_force="$limit" \
    .gpu-cts/run.sh --suites --split "$s" --out "/tmp/r/$s" --timeout "$limit" > "/tmp/r-$s.log" 2>&1 &
done
wait
for s in "$@"; do
  mkdir -p "$OUT/r/$s"
  cp "/tmp/r/$s/"*.csv "/tmp/r/$s/summary.md" "$OUT/r/$s/" 2>/dev/null
  cp "/tmp/r-$s.log" "$OUT/r/$s/run.log"
done
tar czf "$OUT/logs.tgz" -C /tmp r 2>/dev/null
cat /tmp/r/*/suites.csv 2>/dev/null | sort -u
