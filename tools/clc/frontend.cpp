#include "frontend.h"

#include <algorithm>
#include <array>
#include <set>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

#ifndef VKCL_CLANG_RESOURCE_DIR
#error "VKCL_CLANG_RESOURCE_DIR must name clang's resource directory"
#endif

namespace vkcl {
namespace {

std::string_view cl_std_flag(OpenCLStd cl_std) {
  switch (cl_std) {
    case OpenCLStd::CL1_2:
      return "-cl-std=CL1.2";
    case OpenCLStd::CL2_0:
      return "-cl-std=CL2.0";
    case OpenCLStd::CL3_0:
      return "-cl-std=CL3.0";
  }
  return "-cl-std=CL1.2";
}

// The driver passes the input's base name.
std::string main_file_name(std::string_view file_name) {
  const size_t slash = file_name.rfind('/');
  return std::string(slash == std::string_view::npos ? file_name : file_name.substr(slash + 1));
}

// The real file system with the input headers laid over it in kInputHeaderDirectory.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> input_header_file_system(std::span<const InputHeader> headers,
                                                                          std::string_view file_name) {
  auto in_memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const InputHeader& header : headers) {
    auto refuse = [&](std::string_view why) {
      throw CompileError(std::string(file_name) + ": error: input header '" + header.name + "': " + std::string(why) +
                         "\n");
    };
    const llvm::StringRef name = header.name;
    if (name.empty()) refuse("the name is empty");
    if (llvm::sys::path::is_absolute(name)) refuse("the name must be relative");
    if (name.contains('\0')) refuse("the name contains a NUL character");
    for (auto part = llvm::sys::path::begin(name); part != llvm::sys::path::end(name); ++part)
      if (*part == "..") refuse("the name must not contain '..'");
    llvm::SmallString<128> path(kInputHeaderDirectory);
    llvm::sys::path::append(path, name);
    llvm::sys::path::remove_dots(path);
    if (in_memory->exists(path)) refuse("given twice");
    auto text = llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(header.text.data(), header.text.size()), path);
    if (!in_memory->addFile(path, /*ModificationTime=*/0, std::move(text)))
      refuse("it clashes with another input header's directory");
  }
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  overlay->pushOverlay(in_memory);
  return overlay;
}

// The extension and feature macros clang's opencl-c-base.h defines itself
// for every SPIR target (OpenCL C 2.0 and later), whatever -cl-ext says, and
// those clang defines from its target's list. An -cl-ext option that starts
// with -all says exactly which the device has: the rest are #undef'd after
// the default header (undefine_unlisted_macros), so that `#ifdef` agrees
// with the device. Their functions stay declared.
constexpr std::array kKnownMacros = {
    "cl_khr_subgroup_extended_types", "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate", "cl_khr_extended_bit_ops",
    "cl_khr_integer_dot_product", "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed", "cl_ext_float_atomics",
    "__opencl_c_ext_fp16_global_atomic_load_store", "__opencl_c_ext_fp16_local_atomic_load_store",
    "__opencl_c_ext_fp16_global_atomic_add", "__opencl_c_ext_fp16_local_atomic_add",
    "__opencl_c_ext_fp16_global_atomic_min_max", "__opencl_c_ext_fp16_local_atomic_min_max",
    "__opencl_c_ext_fp64_global_atomic_add", "__opencl_c_ext_fp64_local_atomic_add",
    "__opencl_c_ext_fp64_global_atomic_min_max", "__opencl_c_ext_fp64_local_atomic_min_max",
    "__opencl_c_ext_fp32_global_atomic_add", "__opencl_c_ext_fp32_local_atomic_add",
    "__opencl_c_ext_fp32_global_atomic_min_max", "__opencl_c_ext_fp32_local_atomic_min_max",
    "__opencl_c_work_group_collective_functions", "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices", "__opencl_c_read_write_images",
    "__opencl_c_atomic_order_acq_rel", "__opencl_c_generic_address_space", "__opencl_c_program_scope_global_variables",
    "__opencl_c_pipes", "__opencl_c_device_enqueue", "__opencl_c_images", "__opencl_c_3d_image_writes",
    "__opencl_c_subgroups", "__opencl_c_fp64", "__opencl_c_int64", "cl_khr_fp16", "cl_khr_fp64", "cl_khr_subgroups",
    "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics", "cl_khr_3d_image_writes", "cl_khr_depth_images",
    "cl_khr_mipmap_image", "cl_khr_mipmap_image_writes", "cl_khr_gl_msaa_sharing", "cl_khr_srgb_image_writes",
    "cl_intel_subgroups", "cl_intel_subgroups_short", "cl_intel_required_subgroup_size", "cl_amd_media_ops",
    "cl_amd_media_ops2", "cl_khr_byte_addressable_store", "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics", "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
};

