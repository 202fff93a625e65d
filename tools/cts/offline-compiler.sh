#!/usr/bin/env bash
# Offline compiler for the OpenCL-CTS's `--compilation-mode spir-v`: compiles
# one kernel's OpenCL C to SPIR-V with Debian's clang-15 and llvm-spirv-15,
# for the device the CTS describes. run.sh passes it as --compilation-program
# when CTS_COMPILATION_MODE=spir-v (README.md, "SPIR-V compilation mode").
#
# Why: in spir-v mode the harness (test_common/harness/kernelHelpers.cpp)
# writes each kernel to <cache>/<name><crc>.cl, runs
#   PROG --mode=spir-v --source=F.cl --output=F.spv64 --cl-device-info=INFO \
#        [-- BUILD OPTIONS...]
# through system() (so the build options arrive shell-split), validates the
# output with spirv-val and loads it with clCreateProgramWithIL, then builds
# it with the same options. The CTS ships no such compiler (its default name
# 'cl_offline_compiler' is only an interface:
# test_common/harness/cl_offline_compiler-interface.txt). `--opt FILE` (space
# instead of '=') is accepted too.
#
# What it does:
#   clang-15 -target spir|spir64 (CL_DEVICE_ADDRESS_BITS) -cl-std=<from the
#     build options; else the highest OpenCL C 1.x of CL_DEVICE_VERSION>
#     -Xclang -finclude-default-header -Xclang -fdeclare-opencl-builtins
#     -Xclang -cl-ext=-all,+<device extensions>,+<OpenCL C features>
#     -include <macro fix-up header> <build options> -emit-llvm -c
#   llvm-spirv-15 --spirv-max-version=<highest of CL_DEVICE_IL_VERSION, <= 1.4>
#     --spirv-ext=-all,+<SPV extensions the device's cl_khr_spirv_* allow>
#     --preserve-ocl-kernel-arg-type-metadata-through-string
# The fix-up header: clang 15's opencl-c-base.h defines, for the SPIR target,
# extension and feature macros whatever -cl-ext says (cl_khr_subgroup_*,
# cl_khr_integer_dot_product, cl_ext_float_atomics' __opencl_c_ext_*, and for
# CL3.0 __opencl_c_atomic_order_seq_cst, __opencl_c_atomic_scope_all_devices,
# __opencl_c_read_write_images, __opencl_c_work_group_collective_functions);
# clang 15 has no __undef_<macro> switch, so a header included after it
# #undefs each language macro the device lacks and #defines each it has,
# so that kernels see what an online compile for the device would show;
# likewise __IMAGE_SUPPORT__, which clang 15 defines for every SPIR target
# (InitPreprocessor.cpp), by CL_DEVICE_IMAGE_SUPPORT.
#
# The OpenCL C features (CL_DEVICE_OPENCL_C_FEATURES) are not in the CTS's
# device-info file. They come from, in order:
#   CTS_OPENCL_C_FEATURES   space/comma separated __opencl_c_* names
#   a query of the device (python3 + ctypes on libOpenCL.so.1, the device whose
#     CL_DEVICE_NAME and CL_DEVICE_VERSION match the info file; cached next to
#     the info file as INFO.features)
#   else: __opencl_c_int64, plus what the extensions imply (fp64, images,
#     3d_image_writes, subgroups)
# The same header routes the work-item functions (get_global_size, ...)
# through a dimindx range check that llvm-spirv 15 omits (see below).
# Build options clang does not take and that only matter to the runtime
# (-cl-no-subgroup-ifp, -create-library, -enable-link-options, -x spir,
# -spir-std=...) are dropped; the CTS hands them to clBuildProgram anyway.
#
# clang optimizes as it does by default for OpenCL (-O2; -cl-opt-disable in
# the options: -O0). Its optimizer may merge identical non-uniform sub-group
# calls of both arms of an if into one before the if (LLVM's `convergent`
# allows removing control dependences), which changes what they return:
# OFFLINE_CC_FLAGS="-O0 -Xclang -disable-O0-optnone" hands vkcl unoptimized
# code instead.
#
# Environment: CLANG [clang-15], LLVM_SPIRV [llvm-spirv-15], OFFLINE_CC_FLAGS
# (extra clang words, before the build options), OFFLINE_KEEP=1 (keep F.bc and
# F.fixup.h next to the output). Exit status 0 iff the output was written.
set -u -o pipefail

