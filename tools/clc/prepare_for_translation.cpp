#include "prepare_for_translation.h"

#include <algorithm>
#include <array>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <llvm/ADT/SCCIterator.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/Triple.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/CallGraph.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/Scalar/ADCE.h>
#include <llvm/Transforms/Scalar/InferAddressSpaces.h>
#include <llvm/Transforms/Scalar/InstSimplifyPass.h>
#include <llvm/Transforms/Scalar/SCCP.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Scalar/StructurizeCFG.h>
#include <llvm/Transforms/Utils/FixIrreducible.h>
#include <llvm/Transforms/Utils/LowerSwitch.h>
#include <llvm/Transforms/Utils/UnifyFunctionExitNodes.h>
#include <llvm/Transforms/Utils/UnifyLoopExits.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>

#include "check_barrier_divergence.h"
#include "check_local_memory.h"
#include "flatten_stepped_arrays.h"
#include "give_endless_loops_an_exit.h"
#include "llvm_transforms.h"
#include "opencl_std_calls.h"
#include "rejoin_if_else.h"
#include "source_locations.h"
#include "spir_address_spaces.h"
#include "unroll_barrier_loops.h"
#include "vkcl/builtins_bitcode.h"

namespace vkcl {
namespace {

bool is_kernel(const llvm::Function& function) {
  return function.getCallingConv() == llvm::CallingConv::SPIR_KERNEL;
}

std::string pretty_name(const llvm::Function& function) {
  if (const llvm::DISubprogram* subprogram = function.getSubprogram(); subprogram && !subprogram->getName().empty())
    return subprogram->getName().str();
  return std::string(base_name(function.getName()));
}

// Collected diagnostics, clang-style, each reported once.
class Diagnostics {
 public:
  void error(std::string where, std::string_view message, std::string_view notes = {}) {
    std::string line = std::move(where) + ": error: " + std::string(message) + "\n" + std::string(notes);
    if (seen_.insert(line).second) lines_.push_back(std::move(line));
  }
  void throw_if_any() const {
    if (lines_.empty()) return;
    std::string text;
    for (const std::string& line : lines_) text += line;
    text += std::to_string(lines_.size()) + (lines_.size() == 1 ? " error" : " errors") + " generated.\n";
    throw CompileError(text);
  }

