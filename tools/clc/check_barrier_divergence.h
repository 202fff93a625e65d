// A warning for barriers that only part of a work-group (or sub-group) may
// reach, found statically on the LLVM module once everything is inlined into
// the kernels and optimized, before the CFG is structurized.
//
// OpenCL C (barrier, work_group_barrier, sub_group_barrier): "If barrier is
// inside a conditional statement, then all work-items must enter the
// conditional if any work-item enters the conditional statement and executes
// the barrier" — otherwise the behaviour is undefined; on a GPU it usually
// hangs. The check is small and conservative: a barrier (a
// __spirv_ControlBarrier call with Workgroup or Subgroup execution scope) is
// reported when it is control-dependent, directly or through enclosing
// branches, on a branch whose condition is computed, through SSA values only
// (arithmetic, comparisons, casts, selects, phis, calls of builtins), from a
// work-item identifier that differs within the barrier's group:
// get_local_id, get_global_id, get_local_linear_id, get_global_linear_id,
// get_sub_group_local_id, and for work-group barriers get_sub_group_id too.
// A loop whose trip count depends on one, and an early `return` taken by some
// work-items only, count. Values that pass through memory are not followed,
// so a barrier under a condition read from a buffer is never reported.
//
// It warns, never errors: the condition may still be uniform at run time
// (`if (get_local_id(0) < get_local_size(0))`, a work-group of one
// work-item), and the specification leaves such programs undefined only when
// the work-items actually disagree.
#pragma once

#include <string>
#include <string_view>

namespace llvm {
class Module;
}

namespace vkcl {

// clang-style warnings ("file:line:col: warning: ...", notes for the branch
// and for the helper functions inlined in between), one per barrier call;
// empty when there is nothing to report. `file_name` names locations the
// module's debug info does not.
std::string warn_divergent_barriers(const llvm::Module& module, std::string_view file_name);

}  // namespace vkcl