CLANG=${CLANG:-clang-15}
LLVM_SPIRV=${LLVM_SPIRV:-llvm-spirv-15}
me=offline-compiler.sh
die() { echo "$me: $*" >&2; exit 1; }

src="" out="" info="" mode=""
while [ $# -gt 0 ]; do
  case "$1" in
    --source=*) src=${1#*=} ;;
    --output=*) out=${1#*=} ;;
    --cl-device-info=*) info=${1#*=} ;;
    --mode=*) mode=${1#*=} ;;
    --source|--output|--cl-device-info|--mode)
      [ $# -ge 2 ] || die "$1 needs a value"
      case "$1" in --source) src=$2 ;; --output) out=$2 ;; --cl-device-info) info=$2 ;; --mode) mode=$2 ;; esac
      shift ;;
    --) shift; break ;;
    *) die "unknown argument '$1' (usage: --source=F --output=F --cl-device-info=F --mode=spir-v [-- BUILD_OPTIONS])" ;;
  esac
  shift
done
opts=("$@")
[ "$mode" = spir-v ] || die "only --mode=spir-v is supported (got '$mode')"
[ -f "$src" ] || die "no source file '$src'"
[ -n "$out" ] || die "no --output"
[ -f "$info" ] || die "no device info file '$info'"

# KEY=VALUE or KEY="VALUE" lines (not sourced: the name is arbitrary text)
info_get() { sed -n "s/^$1=//p" "$info" | head -1 | sed 's/^"\(.*\)"$/\1/'; }
addr_bits=$(info_get CL_DEVICE_ADDRESS_BITS)
exts=" $(info_get CL_DEVICE_EXTENSIONS | tr -s ' ' ' ') "
il_versions=$(info_get CL_DEVICE_IL_VERSION)
dev_version=$(info_get CL_DEVICE_VERSION)
image_support=$(info_get CL_DEVICE_IMAGE_SUPPORT)
dev_name=$(info_get CL_DEVICE_NAME)
has_ext() { [[ $exts == *" $1 "* ]]; }

case "$addr_bits" in 32) triple=spir ;; 64) triple=spir64 ;; *) die "CL_DEVICE_ADDRESS_BITS='$addr_bits'" ;; esac

# SPIR-V version: the highest SPIR-V_x.y the device takes, at most 1.4
# (llvm-spirv 15's maximum)
spv_ver=$(grep -oE 'SPIR-V_[0-9]+\.[0-9]+' <<< "$il_versions" | sed 's/SPIR-V_//' | sort -t. -k1,1n -k2,2n | tail -1)
[ -n "$spv_ver" ] || die "the device reports no SPIR-V IL version ('$il_versions')"
if awk -v v="$spv_ver" 'BEGIN{split(v,a,"."); exit !(a[1] > 1 || (a[1] == 1 && a[2] > 4))}'; then spv_ver=1.4; fi

# ---- OpenCL C features
features=""
if [ -n "${CTS_OPENCL_C_FEATURES+x}" ]; then
  features=$(tr ',' ' ' <<< "$CTS_OPENCL_C_FEATURES")
