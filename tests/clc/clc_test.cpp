// clc end to end: the built binary, run in a fresh temporary directory per
// test, judged by its exit status, its messages and the files it leaves.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace fs = std::filesystem;

namespace {

struct ClcRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

class ClcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("vkcl_clc_" + std::string(info->name()) + "_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  void write(const std::string& name, const std::string& text) {
    fs::create_directories((dir_ / name).parent_path());
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  bool exists(const std::string& name) const { return fs::exists(dir_ / name); }
  std::string read(const std::string& name) const { return read_file(dir_ / name); }

  // Runs `clc <args>` in the test directory; `stdin_file` (in that
  // directory) becomes standard input when given.
  ClcRun clc(const std::string& args, const std::string& stdin_file = "") {
    std::string command = "cd '" + dir_.string() + "' && '" VKCL_CLC_PATH "' " + args;
    command += stdin_file.empty() ? " < /dev/null" : " < '" + stdin_file + "'";
    command += " > clc.stdout 2> clc.stderr";
    const int status = std::system(command.c_str());
    ClcRun run;
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    run.out = read("clc.stdout");
    run.err = read("clc.stderr");
    fs::remove(dir_ / "clc.stdout");
    fs::remove(dir_ / "clc.stderr");
    return run;
  }

  // The first word of a SPIR-V file.
  uint32_t magic(const std::string& name) const {
    const std::string bytes = read(name);
    uint32_t word = 0;
    if (bytes.size() >= 4) std::memcpy(&word, bytes.data(), 4);
    return word;
  }

  fs::path dir_;
};

constexpr uint32_t kSpirvMagic = 0x07230203;

// ---------------------------------------------------------------------------
// Command line

TEST_F(ClcTest, HelpPrintsUsageAndExitsZero) {
  ClcRun run = clc("--help");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.out.find("USAGE: clc"), std::string::npos) << run.out;
  EXPECT_EQ(run.err, "");
}

TEST_F(ClcTest, MissingInputFileIsOneLineError) {
  ClcRun run = clc("missing.cl");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "clc: error: no such file or directory: 'missing.cl'\n");
  EXPECT_FALSE(exists("missing.spv"));
}

TEST_F(ClcTest, UnknownArgumentIsOneLineError) {
  write("k.cl", "kernel void k(global int* p) { p[0] = 1; }\n");
  ClcRun run = clc("-foo k.cl");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "clc: error: unknown argument: '-foo'\n");
  EXPECT_FALSE(exists("k.spv"));
}

TEST_F(ClcTest, MissingOutputValueIsOneLineError) {
  write("k.cl", "kernel void k(global int* p) { p[0] = 1; }\n");
  ClcRun run = clc("k.cl -o");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "clc: error: argument to '-o' is missing (expected 1 value)\n");
}

TEST_F(ClcTest, MoreThanOneInputIsOneLineError) {
  write("a.cl", "kernel void a(global int* p) { p[0] = 1; }\n");
  write("b.cl", "kernel void b(global int* p) { p[0] = 1; }\n");
  ClcRun run = clc("a.cl b.cl");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "clc: error: more than one input file: 'a.cl' and 'b.cl'\n");
}

TEST_F(ClcTest, NoInputIsOneLineError) {
  ClcRun run = clc("-O2");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "clc: error: no input files\n");
}

TEST_F(ClcTest, BadClStdIsOneLineError) {
  write("k.cl", "kernel void k(global int* p) { p[0] = 1; }\n");
  ClcRun run = clc("-cl-std=CL9.9 k.cl");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "clc: error: invalid value 'CL9.9' in '-cl-std=CL9.9' (expected CL1.2, CL2.0 or CL3.0)\n");
}

TEST_F(ClcTest, BadMemoryModelIsOneLineError) {
  write("k.cl", "kernel void k(global int* p) { p[0] = 1; }\n");
  ClcRun run = clc("--memory-model=opencl k.cl");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "clc: error: invalid value 'opencl' in '--memory-model=opencl' (expected vulkan or glsl450)\n");
}

