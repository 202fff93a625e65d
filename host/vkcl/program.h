// A module written by clc: SPIR-V plus its reflection, checked against a device.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reflection.h"

namespace vkcl {

class Device;
class Kernel;
namespace detail {
struct DeviceState;
struct ProgramState;
}

class Program {
 public:
  // Reads `spv` and `spv` + ".reflection".
  Program(Device& device, const std::filesystem::path& spv);
  Program(Device& device, std::span<const uint32_t> words, ModuleReflection reflection);
  Program(Program&&) noexcept;
  Program& operator=(Program&&) noexcept;
  ~Program();

  const ModuleReflection& reflection() const;
  // One line per pipeline built so far ("kernel 'k' 256x1x1: <executable>:
  // Register Count = 24, ..."), when the Device captures the driver's
  // statistics (DeviceOptions::pipeline_statistics); empty otherwise.
  const std::vector<std::string>& pipeline_statistics() const;
  // Throws Error when the module has no such kernel or the device cannot
  // hold its push constants. The Kernel keeps the program's Vulkan objects
  // alive on its own.
  Kernel kernel(std::string_view name) const;

 private:
  static std::shared_ptr<detail::ProgramState> create_state(const std::shared_ptr<detail::DeviceState>& device,
                                                            std::span<const uint32_t> words, ModuleReflection reflection);
  std::shared_ptr<detail::ProgramState> state_;
};

}  // namespace vkcl