 private:
  std::set<std::string> seen_;
  std::vector<std::string> lines_;
};

// ---------------------------------------------------------------------------
// Linking

void link_builtin_library(llvm::Module& module) {
  std::span<const std::byte> bytes = builtins_bitcode();
  llvm::MemoryBufferRef buffer(
      llvm::StringRef(reinterpret_cast<const char*>(bytes.data()), bytes.size()), "vkcl-builtins.bc");
  // Lazily: only the functions the kernel uses are read (LinkOnlyNeeded
  // materializes them), not the whole library on every compile.
  llvm::Expected<std::unique_ptr<llvm::Module>> builtins = llvm::getLazyBitcodeModule(buffer, module.getContext());
  if (!builtins) {
    throw CompileError("error: internal compiler error: cannot read the builtin library: " +
                       llvm::toString(builtins.takeError()) + "\n");
  }
  // The user's module says which OpenCL C version it is; the builtins
  // (compiled as OpenCL C 3.0) must not add a second, conflicting entry: the
  // translator aborts on "OCL version mismatch".
  for (const char* name : {"opencl.ocl.version", "opencl.spir.version", "opencl.used.extensions",
                           "opencl.used.optional.core.features", "opencl.compiler.options", "llvm.ident"}) {
    if (llvm::NamedMDNode* node = (*builtins)->getNamedMetadata(name)) (*builtins)->eraseNamedMetadata(node);
  }
  (*builtins)->setDataLayout(module.getDataLayout());
  (*builtins)->setTargetTriple(module.getTargetTriple());

  if (llvm::Linker::linkModules(module, std::move(*builtins), llvm::Linker::Flags::LinkOnlyNeeded)) {
    throw CompileError("error: internal compiler error: cannot link the builtin library\n");
  }
}

// ---------------------------------------------------------------------------
// Recursion: OpenCL C forbids it, and everything must inline into kernels.

void reject_recursion(llvm::Module& module, std::string_view file_name) {
  Diagnostics diagnostics;
  llvm::CallGraph call_graph(module);
  for (auto scc = llvm::scc_begin(&call_graph); !scc.isAtEnd(); ++scc) {
    if (!scc.hasCycle()) continue;
    std::set<const llvm::Function*> members;
    for (const llvm::CallGraphNode* node : *scc) {
      if (node->getFunction() != nullptr) members.insert(node->getFunction());
    }
    for (const llvm::Function* function : members) {
      for (const llvm::Instruction& instruction : llvm::instructions(*function)) {
        const auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
        if (call == nullptr || !members.count(call->getCalledFunction())) continue;
        diagnostics.error(location_of(instruction, file_name),
                          "recursive call to '" + pretty_name(*call->getCalledFunction()) +
                              "': OpenCL C does not allow recursion");
      }
    }
  }
  diagnostics.throw_if_any();
}

// A kernel may call another kernel as an ordinary function. Kernels stay
// entry points, so such calls go to an internal non-kernel copy instead.
void redirect_calls_to_kernels(llvm::Module& module) {
  for (llvm::Function& kernel : module) {
    if (!is_kernel(kernel) || kernel.isDeclaration()) continue;
    std::vector<llvm::CallBase*> calls;
    for (llvm::User* user : kernel.users()) {
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(user); call && call->getCalledFunction() == &kernel)
        calls.push_back(call);
    }
    if (calls.empty()) continue;
    llvm::ValueToValueMapTy map;
    llvm::Function* copy = llvm::CloneFunction(&kernel, map);
    copy->setName(kernel.getName() + ".vkcl.callee");
    copy->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    copy->setLinkage(llvm::GlobalValue::InternalLinkage);
    copy->clearMetadata();
    if (llvm::DISubprogram* subprogram = kernel.getSubprogram()) copy->setSubprogram(subprogram);
    for (llvm::CallBase* call : calls) {
      call->setCalledFunction(copy);
      call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    }
  }
}

// Everything but a kernel is internal and always inlined.
void internalize_and_mark_inline(llvm::Module& module) {
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    function.removeFnAttr(llvm::Attribute::OptimizeNone);
    if (is_kernel(function)) continue;
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
    function.setVisibility(llvm::GlobalValue::DefaultVisibility);
    function.removeFnAttr(llvm::Attribute::NoInline);
    function.addFnAttr(llvm::Attribute::AlwaysInline);
  }
  // Calls to functions without a body stay where the user wrote them: the
  // optimizer must not sink `barrier(A)` and `barrier(B)` from the two arms
  // of an if into one __spirv_ControlBarrier(phi(A, B)), which would turn
  // constant flags into a non-constant one, nor merge the call sites that
  // check_calls names in diagnostics.
  for (llvm::Function& function : module) {
    if (function.isDeclaration() && !function.isIntrinsic()) function.addFnAttr(llvm::Attribute::NoMerge);
  }
  for (llvm::GlobalVariable& variable : module.globals()) {
    if (variable.isDeclaration() || variable.hasLocalLinkage() || variable.getName().startswith("llvm.")) continue;
    variable.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
}

// ---------------------------------------------------------------------------
// Generic pointers

// builtins/atomics.cl asks this function which memory a generic pointer
// points to; it has no definition.
constexpr llvm::StringLiteral kMemoryOfPointer = "__vkcl_memory_of_pointer";

// Adds to `spaces` the named address spaces `pointer` may have been cast to
// the generic address space from, looking through bitcasts, GEPs, phis and
// selects; false when some path starts anywhere else (a load, an argument).
bool collect_named_address_spaces(const llvm::Value* pointer, std::set<const llvm::Value*>& visited,
                                  std::set<unsigned>& spaces) {
  while (true) {
    if (!visited.insert(pointer).second) return true;  // a cycle through a phi adds nothing
    if (pointer->getType()->getPointerAddressSpace() != kGenericAddressSpace) {
      spaces.insert(pointer->getType()->getPointerAddressSpace());
      return true;
    }
    if (const auto* cast = llvm::dyn_cast<llvm::AddrSpaceCastOperator>(pointer)) {
      pointer = cast->getPointerOperand();
    } else if (const auto* bitcast = llvm::dyn_cast<llvm::BitCastOperator>(pointer)) {
      pointer = bitcast->getOperand(0);
    } else if (const auto* gep = llvm::dyn_cast<llvm::GEPOperator>(pointer)) {
      pointer = gep->getPointerOperand();
    } else if (const auto* phi = llvm::dyn_cast<llvm::PHINode>(pointer)) {
      for (const llvm::Value* incoming : phi->incoming_values())
        if (!collect_named_address_spaces(incoming, visited, spaces)) return false;
      return true;
    } else if (const auto* select = llvm::dyn_cast<llvm::SelectInst>(pointer)) {
      return collect_named_address_spaces(select->getTrueValue(), visited, spaces) &&
             collect_named_address_spaces(select->getFalseValue(), visited, spaces);
    } else {
      return false;
    }
  }
}

// Replaces each call to __vkcl_memory_of_pointer(p) whose pointer comes from
// one named address space with that space as fence flags
// (CLK_GLOBAL_MEM_FENCE 2, CLK_LOCAL_MEM_FENCE 1, else 0), so that the
// builtin's branch for the other space folds away. Runs once everything is
// inlined and SROA has removed the allocas of -O0 code; calls it cannot
// resolve stay, and check_calls reports them.
struct ResolveMemoryOfPointerPass : llvm::PassInfoMixin<ResolveMemoryOfPointerPass> {
  llvm::PreservedAnalyses run(llvm::Module& module, llvm::ModuleAnalysisManager&) {
    llvm::Function* query = module.getFunction(kMemoryOfPointer);
    if (query == nullptr) return llvm::PreservedAnalyses::all();
    bool changed = false;
    for (llvm::User* user : llvm::make_early_inc_range(query->users())) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(user);
      if (call == nullptr || call->getCalledFunction() != query) continue;
      std::set<const llvm::Value*> visited;
      std::set<unsigned> spaces;
      if (!collect_named_address_spaces(call->getArgOperand(0), visited, spaces) || spaces.size() != 1) continue;
      const unsigned space = *spaces.begin();
      const uint64_t flags = space == kGlobalAddressSpace ? 2 : space == kLocalAddressSpace ? 1 : 0;
      call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), flags));
      call->eraseFromParent();
      changed = true;
    }
    return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
  }
};

