#!/usr/bin/env bash
# Pack the OpenCL-CTS test binaries built by build.sh, run.sh and everything
# they need at run time into one directory (stripped, <= MAX_MIB) that can be
# copied to another x86-64 Linux machine (e.g. a GPU machine with Ubuntu
# 24.04) and run there with no build step.
#
# Usage:
#   bundle.sh [BUILD_DIR] [OUT_DIR]
#
# Inputs (argument or environment; defaults in brackets):
#   BUILD_DIR    build dir of build.sh                       [$WORK/build]
#   OUT_DIR      bundle dir, replaced if it exists           [$WORK/bundle]
#   WORK                                                      [/tmp/cts]
#   SUITES       suite directories to pack        [every suite with a binary]
#   MAX_MIB      fail if the bundle is larger                 [40]
#   TARBALL=1    also write OUT_DIR.tar.gz
#
# Layout of the bundle (it is a valid BUILD_DIR for run.sh, which defaults to
# its own directory when it sits next to test_conformance/):
#   run.sh                          this directory's run.sh
#   README.md                       how to run, what was packed (generated)
#   MANIFEST                        CTS commit, versions, sha256 of each file
#   lib/libOpenCL.so.1              Debian 12's ocl-icd 2.3.1 ICD loader
#   test_conformance/<suite>/test_* stripped test binaries
#   test_conformance/spirv_new/spirv_bin/    spirv_new's SPIR-V inputs
#   test_conformance/compiler/{spirv_bin,includeTestDirectory,secondIncludeTestDirectory}
#   offline-compiler.sh             run.sh's offline compiler for
#                                   CTS_COMPILATION_MODE=spir-v
#   offline/bin/{clang-15,llvm-spirv-15,spirv-val}   Debian 12's, stripped
#   offline/lib/clang/15.0.6/include/opencl-c-base.h  (clang's resource dir,
#                                   found relative to offline/bin/clang-15)
#
# The spir-v compilation mode (run.sh, CTS_COMPILATION_MODE=spir-v) compiles
# each kernel on the target with offline-compiler.sh: run.sh puts offline/bin
# first on PATH. clang-15 and llvm-spirv-15 need LLVM 15's shared libraries
# (libclang-cpp.so.15, libLLVM-15.so.1, libLLVMSPIRVLib.so.15, libz3, ...),
# the same set vkcl-compile-worker needs, so they are not packed: on the GPU
# machine tools/gpu-opencl.sh unpack puts them in /opt/vkcl-llvm and
# tools/gpu-opencl.sh env puts that on LD_LIBRARY_PATH. spirv-val needs only
# libstdc++. OFFLINE=0 leaves offline/ out.
#
# Why lib/libOpenCL.so.1: every CTS binary has DT_NEEDED libOpenCL.so.1 (the
# ICD loader), and a machine with only a vendor driver (NVIDIA's
# libnvidia-opencl.so.1 is an ICD, not a loader) may not have one. run.sh puts
# lib/ first on LD_LIBRARY_PATH (CTS_SYSTEM_LIBOPENCL=1 opts out), so the
# loader's behaviour is the known ocl-icd 2.3.1 one everywhere: select the ICD
# with OCL_ICD_VENDORS. Running a binary by hand needs
#   LD_LIBRARY_PATH=<bundle>/lib OCL_ICD_VENDORS=... <bundle>/test_conformance/basic/test_basic
# The loader depends only on libc (glibc >= 2.34); the test binaries need
# glibc >= 2.34 and a libstdc++ with GLIBCXX_3.4.29 (gcc >= 11), which Ubuntu
# 24.04 has (glibc 2.39, gcc 14).
set -u -o pipefail

WORK=${WORK:-/tmp/cts}
BUILD_DIR=${1:-${BUILD_DIR:-$WORK/build}}
OUT_DIR=${2:-${OUT_DIR:-$WORK/bundle}}
MAX_MIB=${MAX_MIB:-40}
HERE=$(cd "$(dirname "$0")" && pwd)

log() { echo "[bundle.sh] $*" >&2; }
die() { log "ERROR: $*"; exit 2; }

TC=$BUILD_DIR/test_conformance
[ -d "$TC" ] || die "no $TC (run build.sh first)"
case "$(readlink -f "$OUT_DIR")" in
  /|"$(readlink -f "$BUILD_DIR")"|"$(readlink -f "$BUILD_DIR")"/*|"$HERE"|"$HERE"/*) die "refusing OUT_DIR=$OUT_DIR" ;;
esac

exe_for() {
  case "$1" in
    SVM) echo "$TC/SVM/test_svm" ;;
    math_brute_force) echo "$TC/math_brute_force/test_bruteforce" ;;
    multiple_device_context) echo "$TC/multiple_device_context/test_multiples" ;;
    *) echo "$TC/$1/test_$1" ;;
  esac
}

if [ -z "${SUITES:-}" ]; then
  SUITES=""
  for d in "$TC"/*/; do s=$(basename "$d"); [ -x "$(exe_for "$s")" ] && SUITES="$SUITES $s"; done
