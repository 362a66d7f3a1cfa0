// SPDX-License-Identifier: MIT
// The loader and the session API against toolkit-style kernel libraries (kernels/test_scale_kernel.c).
#include <rknnop/host/container.hpp>
#include <rknnop/host/elf.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/error.hpp>
#include <rknnop/host/isolation.hpp>  // node_execution
#include <rknnop/host/session.hpp>
#include <rknnop/vx_type.hpp>

#include "test_util.hpp"

#include <cstdlib>
#include <filesystem>

namespace {

namespace fs = std::filesystem;
using namespace rknnop::host;
using rknnop::vx_type;

using rknnop_test::data_dir;
const fs::path yml = data_dir / "testscale.yml";
const fs::path py = data_dir / "rknn_op_testscale.py";

load_options with_yml(std::optional<std::uint32_t> kernel_index = {}) {
  load_options o;
  o.op_yml = yml;
  o.kernel_index = kernel_index;
  return o;
}

session ready_session(const fs::path& library = RKNNOP_TEST_SCALE_SO) {
  session s = session::load(library, with_yml());
  const std::vector<float> in{1, 2, 3, 4, 5, 6};
  s.set_input("input", in, {1, 2, 3});
  s.set_param("bias", {1});
  s.set_param("scale", 2.0f);
  s.set_param("negate", false);
  return s;
}

// A container holding `host_library` in the section this host's loader takes (x86-64 on the PC,
// aarch64 / armhf under qemu in the cross builds).
fs::path make_rknnop(const fs::path& dir, const fs::path& host_library, std::uint64_t version = 2) {
  container c;
  c.version = version;
  if (!host_library.empty()) c.section(library_section_for(host_machine(), version, "test")) = read_file(host_library);
  c.op_yml = read_file(yml);
  c.op_py = read_file(py);
  const fs::path out = dir / "TestScale.rknnop";
  write_container_file(c, out);
  return out;
}

std::size_t count_files(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

TEST(Session, RunsAKernelLibraryWithOpYml) {
  session s = ready_session();
  EXPECT_EQ(s.op().name, "TestScale");
  EXPECT_EQ(s.kernel().name, "testscale_cpu");
  EXPECT_EQ(s.kernel().list_size, 2u);
  EXPECT_FALSE(s.kernel().is_shader);
  // The loader wrote the enumeration into the library's descriptor, as the board runtime does.
  EXPECT_EQ(s.kernel().enumeration, loader_kernel_enumeration);

  const run_report report = s.run();
  ASSERT_EQ(report.steps.size(), 4u);
  const char* names[] = {"validate", "initialize", "kernel", "deinitialize"};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(report.steps[i].step, names[i]);
    EXPECT_TRUE(report.steps[i].called) << names[i];
    EXPECT_EQ(report.steps[i].status, 0) << names[i];
  }
  const tensor_result& out = s.output("output");
  EXPECT_EQ(out.values, (std::vector<float>{3, 5, 7, 9, 11, 13}));
  EXPECT_EQ(out.shape, (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(out.dims, (std::vector<std::uint32_t>{3, 2, 1}));
  EXPECT_EQ(out.vx_type, vx_type::float16);
  EXPECT_EQ(s.output_npy("output").dtype, npy_dtype::float16);

  // Params can change between runs; string values parse with op.yml's types.
  s.set_param("negate", std::string_view("true"));
  s.set_param("bias", std::string_view("0"));
  s.run();
  EXPECT_EQ(s.output("output").values, (std::vector<float>{-2, -4, -6, -8, -10, -12}));
}

TEST(Session, RunsTheX86SectionOfARknnopAndLeavesNoTemporaryFile) {
  const fs::path dir = rknnop_test::work_dir("session_rknnop");
  const fs::path tmp = dir / "tmp";
  fs::create_directories(tmp);
  const fs::path op = make_rknnop(dir, RKNNOP_TEST_SCALE_SO);
  const std::string old_tmpdir = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "";
  ::setenv("TMPDIR", tmp.c_str(), 1);
  session s = session::load(op);  // op.yml from the container
  if (old_tmpdir.empty())
    ::unsetenv("TMPDIR");
  else
    ::setenv("TMPDIR", old_tmpdir.c_str(), 1);
  EXPECT_EQ(count_files(tmp), 0u);

  s.set_input("input", std::vector<float>{0.5f, -1.0f}, {2});
  s.set_param("bias", {0});
  s.set_param("scale", 4);
  s.set_param("negate", 1);
  s.run();
  EXPECT_EQ(s.output("output").values, (std::vector<float>{-2, 4}));
}

TEST(Session, FindsOpYmlBesideTheLibrary) {
  const fs::path dir = rknnop_test::work_dir("session_beside");
  fs::copy_file(RKNNOP_TEST_SCALE_SO, dir / "libtestscale.so");
  RKNNOP_EXPECT_ERROR(session::load(dir / "libtestscale.so"), "libtestscale.so: no op.yml given (--op-yml)",
                      "none beside the library");
  fs::copy_file(yml, dir / "op.yml");
  EXPECT_EQ(session::load(dir / "libtestscale.so").op().name, "TestScale");
}

TEST(Session, NpyInputsAndOutputsAndOutputShapes) {
  const fs::path dir = rknnop_test::work_dir("session_npy");
  write_npy_file(npy_array::from_floats(std::vector<float>{1, 2, 3, 4}, {1, 2, 2, 1}), dir / "in.npy");
  session s = ready_session();
  s.set_input("input", dir / "in.npy");
  s.set_output_shape("output", {1, 2, 2, 1});
  s.run();
  write_npy_file(s.output_npy("output"), dir / "out.npy");
  const npy_array out = read_npy_file(dir / "out.npy");
  EXPECT_EQ(out.shape, (std::vector<std::size_t>{1, 2, 2, 1}));
  EXPECT_EQ(out.to_floats(), (std::vector<float>{3, 5, 7, 9}));
}

TEST(Session, DescribeListsTheParameterTable) {
  const std::string text = session::load(RKNNOP_TEST_SCALE_SO, with_yml()).describe();
  EXPECT_NE(text.find("op TestScale: kernel_index 0 of 2 in vx_kernel_TestScale_list: 'testscale_cpu' (CPU kernel), "
                      "enumeration 0xfff03080, numParams 5"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("3 param  scale                VX_TYPE_FLOAT32  descriptor {VX_INPUT, VX_TYPE_SCALAR, REQUIRED}"),
            std::string::npos)
      << text;
}

// --- loading errors ---------------------------------------------------------------------------

TEST(SessionLoad, MissingFile) {
  RKNNOP_EXPECT_ERROR(session::load("/nonexistent/libop.so", with_yml()), "cannot open '/nonexistent/libop.so'",
                      "No such file or directory");
}

TEST(SessionLoad, NotAnElf) {
  RKNNOP_EXPECT_ERROR(session::load(yml, with_yml()),
                      "testscale.yml: neither a kernel library (ELF) nor a .rknnop "
                      "container (starts with 6e 61 6d 65)");
}

#ifdef RKNNOP_TEST_aarch64_SO
TEST(SessionLoad, ElfOfAnotherArchitecture) {
  RKNNOP_EXPECT_ERROR(session::load(RKNNOP_TEST_aarch64_SO, with_yml()),
                      "library is for aarch64 (ELF64 aarch64 shared object) but this host is x86-64");
}
#endif

TEST(SessionLoad, LibraryWithoutTheListSymbol) {
  RKNNOP_EXPECT_ERROR(session::load(RKNNOP_TEST_SCALE_NOLIST_SO, with_yml()),
                      "does not export vx_kernel_TestScale_list (op.yml name is 'TestScale'); it exports "
                      "vx_kernel_Other_list");
}

TEST(SessionLoad, ListWithNullFirstEntry) {
  RKNNOP_EXPECT_ERROR(session::load(RKNNOP_TEST_SCALE_NULLFIRST_SO, with_yml()),
                      "vx_kernel_TestScale_list is empty: its first entry is NULL");
}

TEST(SessionLoad, KernelIndexOutOfRange) {
  RKNNOP_EXPECT_ERROR(session::load(RKNNOP_TEST_SCALE_SO, with_yml(2)),
                      "kernel_index 2 is out of range: vx_kernel_TestScale_list has 2 kernels (0..1)");
}

TEST(SessionLoad, NumParamsMismatch) {
  RKNNOP_EXPECT_ERROR(session::load(RKNNOP_TEST_SCALE_BADNUM_SO, with_yml()),
                      "kernel 'testscale_cpu' (index 0 of vx_kernel_TestScale_list) has numParams 4 but op.yml "
                      "declares 5 (1 input, 1 output, 3 params)");
}

TEST(SessionLoad, ConstDescriptorIsReportedNotWritten) {
  RKNNOP_EXPECT_ERROR(session::load(RKNNOP_TEST_SCALE_CONST_SO, with_yml()),
                      "descriptor 0 of vx_kernel_TestScale_list is in read-only memory", "must not be const/constexpr");
}

TEST(SessionLoad, ParameterTableMustMatchOpYml) {
  const fs::path dir = rknnop_test::work_dir("session_table");
  write_file_atomically(dir / "op.yml",
                        std::string_view("name: TestScale\ninputs: {input: {type: VX_TYPE_TENSOR}}\noutputs: {output: "
                                         "{type: VX_TYPE_TENSOR}}\nparams:\n  bias: {type: VX_TYPE_ARRAY}\n  scale: "
                                         "{type: VX_TYPE_ARRAY}\n  negate: {type: VX_TYPE_BOOL}\n"));
  load_options o;
  o.op_yml = dir / "op.yml";
  RKNNOP_EXPECT_ERROR(session::load(RKNNOP_TEST_SCALE_SO, o),
                      "kernel 'testscale_cpu' parameter 3 is {VX_INPUT, VX_TYPE_SCALAR} but op.yml's param 'scale' "
                      "(VX_TYPE_ARRAY) needs {VX_INPUT, VX_TYPE_ARRAY}");
}

TEST(SessionLoad, CorruptOrEmptyRknnop) {
  const fs::path dir = rknnop_test::work_dir("session_corrupt");
  const fs::path op = make_rknnop(dir, RKNNOP_TEST_SCALE_SO);
  auto bytes = read_file(op);
  bytes.resize(bytes.size() - 3);
  write_file_atomically(dir / "cut.rknnop", bytes);
  RKNNOP_EXPECT_ERROR(session::load(dir / "cut.rknnop"), "cut.rknnop: section 6 (.py)", "but only");
  const fs::path empty_dir = dir / "empty";
  fs::create_directories(empty_dir);
  const std::string empty =
      "the " + std::string(section_description(library_section_for(host_machine(), 2, "test"))) + " section is empty";
  RKNNOP_EXPECT_ERROR(session::load(make_rknnop(empty_dir, {})), empty);
}

// --- the one door: an op from bytes and a label (op_source) ---------------------------------------

TEST(SessionLoad, BytesWithALabelRunAndTheLabelNamesThem) {
  // A container's bytes, named by a label that is no file: the loader's messages name the label only.
  const fs::path dir = rknnop_test::work_dir("session_op_source");
  const op_source packed{read_file(make_rknnop(dir, RKNNOP_TEST_SCALE_SO)), "model.rknn: op 'TestScale'", {}};
  {  // in this process; the runner's side: tests/host/test_isolation.cpp
    load_options o;
    o.execution = node_execution::in_process;
    session s = session::load(packed, o);
    EXPECT_EQ(s.op().name, "TestScale");
    o.kernel_index = 2;
    try {
      (void)session::load(packed, o);
      ADD_FAILURE() << "kernel_index 2 loaded";
    } catch (const error& e) {
      const std::string text = e.detail();
      // This host's section: x86-64 natively, aarch64 or armhf in the cross tests under qemu.
      const std::string section(section_description(library_section_for(host_machine(), 2, "test")));
      EXPECT_TRUE(
          text.starts_with("model.rknn: op 'TestScale' (" + section + " section): kernel_index 2 is out of range"))
          << text;
      EXPECT_EQ(text.find("/proc/self/fd"), std::string::npos) << text;
      EXPECT_EQ(text.find(dir.string()), std::string::npos) << text;
    }
  }
  // Bytes that are no op: the label, not any file.
  RKNNOP_EXPECT_ERROR(session::load(op_source{{'n', 'a', 'm', 'e'}, "in memory", {}}, with_yml()),
                      "in memory: neither a kernel library (ELF) nor a .rknnop container (starts with 6e 61 6d 65)");
}

TEST(SessionLoad, ALibrarysBytesNeedAnOpYmlAndLoadFromMemory) {
  const op_source library{read_file(RKNNOP_TEST_SCALE_SO), "libtestscale (bytes)", {}};
  RKNNOP_EXPECT_ERROR(session::load(library), "libtestscale (bytes): no op.yml given (--op-yml)",
                      "opened from memory has no folder");
  {
    load_options o = with_yml();
    o.execution = node_execution::in_process;
    EXPECT_EQ(session::load(library, o).kernel().name, "testscale_cpu");
    o.kernel_index = 2;
    RKNNOP_EXPECT_ERROR(session::load(library, o), "libtestscale (bytes): kernel_index 2 is out of range");
  }
}

TEST(SessionLoad, APathIsReadThenOpenedUnderItsName) {
  const op_source read = op_source::read(RKNNOP_TEST_SCALE_SO);
  EXPECT_EQ(read.label, std::string(RKNNOP_TEST_SCALE_SO));
  ASSERT_TRUE(read.file.has_value());
  EXPECT_EQ(*read.file, fs::path(RKNNOP_TEST_SCALE_SO));
  EXPECT_EQ(read.bytes, read_file(RKNNOP_TEST_SCALE_SO));
}

// --- inputs, params, outputs ------------------------------------------------------------------

TEST(SessionInputs, NpyErrorsNameTheFile) {
  const fs::path dir = rknnop_test::work_dir("session_npy_errors");
  session s = session::load(RKNNOP_TEST_SCALE_SO, with_yml());
  const char bad[] = "\x93NUMPY\x01\x00\x05\x00{'a'}";
  write_file_atomically(dir / "bad.npy", std::string_view(bad, sizeof bad - 1));
  RKNNOP_EXPECT_ERROR(s.set_input("input", dir / "bad.npy"), "bad.npy: bad .npy header");
  std::vector<std::uint8_t> image = serialize_npy(npy_array::from_floats(std::vector<float>{1, 2}, {1, 2}));
  const std::string text(image.begin(), image.end());
  std::string fortran = text;
  fortran.replace(fortran.find("False"), 5, "True ");
  write_file_atomically(dir / "fortran.npy", std::string_view(fortran));
  RKNNOP_EXPECT_ERROR(s.set_input("input", dir / "fortran.npy"),
                      "fortran.npy: Fortran-order .npy arrays are not supported");
  std::string doubles = text;
  doubles.replace(doubles.find("<f4"), 3, "<f8");
  doubles.append(8, '\0');
  write_file_atomically(dir / "f8.npy", std::string_view(doubles));
  RKNNOP_EXPECT_ERROR(s.set_input("input", dir / "f8.npy"), "f8.npy: unsupported .npy dtype '<f8'");
  write_npy_file(npy_array::from_floats(std::vector<float>{1}, {1, 1, 1, 1, 1, 1, 1}), dir / "rank7.npy");
  const std::string rank7 =
      "input 'input' (" + (dir / "rank7.npy").string() + "): rank 7 is not supported: OpenVX tensors have 1 to 6 dims";
  RKNNOP_EXPECT_ERROR(s.set_input("input", dir / "rank7.npy"), rank7);
  write_npy_file(npy_array::from_floats(std::vector<float>{1}, {}), dir / "rank0.npy");
  RKNNOP_EXPECT_ERROR(s.set_input("input", dir / "rank0.npy"), "rank 0 is not supported");
  npy_array ints;
  ints.dtype = npy_dtype::int32;
  ints.shape = {1};
  ints.data.resize(4);
  RKNNOP_EXPECT_ERROR(s.set_input("input", ints, vx_type::int8),
                      "input 'input': cannot store <i4 data in a VX_TYPE_INT8 tensor");
  RKNNOP_EXPECT_ERROR(s.set_input("input", ints, vx_type::float64), "tensor type VX_TYPE_FLOAT64 is not supported");
}

TEST(SessionParams, WrongKindTypeRangeAndText) {
  session s = session::load(RKNNOP_TEST_SCALE_SO, with_yml());
  RKNNOP_EXPECT_ERROR(s.set_param("scale", std::string_view("1,2")),
                      "param 'scale': expected VX_TYPE_FLOAT32 (a finite number), got '1,2'");
  RKNNOP_EXPECT_ERROR(s.set_param("bias", std::string_view("true")),
                      "param 'bias': expected VX_TYPE_ARRAY of int32 like 64,64, got 'true'");
  RKNNOP_EXPECT_ERROR(s.set_param("scale", parse_param_value("scale", vx_type::int32, "1")),
                      "param 'scale': expected VX_TYPE_FLOAT32 (op.yml), got a VX_TYPE_INT32 value");
  RKNNOP_EXPECT_ERROR(s.set_param("scale", std::string_view("fast")), "got 'fast'");
  RKNNOP_EXPECT_ERROR(s.set_param("scale", std::string_view("1e40")), "got '1e40' (out of range)");
  RKNNOP_EXPECT_ERROR(s.set_param("bias", std::string_view("1,99999999999")), "is out of int32 range");
  RKNNOP_EXPECT_ERROR(s.set_param("negate", 2), "param 'negate': expected VX_TYPE_BOOL (true/false/1/0), got 2");
  RKNNOP_EXPECT_ERROR(s.set_param("negate", 0.5), "got a floating-point number (0.5)");
}

TEST(SessionNames, UnknownAndMisplacedNames) {
  session s = session::load(RKNNOP_TEST_SCALE_SO, with_yml());
  RKNNOP_EXPECT_ERROR(s.set_input("inptu", std::vector<float>{1}, {1}),
                      "op 'TestScale' has no input 'inptu' (inputs: input)");
  RKNNOP_EXPECT_ERROR(s.set_param("size", std::string_view("1")),
                      "op 'TestScale' has no param 'size' (params: bias, scale, negate)");
  RKNNOP_EXPECT_ERROR(s.set_param("input", std::string_view("1")), "has no param 'input'", "'input' is an input");
  RKNNOP_EXPECT_ERROR(s.set_output_shape("out", {1}), "op 'TestScale' has no output 'out' (outputs: output)");
  RKNNOP_EXPECT_ERROR((void)s.output("bias"), "has no output 'bias'", "'bias' is a param");
  RKNNOP_EXPECT_ERROR((void)s.output("output"), "output 'output' of op 'TestScale' is not available");
}

TEST(SessionRun, MissingInputsAndParams) {
  session s = session::load(RKNNOP_TEST_SCALE_SO, with_yml());
  s.set_param("scale", 1.0);
  RKNNOP_EXPECT_ERROR(s.run(),
                      "op 'TestScale' (kernel 'testscale_cpu'): not set: input 'input', param 'bias', param "
                      "'negate'");
}

TEST(SessionRun, KernelErrorMessagesReachTheCaller) {
  session s = ready_session();
  s.set_param("scale", 0.0);
  RKNNOP_EXPECT_ERROR(s.run(),
                      "op 'TestScale' (kernel 'testscale_cpu'): kernel failed with VX_ERROR_INVALID_VALUE "
                      "(-16): TestScale: scale must not be 0");
  // An array of the wrong length is the kernel's to judge: its message comes through.
  s.set_param("scale", 1.0);
  s.set_param("bias", {1, 2});
  RKNNOP_EXPECT_ERROR(s.run(),
                      "kernel failed with VX_ERROR_INVALID_PARAMETERS (-10): TestScale: bias must hold "
                      "exactly 1 item, got 2");
}

TEST(SessionRun, ValidatorErrorAndOutputShapeConflict) {
  session s = ready_session();
  s.set_input("input", std::vector<float>{1, 2}, {2}, vx_type::float32);
  RKNNOP_EXPECT_ERROR(s.run(),
                      "validate failed with VX_ERROR_INVALID_TYPE (-17): TestScale: input must be a float16 "
                      "tensor, got type 10");
  s.set_input("input", std::vector<float>{1, 2}, {2});
  s.set_output_shape("output", {3});
  RKNNOP_EXPECT_ERROR(s.run(), "graph verification failed with VX_ERROR_INVALID_DIMENSION (-15)",
                      "the validator expects dims [2]");
}

TEST(SessionRun, ShaderKernelWithoutExecutor) {
  session s = session::load(RKNNOP_TEST_SCALE_SO, with_yml(1));
  EXPECT_TRUE(s.kernel().is_shader);
  EXPECT_EQ(s.kernel().name, "testscale");
  s.set_input("input", std::vector<float>{1}, {1});
  s.set_param("bias", {1});
  s.set_param("scale", 2.0);
  s.set_param("negate", false);
  RKNNOP_EXPECT_ERROR(s.run(),
                      "shader kernel failed with VX_ERROR_NOT_SUPPORTED (-3): kernel 'testscale' is a "
                      "shader kernel and no shader executor is set");
}

}  // namespace