// Runs flatten_stepped_arrays (its header says why before the optimizer).
struct GiveEndlessLoopsAnExitPass : llvm::PassInfoMixin<GiveEndlessLoopsAnExitPass> {
  llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses) {
    const bool changed = give_endless_loops_an_exit(function, analyses.getResult<llvm::LoopAnalysis>(function));
    return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
  }
};

struct FlattenSteppedArraysPass : llvm::PassInfoMixin<FlattenSteppedArraysPass> {
  llvm::PreservedAnalyses run(llvm::Module& module, llvm::ModuleAnalysisManager&) {
    return flatten_stepped_arrays(module) > 0 ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
  }
};

// ---------------------------------------------------------------------------
// Optimization

// Returns the warnings of the checks that need the optimized CFG before
// structurization (warn_divergent_barriers).
std::string optimize(llvm::Module& module, bool full_optimization, std::string_view file_name) {
  llvm::PipelineTuningOptions tuning;
  // Vectors the user did not write would only reach the lowering as pointer
  // casts to vector types; keep the module scalar where the source is.
  tuning.LoopVectorization = false;
  tuning.SLPVectorization = false;
  tuning.LoopInterleaving = false;

  llvm::LoopAnalysisManager loop_analyses;
  llvm::FunctionAnalysisManager function_analyses;
  llvm::CGSCCAnalysisManager cgscc_analyses;
  llvm::ModuleAnalysisManager module_analyses;
  llvm::PassBuilder builder(nullptr, tuning);

  // No C library on a GPU: printf must not become puts, nor loops memset.
  llvm::TargetLibraryInfoImpl library_info(llvm::Triple(module.getTargetTriple()));
  library_info.disableAllFunctions();
  function_analyses.registerPass([&] { return llvm::TargetLibraryAnalysis(library_info); });
  // Loops with barriers fully unrolled up to a GPU-sized threshold.
  register_barrier_loop_unrolling(function_analyses);

  builder.registerModuleAnalyses(module_analyses);
  builder.registerCGSCCAnalyses(cgscc_analyses);
  builder.registerFunctionAnalyses(function_analyses);
  builder.registerLoopAnalyses(loop_analyses);
  builder.crossRegisterProxies(loop_analyses, function_analyses, cgscc_analyses, module_analyses);

  llvm::ModulePassManager passes;
  passes.addPass(llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
  // Generic pointers: the atomic builtins' address-space queries answered,
  // then every access through a generic pointer whose address space is known
  // rewritten to that space (the lowering has no Generic storage class).
  // clang's -O0 code keeps pointers in allocas, hence SROA first.
  passes.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::SROAPass()));
  passes.addPass(ResolveMemoryOfPointerPass());
  passes.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::InferAddressSpacesPass(kGenericAddressSpace)));
  // Before instcombine folds a pointer's steps into an array's indices.
  passes.addPass(FlattenSteppedArraysPass());
  if (full_optimization) {
    passes.addPass(builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2));
  } else {
    // What the translator and the lowering need even at -O0: no allocas for
    // scalars, builtin arguments folded to constants, dead branches (the
    // builtins' checks of constant arguments) gone.
    llvm::FunctionPassManager function_passes;
    function_passes.addPass(llvm::SROAPass());
    function_passes.addPass(llvm::SCCPPass());
    function_passes.addPass(llvm::InstSimplifyPass());
    function_passes.addPass(llvm::SimplifyCFGPass());
    function_passes.addPass(llvm::ADCEPass());
    passes.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(function_passes)));
  }
  // Once the atomic builtins' branches for the other address space are gone,
  // their casts back from the generic address space cancel clang's.
  passes.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::InferAddressSpacesPass(kGenericAddressSpace)));
  passes.addPass(llvm::GlobalDCEPass());
  passes.run(module, module_analyses);

  // Before structurization, whose flow blocks would hide which branch
  // decides whether a barrier runs.
  std::string warnings = warn_divergent_barriers(module, file_name);

  // The shape spirv/structurize_control_flow expects (it adds the merge
  // instructions Shader modules need): no switches, one return, reducible,
  // every loop a do-while that exits only from its latch, and none without
  // an exit. Nothing may simplify the CFG after this but rejoin_if_else,
  // which keeps that shape.
  llvm::FunctionPassManager structurize;
  structurize.addPass(GiveEndlessLoopsAnExitPass());
  structurize.addPass(llvm::LowerSwitchPass());
  structurize.addPass(llvm::UnifyFunctionExitNodesPass());
  structurize.addPass(llvm::FixIrreduciblePass());
  structurize.addPass(llvm::UnifyLoopExitsPass());
  structurize.addPass(llvm::StructurizeCFGPass());
  llvm::ModulePassManager structurize_passes;
  structurize_passes.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(structurize)));
  structurize_passes.run(module, module_analyses);
  for (llvm::Function& function : module)
    if (!function.isDeclaration()) rejoin_if_else(function);
  return warnings;
}