TEST_F(ClcTest, BadDeviceScopeIsOneLineError) {
  write("k.cl", "kernel void k(global int* p) { p[0] = 1; }\n");
  ClcRun run = clc("--device-scope=system k.cl");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "clc: error: invalid value 'system' in '--device-scope=system' (expected device or queue-family)\n");
}

TEST_F(ClcTest, DeviceScopeFlagChoosesDeviceOrQueueFamilyAndTheFeatureFollows) {
  write("k.cl",
        "kernel void k(global int* p) {\n"
        "  p[0] = 1;\n"
        "  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);\n"
        "  p[1] = 2;\n"
        "}\n");
  ASSERT_EQ(clc("-cl-std=CL2.0 k.cl -o device.spv").exit_code, 0);
  EXPECT_NE(read("device.spv.reflection").find("feature vulkan_memory_model_device_scope\n"), std::string::npos);
  ClcRun run = clc("-cl-std=CL2.0 --device-scope=queue-family k.cl -o queue.spv");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(read("queue.spv.reflection").find("vulkan_memory_model_device_scope"), std::string::npos)
      << read("queue.spv.reflection");
  EXPECT_NE(read("device.spv"), read("queue.spv"));
}

TEST_F(ClcTest, DenormsAreZeroIsRecordedInTheReflectionOnly) {
  write("k.cl", "kernel void k(global float* p) { p[0] = p[0] * 0.5f; }\n");
  ASSERT_EQ(clc("k.cl -o preserve.spv").exit_code, 0);
  ClcRun run = clc("-cl-denorms-are-zero k.cl -o flush.spv");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(read("preserve.spv.reflection").find("denorms_are_zero"), std::string::npos) << read("preserve.spv.reflection");
  EXPECT_NE(read("flush.spv.reflection").find("\ndenorms_are_zero\n"), std::string::npos) << read("flush.spv.reflection");
  // The module stays device independent; the runtime decides (host/preserve_denormals.h).
  EXPECT_EQ(read("preserve.spv"), read("flush.spv"));
}

// ---------------------------------------------------------------------------
// Front end

TEST_F(ClcTest, OpenCL30FeatureMacrosSayWhatVkclSupports) {
  // Present: what kernels need for sub-groups, scopes and orders.
  write("yes.cl",
        "#if !defined(__opencl_c_subgroups) || !defined(__opencl_c_atomic_scope_device) || \\\n"
        "    !defined(__opencl_c_atomic_scope_all_devices) || !defined(__opencl_c_atomic_order_acq_rel) || \\\n"
        "    !defined(__opencl_c_atomic_order_seq_cst) || !defined(__opencl_c_int64)\n"
        "#error a supported feature is not advertised\n"
        "#endif\n"
        "kernel void k(global int* p) {\n"
        "  p[0] = 1;\n"
        "  sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);\n"
        "  work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_all_devices);\n"
        "  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);\n"
        "}\n");
  ClcRun run = clc("-cl-std=CL3.0 yes.cl");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  // Absent: what vkcl cannot compile.
  for (const char* feature : {"__opencl_c_pipes", "__opencl_c_device_enqueue", "__opencl_c_images",
                              "__opencl_c_3d_image_writes"}) {
    write("no.cl", std::string("#ifdef ") + feature + "\n#error advertised\n#endif\nkernel void k(global int* p) { p[0] = 1; }\n");
    run = clc("-cl-std=CL3.0 no.cl");
    EXPECT_EQ(run.exit_code, 0) << feature << " is advertised: " << run.err;
  }
}

TEST_F(ClcTest, OpenCL30ImagesAreAnErrorAtTheUse) {
  write("i.cl", "kernel void k(global int* p, read_only image2d_t image) { p[0] = 1; }\n");
  ClcRun run = clc("-cl-std=CL3.0 i.cl");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("i.cl:1:40: error: use of type '__read_only image2d_t' requires __opencl_c_images support"),
            std::string::npos)
      << run.err;
  EXPECT_FALSE(exists("i.spv"));
}