// "#undef" lines for __IMAGE_SUPPORT__ and for the known macros the last
// "-cl-ext=-all,..." option among `frontend_options` does not enable.
std::string undefine_unlisted_macros(const std::vector<std::string>& frontend_options) {
  // clang defines __IMAGE_SUPPORT__ for SPIR targets; vkcl has no images.
  std::string text = "#undef __IMAGE_SUPPORT__\n";
  const auto last = std::find_if(frontend_options.rbegin(), frontend_options.rend(),
                                 [](const std::string& o) { return o.starts_with("-cl-ext=-all"); });
  if (last == frontend_options.rend()) return text;
  std::set<std::string, std::less<>> enabled;
  llvm::SmallVector<llvm::StringRef, 32> items;
  llvm::StringRef(*last).drop_front(sizeof("-cl-ext=") - 1).split(items, ',');
  for (llvm::StringRef item : items) {
    if (item.consume_front("+")) enabled.insert(item.str());
    else if (item.consume_front("-")) enabled.erase(item.str());
  }
  text += "// the macros this device does not have (-cl-ext=-all,...)\n";
  for (const char* name : kKnownMacros)
    if (!enabled.count(name)) text += std::string("#undef ") + name + "\n";
  return text;
}

// Where that text is, in memory; included after the default header.
constexpr const char* kUndefineHeader = "/vkcl-device-macros/undefine.h";

}  // namespace

std::vector<std::string> frontend_arguments(std::string_view file_name, const CompileOptions& options,
                                            bool with_input_headers) {
  // What `clang-15 -### -c -target spir64 -cl-std=... x.cl` runs, less the
  // assembler-output and working-directory flags, plus line tables.
  std::vector<std::string> args = {
      "-triple", "spir64",
      "-Wspir-compat",
      "-no-opaque-pointers",  // SPIRV-LLVM-Translator 15 needs typed pointers
      "-main-file-name", main_file_name(file_name),
      "-mrelocation-model", "static",
      "-mframe-pointer=all",
      "-fmath-errno",
      "-ffp-contract=on",
      "-fno-rounding-math",
      "-mconstructor-aliases",
      "-debug-info-kind=line-tables-only",  // columns are on by default
      "-dwarf-version=5",
      "-debugger-tuning=gdb",
      // Not the working directory: DIFile then keeps each path as clang's
      // diagnostics show it, so prepare_for_translation can name call sites the same way.
      "-fdebug-compilation-dir=.",
      "-resource-dir", VKCL_CLANG_RESOURCE_DIR,
      "-ferror-limit", "19",
      std::string(cl_std_flag(options.cl_std)),
      "-finclude-default-header",
      "-fdeclare-opencl-builtins",
      "-fgnuc-version=4.2.1",
      "-fno-threadsafe-statics",
      // Our own pipeline (prepare_for_translation) optimizes after linking the builtins.
      options.optimize ? "-O2" : "-O0",
      "-disable-O0-optnone",
      "-disable-llvm-passes",
  };
  // OpenCL C 3.0 makes features optional, and spir64 claims all of them.
  // vkcl advertises only what it can compile, so that a kernel testing
  // `#ifdef __opencl_c_pipes` takes its fallback path, and one that needs the
  // feature anyway gets clang's error at the use. Sub-groups, device and
  // all-devices scopes, acq_rel and seq_cst orders, int64, fp64 and
  // cl_khr_fp16 (each checked against the device at load time: a module
  // needing Float64 or Float16 is refused where the device lacks it) and the
  // generic address space stay.
  if (options.cl_std == OpenCLStd::CL3_0)
    args.push_back(
        "-cl-ext=-__opencl_c_pipes,-__opencl_c_device_enqueue,-__opencl_c_images,-__opencl_c_read_write_images,"
        "-__opencl_c_3d_image_writes,-cl_khr_3d_image_writes");
  for (const std::string& define : options.defines) args.push_back("-D" + define);
  if (with_input_headers) args.push_back("-I" + std::string(kInputHeaderDirectory));
  for (const std::string& dir : options.include_dirs) args.push_back("-I" + dir);
  args.insert(args.end(), options.frontend_options.begin(), options.frontend_options.end());
  args.insert(args.end(), {"-x", "cl", std::string(file_name)});
  return args;
}