void remove_lifetime_markers(llvm::Module& module) {
  std::vector<llvm::Instruction*> markers;
  for (llvm::Function& function : module) {
    for (llvm::Instruction& instruction : llvm::instructions(function)) {
      if (auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction); intrinsic && intrinsic->isLifetimeStartOrEnd())
        markers.push_back(intrinsic);
    }
  }
  for (llvm::Instruction* marker : markers) {
    llvm::Value* pointer = marker->getOperand(1);
    marker->eraseFromParent();
    llvm::RecursivelyDeleteTriviallyDeadInstructions(pointer);
  }
  for (llvm::Function& function : llvm::make_early_inc_range(module)) {
    if (function.isIntrinsic() && function.use_empty() &&
        (function.getIntrinsicID() == llvm::Intrinsic::lifetime_start ||
         function.getIntrinsicID() == llvm::Intrinsic::lifetime_end))
      function.eraseFromParent();
  }
}

// ---------------------------------------------------------------------------
// Kernel arguments of OpenCL's opaque types

// What is wrong with a kernel argument of the opaque type clang names
// `opencl.<name>` (images, samplers, pipes, queues, events); empty if nothing.
std::string opaque_argument_problem(llvm::StringRef name) {
  if (name.startswith("opencl.image")) return "images are not supported";
  if (name.startswith("opencl.sampler")) return "samplers are not supported (images are not)";
  if (name.startswith("opencl.pipe")) return "pipes are not supported";
  if (name.startswith("opencl.queue") || name.startswith("opencl.clk_event") || name.startswith("opencl.reserve_id"))
    return "device-side enqueue is not supported";
  return "arguments of type '" + name.drop_front(sizeof("opencl.") - 1).str() + "' are not supported";
}

