#!/usr/bin/env bash
# Merge the results of several run.sh invocations (each --out DIR holds
# suites.csv, tests.csv) into one suites.csv, tests.csv and summary.md.
#
# Usage: merge.sh OUT_DIR RESULT_DIR...
# A suite that appears in more than one RESULT_DIR keeps its last row.
set -u -o pipefail
[ $# -ge 2 ] || { echo "usage: $0 OUT_DIR RESULT_DIR..." >&2; exit 2; }
out=$1; shift
mkdir -p "$out"
tmp_s=$(mktemp); tmp_t=$(mktemp); trap 'rm -f "$tmp_s" "$tmp_t"' EXIT
device=""
for d in "$@"; do
  [ -f "$d/suites.csv" ] || { echo "skipping $d (no suites.csv)" >&2; continue; }
  tail -n +2 "$d/suites.csv" >> "$tmp_s"
  [ -f "$d/tests.csv" ] && tail -n +2 "$d/tests.csv" >> "$tmp_t"
  [ -z "$device" ] && [ -f "$d/summary.md" ] && device=$(sed -n 's/^Device: //p' "$d/summary.md" | head -1)
done
# last row per suite wins, first-seen order kept
awk -F, '{ if (!($1 in row)) order[++n] = $1; row[$1] = $0 } END { for (i = 1; i <= n; i++) print row[order[i]] }' "$tmp_s" > "$tmp_s.u"
{ echo "suite,passed,failed,skipped,notrun,seconds,status"; cat "$tmp_s.u"; } > "$out/suites.csv"
{ echo "suite,subtest,result,seconds,note"; cat "$tmp_t"; } > "$out/tests.csv"
{
  echo "OpenCL-CTS results (merged from $# runs)"
  echo
  echo "Device: ${device:-unknown}"
  echo
  echo "| suite | passed | failed | skipped | not run | seconds | status |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
  awk -F, '{ printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7
             p += $2; f += $3; s += $4; n += $5; t += $6 }
           END { printf "| **total** | %d | %d | %d | %d | %.0f | |\n", p, f, s, n, t }' "$tmp_s.u"
} > "$out/summary.md"
rm -f "$tmp_s.u"
cat "$out/summary.md"
