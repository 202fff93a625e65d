// bound_work_item_dimensions: a work-item function called with a dimension
// index outside 0..2 returns what OpenCL C 6.15.1 says it returns: 1 for
// get_global_size, get_local_size, get_enqueued_local_size and
// get_num_groups, 0 for get_global_id, get_local_id, get_group_id and
// get_global_offset.
//
// The translator turns each call into an extract from a three-component
// BuiltIn vector, which is undefined (OpVectorExtractDynamic) or invalid
// (OpCompositeExtract) past component 2. So, on the optimized module before
// the translator, a call whose index is a constant above 2 becomes that
// constant, and a call whose index is not a constant becomes
// select(index < 3, call, constant). Calls with indices 0..2 stay as they
// are. The dimensions get_work_dim() reports below 3 need nothing: the host
// dispatches them with size 1, id 0 and offset 0.
#pragma once

namespace llvm {
class Module;
}

namespace vkcl {

void bound_work_item_dimensions(llvm::Module& module);

}  // namespace vkcl