// After check_calls, which names the call of a builtin that uses such an
// argument; an argument the kernel never uses would otherwise reach the
// lowering, which has no layout for these types.
void check_kernel_arguments(const llvm::Module& module, std::string_view file_name) {
  Diagnostics diagnostics;
  for (const llvm::Function& kernel : module) {
    if (!is_kernel(kernel) || kernel.isDeclaration()) continue;
    const llvm::MDNode* types = kernel.getMetadata("kernel_arg_type");
    std::string where(file_name);
    if (const llvm::DISubprogram* subprogram = kernel.getSubprogram(); subprogram && subprogram->getLine() != 0)
      where = (subprogram->getFilename().empty() ? std::string(file_name) : subprogram->getFilename().str()) + ":" +
              std::to_string(subprogram->getLine());
    for (const llvm::Argument& argument : kernel.args()) {
      auto* pointer = llvm::dyn_cast<llvm::PointerType>(argument.getType());
      if (pointer == nullptr || pointer->isOpaque()) continue;
      auto* opaque = llvm::dyn_cast<llvm::StructType>(pointer->getNonOpaquePointerElementType());
      if (opaque == nullptr || !opaque->hasName() || !opaque->getName().startswith("opencl.")) continue;
      std::string type = opaque->getName().drop_front(sizeof("opencl.") - 1).str();
      if (types != nullptr && argument.getArgNo() < types->getNumOperands())
        if (const auto* text = llvm::dyn_cast<llvm::MDString>(types->getOperand(argument.getArgNo())))
          type = text->getString().str();
      if (opaque->getName().startswith("opencl.pipe")) type = "pipe " + type;  // the metadata names the packet type
      const std::string name = argument.hasName() ? "'" + argument.getName().str() + "' " : std::string();
      diagnostics.error(where, opaque_argument_problem(opaque->getName()) + ": argument " +
                                   std::to_string(argument.getArgNo()) + " " + name + "of kernel '" +
                                   kernel.getName().str() + "' has type " + type);
    }
  }
  diagnostics.throw_if_any();
}

// prefetch() only hints that memory will be read soon and has no effect a
// program can observe (OpenCL C 6.15.11); Vulkan has no counterpart.
void remove_prefetches(llvm::Module& module) {
  for (llvm::Function& function : module) {
    if (!function.isDeclaration() || base_name(function.getName()) != "prefetch") continue;
    for (llvm::User* user : llvm::make_early_inc_range(function.users()))
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(user); call && call->getCalledFunction() == &function)
        call->eraseFromParent();
  }
}

// ---------------------------------------------------------------------------
// Checks before debug info goes

bool is_barrier_intrinsic(llvm::StringRef name) {
  return name.contains("__spirv_ControlBarrier") || name.contains("__spirv_MemoryBarrier");
}

