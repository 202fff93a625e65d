#!/usr/bin/env bash
# Runs CTS suites at once on the device tool's GPU machine, one process per
# sub-test, each suite limited to LIMIT seconds; results (CSV, summaries and
# a tarball of the logs) go to $OUT/r. From the repository root there, with
# .gl (the NVIDIA Vulkan loader and glvnd packages), .gpu-icd
# (tools/gpu-opencl-bundle.sh) and .gpu-cts (tools/cts/bundle.sh's bundle,
# copied) carried, after a first call that ran `tools/gpu-opencl.sh unpack`
# with .gpu-llvm (the machine is given back after 30 s idle, so the second
# call must follow at once; docs/opencl.md, "The Khronos CTS, second pass").
#   tools/cts/gpu-suites.sh LIMIT SUITE[:SUB,SUB...]...
#   WITH_TESTS=1   also the OpenCL API tests and the CLBlast client (tools/gpu-opencl.sh tests)
#   CHECK_EXIT=1   first check that a CTS process and vkcl_opencl_exit_after_compile exit at
#                  once, and stop if not (an exit hang makes every sub-test run out of time)
#   CTS_COMPILATION_MODE=spir-v  kernels compiled offline to SPIR-V (run.sh passes it on;
#                  the bundle's offline/ tools run with /opt/vkcl-llvm's libraries, which
#                  tools/gpu-opencl.sh env puts on LD_LIBRARY_PATH; tools/cts/README.md,
#                  "SPIR-V compilation mode")
#   SHARDS_<suite>=N  split that suite's sub-tests round-robin into N runs at once (the
#                  long ones, integer_ops, math_brute_force and c11_atomics, are compile-
#                  bound: one at a time they outlast a call); merged into one row after
set -u
limit=$1; shift
# shellcheck source=tools/gpu-nvidia-vulkan.sh
source tools/gpu-nvidia-vulkan.sh
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
run_part() {  # NAME SPEC: one run.sh --suites --split over SPEC (SUITE or SUITE:a,b,...)
  timeout -k 10 $((limit + 30)) env TIMEOUT_conversions="$limit" TIMEOUT_math_brute_force="$limit" \
    .gpu-cts/run.sh --suites --split "$2" --out "/tmp/r/$1" --timeout "$limit" > "/tmp/r-$1.log" 2>&1 &
}
names=()
for spec in "$@"; do
  s=${spec%%:*}; names+=("$s")
  shards_var="SHARDS_$s"; shards=${!shards_var:-1}
  if (( shards > 1 )); then
    if [[ $spec == *:* ]]; then
      IFS=, read -ra subs <<< "${spec#*:}"
    else
      exe=$(find ".gpu-cts/test_conformance/$s" -maxdepth 1 -type f -name 'test_*' | head -1)
      mapfile -t subs < <(cd "$(dirname "$exe")" && "./$(basename "$exe")" --list 2>/dev/null |
                          awk '/^\t[^ \t]+$/{sub(/^\t/,""); print}')
    fi
    for ((k = 0; k < shards; k++)); do
      part=""
      for ((j = k; j < ${#subs[@]}; j += shards)); do part+="${part:+,}${subs[j]}"; done
      [[ -n $part ]] && run_part "$s.part$k" "$s:$part"
    done
  else
    run_part "$s" "$spec"
  fi
done
wait
for s in "${names[@]}"; do
  shards_var="SHARDS_$s"; shards=${!shards_var:-1}
  if (( shards > 1 )); then  # one suite again: tests.csv joined, suites.csv summed, the worst status
    mkdir -p "/tmp/r/$s"
    { echo "suite,subtest,result,seconds,note"; cat /tmp/r/"$s".part*/tests.csv 2>/dev/null | grep -v '^suite,'; } > "/tmp/r/$s/tests.csv"
    { echo "suite,passed,failed,skipped,notrun,seconds,status"
      cat /tmp/r/"$s".part*/suites.csv 2>/dev/null | grep -v '^suite,' |
        awk -F, -v s="$s" '{p+=$2; f+=$3; k+=$4; n+=$5; if ($6 > t) t=$6
                            st = ($7 == "timeout" || st == "timeout") ? "timeout" : ($7 == "fail" || st == "fail") ? "fail" : $7}
                           END {printf "%s,%d,%d,%d,%d,%.1f,%s\n", s, p, f, k, n, t, st}'; } > "/tmp/r/$s/suites.csv"
    cat /tmp/r-"$s".part*.log > "/tmp/r-$s.log" 2>/dev/null
  fi
  mkdir -p "$OUT/r/$s"
  cp "/tmp/r/$s/"*.csv "/tmp/r/$s/summary.md" "$OUT/r/$s/" 2>/dev/null
  cp "/tmp/r-$s.log" "$OUT/r/$s/run.log"
done
tar czf "$OUT/logs.tgz" -C /tmp r 2>/dev/null
for s in "${names[@]}"; do tail -n +2 "/tmp/r/$s/suites.csv" 2>/dev/null; done
