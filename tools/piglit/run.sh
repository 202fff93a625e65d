#!/usr/bin/env bash
# Runs piglit's OpenCL tests (Debian's piglit package) against one OpenCL
# ICD: every program test under tests/cl/program/execute through
# cl-program-tester, and every cl-api-* and cl-custom-* program. Counts
# each sub-test's result, prints a table and the failures, and exits 1 when
# a test fails or skips that tools/piglit/expected-skips.txt does not name
# (each line there gives its reason). A listed test that passes is printed,
# not failed: some depend on the host (lavapipe's denormals).
#
#   tools/piglit/run.sh [ICD library] [results file]
#
# The library defaults to build/api/opencl/libvkcl-opencl.so; with
# OCL_ICD_VENDORS naming exactly one library, Debian's ocl-icd loader shows
# the tests only that platform. PIGLIT_FILTER (an extended regular
# expression) picks tests by path. Each test has PIGLIT_TIMEOUT seconds
# (default 300).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
library=$(realpath "${1:-$root/build/api/opencl/libvkcl-opencl.so}")
results=${2:-$(mktemp)}
piglit=/usr/lib/x86_64-linux-gnu/piglit
expected=$root/tools/piglit/expected-skips.txt
timeout_s=${PIGLIT_TIMEOUT:-300}

if [[ ! -x $piglit/bin/cl-program-tester ]]; then
  echo "piglit is not installed (apt-get install piglit)" >&2
  exit 2
fi
export OCL_ICD_VENDORS=$library

tests=()
for t in "$piglit"/tests/cl/program/execute/*.cl "$piglit"/tests/cl/program/execute/*.program_test; do
  tests+=("program:$t")
done
for t in "$piglit"/bin/cl-api-* "$piglit"/bin/cl-custom-*; do
  tests+=("binary:$t")
done

: >"$results"
for entry in "${tests[@]}"; do
  kind=${entry%%:*}
  path=${entry#*:}
  name=${path#"$piglit"/}
  [[ -n ${PIGLIT_FILTER:-} && ! $name =~ $PIGLIT_FILTER ]] && continue
  # .cl files that a .program_test of the same name configures are run by it.
  if [[ $kind == program && $path == *.cl && -e ${path%.cl}.program_test ]]; then continue; fi
  if [[ $kind == program ]]; then
    output=$(cd "$(dirname "$path")" && timeout "$timeout_s" "$piglit/bin/cl-program-tester" "$path" 2>&1)
  else
    output=$(timeout "$timeout_s" "$path" 2>&1)
  fi
  status=$?
  # One line a sub-test: NAME<TAB>RESULT; a test without sub-tests counts once.
  subtests=$(grep -o '"subtest": {"[^"]*" : "[a-z]*"' <<<"$output" | sed -E 's/"subtest": \{"(.*)" : "([a-z]*)"/\1\t\2/')
  overall=$(grep -o '"result": "[a-z]*"' <<<"$output" | tail -1 | sed -E 's/.*"([a-z]*)"$/\1/')
  if [[ $status -eq 124 ]]; then overall=timeout; elif [[ -z $overall ]]; then overall=crash; fi
  if [[ -n $subtests && ($overall == pass || $overall == fail || $overall == warn) ]]; then
    while IFS=$'\t' read -r sub result; do printf '%s\t%s\t%s\n' "$name" "$sub" "$result"; done <<<"$subtests" >>"$results"
    # A failure outside every sub-test (a build error) still counts.
    if [[ $overall == fail ]] && ! grep -q $'\tfail$' <<<"$subtests"; then
      printf '%s\t%s\t%s\n' "$name" "-" fail >>"$results"
    fi
  else
    printf '%s\t%s\t%s\n' "$name" "-" "$overall" >>"$results"
  fi
  if [[ $overall != pass && $overall != skip && $overall != warn ]]; then
    echo "== $name: $overall"
    grep -vE '^PIGLIT: \{"subtest"' <<<"$output" | grep -iE 'error|fail|expect|mismatch|CL_' | head -8
  fi
done

pass=$(grep -c $'\tpass$' "$results")
fail=$(grep -cvE $'\t(pass|skip|warn)$' "$results")
skip=$(grep -c $'\tskip$' "$results")
echo "piglit OpenCL: $pass passed, $fail failed, $skip skipped (results: $results)"

# Against the expected skips: TEST<TAB>REASON, one a line; '#' comments.
status=0
unexpected=$(awk -F'\t' -v list="$expected" '
  BEGIN { while ((getline line < list) > 0) if (line !~ /^#/ && line != "") { split(line, f, "\t"); known[f[1]] = 1 } }
  $3 != "pass" && !($1 in known) { print "unexpected " $3 ": " $1 " (" $2 ")" }' "$results")
if [[ -n $unexpected ]]; then
  echo "$unexpected"
  status=1
fi
gone=$(awk -F'\t' -v list="$expected" '
  BEGIN { while ((getline line < list) > 0) if (line !~ /^#/ && line != "") { split(line, f, "\t"); known[f[1]] = 1 } }
  { seen[$1] = 1; if ($3 != "pass") bad[$1] = 1 }
  END { for (t in known) if ((t in seen) && !(t in bad)) print "listed as skipped but passes now: " t }' "$results")
[[ -n $gone ]] && echo "$gone"
exit $status