// The scope and semantics arguments of a __spirv_Atomic* call (builtins/atomics.cl):
// (pointer, scope, semantics[, unequal semantics], values...).
std::vector<unsigned> atomic_synchronization_arguments(llvm::StringRef name) {
  if (!name.contains("__spirv_Atomic")) return {};
  if (name.contains("__spirv_AtomicCompareExchange")) return {1, 2, 3};
  return {1, 2};
}

// OpenCL C builtins vkcl's library does not define that SPIRV-LLVM-Translator
// lowers itself (to SPIR-V instructions, BuiltIn variables or OpenCL.std
// extended instructions, which spirv/ lowers or rejects): matched on the
// source name, so every overload of a listed name is allowed. Anything else
// without a definition is a compile error at its call site.
constexpr std::array kTranslatorBuiltins = {
    // Work-item functions (OpenCL C 6.15.1) and sub-group queries.
    "get_work_dim", "get_global_size", "get_global_id", "get_local_size", "get_enqueued_local_size",
    "get_local_id", "get_num_groups", "get_group_id", "get_global_offset", "get_global_linear_id",
    "get_local_linear_id", "get_sub_group_size", "get_max_sub_group_size", "get_num_sub_groups",
    "get_enqueued_num_sub_groups", "get_sub_group_id", "get_sub_group_local_id",
    // Math (6.15.2).
    "acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atan2", "atanh", "atanpi", "atan2pi", "cbrt",
    "ceil", "copysign", "cos", "cosh", "cospi", "erfc", "erf", "exp", "exp2", "exp10", "expm1", "fabs", "fdim",
    "floor", "fma", "fmax", "fmin", "fmod", "fract", "frexp", "hypot", "ilogb", "ldexp", "lgamma", "lgamma_r",
    "log", "log2", "log10", "log1p", "logb", "mad", "maxmag", "minmag", "modf", "nan", "nextafter", "pow", "pown",
    "powr", "remainder", "remquo", "rint", "rootn", "round", "rsqrt", "sin", "sincos", "sinh", "sinpi", "sqrt",
    "tan", "tanh", "tanpi", "tgamma", "trunc",
    // Integer (6.15.3), common (6.15.4), geometric (6.15.5).
    "abs", "abs_diff", "add_sat", "hadd", "rhadd", "clamp", "clz", "ctz", "mad_hi", "mad_sat", "max", "min",
    "mul_hi", "rotate", "sub_sat", "upsample", "popcount", "mad24", "mul24", "degrees", "mix", "radians", "step",
    "smoothstep", "sign", "cross", "dot", "distance", "length", "normalize", "fast_distance", "fast_length",
    "fast_normalize",
    // Relational (6.15.6).
    "isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal", "islessgreater", "isfinite",
    "isinf", "isnan", "isnormal", "isordered", "isunordered", "signbit", "any", "all", "bitselect", "select",
    // Miscellaneous vector, async copies, address-space queries.
    "shuffle", "shuffle2", "prefetch", "wait_group_events", "async_work_group_copy",
    "async_work_group_strided_copy", "__to_global", "__to_local", "__to_private", "get_fence",
};
// Not atomic_ and atom_: builtins/ defines every atomic vkcl supports, and
// the translator's own mapping of the rest is wrong for Vulkan.
constexpr std::array kTranslatorBuiltinPrefixes = {
    "native_", "half_", "convert_", "vload", "vstore", "sub_group_",
};