fi
[ -n "${SUITES// /}" ] || die "no test binaries under $TC"

rm -rf "$OUT_DIR"
mkdir -p "$OUT_DIR/test_conformance" "$OUT_DIR/lib" || die "cannot create $OUT_DIR"

# 1. suites: the binary plus whatever the build put next to it at build time
#    (spirv_bin, include dirs), without CMake/ninja files.
for s in $SUITES; do
  exe=$(exe_for "$s")
  [ -x "$exe" ] || { log "WARNING: $s not built, skipped"; continue; }
  dst=$OUT_DIR/test_conformance/$s
  mkdir -p "$dst"
  ( cd "$TC/$s" && find . -mindepth 1 -maxdepth 1 \
      ! -name CMakeFiles ! -name '*.cmake' ! -name Makefile ! -name '*.ninja' \
      ! -name spirv_asm ! -name 'spirv_asm_list.txt' ! -name '*.def' \
      -exec cp -a {} "$dst/" \; )
  find "$dst" -name CMakeFiles -type d -prune -exec rm -rf {} +
  find "$dst" -type f -perm -u+x -exec sh -c 'file -b "$1" | grep -q ELF && strip --strip-unneeded "$1"' _ {} \;
  log "packed $s ($(du -sh "$dst" | cut -f1))"
done
if [ -d "$OUT_DIR/test_conformance/spirv_new" ]; then
  n=$(ls "$OUT_DIR/test_conformance/spirv_new/spirv_bin" 2>/dev/null | wc -l)
  [ "$n" -gt 0 ] || die "spirv_new has no spirv_bin/ (build.sh generates it with spirv-as)"
  log "spirv_new: $n SPIR-V binaries"
fi

# 2. the ICD loader the binaries were linked against (ocl-icd)
loader=$(readlink -f "$(ldd "$(exe_for "${SUITES%% *}" | head -1)" 2>/dev/null | awk '/libOpenCL.so.1/{print $3}')" 2>/dev/null)
[ -f "$loader" ] || loader=$(readlink -f /usr/lib/x86_64-linux-gnu/libOpenCL.so.1)
[ -f "$loader" ] || die "no libOpenCL.so.1 found to bundle"
cp "$loader" "$OUT_DIR/lib/libOpenCL.so.1"
strip --strip-unneeded "$OUT_DIR/lib/libOpenCL.so.1"
[ -f /usr/share/doc/ocl-icd-libopencl1/copyright ] && cp /usr/share/doc/ocl-icd-libopencl1/copyright "$OUT_DIR/lib/ocl-icd.copyright"
loader_ver=$(dpkg-query -W -f='${Package} ${Version}' ocl-icd-libopencl1 2>/dev/null || echo unknown)

# 3. scripts and docs
cp "$HERE/run.sh" "$OUT_DIR/run.sh"
cp "$HERE/offline-compiler.sh" "$OUT_DIR/offline-compiler.sh"
chmod +x "$OUT_DIR/run.sh" "$OUT_DIR/offline-compiler.sh"
offline_note="no offline compiler packed (OFFLINE=0 or missing tools): spir-v mode needs clang-15, llvm-spirv-15 and spirv-val on PATH"
if [ "${OFFLINE:-1}" = 1 ]; then
  clang_bin=$(readlink -f "$(command -v clang-15 2>/dev/null)" 2>/dev/null)
  spv_bin=$(readlink -f "$(command -v llvm-spirv-15 2>/dev/null)" 2>/dev/null)
  val_bin=$(readlink -f "$(command -v spirv-val 2>/dev/null)" 2>/dev/null)
  res=$([ -x "$clang_bin" ] && "$clang_bin" -print-resource-dir 2>/dev/null)
  if [ -x "$clang_bin" ] && [ -x "$spv_bin" ] && [ -x "$val_bin" ] && [ -f "$res/include/opencl-c-base.h" ]; then
    mkdir -p "$OUT_DIR/offline/bin" "$OUT_DIR/offline/lib/clang/$(basename "$res")/include"
    strip --strip-unneeded -o "$OUT_DIR/offline/bin/clang-15" "$clang_bin"
    strip --strip-unneeded -o "$OUT_DIR/offline/bin/llvm-spirv-15" "$spv_bin"
    strip --strip-unneeded -o "$OUT_DIR/offline/bin/spirv-val" "$val_bin"
    cp "$res/include/opencl-c-base.h" "$OUT_DIR/offline/lib/clang/$(basename "$res")/include/"
    offline_note="offline/: clang-15 ($(dpkg-query -W -f='${Version}' clang-15 2>/dev/null)), llvm-spirv-15 ($(dpkg-query -W -f='${Version}' llvm-spirv-15 2>/dev/null)), spirv-val ($(dpkg-query -W -f='${Version}' spirv-tools 2>/dev/null))"
    log "packed offline compiler ($(du -sh "$OUT_DIR/offline" | cut -f1))"
  else
    log "WARNING: clang-15, llvm-spirv-15, spirv-val or opencl-c-base.h missing: no offline/ (spir-v mode needs them on the target's PATH)"
  fi