TEST_F(ClcTest, WorkGroupCollectivesAreAnErrorAtTheCall) {
  write("w.cl", "kernel void k(global int* p) {\n  p[0] = work_group_reduce_add(p[1]);\n}\n");
  ClcRun run = clc("-cl-std=CL2.0 w.cl");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err,
            "w.cl:2:10: error: work-group collective functions ('work_group_reduce_add') are not supported yet\n"
            "1 error generated.\n");
  EXPECT_FALSE(exists("w.spv"));
}

TEST_F(ClcTest, SyntaxErrorNamesFileLineAndColumnAndWritesNothing) {
  write("bad.cl",
        "kernel void k(global int* p) {\n"
        "  int x = 1;\n"
        "  p[0] = y;\n"  // 'y' is line 3, column 10
        "}\n");
  ClcRun run = clc("bad.cl");
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.err.find("bad.cl:3:10: error: use of undeclared identifier 'y'"), std::string::npos) << run.err;
  EXPECT_FALSE(exists("bad.spv"));
  EXPECT_FALSE(exists("bad.spv.reflection"));
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename(), "bad.cl") << "left behind: " << entry.path();
}

TEST_F(ClcTest, ClangCrashIsAnErrorNotACrash) {
  // clang 15 itself crashes on this malformed program (found by
  // vkcl_compile_fuzzer: a kernel's first line lost in a comment); clc
  // recovers, reports it and writes nothing.
  write("crash.cl",
        "// @check keys exaatomic_compare_exchange_strong(__global uint* keys) {\n"
        "  __local uint s[256];\n"
        "  const uint lid = get_local_id(0);\n"
        "  const uint base = get_group_id(0) * 256;\n"
        "  s[lid] = keys[base + lid];\n"
        "  s[lid + 128] = keys[base + lid + 128];\n");
  ClcRun run = clc("crash.cl");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("crash.cl: error: internal compiler error while parsing; please report this input"),
            std::string::npos)
      << run.err;
  EXPECT_FALSE(exists("crash.spv"));
  EXPECT_FALSE(exists("crash.spv.reflection"));
}

TEST_F(ClcTest, FailureLeavesExistingOutputUntouched) {
  write("bad.cl", "kernel void k(global int* p) {\n  p[0] = 1\n}\n");
  write("out.spv", "previous");
  write("out.spv.reflection", "previous reflection");
  ClcRun run = clc("bad.cl -o out.spv");
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.err.find("bad.cl:2:11: error: expected ';'"), std::string::npos) << run.err;
  EXPECT_EQ(read("out.spv"), "previous");
  EXPECT_EQ(read("out.spv.reflection"), "previous reflection");
}

TEST_F(ClcTest, StandardInputDiagnosticsSayStdin) {
  write("bad.txt", "kernel void k(global int* p) {\n  p[0] = undefined_thing;\n}\n");
  ClcRun run = clc("-", "bad.txt");
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.err.find("<stdin>:2:10: error: use of undeclared identifier 'undefined_thing'"), std::string::npos)
      << run.err;
  EXPECT_FALSE(exists("a.spv"));
}

TEST_F(ClcTest, WarningsArePrintedButDoNotFail) {
  write("w.cl", "#warning careful now\nkernel void k(global int* p) { p[0] = 1; }\n");
  ClcRun run = clc("--emit-kernel-spirv w.cl -o w.kspv");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("w.cl:1:2: warning: careful now"), std::string::npos) << run.err;
  EXPECT_EQ(magic("w.kspv"), kSpirvMagic);
}