else
  fcache=$info.features
  if [ -s "$fcache" ]; then
    features=$(cat "$fcache")
  elif command -v python3 >/dev/null 2>&1; then
    # cl_name_version: cl_version (uint32) + char name[64]
    features=$(WANT_NAME=$dev_name WANT_VERSION=$dev_version python3 - <<'EOF' 2>/dev/null
import ctypes, os, sys
cl = ctypes.CDLL("libOpenCL.so.1")
u = ctypes.c_uint
def info(dev, param):
    n = ctypes.c_size_t()
    if cl.clGetDeviceInfo(dev, u(param), ctypes.c_size_t(0), None, ctypes.byref(n)) != 0:
        return None
    buf = ctypes.create_string_buffer(n.value)
    if cl.clGetDeviceInfo(dev, u(param), n, buf, None) != 0:
        return None
    return buf.raw
np_ = u()
if cl.clGetPlatformIDs(u(0), None, ctypes.byref(np_)) != 0 or np_.value == 0:
    sys.exit(1)
plats = (ctypes.c_void_p * np_.value)()
cl.clGetPlatformIDs(np_, plats, None)
for p in plats:
    nd = u()
    if cl.clGetDeviceIDs(ctypes.c_void_p(p), ctypes.c_ulonglong(0xFFFFFFFF), u(0), None, ctypes.byref(nd)) != 0:
        continue
    devs = (ctypes.c_void_p * nd.value)()
    cl.clGetDeviceIDs(ctypes.c_void_p(p), ctypes.c_ulonglong(0xFFFFFFFF), nd, devs, None)
    for d in devs:
        d = ctypes.c_void_p(d)
        name = (info(d, 0x102B) or b"").rstrip(b"\0").decode(errors="replace")
        ver = (info(d, 0x102F) or b"").rstrip(b"\0").decode(errors="replace")
        if name != os.environ["WANT_NAME"] or ver != os.environ["WANT_VERSION"]:
            continue
        raw = info(d, 0x106F)  # CL_DEVICE_OPENCL_C_FEATURES
        if raw is None:
            sys.exit(1)
        names = [raw[i + 4:i + 68].split(b"\0")[0].decode() for i in range(0, len(raw) - 67, 68)]
        print(" ".join(names))
        sys.exit(0)
sys.exit(1)
EOF
    ) || features=""
    if [ -n "$features" ]; then
      tmp=$(mktemp "$fcache.XXXXXX") && echo "$features" > "$tmp" && mv -f "$tmp" "$fcache"
    fi
  fi
  if [ -z "$features" ]; then
    features="__opencl_c_int64"
    has_ext cl_khr_fp64 && features+=" __opencl_c_fp64"
    [ "$image_support" = 1 ] && features+=" __opencl_c_images"
    has_ext cl_khr_3d_image_writes && features+=" __opencl_c_3d_image_writes"
    has_ext cl_khr_subgroups && features+=" __opencl_c_subgroups"
  fi
fi
features=" $(tr -s ' ' ' ' <<< "$features") "
has_feat() { [[ $features == *" $1 "* ]]; }

# ---- build options: -cl-std, and what clang does not take
cl_std="" cc_opts=() skip_next=0
for o in "${opts[@]}"; do
  if [ $skip_next = 1 ]; then skip_next=0; continue; fi
  case "$o" in
    -cl-std=*) cl_std=${o#-cl-std=} ;;
    -cl-no-subgroup-ifp|-create-library|-enable-link-options|-spir-std=*) ;;
    -x) skip_next=1 ;;   # '-x spir' (SPIR 1.2 binaries)
    *) cc_opts+=("$o") ;;
  esac
done
if [ -z "$cl_std" ]; then
  # OpenCL: without -cl-std the highest OpenCL C 1.x the device supports
  case "$dev_version" in
    "OpenCL 1.0"*) cl_std=CL1.0 ;;
    "OpenCL 1.1"*) cl_std=CL1.1 ;;
    *) cl_std=CL1.2 ;;
  esac
fi