// Why a call to an undefined function cannot be compiled; empty when the
// translator handles it.
std::string unresolved_call_problem(llvm::StringRef mangled) {
  const std::string_view name = base_name(std::string_view(mangled.data(), mangled.size()));
  const llvm::StringRef ref(name.data(), name.size());
  if (ref.startswith("__spirv_")) return {};
  if (ref.startswith("__vkcl_error_")) {
    // builtins/ calls these for argument values the specification leaves
    // undefined; optimization removed every call whose arguments are valid.
    if (ref == "__vkcl_error_invalid_fence_flags")
      return "invalid cl_mem_fence_flags value: only CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE and "
             "CLK_IMAGE_MEM_FENCE may be combined";
    if (ref == "__vkcl_error_invalid_memory_scope") return "invalid or unsupported memory_scope value";
    if (ref == "__vkcl_error_invalid_memory_order") return "invalid memory_order value";
    if (ref == "__vkcl_error_work_item_scope_needs_image_fence_only")
      return "memory_scope_work_item is only valid in atomic_work_item_fence with flags CLK_IMAGE_MEM_FENCE alone";
    if (ref == "__vkcl_error_image_fence_barrier_needs_work_group_scope")
      return "work_group_barrier with CLK_IMAGE_MEM_FENCE needs memory_scope_work_group";
    if (ref == "__vkcl_error_atomic_needs_global_or_local_memory")
      return "atomic functions need an object in __global or __local memory, not __private";
    if (ref == "__vkcl_error_invalid_order_for_atomic_load")
      return "invalid memory_order for an atomic load: memory_order_release and memory_order_acq_rel are not allowed";
    if (ref == "__vkcl_error_invalid_order_for_atomic_store")
      return "invalid memory_order for an atomic store or atomic_flag_clear: memory_order_acquire and "
             "memory_order_acq_rel are not allowed";
    if (ref == "__vkcl_error_invalid_failure_order")
      return "invalid failure memory_order for atomic_compare_exchange: memory_order_release and "
             "memory_order_acq_rel are not allowed";
    if (ref == "__vkcl_error_float_compare_exchange_on_local_memory")
      return "float and double compare-exchange on __local memory is not supported (Vulkan has no float "
             "compare-exchange; on __global memory it acts on the bits, and __local loads, stores and exchanges work)";
    if (ref == "__vkcl_error_failure_order_stronger_than_success")
      return "invalid failure memory_order for atomic_compare_exchange: it may not be stronger than the success "
             "memory_order";
    return "invalid builtin argument (" + ref.drop_front(sizeof("__vkcl_error_") - 1).str() + ")";
  }
  if (ref == "printf") return "printf is not supported";
  if (ref.startswith("__enqueue_kernel") || ref.startswith("__get_kernel_") || ref == "get_default_queue" ||
      ref.startswith("ndrange_") || ref.endswith("_event") || ref == "set_user_event_status" ||
      ref == "capture_event_profiling_info")
    return "device-side enqueue is not supported ('" +
           (ref.startswith("__enqueue_kernel") ? std::string("enqueue_kernel") : ref.str()) + "')";
  if (ref.contains("_pipe")) return "pipes are not supported";
  if (ref.startswith("read_image") || ref.startswith("write_image") || ref.startswith("get_image_") ||
      ref == "__translate_sampler_initializer")
    return "images are not supported ('" + ref.str() + "')";
  if (ref.startswith("work_group_"))  // work_group_barrier is defined in builtins/, so never unresolved
    return "work-group collective functions ('" + ref.str() + "') are not supported yet";
  // cl_khr_subgroups' collectives (the translator's OpGroup* need the Kernel
  // Groups capability); sub_group_barrier is defined in builtins/.
  if (ref == "sub_group_all" || ref == "sub_group_any" || ref == "sub_group_broadcast" ||
      ref.startswith("sub_group_reduce_") || ref.startswith("sub_group_scan_"))
    return "sub-group collective functions ('" + ref.str() + "') are not supported yet";
  if (ref.startswith("async_work_group_") || ref == "wait_group_events")
    return "asynchronous copies ('" + ref.str() + "') are not supported yet";
  if (ref.startswith("atomic_") || ref.startswith("atom_"))  // builtins/atomics.cl defines the supported ones
    return "'" + ref.str() +
           "' is not supported for these argument types: vkcl's atomics take int, uint, long or ulong objects "
           "(and float or double for load, store, exchange and compare-exchange)";
  for (const char* allowed : kTranslatorBuiltins) {
    if (ref == allowed) return {};
  }
  for (const char* prefix : kTranslatorBuiltinPrefixes) {
    if (ref.startswith(prefix)) return {};
  }
  return "'" + ref.str() + "' is not supported: it is neither defined in the program nor an OpenCL C builtin vkcl provides";
}