TEST_F(ClcTest, DefinesAndIncludeDirectoriesReachThePreprocessor) {
  write("inc/scale.h", "#define SCALE (FACTOR * 2)\n");
  write("more/extra.h", "#define EXTRA 1\n");
  write("k.cl",
        "#include \"scale.h\"\n"
        "#include <extra.h>\n"
        "#ifndef FLAG\n"
        "#error FLAG is not defined\n"
        "#endif\n"
        "kernel void k(global int* p) { p[0] = SCALE + EXTRA; }\n");
  ClcRun run = clc("--emit-kernel-spirv -I inc -Imore -DFACTOR=3 -D FLAG k.cl -o k.kspv");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(magic("k.kspv"), kSpirvMagic);

  ClcRun without_define = clc("--emit-kernel-spirv -I inc -Imore -DFACTOR=3 k.cl -o k2.kspv");
  EXPECT_NE(without_define.exit_code, 0);
  EXPECT_NE(without_define.err.find("k.cl:4:2: error: FLAG is not defined"), std::string::npos) << without_define.err;
  EXPECT_FALSE(exists("k2.kspv"));

  ClcRun without_include = clc("--emit-kernel-spirv -Imore -DFACTOR=3 -DFLAG k.cl -o k3.kspv");
  EXPECT_NE(without_include.exit_code, 0);
  EXPECT_NE(without_include.err.find("k.cl:1:10: fatal error: 'scale.h' file not found"), std::string::npos)
      << without_include.err;
}

TEST_F(ClcTest, ClStdSelectsTheLanguageVersion) {
  // Generic address space and program-scope globals need OpenCL C 2.0.
  write("k.cl",
        "#if __OPENCL_C_VERSION__ < 200\n"
        "#error needs OpenCL C 2.0\n"
        "#endif\n"
        "kernel void k(global int* p) { p[0] = __OPENCL_C_VERSION__; }\n");
  EXPECT_NE(clc("--emit-kernel-spirv k.cl -o a.kspv").exit_code, 0);
  EXPECT_EQ(clc("--emit-kernel-spirv -cl-std=CL2.0 k.cl -o b.kspv").exit_code, 0);
  EXPECT_EQ(clc("--emit-kernel-spirv -cl-std=CL3.0 k.cl -o c.kspv").exit_code, 0);
}

// ---------------------------------------------------------------------------
// Builtins, inlining and the checks before translation

TEST_F(ClcTest, NonConstantBarrierFlagsNameTheCallSite) {
  write("nc.cl",
        "kernel void k(global int* p, uint flags) {\n"
        "  p[0] = 1;\n"
        "  barrier(flags);\n"  // line 3, column 3
        "}\n");
  for (const char* level : {"-O2", "-O0"}) {
    ClcRun run = clc(std::string("--emit-kernel-spirv ") + level + " nc.cl -o nc.kspv");
    EXPECT_NE(run.exit_code, 0) << level;
    EXPECT_NE(run.err.find("nc.cl:3:3: error: barrier/fence flags, memory order and memory scope must be "
                           "compile-time constants"),
              std::string::npos)
        << level << ": " << run.err;
    EXPECT_FALSE(exists("nc.kspv")) << level;
  }
}

TEST_F(ClcTest, NonConstantFenceInHelperNamesTheInnermostCall) {
  write("nc.cl",
        "void publish(global int* p, cl_mem_fence_flags f) {\n"
        "  p[0] = 1;\n"
        "  mem_fence(f);\n"  // line 3, column 3
        "}\n"
        "kernel void k(global int* p, uint f) { publish(p, f); }\n");
  ClcRun run = clc("--emit-kernel-spirv nc.cl -o nc.kspv");
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.err.find("nc.cl:3:3: error: barrier/fence flags"), std::string::npos) << run.err;
}

TEST_F(ClcTest, ConstantFlagsThroughHelpersCompile) {
  write("c.cl",
        "void sync(cl_mem_fence_flags f) { barrier(f); }\n"
        "kernel void k(global int* p) {\n"
        "  cl_mem_fence_flags f = CLK_LOCAL_MEM_FENCE;\n"
        "  p[0] = 1;\n"
        "  sync(f | CLK_GLOBAL_MEM_FENCE);\n"
        "}\n");
  for (const char* level : {"-O2", "-O0"}) {
    ClcRun run = clc(std::string("--emit-kernel-spirv ") + level + " c.cl -o c.kspv");
    EXPECT_EQ(run.exit_code, 0) << level << ": " << run.err;
  }
}