fi
SRC=$(dirname "$BUILD_DIR")/src
cts_commit=$(git -C "$SRC" rev-parse HEAD 2>/dev/null || echo unknown)
cts_desc=$(git -C "$SRC" describe --tags --always 2>/dev/null || echo unknown)
cts_local=$(for p in "$HERE"/patches/*.patch; do
  [ -f "$p" ] && git -C "$SRC" apply --reverse --check "$p" 2>/dev/null && printf ' %s' "$(basename "$p")"; done)
cat > "$OUT_DIR/README.md" <<EOF
# OpenCL-CTS bundle (vkcl tools/cts/bundle.sh)

Built $(date -u +%Y-%m-%d) on $(. /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-?}"), $(gcc -dumpfullversion 2>/dev/null | sed 's/^/gcc /').
KhronosGroup/OpenCL-CTS $cts_commit ($cts_desc)${cts_local:+, with tools/cts/patches:$cts_local}.
Suites:$(for s in $SUITES; do printf ' %s' "$s"; done).
ICD loader in lib/: $loader_ver (ocl-icd; copyright in lib/ocl-icd.copyright).
The CTS is Apache-2.0 (https://github.com/KhronosGroup/OpenCL-CTS).

Run (from anywhere; run.sh uses this directory as its build dir and puts
lib/ first on LD_LIBRARY_PATH):

    # the ICD under test: a directory of .icd files, one .icd file, or the .so
    export OCL_ICD_VENDORS=/path/to/dir-with-icd-files
    ./run.sh --suites basic api --out /tmp/cts-results        # whole suites
    ./run.sh --suites --split subgroups                         # one process per sub-test
    ./run.sh --suites 'math_brute_force:sin,cos'                 # some sub-tests
    ./run.sh --help

Results: /tmp/cts-results/{suites.csv,tests.csv,summary.md} and one log per
CTS process. conversions and math_brute_force run in wimpy mode (-w) by
default; spirv_new reads test_conformance/spirv_new/spirv_bin.

By hand: LD_LIBRARY_PATH=\$PWD/lib OCL_ICD_VENDORS=... test_conformance/basic/test_basic --list

SPIR-V compilation mode (each kernel compiled offline by offline-compiler.sh
and loaded with clCreateProgramWithIL):

    CTS_COMPILATION_MODE=spir-v ./run.sh --suites --split basic --out /tmp/cts-spirv

$offline_note. clang-15 and llvm-spirv-15 need LLVM 15's
shared libraries (libclang-cpp.so.15, libLLVM-15.so.1, libLLVMSPIRVLib.so.15
and their dependencies) on LD_LIBRARY_PATH, the set vkcl's compile worker
needs (vkcl's tools/gpu-opencl.sh unpack and env).
EOF

( cd "$OUT_DIR" && {
    echo "cts_commit $cts_commit"
    echo "cts_describe $cts_desc"
    echo "loader $loader_ver"
    echo "built $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "suites$(for s in $SUITES; do printf ' %s' "$s"; done)"
    echo
    find . -type f ! -name MANIFEST | sort | xargs sha256sum
  } > MANIFEST )

# 4. check: no binary needs a library that isn't bundled or in the usual
#    system set, and the size limit
bad=$(find "$OUT_DIR/test_conformance" -type f -perm -u+x -exec sh -c 'file -b "$1" | grep -q ELF && readelf -d "$1" | sed -n "s/.*NEEDED.*\[\(.*\)\]/\1/p"' _ {} \; | sort -u \
      | grep -v -E '^(libOpenCL\.so\.1|libstdc\+\+\.so\.6|libm\.so\.6|libgcc_s\.so\.1|libc\.so\.6|libpthread\.so\.0|libdl\.so\.2|ld-linux-x86-64\.so\.2)$')
[ -z "$bad" ] || log "WARNING: binaries also need: $bad"
kib=$(du -sk "$OUT_DIR" | cut -f1)
log "bundle: $OUT_DIR, $((kib / 1024)) MiB ($kib KiB), $(find "$OUT_DIR" -type f | wc -l) files"
[ "$kib" -le $((MAX_MIB * 1024)) ] || die "bundle is over $MAX_MIB MiB"
if [ "${TARBALL:-0}" = 1 ]; then
  tar -C "$(dirname "$OUT_DIR")" -czf "$OUT_DIR.tar.gz" "$(basename "$OUT_DIR")" || die "tar failed"
  log "tarball: $OUT_DIR.tar.gz ($(du -h "$OUT_DIR.tar.gz" | cut -f1))"
fi
exit 0
