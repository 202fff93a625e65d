// VKCL_MODULE_CACHE's key (vkcl/source_program.h): it follows the files a
// source includes, through quoted names beside the including file and the
// -I directories, and nothing else on disk.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "vkcl/source_program.h"

namespace vkcl {
namespace {

namespace fs = std::filesystem;

class ModuleCacheKey : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("vkcl_module_cache_key_" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "inc");
    fs::create_directories(dir_ / "sub");
    write("kernel.cl", "");
    write("local.h", "#include \"sub/deeper.h\"\n#define LOCAL 1\n");
    write("sub/deeper.h", "#define DEEPER 2\n");
    write("inc/from_dir.h", "#define FROM_DIR 3\n");
    write("unrelated.h", "#define UNRELATED 4\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  std::string key() const {
    CompileOptions options;
    options.include_dirs = {(dir_ / "inc").string()};
    return module_cache_key(kSource, (dir_ / "kernel.cl").string(), options);
  }

  static constexpr const char* kSource =
      "  #  include \"local.h\"\n#include <from_dir.h>\n#include <opencl-c-not-on-disk.h>\n"
      "kernel void k(global int* p) { p[0] = LOCAL + DEEPER + FROM_DIR; }\n";
  fs::path dir_;
};

TEST_F(ModuleCacheKey, IsStableForTheSameFiles) { EXPECT_EQ(key(), key()); }

TEST_F(ModuleCacheKey, ChangesWithAnIncludedFile) {
  const std::string before = key();
  write("local.h", "#include \"sub/deeper.h\"\n#define LOCAL 5\n");
  EXPECT_NE(key(), before);
}

TEST_F(ModuleCacheKey, ChangesWithAFileAnIncludedFileIncludes) {
  const std::string before = key();
  write("sub/deeper.h", "#define DEEPER 6\n");
  EXPECT_NE(key(), before);
}

TEST_F(ModuleCacheKey, ChangesWithAFileFoundInAnIncludeDirectory) {
  const std::string before = key();
  write("inc/from_dir.h", "#define FROM_DIR 7\n");
  EXPECT_NE(key(), before);
}

TEST_F(ModuleCacheKey, IgnoresFilesTheSourceDoesNotInclude) {
  const std::string before = key();
  write("unrelated.h", "#define UNRELATED 8\n");
  EXPECT_EQ(key(), before);
}

}  // namespace
}  // namespace vkcl