TEST_F(ClcTest, BarriersInBothArmsOfAnIfAreNotMergedIntoANonConstantOne) {
  // SimplifyCFG would otherwise sink both calls into one whose semantics
  // operand is a phi of the two constants.
  write("s.cl",
        "void sync(cl_mem_fence_flags f) { barrier(f); }\n"
        "kernel void k(global int* p, int x) {\n"
        "  if (x) { p[1] = 2; barrier(CLK_LOCAL_MEM_FENCE); } else { p[2] = 3; barrier(CLK_GLOBAL_MEM_FENCE); }\n"
        "  if (x > 1) mem_fence(CLK_LOCAL_MEM_FENCE); else mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
        "  if (x > 2) sync(CLK_LOCAL_MEM_FENCE); else sync(CLK_GLOBAL_MEM_FENCE);\n"
        "}\n");
  for (const char* level : {"-O2", "-O0"}) {
    ClcRun run = clc(std::string("--emit-kernel-spirv ") + level + " s.cl -o s.kspv");
    EXPECT_EQ(run.exit_code, 0) << level << ": " << run.err;
  }
}

TEST_F(ClcTest, NonConstantBarrierInHelpersHasInliningNotes) {
  write("chain.cl",
        "void a(uint f) { mem_fence(f); }\n"
        "void b(uint f) { a(f); }\n"
        "kernel void k(global int* p, uint f) {\n"
        "  b(f);\n"
        "}\n");
  ClcRun run = clc("--emit-kernel-spirv chain.cl -o c.kspv");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err,
            "chain.cl:1:18: error: barrier/fence flags, memory order and memory scope must be compile-time constants\n"
            "chain.cl:2:18: note: 'a' is called here\n"
            "chain.cl:4:3: note: 'b' is called here\n"
            "1 error generated.\n");
}

TEST_F(ClcTest, InvalidWorkItemScopeIsAnErrorAtTheCall) {
  write("f.cl",
        "kernel void k(global int* p) {\n"
        "  p[0] = 1;\n"
        "  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_item);\n"
        "}\n");
  ClcRun run = clc("--emit-kernel-spirv -cl-std=CL2.0 f.cl -o f.kspv");
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.err.find("f.cl:3:3: error: memory_scope_work_item is only valid in atomic_work_item_fence with flags CLK_IMAGE_MEM_FENCE alone"),
            std::string::npos)
      << run.err;
}

// One test per rule the builtins enforce: the message, at the user's call.
TEST_F(ClcTest, InvalidSynchronizationArgumentsAreErrorsAtTheCall) {
  const struct {
    const char* call;
    const char* message;
  } cases[] = {
      {"barrier(8)", "invalid cl_mem_fence_flags value"},
      {"mem_fence(CLK_LOCAL_MEM_FENCE | 16)", "invalid cl_mem_fence_flags value"},
      {"atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, (memory_order)1, memory_scope_device)", "invalid memory_order value"},
      {"atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, (memory_scope)7)",
       "invalid or unsupported memory_scope value"},
      {"atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_relaxed, memory_scope_work_item)",
       "memory_scope_work_item is only valid in atomic_work_item_fence with flags CLK_IMAGE_MEM_FENCE alone"},
      {"work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_work_item)",
       "memory_scope_work_item is only valid in atomic_work_item_fence"},
      {"sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_item)",
       "memory_scope_work_item is only valid in atomic_work_item_fence"},
      {"work_group_barrier(CLK_IMAGE_MEM_FENCE, memory_scope_device)",
       "work_group_barrier with CLK_IMAGE_MEM_FENCE needs memory_scope_work_group"},
  };
  for (const auto& c : cases) {
    write("s.cl", std::string("kernel void k(global int* p) {\n  p[0] = 1;\n  ") + c.call + ";\n}\n");
    ClcRun run = clc("-cl-std=CL3.0 s.cl");
    EXPECT_EQ(run.exit_code, 1) << c.call;
    EXPECT_NE(run.err.find(std::string("s.cl:3:3: error: ") + c.message), std::string::npos) << c.call << "\n" << run.err;
    EXPECT_FALSE(exists("s.spv")) << c.call;
  }
}

