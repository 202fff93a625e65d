#!/usr/bin/env bash
# Cracks known hashes with Debian's hashcat through one OpenCL ICD, as a
# user would: each mode's kernels (hashcat's own OpenCL C, shared.cl among
# them) are compiled by the platform, hashcat's self-test of the kernel
# runs first, and the password must come back. Exits 1 on any difference.
#
#   tools/hashcat/crack.sh [ICD library] [mode ...]
#
# The modes default to 0 (MD5), 100 (SHA1) and 1400 (SHA-256); each takes
# one to two minutes on lavapipe, most of it the kernels' compilation.
# Kernels are cached in a temporary HOME of its own, so every run compiles.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
library=$(realpath "${1:-$root/build/api/opencl/libvkcl-opencl.so}")
shift || true
modes=("$@")
[[ ${#modes[@]} -eq 0 ]] && modes=(0 100 1400)
if ! command -v hashcat >/dev/null; then
  echo "hashcat is not installed (apt-get install hashcat)" >&2
  exit 2
fi
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export OCL_ICD_VENDORS=$library HOME=$home XDG_DATA_HOME=$home XDG_CACHE_HOME=$home
password=vkc
status=0
for mode in "${modes[@]}"; do
  case $mode in
    0) hash=$(printf %s "$password" | md5sum | cut -d' ' -f1) ;;
    100) hash=$(printf %s "$password" | sha1sum | cut -d' ' -f1) ;;
    1400) hash=$(printf %s "$password" | sha256sum | cut -d' ' -f1) ;;
    1700) hash=$(printf %s "$password" | sha512sum | cut -d' ' -f1) ;;
    *) echo "mode $mode: no reference hash here" >&2; exit 2 ;;
  esac
  out=$(cd "$home" && timeout 1200 hashcat -m "$mode" -a 3 --potfile-disable --quiet "$hash" '?l?l?l' 2>&1)
  rc=$?
  if [[ $rc -eq 0 && $out == *"$hash:$password"* ]]; then
    echo "mode $mode: cracked $hash"
  else
    echo "mode $mode: FAILED (exit $rc)"
    echo "$out" | tail -20
    status=1
  fi
done
exit $status
