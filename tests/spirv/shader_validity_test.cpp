// Every kernel under shaders/ compiles with clc, and the module it writes
// passes the stand-alone spirv-val for Vulkan 1.1 (with the extensions it
// declares) and for Vulkan 1.2. Except shaders/corpus/, whose kernels are
// real-world OpenCL C that vkcl does not all accept yet:
// tests/differential/corpus_validity_test.cpp holds those to the same rule,
// or to a clean refusal listed in shaders/corpus/EXPECTED_FAILURES.txt.
#include <gtest/gtest.h>

#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> kernels_under_shaders() {
  std::vector<fs::path> kernels;
  const fs::path corpus = fs::path(VKCL_SHADERS_DIR) / "corpus";
  for (auto it = fs::recursive_directory_iterator(VKCL_SHADERS_DIR); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && it->path() == corpus) it.disable_recursion_pending();
    else if (it->is_regular_file() && it->path().extension() == ".cl") kernels.push_back(it->path());
  }
  std::sort(kernels.begin(), kernels.end());
  return kernels;
}

int run(const std::string& command) { return std::system((command + " 2>&1").c_str()); }

TEST(ShaderValidity, EveryKernelCompilesAndValidatesForVulkan11And12) {
  std::vector<fs::path> kernels = kernels_under_shaders();
  ASSERT_FALSE(kernels.empty()) << "no kernels found under " << VKCL_SHADERS_DIR;
  fs::path out_dir = fs::temp_directory_path() / ("vkcl_validity_" + std::to_string(::getpid()));
  fs::create_directories(out_dir);
  for (const fs::path& kernel : kernels) {
    const std::string std_flag = "-cl-std=CL3.0";  // the newest language every kernel here must accept
    fs::path out = out_dir / (kernel.stem().string() + ".spv");
    ASSERT_EQ(run(std::string(VKCL_CLC) + " " + std_flag + " '" + kernel.string() + "' -o '" + out.string() + "'"), 0)
        << "clc failed on " << kernel;
    for (const char* env : {"vulkan1.1", "vulkan1.2"})
      EXPECT_EQ(run(std::string(VKCL_SPIRV_VAL) + " --target-env " + env + " '" + out.string() + "'"), 0)
          << kernel << " is invalid for " << env;
  }
  fs::remove_all(out_dir);
}

}  // namespace