std::unique_ptr<llvm::Module> run_frontend(std::string_view source, std::string_view file_name,
                                           const CompileOptions& options, std::span<const InputHeader> headers,
                                           llvm::LLVMContext& context, std::string& warnings) {
  std::string diagnostics;
  llvm::raw_string_ostream diagnostics_stream(diagnostics);

  std::vector<std::string> args = frontend_arguments(file_name, options, !headers.empty());
  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const std::string& arg : args) argv.push_back(arg.c_str());

  clang::CompilerInstance compiler;
  // Diagnostics about the arguments themselves (a bad -D, say) go the same way.
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> argument_diag_options = new clang::DiagnosticOptions();
  auto* argument_printer = new clang::TextDiagnosticPrinter(diagnostics_stream, argument_diag_options.get());
  clang::DiagnosticsEngine argument_diags(new clang::DiagnosticIDs(), argument_diag_options, argument_printer);
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  if (!clang::CompilerInvocation::CreateFromArgs(*invocation, argv, argument_diags) ||
      argument_diags.hasErrorOccurred()) {
    diagnostics_stream.flush();
    throw CompileError(diagnostics.empty() ? "error: invalid compiler arguments\n" : diagnostics);
  }

  // The source comes from memory under the user's file name.
  invocation->getPreprocessorOpts().addRemappedFile(
      file_name, llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(source.data(), source.size()), file_name)
                     .release());
  if (const std::string undefines = undefine_unlisted_macros(options.frontend_options); !undefines.empty()) {
    invocation->getPreprocessorOpts().addRemappedFile(
        kUndefineHeader, llvm::MemoryBuffer::getMemBufferCopy(undefines, kUndefineHeader).release());
    invocation->getPreprocessorOpts().Includes.push_back(kUndefineHeader);
  }
  invocation->getPreprocessorOpts().RetainRemappedFileBuffers = false;
  invocation->getDiagnosticOpts().ShowColors = false;

  compiler.setInvocation(std::move(invocation));
  if (!headers.empty()) compiler.createFileManager(input_header_file_system(headers, file_name));
  compiler.createDiagnostics(new clang::TextDiagnosticPrinter(diagnostics_stream, &compiler.getDiagnosticOpts()),
                             /*ShouldOwnClient=*/true);
  compiler.setVerboseOutputStream(diagnostics_stream);  // "1 error generated."

  clang::EmitLLVMOnlyAction action(&context);
  const bool ok = compiler.ExecuteAction(action) && !compiler.getDiagnostics().hasErrorOccurred();
  diagnostics_stream.flush();
  std::unique_ptr<llvm::Module> module = ok ? action.takeModule() : nullptr;
  if (!module) throw CompileError(diagnostics.empty() ? std::string(file_name) + ": error: compilation failed\n" : diagnostics);
  warnings += diagnostics;
  return module;
}

}  // namespace vkcl