void check_calls(llvm::Module& module, std::string_view file_name) {
  Diagnostics barrier_diagnostics;
  Diagnostics call_diagnostics;
  for (llvm::Function& function : module) {
    for (llvm::Instruction& instruction : llvm::instructions(function)) {
      auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
      if (call == nullptr) continue;
      const llvm::Function* callee = call->getCalledFunction();
      if (callee == nullptr) {
        if (!call->isInlineAsm()) call_diagnostics.error(location_of(instruction, file_name), "indirect calls are not supported");
        else call_diagnostics.error(location_of(instruction, file_name), "inline assembly is not supported");
        continue;
      }
      if (callee->isIntrinsic() || !callee->isDeclaration()) continue;
      if (callee->getName() == kMemoryOfPointer) {
        barrier_diagnostics.error(
            location_of(instruction, file_name),
            "the object of an atomic function must be in __global or __local memory known at compile time; "
            "this generic pointer may point to either",
            inlining_notes(instruction, file_name));
        continue;
      }
      if (const std::vector<unsigned> operands = atomic_synchronization_arguments(callee->getName()); !operands.empty()) {
        for (unsigned index : operands) {
          if (!llvm::isa<llvm::ConstantInt>(call->getArgOperand(index))) {
            barrier_diagnostics.error(location_of(instruction, file_name),
                                      "atomic memory order and memory scope must be compile-time constants",
                                      inlining_notes(instruction, file_name));
            break;
          }
        }
        continue;
      }
      if (is_barrier_intrinsic(callee->getName())) {
        for (const llvm::Use& argument : call->args()) {
          if (!llvm::isa<llvm::ConstantInt>(argument.get())) {
            barrier_diagnostics.error(
                location_of(instruction, file_name),
                "barrier/fence flags, memory order and memory scope must be compile-time constants",
                inlining_notes(instruction, file_name));
            break;
          }
        }
        continue;
      }
      std::string problem = unresolved_call_problem(callee->getName());
      // A builtin the translator makes an OpenCL.std instruction of, which
      // spirv/lower_opencl_std would reject where no location is left.
      if (problem.empty()) problem = opencl_std_call_problem(*call);
      if (!problem.empty())
        call_diagnostics.error(location_of(instruction, file_name), problem, inlining_notes(instruction, file_name));
    }
  }
  // A non-constant flag also leaves the builtins' validity checks reachable;
  // the constant rule is the one to report (and an unresolved address space
  // leaves both of an atomic's branches).
  barrier_diagnostics.throw_if_any();
  call_diagnostics.throw_if_any();
}

}  // namespace

PreparationReport prepare_for_translation(llvm::Module& module, std::string_view file_name, const CompileOptions& options,
                         std::string& warnings) {
  if (std::none_of(module.begin(), module.end(),
                   [](const llvm::Function& function) { return is_kernel(function) && !function.isDeclaration(); })) {
    // A Vulkan module needs an entry point.
    throw CompileError(std::string(file_name) + ": error: no kernel to compile: the program defines no __kernel function\n");
  }
  link_builtin_library(module);
  reject_recursion(module, file_name);
  redirect_calls_to_kernels(module);
  internalize_and_mark_inline(module);
  warnings += optimize(module, options.optimize, file_name);
  PreparationReport report;
  remove_lifetime_markers(module);
  remove_prefetches(module);
  std::vector<const LlvmTransform*> transforms;
  for (const LlvmTransform& transform : llvm_transforms()) transforms.push_back(&transform);
  run_llvm_transforms(module, transforms, file_name);
  check_calls(module, file_name);
  check_kernel_arguments(module, file_name);
  report.static_local_memory = check_static_local_memory(module, file_name);
  llvm::StripDebugInfo(module);

  std::string problems;
  llvm::raw_string_ostream problems_stream(problems);
  if (llvm::verifyModule(module, &problems_stream)) {
    problems_stream.flush();
    throw CompileError(std::string(file_name) + ": error: internal compiler error: invalid LLVM IR after linking builtins: " + problems);
  }
  return report;
}

}  // namespace vkcl
