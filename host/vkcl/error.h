// Errors of the vkcl host runtime.
#pragma once

#include <volk.h>

#include <stdexcept>
#include <string>
#include <string_view>

namespace vkcl {

// Every failure of the runtime, whether a Vulkan call failed (the message names
// the call and the VkResult, and result() returns it) or an argument, a limit
// or a file is wrong (result() is VK_SUCCESS then).
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, VkResult result = VK_SUCCESS)
      : std::runtime_error(message), result_(result) {}
  VkResult result() const { return result_; }

 private:
  VkResult result_;
};

// "VK_ERROR_DEVICE_LOST", or the number for a code this build does not know.
std::string to_string(VkResult result);

}  // namespace vkcl