TEST_F(ClcTest, PrintfIsNotSupported) {
  write("p.cl",
        "kernel void k(global int* p) {\n"
        "  p[0] = 1;\n"
        "  printf(\"%d\\n\", p[0]);\n"
        "}\n");
  ClcRun run = clc("--emit-kernel-spirv p.cl -o p.kspv");
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.err.find("p.cl:3:3: error: printf is not supported"), std::string::npos) << run.err;
  EXPECT_FALSE(exists("p.kspv"));
}

TEST_F(ClcTest, ImagesAndDeviceSideEnqueueAreNotSupported) {
  write("i.cl",
        "kernel void k(read_only image2d_t image, sampler_t s, global float4* o) {\n"
        "  o[0] = read_imagef(image, s, (int2)(0, 0));\n"
        "}\n");
  ClcRun images = clc("--emit-kernel-spirv i.cl -o i.kspv");
  EXPECT_NE(images.exit_code, 0);
  EXPECT_NE(images.err.find("i.cl:2:10: error: images are not supported ('read_imagef')"), std::string::npos)
      << images.err;

  write("e.cl",
        "kernel void k(global int* p) {\n"
        "  enqueue_kernel(get_default_queue(), 0, ndrange_1D(1), ^{ p[0] = 1; });\n"
        "}\n");
  ClcRun enqueue = clc("--emit-kernel-spirv -cl-std=CL2.0 e.cl -o e.kspv");
  EXPECT_NE(enqueue.exit_code, 0);
  EXPECT_NE(enqueue.err.find("e.cl:2:3: error: device-side enqueue is not supported ('enqueue_kernel')"),
            std::string::npos)
      << enqueue.err;
}

TEST_F(ClcTest, ProgramWithoutKernelIsAnError) {
  write("empty.cl", "");
  ClcRun run = clc("empty.cl");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "empty.cl: error: no kernel to compile: the program defines no __kernel function\n");
  EXPECT_FALSE(exists("empty.spv"));
}

TEST_F(ClcTest, UndefinedFunctionIsAnErrorAtTheCall) {
  write("u.cl",
        "int helper(int x);\n"
        "kernel void k(global int* p) {\n"
        "  p[0] = helper(p[1]);\n"  // column 10
        "}\n");
  ClcRun run = clc("--emit-kernel-spirv u.cl -o u.kspv");
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.err.find("u.cl:3:10: error: 'helper' is not supported"), std::string::npos) << run.err;
}

TEST_F(ClcTest, RecursionIsAnError) {
  write("r.cl",
        "int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\n"
        "kernel void k(global int* p) { p[0] = fact(p[1]); }\n");
  ClcRun run = clc("--emit-kernel-spirv r.cl -o r.kspv");
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.err.find("r.cl:1:43: error: recursive call to 'fact'"), std::string::npos) << run.err;
}

TEST_F(ClcTest, KernelMayCallKernel) {
  write("kk.cl",
        "kernel void inner(global int* p) { p[get_global_id(0)] += 1; }\n"
        "kernel void outer(global int* p) { inner(p); inner(p); }\n");
  ClcRun run = clc("--emit-kernel-spirv kk.cl -o kk.kspv");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(magic("kk.kspv"), kSpirvMagic);
}

TEST_F(ClcTest, TranslatorBuiltinsAreAllowed) {
  write("b.cl",
        "kernel void k(global float* f, global int* i) {\n"
        "  size_t g = get_global_id(0);\n"
        "  f[g] = sqrt(f[g]) + fma(f[g], 2.0f, 1.0f) + convert_float(i[g]);\n"
        "  atomic_add(i, 1);\n"
        "}\n");
  ClcRun run = clc("--emit-kernel-spirv b.cl -o b.kspv");
  EXPECT_EQ(run.exit_code, 0) << run.err;
}