# ---- extension / feature macros the kernel must see
# Language extensions (macros), in the order of the CTS's
# test_compiler_defines_for_extensions.cpp; API-only extensions have none.
lang_exts="cl_khr_byte_addressable_store cl_khr_3d_image_writes cl_khr_fp16 cl_khr_fp64
cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics cl_khr_local_int32_base_atomics
cl_khr_local_int32_extended_atomics cl_khr_int64_base_atomics cl_khr_int64_extended_atomics
cl_khr_select_fprounding_mode cl_khr_depth_images cl_khr_gl_depth_images cl_khr_gl_msaa_sharing
cl_khr_device_enqueue_local_arg_types cl_khr_subgroups cl_khr_mipmap_image cl_khr_mipmap_image_writes
cl_khr_srgb_image_writes cl_khr_subgroup_named_barrier cl_khr_extended_async_copies
cl_khr_subgroup_extended_types cl_khr_subgroup_non_uniform_vote cl_khr_subgroup_ballot
cl_khr_subgroup_non_uniform_arithmetic cl_khr_subgroup_shuffle cl_khr_subgroup_shuffle_relative
cl_khr_subgroup_clustered_reduce cl_khr_extended_bit_ops cl_khr_integer_dot_product
cl_khr_subgroup_rotate cl_khr_kernel_clock cl_ext_float_atomics cl_khr_expect_assume"
all_features="__opencl_c_3d_image_writes __opencl_c_atomic_order_acq_rel __opencl_c_atomic_order_seq_cst
__opencl_c_atomic_scope_device __opencl_c_atomic_scope_all_devices __opencl_c_device_enqueue
__opencl_c_generic_address_space __opencl_c_fp64 __opencl_c_images __opencl_c_int64 __opencl_c_pipes
__opencl_c_program_scope_global_variables __opencl_c_read_write_images __opencl_c_subgroups
__opencl_c_work_group_collective_functions __opencl_c_integer_dot_product_input_4x8bit
__opencl_c_integer_dot_product_input_4x8bit_packed __opencl_c_kernel_clock_scope_device
__opencl_c_kernel_clock_scope_work_group __opencl_c_kernel_clock_scope_sub_group
__opencl_c_ext_fp16_global_atomic_load_store __opencl_c_ext_fp16_local_atomic_load_store
__opencl_c_ext_fp16_global_atomic_add __opencl_c_ext_fp16_local_atomic_add
__opencl_c_ext_fp16_global_atomic_min_max __opencl_c_ext_fp16_local_atomic_min_max
__opencl_c_ext_fp32_global_atomic_add __opencl_c_ext_fp32_local_atomic_add
__opencl_c_ext_fp32_global_atomic_min_max __opencl_c_ext_fp32_local_atomic_min_max
__opencl_c_ext_fp64_global_atomic_add __opencl_c_ext_fp64_local_atomic_add
__opencl_c_ext_fp64_global_atomic_min_max __opencl_c_ext_fp64_local_atomic_min_max"

cl_ext="-all"
for e in $exts; do cl_ext+=",+$e"; done
is30=0; [[ $cl_std == CL3.* || $cl_std == cl3.* ]] && is30=1
if [ $is30 = 1 ]; then for f in $features; do cl_ext+=",+$f"; done; fi

