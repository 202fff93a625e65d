// A Vulkan device chosen the way an OpenCL user expects, ready for compute.
#pragma once

#include <volk.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reflection.h"
#include "vkcl/ndrange.h"
#include "vkcl/queue.h"

namespace vkcl {

class Kernel;
namespace detail {
struct DeviceState;
}

struct DeviceOptions {
  // An index into the physical-device list, or a case-insensitive substring
  // of a device name. Empty: the VKCL_DEVICE environment variable, and when
  // that is empty too, the first discrete GPU, then integrated, virtual, any
  // other GPU, then a CPU device (lavapipe).
  std::string selector;
  // Unset: on when VKCL_VALIDATION=1. Validation errors reported by the
  // Khronos layer become an Error at the next call that checks (module load,
  // pipeline build, run).
  std::optional<bool> validation;
  // Features the runtime treats as absent even where the device has them:
  // modules that need them are refused, and build_program compiles without
  // them (e.g. withholding vulkan_memory_model selects GLSL450). For testing
  // the paths of lesser devices, and for working around a driver's bug.
  ModuleFeatures withheld_features;
  // How long run() waits for a submission before giving up with an Error.
  std::chrono::milliseconds timeout{60'000};
};

class Device {
 public:
  static Device create();
  static Device create(std::string_view selector);
  static Device create(const DeviceOptions& options);
  // describe() of every physical device, in the order VKCL_DEVICE indexes them.
  static std::vector<std::string> available();

  Device(Device&&) noexcept;
  Device& operator=(Device&&) noexcept;
  ~Device();

  std::string name() const;
  const VkPhysicalDeviceProperties& properties() const;
  // One line: name, type, driver, Vulkan version.
  std::string describe() const;
  // The module features this device has and the runtime enabled.
  const ModuleFeatures& features() const;
  // The compute limits plan_dispatch() checks NDRanges against.
  DispatchLimits dispatch_limits() const;

  std::chrono::milliseconds timeout() const;
  void set_timeout(std::chrono::milliseconds timeout);

  // Runs `kernel` over `range` and waits for it: a CommandList of one kernel,
  // submitted and waited for. Throws Error for unset or stale arguments,
  // ranges and sizes the device cannot run, a timeout, or a lost device. Not
  // thread-safe: one thread per Device.
  void run(const Kernel& kernel, const NDRange& range);

  // Submits every command of `commands` in one command buffer, after
  // everything submitted before (the Device is one in-order queue), and
  // returns at once. Throws Error for a list of another Device, a lost device,
  // or timestamps asked of a device that cannot write them.
  Event submit(const CommandList& commands, const SubmitOptions& options = {});
  // Whether the compute queue can write timestamps (its queue family's
  // timestampValidBits is nonzero).
  bool has_timestamps() const;

 private:
  explicit Device(std::shared_ptr<detail::DeviceState> state);
  std::shared_ptr<detail::DeviceState> state_;
  friend class Buffer;
  friend class CommandList;
  friend class Program;
};

}  // namespace vkcl