TEST_F(ClcTest, TranslatorRejectionIsACompileErrorNotAnExit) {
  // SPIRV-LLVM-Translator 15 calls exit() on input it cannot translate.
  write("t.cl", "kernel void k(global ulong* p) { p[0] = __builtin_readcyclecounter(); }\n");
  ClcRun run = clc("--emit-kernel-spirv t.cl -o t.kspv");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "t.cl: error: SPIR-V translation failed: InvalidFunctionCall: Unexpected llvm intrinsic: "
                     "llvm.readcyclecounter\n");
  EXPECT_FALSE(exists("t.kspv"));
}

// ---------------------------------------------------------------------------
// Outputs

TEST_F(ClcTest, DefaultOutputIsInputStemInWorkingDirectory) {
  write("src/kern.cl", "kernel void k(global int* p) { p[0] = 1; }\n");
  ClcRun run = clc("--emit-kernel-spirv src/kern.cl");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(magic("kern.spv"), kSpirvMagic);
  EXPECT_FALSE(exists("kern.spv.reflection"));  // kernel SPIR-V has no reflection
}

TEST_F(ClcTest, StandardInputDefaultsToASpv) {
  write("k.txt", "kernel void k(global int* p) { p[0] = 1; }\n");
  ClcRun run = clc("--emit-kernel-spirv -", "k.txt");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(magic("a.spv"), kSpirvMagic);
}

// Needs the full lowering (spirv/lower_to_vulkan).
TEST_F(ClcTest, CompilesExampleToVulkanSpirvAndReflection) {
  fs::copy_file(fs::path(VKCL_SOURCE_DIR) / "shaders/examples/reduce.cl", dir_ / "reduce.cl");
  for (const char* options : {"", "-O0", "--memory-model=glsl450", "-cl-std=CL3.0"}) {
    ClcRun run = clc(std::string(options) + " reduce.cl -o out/reduce.spv");
    // -o into a directory that does not exist fails cleanly.
    EXPECT_NE(run.exit_code, 0);
    fs::create_directories(dir_ / "out");
    run = clc(std::string(options) + " reduce.cl -o out/reduce.spv");
    ASSERT_EQ(run.exit_code, 0) << options << ": " << run.err;
    EXPECT_EQ(magic("out/reduce.spv"), kSpirvMagic);
    const std::string reflection = read("out/reduce.spv.reflection");
    EXPECT_EQ(reflection.rfind("vkcl-reflection 1\n", 0), 0u) << reflection;
    EXPECT_NE(reflection.find("kernel reduce\n"), std::string::npos) << reflection;
    fs::remove_all(dir_ / "out");
  }
}

TEST_F(ClcTest, KernelScopeLocalMemoryIsInTheReflection) {
  // Each kernel counts the __local arrays it uses (through helpers too), at
  // every optimization level; the host adds its __local arguments at enqueue.
  write("l.cl",
        "void fill(local float* tile, global float* p) { tile[get_local_id(0)] = p[get_global_id(0)]; }\n"
        "kernel void two(global float* p) {\n"
        "  local float a[256];\n"
        "  local int b[100];\n"
        "  fill(a, p);\n"
        "  b[get_local_id(0)] = 1;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  p[get_global_id(0)] = a[3] + b[5];\n"
        "}\n"
        "kernel void none(global float* p) { p[0] = 1.0f; }\n");
  for (const char* options : {"", "-O0"}) {
    ClcRun run = clc(std::string(options) + " l.cl");
    ASSERT_EQ(run.exit_code, 0) << options << ": " << run.err;
    const std::string reflection = read("l.spv.reflection");
    const size_t two = reflection.find("kernel two\n"), none = reflection.find("kernel none\n");
    ASSERT_NE(two, std::string::npos) << reflection;
    ASSERT_NE(none, std::string::npos) << reflection;
    EXPECT_EQ(reflection.find("static_local_memory 1424\n", two), reflection.find("static_local_memory", two))
        << options << ": " << reflection;
    EXPECT_EQ(reflection.find("static_local_memory 0\n", none), reflection.find("static_local_memory", none))
        << options << ": " << reflection;
  }
}

}  // namespace
