#include "translate.h"

#include <cstring>
#include <sstream>
#include <string>

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/IR/Module.h>

#include "compile_error.h"

namespace vkcl {

std::vector<uint32_t> translate_to_spirv(llvm::Module& module, std::string_view file_name) {
  SPIRV::TranslatorOpts options(SPIRV::VersionNumber::SPIRV_1_4);
  std::ostringstream stream;
  std::string error;
  if (!llvm::writeSpirv(&module, options, stream, error)) {
    throw CompileError(std::string(file_name) + ": error: SPIR-V translation failed: " +
                       (error.empty() ? std::string("unknown error") : error) + "\n");
  }
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

}  // namespace vkcl
