#include "translate.h"

#include <dlfcn.h>

#include <cstring>
#include <iostream>
#include <sstream>
#include <string>

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CrashRecoveryContext.h>

#include "compile_error.h"
#include "expand_intrinsics.h"

#if defined(__SANITIZE_ADDRESS__)
#define VKCL_LEAK_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VKCL_LEAK_SANITIZER 1
#endif
#endif
#ifdef VKCL_LEAK_SANITIZER
#include <sanitizer/lsan_interface.h>
#endif

// SPIRV-LLVM-Translator 15 does not return its errors: SPIRVErrorLog::
// checkError prints the message to std::cerr and calls std::exit() (its
// SPIRVDbgError setting defaults to Exit and Debian's library does not export
// it). clc must report the error like any other, so while writeSpirv runs
// std::cerr goes to a buffer, and the executable's exit() (which the
// translator's calls bind to) returns to compile_opencl's crash-recovery
// context with the buffered message instead of ending the process. Outside a
// translation, or without crash recovery, exit() is libc's.
namespace {

struct Translation {
  std::stringbuf messages;
  std::streambuf* saved_cerr = nullptr;
  bool exited = false;
  bool leak_checks_off = false;
};

thread_local Translation* active_translation = nullptr;
thread_local Translation last_translation;

// Under LeakSanitizer (the ASan build), what the translator allocates is not
// leak-checked: a rejection abandons its objects on the frames that exit()'s
// return to the recovery context skips, by design (compiler.h). Its normal
// path frees everything (tests/clc/compile_memory_test.cpp).
void set_translator_leak_checks(Translation& translation, bool on) {
#ifdef VKCL_LEAK_SANITIZER
  if (on == !translation.leak_checks_off) return;
  on ? __lsan_enable() : __lsan_disable();
#endif
  translation.leak_checks_off = !on;
}

void stop_capturing(Translation& translation) {
  if (translation.saved_cerr != nullptr) std::cerr.rdbuf(translation.saved_cerr);
  translation.saved_cerr = nullptr;
  set_translator_leak_checks(translation, true);
  active_translation = nullptr;
}

// Runs `call`, a call into the translator (either way), with std::cerr
// captured and exit() returning to the recovery context; returns what the
// translator printed.
template <typename Call>
std::string with_translator_captured(Call&& call) {
  // Not on this frame: a translator exit leaves it by longjmp.
  Translation& translation = last_translation;
  translation.messages.str("");
  translation.exited = false;
  translation.saved_cerr = std::cerr.rdbuf(&translation.messages);
  active_translation = &translation;
  set_translator_leak_checks(translation, false);
  call();
  stop_capturing(translation);
  return translation.messages.str();
}

}  // namespace

// noreturn already, from <stdlib.h>'s declaration (clang rejects [[noreturn]] on a redeclaration).
extern "C" void exit(int status) noexcept {
  if (Translation* translation = active_translation) {
    if (llvm::CrashRecoveryContext* recovery = llvm::CrashRecoveryContext::GetCurrent()) {
      translation->exited = true;
      stop_capturing(*translation);
      recovery->HandleExit(status);
    }
    // No way back: let the translator's message out before the process ends.
    std::cerr << translation->messages.str();
    stop_capturing(*translation);
  }
  using ExitFunction = void (*)(int);
  static const auto libc_exit = reinterpret_cast<ExitFunction>(dlsym(RTLD_NEXT, "exit"));
  if (libc_exit != nullptr) libc_exit(status);
  _Exit(status);
}

namespace vkcl {
namespace {

// "InvalidFunctionCall: Unexpected llvm intrinsic:\n llvm.x [Src: ...]" →
// "InvalidFunctionCall: Unexpected llvm intrinsic: llvm.x".
std::string tidy_translator_message(std::string message) {
  if (size_t source = message.find(" [Src: "); source != std::string::npos) message.erase(source);
  std::string tidy;
  for (char c : message) {
    if (c == '\n') c = ' ';
    if (c == ' ' && (tidy.empty() || tidy.back() == ' ')) continue;
    tidy += c;
  }
  while (!tidy.empty() && tidy.back() == ' ') tidy.pop_back();
  return tidy;
}

}  // namespace

std::vector<uint32_t> translate_to_spirv(llvm::Module& module, std::string_view file_name) {
  expand_intrinsics_for_translator(module);
  SPIRV::TranslatorOpts options(SPIRV::VersionNumber::SPIRV_1_4);
  std::ostringstream stream;
  std::string error;
  bool ok = false;
  const std::string messages = with_translator_captured([&] { ok = llvm::writeSpirv(&module, options, stream, error); });
  if (!ok) {
    if (error.empty()) error = messages;
    error = tidy_translator_message(error);
    throw CompileError(std::string(file_name) + ": error: SPIR-V translation failed: " +
                       (error.empty() ? std::string("unknown error") : error) + "\n");
  }
  if (!messages.empty()) std::cerr << messages;

  const std::string bytes = stream.str();
  constexpr uint32_t kSpirvMagic = 0x07230203;
  std::vector<uint32_t> words(bytes.size() / sizeof(uint32_t));
  if (!words.empty()) std::memcpy(words.data(), bytes.data(), words.size() * sizeof(uint32_t));
  if (bytes.size() % sizeof(uint32_t) != 0 || words.size() < 5 || words[0] != kSpirvMagic) {
    throw CompileError(std::string(file_name) +
                       ": error: internal compiler error: the SPIR-V translator wrote no valid module\n");
  }
  return words;
}

std::unique_ptr<llvm::Module> read_spirv(std::span<const uint32_t> words, std::span<const SpecConstant> spec_constants,
                                         llvm::LLVMContext& context, std::string_view file_name) {
  // Whatever the module's version, up to the newest the reader knows; every
  // extension it knows: the lowering and the validator refuse what Vulkan
  // cannot do, with a better message than "unallowed extension".
  SPIRV::TranslatorOpts options(SPIRV::VersionNumber::MaximumVersion);
  options.enableAllExtensions();
  // OpenCL C 2.0 builtins: an OpAtomic* keeps its scope and semantics as
  // atomic_*_explicit (builtins/atomics.cl), generic pointers included; the
  // default OpenCL C 1.2 names (atomic_add) drop both, and have no generic
  // overloads (the CTS's c11_atomics in spir-v mode failed so).
  options.setDesiredBIsRepresentation(SPIRV::BIsRepresentation::OpenCL20);
  for (const SpecConstant& constant : spec_constants) options.setSpecConst(constant.id, constant.value);
  std::istringstream stream(std::string(reinterpret_cast<const char*>(words.data()), words.size() * sizeof(uint32_t)));
  llvm::Module* module = nullptr;
  std::string error;
  bool ok = false;
  const std::string messages = with_translator_captured([&] { ok = llvm::readSpirv(context, options, stream, module, error); });
  std::unique_ptr<llvm::Module> owned(module);
  if (!ok || owned == nullptr) {
    if (error.empty()) error = messages;
    error = tidy_translator_message(error);
    throw CompileError(std::string(file_name) + ": error: cannot read the SPIR-V module: " +
                       (error.empty() ? std::string("unknown error") : error) + "\n");
  }
  if (!messages.empty()) std::cerr << messages;
  return owned;
}

void end_translator_capture() {
  if (active_translation != nullptr) stop_capturing(*active_translation);
}

std::string take_translator_exit_message() {
  if (!last_translation.exited) return {};
  last_translation.exited = false;
  std::string message = tidy_translator_message(last_translation.messages.str());
  last_translation.messages.str("");
  return message.empty() ? "the translator exited" : message;
}

}  // namespace vkcl
