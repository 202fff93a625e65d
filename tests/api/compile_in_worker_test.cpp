// compile_in_worker (api/vkcl/compile_worker.h): the compiler in a child
// process gives what it gives in process, its errors with their locations,
// input headers, a CompileError for a worker that crashes, exits, answers
// garbage or is missing, and compiles from many threads at once. The worker
// is found as the ICD finds it, beside the file that holds the code: this
// test's build links build/tools/clc/vkcl-compile-worker beside it. The
// misbehaving workers are tests/api/fake_compile_worker.cpp.
#include <gtest/gtest.h>

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "compiler.h"
#include "vkcl/compile_worker.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

namespace fs = std::filesystem;

constexpr const char* kKernel =
    "kernel void scale(global float* data, float factor) {\n"
    "  size_t i = get_global_id(0);\n"
    "  data[i] = data[i] * factor + SHIFT;\n"
    "}\n";

CompileOptions options_with_shift(int shift) {
  CompileOptions options;
  options.defines = {"SHIFT=" + std::to_string(shift)};
  return options;
}

std::string error_of(auto&& compile) {
  try {
    compile();
  } catch (const CompileError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no CompileError";
  return {};
}

// Each test sets what it needs; none inherits a choice from the environment.
class CompileInWorker : public testing::Test {
 protected:
  void SetUp() override {
    ::unsetenv("VKCL_COMPILE_WORKER");
    ::unsetenv("VKCL_FAKE_WORKER");
    ::unsetenv("VKCL_MODULE_CACHE");
  }
};

TEST_F(CompileInWorker, FindsTheWorkerBesideThisProgram) {
  const fs::path program = fs::read_symlink("/proc/self/exe");
  const std::vector<fs::path> candidates = compile_worker_candidates();
  ASSERT_FALSE(candidates.empty());
  EXPECT_EQ(candidates.front(), program.parent_path() / "vkcl-compile-worker");
  EXPECT_EQ(find_compile_worker(), program.parent_path() / "vkcl-compile-worker");
}

TEST_F(CompileInWorker, GivesTheWordsAndReflectionOfTheInProcessCompiler) {
  const CompileOptions options = options_with_shift(1);
  const WorkerCompileResult contained = compile_in_worker(kKernel, "scale.cl", options);
  const CompileResult in_process = compile_opencl(kKernel, "scale.cl", options);
  EXPECT_EQ(contained.module.words, in_process.module.words);
  EXPECT_EQ(serialize(contained.module.reflection), serialize(in_process.module.reflection));
  EXPECT_EQ(contained.warnings, "");
}

TEST_F(CompileInWorker, PassesEveryOption) {
  CompileOptions options = options_with_shift(2);
  options.cl_std = OpenCLStd::CL3_0;
  options.frontend_options = {"-cl-mad-enable"};
  options.optimize = false;
  options.memory_model = MemoryModel::GLSL450;
  options.vulkan_device_scope = false;
  options.denorms_are_zero = true;
  options.max_storage_buffers = 1;
  const WorkerCompileResult contained = compile_in_worker(kKernel, "scale.cl", options);
  const CompileResult in_process = compile_opencl(kKernel, "scale.cl", options);
  EXPECT_EQ(contained.module.words, in_process.module.words);
  EXPECT_EQ(serialize(contained.module.reflection), serialize(in_process.module.reflection));
  EXPECT_TRUE(contained.module.reflection.denorms_are_zero);
}

// Every other kind of request: compiled objects, libraries and links
// (clCompileProgram, clLinkProgram), and SPIR-V, each the same as in process.
TEST_F(CompileInWorker, ObjectsLibrariesAndLinksAreThoseOfTheInProcessCompiler) {
  const char* caller =
      "float shifted(float x);\n"
      "kernel void twice(global float* data) { data[get_global_id(0)] = 2 * shifted(data[get_global_id(0)]); }\n";
  const char* callee = "float shifted(float x) { return x + SHIFT; }\n";
  const CompileOptions options = options_with_shift(3);
  const WorkerObjectResult object = compile_object_in_worker(caller, "caller.cl", options);
  EXPECT_EQ(object.bitcode, compile_to_library(caller, "caller.cl", options).bitcode);
  const InputHeader header{"shift.h", "#define SHIFT 3\n"};
  const WorkerObjectResult with_header = compile_object_in_worker(std::string("#include <shift.h>\n") + callee,
                                                                  "callee.cl", {}, std::span(&header, 1));
  const std::vector<std::string> callee_object = {with_header.bitcode};
  const WorkerObjectResult library = link_library_in_worker(callee_object, "library");
  EXPECT_EQ(library.bitcode, link_to_library(callee_object, "library").bitcode);
  const std::vector<std::string> objects = {object.bitcode, library.bitcode};
  const WorkerCompileResult linked = link_in_worker(objects, "program.cl", {});
  const CompileResult linked_here = link_libraries(objects, "program.cl", {});
  EXPECT_EQ(linked.module.words, linked_here.module.words);
  EXPECT_EQ(serialize(linked.module.reflection), serialize(linked_here.module.reflection));
  // A link's failure comes back as its CompileError.
  const std::vector<std::string> alone = {object.bitcode};
  EXPECT_NE(error_of([&] { link_in_worker(alone, "program.cl", {}); }).find("'shifted' is not supported"),
            std::string::npos);

  CompileOptions translate_only = options;
  translate_only.lower = false;
  const std::vector<uint32_t> spirv = compile_opencl(kKernel, "scale.cl", translate_only).kernel_spirv;
  const WorkerCompileResult from_il = compile_il_in_worker(spirv, "scale.spv", {});
  EXPECT_EQ(from_il.module.words, compile_spirv(spirv, "scale.spv", {}).module.words);
  const WorkerObjectResult il_object = compile_il_object_in_worker(spirv, "scale.spv");
  EXPECT_EQ(il_object.bitcode, compile_spirv_to_library(spirv, "scale.spv").bitcode);
  const std::vector<uint32_t> not_spirv = {1, 2, 3, 4, 5, 6};
  EXPECT_NE(error_of([&] { compile_il_in_worker(not_spirv, "bad.spv", {}); }).find("bad.spv: error: "),
            std::string::npos);
}

TEST_F(CompileInWorker, ReportsWarnings) {
  const std::string source = std::string("#warning look here\n") + kKernel;
  const WorkerCompileResult result = compile_in_worker(source, "warn.cl", options_with_shift(0));
  EXPECT_NE(result.warnings.find("warn.cl:1:2: warning: look here"), std::string::npos) << result.warnings;
}

TEST_F(CompileInWorker, ASyntaxErrorNamesItsLocation) {
  const std::string log = error_of([] {
    compile_in_worker("kernel void k(global int* p) {\n  p[0] = undeclared;\n}\n", "bad.cl", {});
  });
  EXPECT_NE(log.find("bad.cl:2:10: error: use of undeclared identifier 'undeclared'"), std::string::npos) << log;
}

TEST_F(CompileInWorker, IncludesInputHeaders) {
  const std::vector<InputHeader> headers = {{"util.h", "#include <inc/shift.h>\n#define FACTOR 3.0f\n"},
                                            {"inc/shift.h", "#define SHIFT 4\n"}};
  const std::string source =
      "#include \"util.h\"\n"
      "kernel void k(global float* p) { p[0] = p[0] * FACTOR + SHIFT; }\n";
  const WorkerCompileResult contained = compile_in_worker(source, "headers.cl", {}, headers);
  const std::string expanded = "kernel void k(global float* p) { p[0] = p[0] * 3.0f + 4; }\n";
  EXPECT_EQ(contained.module.words, compile_opencl(expanded, "headers.cl", {}).module.words);
  EXPECT_EQ(contained.module.words, compile_opencl(source, "headers.cl", {}, headers).module.words);
}

TEST_F(CompileInWorker, AnErrorInAnInputHeaderNamesIt) {
  const std::vector<InputHeader> headers = {{"broken.h", "\n  int x = ;\n"}};
  const std::string log =
      error_of([&] { compile_in_worker("#include \"broken.h\"\nkernel void k() {}\n", "k.cl", {}, headers); });
  EXPECT_NE(log.find("/vkcl-input-headers/broken.h:2:11: error"), std::string::npos) << log;
  EXPECT_NE(log.find("k.cl:1:"), std::string::npos) << log;  // "In file included from k.cl:1:"
}

TEST_F(CompileInWorker, RefusesAnInputHeaderOutsideItsDirectory) {
  const std::vector<InputHeader> headers = {{"../escape.h", ""}};
  const std::string log = error_of([&] { compile_in_worker("kernel void k() {}\n", "k.cl", {}, headers); });
  EXPECT_NE(log.find("k.cl: error: input header '../escape.h': the name must not contain '..'"), std::string::npos)
      << log;
}

TEST_F(CompileInWorker, ACrashIsACompileErrorNamingTheSignal) {
  ::setenv("VKCL_FAKE_WORKER", "segv", 1);
  ::setenv("VKCL_COMPILE_WORKER", VKCL_FAKE_COMPILE_WORKER, 1);  // found the documented way
  const std::string log = error_of([] { compile_in_worker(kKernel, "crash.cl", {}); });
  EXPECT_NE(log.find("crash.cl: error: the compiler crashed (signal 11: SIGSEGV)"), std::string::npos) << log;
  EXPECT_NE(log.find("fake worker: read "), std::string::npos) << log;  // its standard error
  EXPECT_NE(log.find(VKCL_FAKE_COMPILE_WORKER), std::string::npos) << log;
}

TEST_F(CompileInWorker, AnExitWithoutAnAnswerIsACompileError) {
  ::setenv("VKCL_FAKE_WORKER", "exit", 1);
  const std::string log = error_of([] { compile_in_worker(kKernel, "exit.cl", {}, {}, VKCL_FAKE_COMPILE_WORKER); });
  EXPECT_NE(log.find("exit.cl: error: the compiler exited with status 3 without an answer"), std::string::npos)
      << log;
  EXPECT_NE(log.find("exiting with status 3"), std::string::npos) << log;
}

TEST_F(CompileInWorker, AGarbledAnswerIsACompileError) {
  ::setenv("VKCL_FAKE_WORKER", "garbage", 1);
  const std::string log = error_of([] { compile_in_worker(kKernel, "g.cl", {}, {}, VKCL_FAKE_COMPILE_WORKER); });
  EXPECT_NE(log.find("g.cl: error: the compiler's answer is unusable: malformed compile response"),
            std::string::npos)
      << log;
}

TEST_F(CompileInWorker, AWorkerThatReadsNothingIsACompileError) {
  ::setenv("VKCL_FAKE_WORKER", "ignore", 1);
  // Big enough not to fit the socket's buffer: the send fails, it does not raise SIGPIPE.
  const std::string source(8 << 20, ' ');
  const std::string log = error_of([&] { compile_in_worker(source, "i.cl", {}, {}, VKCL_FAKE_COMPILE_WORKER); });
  EXPECT_NE(log.find("i.cl: error: the compiler exited with status 0 without an answer"), std::string::npos) << log;
}

TEST_F(CompileInWorker, ReadsAndWritesAtOnce) {
  // The worker writes 8 MiB on standard error before it reads 8 MiB of request.
  ::setenv("VKCL_FAKE_WORKER", "flood", 1);
  const std::string source(8 << 20, ' ');
  const WorkerCompileResult result = compile_in_worker(source, "flood.cl", {}, {}, VKCL_FAKE_COMPILE_WORKER);
  EXPECT_EQ(result.warnings.rfind("flood: read 8388608 bytes of source\n", 0), 0u) << result.warnings.substr(0, 200);
  // The rest is the end of its standard error.
  EXPECT_LE(result.warnings.size(), 20u * 1024);
}

TEST_F(CompileInWorker, AMissingWorkerIsACompileErrorNamingThePath) {
  ::setenv("VKCL_COMPILE_WORKER", "/nonexistent/vkcl-compile-worker", 1);
  const std::string log = error_of([] { compile_in_worker(kKernel, "m.cl", {}); });
  EXPECT_NE(log.find("m.cl: error: VKCL_COMPILE_WORKER names '/nonexistent/vkcl-compile-worker', which is not an "
                     "executable file"),
            std::string::npos)
      << log;
}

TEST_F(CompileInWorker, AWorkerThatCannotStartIsACompileError) {
  const std::string log =
      error_of([] { compile_in_worker(kKernel, "s.cl", {}, {}, "/nonexistent/vkcl-compile-worker"); });
  EXPECT_NE(log.find("s.cl: error: cannot run the compiler: posix_spawn: No such file or directory"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("/nonexistent/vkcl-compile-worker"), std::string::npos) << log;
}

TEST_F(CompileInWorker, EightThreadsCompileAtOnce) {
  constexpr int kThreads = 8;
  std::vector<std::vector<uint32_t>> expected(kThreads);
  for (int i = 0; i < kThreads; ++i)
    expected[i] = compile_opencl(kKernel, "scale.cl", options_with_shift(i)).module.words;

  std::vector<std::vector<uint32_t>> words(kThreads);
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      try {
        words[i] = compile_in_worker(kKernel, "scale.cl", options_with_shift(i)).module.words;
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int i = 0; i < kThreads; ++i) {
    EXPECT_EQ(errors[i], "") << "thread " << i;
    EXPECT_EQ(words[i], expected[i]) << "thread " << i;
  }
}

// CompileWorkers keeps a worker between requests and gives each request
// its own answer and standard error.
TEST_F(CompileInWorker, AWarmWorkerAnswersRequestsInTurn) {
  ::setenv("VKCL_FAKE_WORKER", "serve", 1);
  CompileWorkers workers(VKCL_FAKE_COMPILE_WORKER, 1);
  const std::string first = workers.compile("a", "a.cl", {}).warnings;
  ASSERT_EQ(first.rfind("pid ", 0), 0u) << first;
  const std::string pid = first.substr(0, first.find(" request"));
  EXPECT_EQ(first, pid + " request 1\n");
  EXPECT_EQ(workers.compile("warn", "w.cl", {}).warnings, pid + " request 2\nwarn: request 2\n");
  EXPECT_EQ(workers.compile_object("b", "b.cl", {}).warnings, pid + " request 3\n");
}

TEST_F(CompileInWorker, AFailedRequestEndsItsWarmWorker) {
  ::setenv("VKCL_FAKE_WORKER", "serve", 1);
  CompileWorkers workers(VKCL_FAKE_COMPILE_WORKER, 1);
  const std::string first = workers.compile("a", "a.cl", {}).warnings;
  const std::string log = error_of([&] { workers.compile("fail", "f.cl", {}); });
  EXPECT_EQ(log, first.substr(0, first.find(" request")) + " request 2\n");
  const std::string next = workers.compile("a", "a.cl", {}).warnings;
  EXPECT_NE(next.substr(0, next.find(" request")), first.substr(0, first.find(" request")));
  EXPECT_EQ(next.substr(next.find(" request")), " request 1\n");
}

TEST_F(CompileInWorker, AWarmWorkerThatCrashesIsACompileErrorAndIsReplaced) {
  ::setenv("VKCL_FAKE_WORKER", "serve", 1);
  CompileWorkers workers(VKCL_FAKE_COMPILE_WORKER, 1);
  workers.compile("a", "a.cl", {});
  const std::string log = error_of([&] { workers.compile("crash", "c.cl", {}); });
  EXPECT_NE(log.find("c.cl: error: the compiler crashed (signal 11: SIGSEGV)"), std::string::npos) << log;
  EXPECT_NE(log.find("fake worker: crashing at request 2"), std::string::npos) << log;
  EXPECT_NE(workers.compile("a", "a.cl", {}).warnings.find(" request 1\n"), std::string::npos);
}

// The real worker compiles one program after another as it compiles each
// alone: nothing of one compile leaks into the next.
TEST_F(CompileInWorker, AWarmWorkerGivesWhatTheInProcessCompilerGives) {
  CompileWorkers workers({}, 1);
  const std::vector<uint32_t> first = compile_opencl(kKernel, "scale.cl", options_with_shift(1)).module.words;
  const std::vector<uint32_t> second = compile_opencl(kKernel, "scale.cl", options_with_shift(2)).module.words;
  EXPECT_EQ(workers.compile(kKernel, "scale.cl", options_with_shift(1)).module.words, first);
  EXPECT_NE(error_of([&] { workers.compile("kernel void k( {", "bad.cl", {}); }).find("bad.cl:1:"),
            std::string::npos);
  EXPECT_EQ(workers.compile(kKernel, "scale.cl", options_with_shift(2)).module.words, second);
  EXPECT_EQ(workers.compile(kKernel, "scale.cl", options_with_shift(1)).module.words, first);
}

TEST_F(CompileInWorker, EightThreadsShareWarmWorkers) {
  constexpr int kThreads = 8, kEach = 3;
  std::vector<std::vector<uint32_t>> expected(kThreads);
  for (int i = 0; i < kThreads; ++i)
    expected[i] = compile_opencl(kKernel, "scale.cl", options_with_shift(i)).module.words;
  CompileWorkers workers({}, 2);
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      for (int k = 0; k < kEach; ++k) {
        try {
          if (workers.compile(kKernel, "scale.cl", options_with_shift(i)).module.words != expected[i])
            errors[i] += "different words; ";
        } catch (const std::exception& e) {
          errors[i] += e.what();
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int i = 0; i < kThreads; ++i) EXPECT_EQ(errors[i], "") << "thread " << i;
}

// compile_module_for in a child process, through VKCL_MODULE_CACHE: the
// second build finds the first's module and starts no worker.
TEST_F(CompileInWorker, CompileModuleForUsesTheModuleCache) {
  const fs::path cache = fs::temp_directory_path() / ("vkcl_worker_cache_" + std::to_string(::getpid()));
  fs::remove_all(cache);
  ::setenv("VKCL_MODULE_CACHE", cache.c_str(), 1);
  ModuleFeatures features;
  features.vulkan_memory_model = true;
  BuildSettings settings;
  settings.compile_in = CompileIn::ChildProcess;
  settings.headers = {{"shift.h", "#define SHIFT 5\n"}};
  const std::string source = std::string("#include <shift.h>\n") + kKernel;
  const VulkanModule first = compile_module_for(features, source, "cached.cl", {}, settings);
  EXPECT_EQ(std::distance(fs::directory_iterator(cache), fs::directory_iterator()), 2);  // .spv, .spv.reflection

  ::setenv("VKCL_COMPILE_WORKER", "/nonexistent/vkcl-compile-worker", 1);
  const VulkanModule again = compile_module_for(features, source, "cached.cl", {}, settings);
  EXPECT_EQ(again.words, first.words);
  // Other header text, another key: this one needs the (missing) worker.
  settings.headers[0].text = "#define SHIFT 6\n";
  EXPECT_THROW(compile_module_for(features, source, "cached.cl", {}, settings), CompileError);
  ::unsetenv("VKCL_MODULE_CACHE");
  fs::remove_all(cache);

  // In process, the same module.
  settings.compile_in = CompileIn::ThisProcess;
  settings.headers[0].text = "#define SHIFT 5\n";
  EXPECT_EQ(compile_module_for(features, source, "cached.cl", {}, settings).words, first.words);
}

TEST_F(CompileInWorker, CompileModuleForHandsOverTheWarnings) {
  std::string warnings;
  BuildSettings settings;
  settings.compile_in = CompileIn::ChildProcess;
  settings.warnings = &warnings;
  compile_module_for({}, std::string("#warning from the worker\n") + kKernel, "w.cl", options_with_shift(0), settings);
  EXPECT_NE(warnings.find("w.cl:1:2: warning: from the worker"), std::string::npos) << warnings;
}

}  // namespace
}  // namespace vkcl
