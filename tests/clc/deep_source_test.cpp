// Generated kernels nest deeply: a sum of 200,000 terms is a left-leaning
// expression tree as deep, over which clang's parser, Sema and code
// generation recurse. On the default 8 MiB stack clang-15 dies of a
// segmentation fault; the compiler runs every compile on a thread with a
// large stack (compiler.cpp), as clang's driver does, so the kernel compiles.
#include <string>

#include <gtest/gtest.h>

#include "compiler.h"

namespace {

TEST(DeepSource, ASumOf200000TermsCompiles) {
  std::string source = "kernel void k(global int* o) { int x = o[0]; o[1] = x";
  source.reserve(source.size() + 200000 * 4 + 8);
  for (int i = 1; i < 200000; ++i) source += " + x";
  source += "; }\n";
  const vkcl::CompileResult result = vkcl::compile_opencl(source, "deep.cl", vkcl::CompileOptions{});
  EXPECT_FALSE(result.module.words.empty());
}

}  // namespace
