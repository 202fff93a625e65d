// A corpus kernel's GLSL twin (shaders/corpus/glsl/<id>.comp) run as a
// Vulkan programmer runs it: the buffer arguments as descriptor-bound
// storage buffers, bindings 0, 1, ... in argument order; the scalar
// arguments in push constants, in order, each at the next offset aligned to
// its size (std430's rule for scalars); the local size in specialization
// constants 0, 1, 2 (local_size_x_id and so on). Its outputs and times are a
// corpus::Side, compared with vkcl's as an OpenCL platform's are.
//
// Why twins of corpus kernels: where vkcl's module is slower than NVIDIA's
// OpenCL, the twin tells whose doing it is. A twin as slow as vkcl's module
// puts the cause in the driver's Vulkan compiler (the same source, another
// front end); a faster twin puts it in vkcl's code, to be found one
// difference at a time.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "bench/raw_device.h"
#include "corpus.h"
#include "side.h"

namespace vkcl::corpus_bench {

// Runs `spv` (entry point main) once for `spec`'s inputs, reads back its
// checked buffers, then times `timed_runs` more runs back to back in one
// submission, each after a device-side copy restores the checked buffers
// (as vkcl's side does). `local`: the work-group size. Failures are the
// Side's status ("run-error", "spec-error"), never an exception.
corpus::Side run_glsl_twin(const bench::RawDevice& device, const corpus::KernelSpec& spec, const std::string& spv,
                           std::array<uint32_t, 3> local, int timed_runs);

}  // namespace vkcl::corpus_bench