work=$(mktemp -d "${TMPDIR:-/tmp}/cts-offline.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$work"' EXIT
fix=$work/fixup.h
{
  echo "/* $me: extension/feature macros of the device (after opencl-c-base.h) */"
  for e in $lang_exts; do
    if has_ext "$e"; then echo "#ifndef $e"$'\n'"#define $e 1"$'\n'"#endif"; else echo "#undef $e"; fi
  done
  # clang defines __IMAGE_SUPPORT__ for every SPIR target
  if [ "$image_support" = 1 ]; then echo "#ifndef __IMAGE_SUPPORT__"$'\n'"#define __IMAGE_SUPPORT__ 1"$'\n'"#endif"; else echo "#undef __IMAGE_SUPPORT__"; fi
  # feature macros exist only in OpenCL C 3.0 (2.0 defines its own, all of them)
  if [ $is30 = 1 ]; then
    for f in $all_features; do
      if has_feat "$f"; then echo "#ifndef $f"$'\n'"#define $f 1"$'\n'"#endif"; else echo "#undef $f"; fi
    done
  fi
  # Work-item functions with an out-of-range dimindx must return 0 or 1
  # (OpenCL C 6.15.1); llvm-spirv 15 indexes the BuiltIn vectors without a
  # check (OpVectorExtractDynamic past the end, undefined; a constant index
  # past the end is invalid SPIR-V): SPIRV-LLVM-Translator issue 2638, fixed
  # by PR 3023 in 2025, not in Debian's 15.0.0. So route them through a range
  # check. OFFLINE_NO_WORKITEM_FIX=1 leaves them alone.
  if [ "${OFFLINE_NO_WORKITEM_FIX:-0}" != 1 ]; then
    wi="get_global_size:1 get_global_id:0 get_local_size:1 get_local_id:0 get_num_groups:1 get_group_id:0"
    [[ $cl_std != CL1.0 && $cl_std != cl1.0 ]] && wi+=" get_global_offset:0"
    [[ $cl_std == CL2.* || $cl_std == cl2.* || $is30 = 1 ]] && wi+=" get_enqueued_local_size:1"
    # OpenCL C 1.0 and 1.1 have no `static`; always_inline leaves no call to
    # the C99 inline definition there.
    storage="static inline"
    [[ $cl_std == CL1.0 || $cl_std == cl1.0 || $cl_std == CL1.1 || $cl_std == cl1.1 ]] && storage="inline"
    for fv in $wi; do
      f=${fv%:*} v=${fv#*:}
      echo "$storage size_t __attribute__((always_inline)) __cts_$f(uint d) { return d < 3u ? $f(d) : $v; }"
    done
    for fv in $wi; do f=${fv%:*}; echo "#define $f(d) __cts_$f(d)"; done
  fi
} > "$fix"

bc=$work/k.bc
# shellcheck disable=SC2206  # OFFLINE_CC_FLAGS: words, split on purpose
cmd=("$CLANG" -target "$triple" -x cl "-cl-std=$cl_std"
     -Xclang -finclude-default-header -Xclang -fdeclare-opencl-builtins
     -Xclang "-cl-ext=$cl_ext" -include "$fix" -Wno-unused-command-line-argument
     ${OFFLINE_CC_FLAGS:-} "${cc_opts[@]}" -emit-llvm -c -o "$bc" "$src")
"${cmd[@]}" || { echo "$me: failed: ${cmd[*]}" >&2; exit 1; }

spv_ext="-all"
has_ext cl_khr_spirv_no_integer_wrap_decoration && spv_ext+=",+SPV_KHR_no_integer_wrap_decoration"
has_ext cl_khr_spirv_linkonce_odr && spv_ext+=",+SPV_KHR_linkonce_odr"
has_ext cl_khr_integer_dot_product && spv_ext+=",+SPV_KHR_integer_dot_product"
has_ext cl_khr_expect_assume && spv_ext+=",+SPV_KHR_expect_assume"
has_ext cl_khr_subgroup_rotate && spv_ext+=",+SPV_KHR_subgroup_rotate"
has_ext cl_ext_float_atomics && spv_ext+=",+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max"
tmp_out=$work/k.spv
cmd2=("$LLVM_SPIRV" "--spirv-max-version=$spv_ver" "--spirv-ext=$spv_ext"
      --preserve-ocl-kernel-arg-type-metadata-through-string "$bc" -o "$tmp_out")
"${cmd2[@]}" || { echo "$me: failed: ${cmd2[*]}" >&2; exit 1; }
if [ "${OFFLINE_KEEP:-0}" = 1 ]; then cp "$bc" "${out%.*}.bc"; cp "$fix" "${out%.*}.fixup.h"; fi
# the harness may run several processes on one cache: publish atomically
cp "$tmp_out" "$out.tmp.$$" && mv -f "$out.tmp.$$" "$out" || die "cannot write $out"
exit 0
