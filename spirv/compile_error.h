// The compiler's error type: every stage of clc (frontend, builtin linking,
// translation, lowering, validation) reports failure by throwing CompileError
// whose message is complete, user-facing text (file:line:col where known).
#pragma once

#include <stdexcept>
#include <string>

namespace vkcl {

struct CompileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace vkcl
