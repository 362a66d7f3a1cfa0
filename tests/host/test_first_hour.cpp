// SPDX-License-Identifier: MIT
// What an op author meets in the first hour (issue 23), through the session and rknnop-run:
// param defaults and enum params (examples/mirror_pad), a kernel writing outside its output
// (kernels/wrong_infer.cpp), the precision rule of input conversion, a kernel's error printed once.
#include <rknnop/host/container.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/npy.hpp>
#include <rknnop/host/op_yml.hpp>
#include <rknnop/host/rknn_model.hpp>
#include <rknnop/host/session.hpp>

#include "test_util.hpp"
#include "tool_runner.hpp"

#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace rknnop::host;

session mirror_pad() { return session::load(RKNNOP_MIRROR_PAD_RKNNOP); }

// t = [[1, 2, 3], [4, 5, 6]] of TensorFlow's documentation.
void set_t(session& s) { s.set_input("input", std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3}); }

// --- param defaults and enum params --------------------------------------------------------------

TEST(FirstHour, EnumParamByNameAndItsDefault) {
  session s = mirror_pad();
  set_t(s);
  s.set_param("paddings", "1,1,2,2");
  s.run();  // mode not given: its default member initializer, REFLECT
  EXPECT_EQ(s.output("output").values, (std::vector<float>{6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1,  //
                                                           6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1}));
  s.set_param("mode", "SYMMETRIC");
  s.run();
  EXPECT_EQ(s.output("output").values, (std::vector<float>{2, 1, 1, 2, 3, 3, 2, 2, 1, 1, 2, 3, 3, 2,  //
                                                           5, 4, 4, 5, 6, 6, 5, 5, 4, 4, 5, 6, 6, 5}));
}

#ifdef RKNNOP_LEAKY_RELU_RKNNOP
// docs/first-op.md §3: LeakyRelu (examples/leaky_relu) without --param alpha uses its default 0.2.
TEST(FirstHour, FirstOpWalkThroughResult) {
  session s = session::load(RKNNOP_LEAKY_RELU_RKNNOP);
  s.set_input("features", std::vector<float>{-2.0f, -0.5f, 0.0f, 1.5f}, {1, 4});
  s.run();
  // float16 of -0.4 and -0.1 (the output is float16, as the input tensor was).
  EXPECT_EQ(s.output("activations").values, (std::vector<float>{-0.39990234375f, -0.0999755859375f, 0.0f, 1.5f}));
  s.set_param("alpha", 0.5f);
  s.run();
  EXPECT_EQ(s.output("activations").values, (std::vector<float>{-1.0f, -0.25f, 0.0f, 1.5f}));
}
#endif

TEST(FirstHour, EnumParamRefusesNumbersAndUnknownNames) {
  session s = mirror_pad();
  RKNNOP_EXPECT_ERROR(s.set_param("mode", "1"),
                      "param 'mode': expected one of REFLECT (0), SYMMETRIC (1) (an enum, given by name), got '1'");
  RKNNOP_EXPECT_ERROR(s.set_param("mode", "EDGE"), "expected one of REFLECT (0), SYMMETRIC (1)", "got 'EDGE'");
  RKNNOP_EXPECT_ERROR(s.set_param("mode", 7),
                      "param 'mode': 7 is not a value of the op's enum (expected one of REFLECT (0), SYMMETRIC (1))");
  RKNNOP_EXPECT_ERROR(s.set_param("paddings", "1,1,1,1,1,1,1,1,1,1,1,1,1"), "at most 12 int32 items, got 13");
}

TEST(FirstHour, ParamWithoutDefaultStaysRequired) {
  session s = mirror_pad();
  set_t(s);
  RKNNOP_EXPECT_ERROR(s.run(), "not set: param 'paddings'");
}

TEST(FirstHour, DescribeShowsDtypesLimitsDefaults) {
  const std::string d = mirror_pad().describe();
  EXPECT_NE(d.find("inputs are created as VX_TYPE_FLOAT16 tensors"), std::string::npos) << d;
  EXPECT_NE(d.find("dtypes float32|float16"), std::string::npos) << d;
  EXPECT_NE(d.find("at most 12 int32 items; required"), std::string::npos) << d;
  EXPECT_NE(d.find("enum REFLECT=0, SYMMETRIC=1; default REFLECT"), std::string::npos) << d;
}

TEST(FirstHour, FieldCommentsAreReadStrictly) {
  const std::string body =
      "name: Op\ninputs:\n  x:\n    type: VX_TYPE_TENSOR\noutputs:\n  y:\n    type: VX_TYPE_TENSOR\n"
      "params:\n  m:\n    type: VX_TYPE_INT32\n  a:\n    type: VX_TYPE_ARRAY\n";
  const op_yml op = parse_op_yml(
      "# rknnop-field: x input dtypes=float32,float16 layout=NHWC\n"
      "# rknnop-field: m param enum=REFLECT:0,SYMMETRIC:1 default=SYMMETRIC\n"
      "# rknnop-field: a param items<=4 default=\n" +
          body,
      "op.yml");
  EXPECT_EQ(op.inputs[0].dtypes, (std::vector<std::string>{"float32", "float16"}));
  EXPECT_EQ(op.inputs[0].layout, "NHWC");
  EXPECT_EQ(op.params[0].enumerators, (std::vector<op_yml_enumerator>{{"REFLECT", 0}, {"SYMMETRIC", 1}}));
  EXPECT_EQ(op.params[0].default_text, "SYMMETRIC");
  EXPECT_EQ(op.params[1].items, 4u);
  EXPECT_FALSE(op.params[1].items_exact);
  EXPECT_EQ(op.params[1].default_text, "");
  RKNNOP_EXPECT_ERROR(parse_op_yml("# rknnop-field: z param default=1\n" + body, "op.yml"),
                      "op.yml:1: '# rknnop-field: z': op.yml has no param 'z'");
  RKNNOP_EXPECT_ERROR(parse_op_yml("\n# rknnop-field: m param enum=REFLECT\n" + body, "op.yml"),
                      "op.yml:2: '# rknnop-field: m': 'enum=REFLECT' is not enum=NAME:int32,...");
  RKNNOP_EXPECT_ERROR(parse_op_yml("# rknnop-field: a param colour=red\n" + body, "op.yml"),
                      "'colour=red' is not a key rknnop writes for param VX_TYPE_ARRAY 'a'");
  RKNNOP_EXPECT_ERROR(parse_op_yml("# rknnop-field: a param items<=0\n" + body, "op.yml"),
                      "'items<=0' is not an item count in 1..4096");
}

// --- a kernel writing outside its output ---------------------------------------------------------

TEST(FirstHour, KernelWritingPastTheOutputFails) {
  session s = session::load(RKNNOP_WRONG_INFER_RKNNOP);
  s.set_input("x", std::vector<float>{1, 2, 3, 4, 5}, {5});
  // infer gives 4 elements, cpu writes 5: float (the kernel's type), so byte 16 is the first outside.
  RKNNOP_EXPECT_ERROR(
      s.run(),
      "rknnop: WrongInfer: output 'y': the CPU kernel wrote past the end of its buffer: bytes 16..19 "
      "(from element 4) of a 16-byte buffer of 4 elements; check `cpu`'s indices against size(), then `infer`'s dims");
}

// docs/first-op.md §6: a float output element the kernel left unwritten fails the node (issue 31: a
// kernel driven by a wrong `infer` left three quarters of its output as zeros and rknnop-run exited 0).
TEST(FirstHour, OutputElementsLeftUnwrittenFail) {
  session s = session::load(RKNNOP_WRONG_INFER_RKNNOP);
  s.set_input("x", std::vector<float>{1, 2, 3, 4, 5}, {5});
  s.set_param("shrink", std::int32_t{-2});  // infer: 7 elements; cpu writes 5
  RKNNOP_EXPECT_ERROR(s.run(),
                      "rknnop: WrongInfer: output 'y': the CPU kernel left 2 of 7 elements unwritten, the first at "
                      "element 5 (NumPy index [5]); `cpu` must write every output element");
}

TEST(FirstHour, KernelWritingBeforeTheOutputFails) {
  session s = session::load(RKNNOP_WRONG_INFER_RKNNOP);
  s.set_input("x", std::vector<float>{1, 2, 3, 4, 5}, {5});
  s.set_param("shrink", std::int32_t{0});
  s.set_param("before", std::int32_t{1});
  RKNNOP_EXPECT_ERROR(
      s.run(), "output 'y': the CPU kernel wrote before the start of its buffer: bytes -4..-1 of a 20-byte buffer");
}

TEST(FirstHour, KernelWritingPastItsScratchBufferFails) {
  session s = session::load(RKNNOP_WRONG_INFER_RKNNOP);
  s.set_input("x", std::vector<float>{1, 2, 3, 4, 5}, {5});
  s.set_param("shrink", std::int32_t{0});
  s.set_param("scratch_overrun", true);
  RKNNOP_EXPECT_ERROR(s.run(),
                      "rknnop: WrongInfer: the CPU kernel wrote past the end of an rknnop::buffer: bytes 20..23 "
                      "of a 20-byte buffer");
}

TEST(FirstHour, CorrectKernelPassesTheGuards) {
  session s = session::load(RKNNOP_WRONG_INFER_RKNNOP);
  s.set_input("x", std::vector<float>{1, 2, 3, 4, 5}, {5});
  s.set_param("shrink", std::int32_t{0});
  s.run();
  EXPECT_EQ(s.output("y").values, (std::vector<float>{2, 3, 4, 5, 6}));
}

// --- precision at the boundary -------------------------------------------------------------------

npy_array int32_array(const std::vector<std::int32_t>& values) {
  npy_array a;
  a.dtype = npy_dtype::int32;
  a.shape = {values.size()};
  for (const std::int32_t v : values)
    for (int b = 0; b < 4; ++b) a.data.push_back(static_cast<std::uint8_t>(static_cast<std::uint32_t>(v) >> (8 * b)));
  return a;
}

TEST(FirstHour, LossyConversionIsAnErrorNamingTheElement) {
  session s = mirror_pad();
  RKNNOP_EXPECT_ERROR(
      s.set_input("input", int32_array({1, 2049, 100000, 4})),
      "input 'input': element 2 (index [2]) = 100000 overflows to inf converting <i4 to VX_TYPE_FLOAT16",
      "--allow-lossy");
  RKNNOP_EXPECT_ERROR(s.set_input("input", std::vector<float>{1.0f, 1e-8f}, {2}),
                      "element 1 (index [1]) = 1e-08 is flushed to zero converting <f4 to VX_TYPE_FLOAT16");
  EXPECT_TRUE(s.conversion_notes().empty());
}

TEST(FirstHour, RoundingIsOneNoteAndLossCanBeAllowed) {
  session s = mirror_pad();
  s.set_input("input", int32_array({1, 2049, 3}));  // 2049 rounds to 2048 in float16
  ASSERT_EQ(s.conversion_notes().size(), 1u);
  EXPECT_EQ(
      s.conversion_notes()[0],
      "input 'input': 1 of 3 values rounded converting <i4 to VX_TYPE_FLOAT16 (largest relative change 0.000488)");
  s.allow_lossy(true);
  s.set_input("input", int32_array({100000, 1}));
  ASSERT_EQ(s.conversion_notes().size(), 2u);
  EXPECT_NE(s.conversion_notes()[1].find("1 lost (overflow, NaN or flushed to zero), allowed"), std::string::npos)
      << s.conversion_notes()[1];
  // The data's own dtype converts nothing.
  session exact = mirror_pad();
  exact.set_input("input", std::vector<float>{0.1f, 2049.0f}, {2}, tensor_type_of_data);
  EXPECT_TRUE(exact.conversion_notes().empty());
}

// --- rknnop-run ----------------------------------------------------------------------------------

class FirstHourTool : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = rknnop_test::work_dir(std::string("first_hour_") +
                                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
    in_ = (dir_ / "t.npy").string();
    write_npy_file(npy_array::from_floats(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3}), in_);
  }
  rknnop_test::tool_result run(std::vector<std::string> args) {
    return rknnop_test::run_tool(RKNNOP_RUN_EXE, args, dir_);
  }
  fs::path dir_;
  std::string in_;
};

TEST_F(FirstHourTool, EnumByNameAndDefaultFromTheCommandLine) {
  const auto r = run({RKNNOP_MIRROR_PAD_RKNNOP, "-i", "input=" + in_, "-p", "paddings=1,1,2,2", "-p", "mode=SYMMETRIC",
                      "-o", "output=" + (dir_ / "o.npy").string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_npy_file(dir_ / "o.npy").to_floats(),
            (std::vector<float>{2, 1, 1, 2, 3, 3, 2, 2, 1, 1, 2, 3, 3, 2, 5, 4, 4, 5, 6, 6, 5, 5, 4, 4, 5, 6, 6, 5}));
  const auto number = run({RKNNOP_MIRROR_PAD_RKNNOP, "-i", "input=" + in_, "-p", "paddings=1,1,2,2", "-p", "mode=0"});
  EXPECT_NE(number.status, 0);
  EXPECT_EQ(number.err,
            "rknnop-run: param 'mode': expected one of REFLECT (0), SYMMETRIC (1) (an enum, given by name), got '0'\n");
}

TEST_F(FirstHourTool, KernelErrorIsPrintedOnce) {
  // REFLECT padding as large as the dimension: MirrorPad's infer refuses it, as TensorFlow does.
  const auto r = run({RKNNOP_MIRROR_PAD_RKNNOP, "-i", "input=" + in_, "-p", "paddings=2,0,0,0"});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(rknnop_test::line_count(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("rknnop-run: op 'MirrorPad'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("must be less than the dimension size 2 in REFLECT mode"), std::string::npos) << r.err;
}

TEST_F(FirstHourTool, OutOfBoundsKernelIsOneLine) {
  const std::string x = (dir_ / "x.npy").string();
  write_npy_file(npy_array::from_floats(std::vector<float>{1, 2, 3, 4, 5}, {5}), x);
  const auto r = run({RKNNOP_WRONG_INFER_RKNNOP, "-i", "x=" + x});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(rknnop_test::line_count(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("rknnop: WrongInfer: output 'y': the CPU kernel wrote past the end of its buffer"),
            std::string::npos)
      << r.err;
}

// Outputs converted to a narrower tensor type (docs/running.md §1): the PC library fails the node at
// the first changed integer or lost float, naming op, output, element and values; --allow-lossy lets it.
TEST_F(FirstHourTool, LossyOutputConversionNeedsAllowLossy) {
  const std::string ones = (dir_ / "ones.npy").string();
  write_npy_file(npy_array::from_floats(std::vector<float>{1, 1, 1}, {3}), ones);
  const auto op_run = [&](const std::string& param, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{RKNNOP_NARROWING_OUTPUT_RKNNOP, "-i", "x=" + ones, "-p", param};
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
  };
  const std::string way_out = "; rknnop-run --allow-lossy (RKNNOP_ALLOW_LOSSY=1) accepts it\n";
  const auto integer = op_run("offset=2047");  // 2047, 2048, 2049: the last has no float16
  EXPECT_NE(integer.status, 0);
  EXPECT_EQ(rknnop_test::line_count(integer.err), 1u) << integer.err;
  EXPECT_NE(integer.err.find("rknnop: NarrowingOutput: output 'count': element 2 (index [2]) = 2049 becomes 2048 "
                             "(VX_TYPE_INT32 to VX_TYPE_FLOAT16)"),
            std::string::npos)
      << integer.err;
  EXPECT_NE(integer.err.find(way_out), std::string::npos) << integer.err;
  EXPECT_EQ(op_run("offset=2046").status, 0);  // 2046, 2047, 2048: exact
  const auto allowed = op_run("offset=2047", {"--allow-lossy", "-o", "count=" + (dir_ / "count.npy").string()});
  ASSERT_EQ(allowed.status, 0) << allowed.err;
  EXPECT_EQ(read_npy_file(dir_ / "count.npy").to_floats(), (std::vector<float>{2047, 2048, 2048}));
  const std::pair<const char*, const char*> floats[] = {
      {"scale=100000", "output 'y': element 0 (index [0]) = 100000 becomes inf (overflow) (VX_TYPE_FLOAT32 to"},
      {"scale=1e-8", "output 'y': element 0 (index [0]) = 1e-08 becomes 0 (flushed to zero)"},
      {"scale=1e-6", "output 'y': element 0 (index [0]) = 1e-06 becomes 1.01328e-06 (subnormal: bits lost)"}};
  for (const auto& [param, message] : floats) {
    const auto r = op_run(param);
    EXPECT_NE(r.status, 0) << param;
    EXPECT_NE(r.err.find(message), std::string::npos) << param << ": " << r.err;
    EXPECT_EQ(op_run(param, {"--allow-lossy"}).status, 0) << param;
  }
  EXPECT_EQ(op_run("scale=0.1").status, 0);  // a normal float16 rounded: no loss

  // Model mode: the op wrapped in a model (float16 tensors), run by rknnop-run MODEL.rknn.
  const std::string model = (dir_ / "narrowing.rknn").string();
  const auto wrapped = rknnop_test::run_tool(
      RKNNOP_PACK_EXE,
      {"wrap", RKNNOP_NARROWING_OUTPUT_RKNNOP, "--input-shape", "x=3", "--param", "offset=2047", "-o", model}, dir_);
  ASSERT_EQ(wrapped.status, 0) << wrapped.err;
  const auto in_model = run({model, "-i", "0=" + ones});
  EXPECT_NE(in_model.status, 0);
  EXPECT_NE(in_model.err.find("output 'count': element 2 (index [2]) = 2049 becomes 2048"), std::string::npos)
      << in_model.err;
  EXPECT_NE(in_model.err.find(way_out), std::string::npos) << in_model.err;
  EXPECT_EQ(run({model, "-i", "0=" + ones, "--allow-lossy"}).status, 0);
}

#ifdef RKNNOP_INT32_OUTPUT_RKNNOP
// An int32-only output (kernels/int32_output.cpp): RKNN v1's rknn_outputs_get cannot return an INT32
// tensor (the board runtime: "Convert2RKNNTensorDataType: Unknow data type:6", rknn_outputs_get -1;
// docs/rknn-model.md §8). The v1 tools say so before the board: describe warns, wrap refuses, --check fails.
TEST_F(FirstHourTool, Int32OnlyOutputIsRefusedForRknnV1) {
  const std::string rule =
      "output 'indices' is int32 only: rknn_outputs_get cannot return it on RKNN v1 boards; "
      "add rknnop::float16 to its dtypes";
  const auto described = run({RKNNOP_INT32_OUTPUT_RKNNOP, "--describe"});
  ASSERT_EQ(described.status, 0) << described.err;
  EXPECT_NE(described.out.find("  warning: " + rule + "\n"), std::string::npos) << described.out;
  const std::string model = (dir_ / "int32.rknn").string();
  const auto wrapped = rknnop_test::run_tool(
      RKNNOP_PACK_EXE, {"wrap", RKNNOP_INT32_OUTPUT_RKNNOP, "--input-shape", "x=2,3", "-o", model}, dir_);
  EXPECT_NE(wrapped.status, 0);
  EXPECT_EQ(wrapped.err, "rknnop-pack: op 'Int32Output': " + rule + "\n");
  EXPECT_FALSE(fs::exists(model));

  // The model a newcomer made by editing the wrapped model's output tensor to INT32.
  const container c = read_container_file(RKNNOP_INT32_OUTPUT_RKNNOP);
  const op_yml yml = container_op(c, "Int32Output.rknnop");
  model_file file = wrap_op_as_model(
      yml, {{model_blob_kind::shader, c.shader}, {model_blob_kind::lib_x86_64, c.lib_x86_64}}, {{3, 2}}, {{3, 2}}, {});
  const std::string float16 = "VSI_NN_TYPE_FLOAT16";  // the output's tensor comes first (wrap's layout)
  file.config.replace(file.config.find(float16), float16.size(), "VSI_NN_TYPE_INT32");
  write_file_atomically(model, file.serialize());
  const auto checked = run({model, "--check"});
  EXPECT_NE(checked.status, 0);
  EXPECT_NE(checked.out.find("node 'int32output_0': output 0 ('indices') is a VSI_NN_TYPE_INT32 graph output: "
                             "rknn_outputs_get cannot return it on RKNN v1 boards; add rknnop::float16 to its dtypes"),
            std::string::npos)
      << checked.out << checked.err;
  // The same model run (not only checked) is refused as the board refuses it, and so is an INT32 graph
  // input (Convert2RKNNTensorDataType: Unknow data type:6 on the board, docs/board-rules.md).
  const std::string ones = (dir_ / "ones.npy").string();
  write_npy_file(npy_array::from_floats(std::vector<float>{1, -1, 1, 1, 1, 1}, {2, 3}), ones);
  const auto ran = run({model, "-i", "0=" + ones});
  EXPECT_NE(ran.status, 0);
  EXPECT_NE(ran.err.find("graph output: rknn_outputs_get cannot return it on RKNN v1 boards"), std::string::npos)
      << ran.err;
  model_file input_file = wrap_op_as_model(
      yml, {{model_blob_kind::shader, c.shader}, {model_blob_kind::lib_x86_64, c.lib_x86_64}}, {{3, 2}}, {{3, 2}}, {});
  const std::size_t last = input_file.config.rfind(float16);  // the input's tensor comes last
  input_file.config.replace(last, float16.size(), "VSI_NN_TYPE_INT32");
  write_file_atomically(model, input_file.serialize());
  const auto input_checked = run({model, "--check"});
  EXPECT_NE(input_checked.status, 0);
  EXPECT_NE(
      input_checked.out.find("input 0 ('x') is a VSI_NN_TYPE_INT32 graph input: rknn_inputs_set cannot take it on "
                             "RKNN v1 boards; add rknnop::float16 to its dtypes"),
      std::string::npos)
      << input_checked.out << input_checked.err;
  // The rule is the v1 model's: the op itself runs on the PC.
  EXPECT_EQ(run({RKNNOP_INT32_OUTPUT_RKNNOP, "-i", "x=" + ones}).status, 0);
}
#endif

TEST_F(FirstHourTool, LossyInputNeedsAllowLossyAndRoundingIsANote) {
  const std::string tiny = (dir_ / "tiny.npy").string();
  write_npy_file(npy_array::from_floats(std::vector<float>{1e-8f, 2049.0f}, {2}), tiny);
  const std::vector<std::string> args{RKNNOP_MIRROR_PAD_RKNNOP, "-i", "input=" + tiny, "-p", "paddings=0,0"};
  const auto refused = run(args);
  EXPECT_NE(refused.status, 0);
  EXPECT_NE(refused.err.find("element 0 (index [0]) = 1e-08 is flushed to zero"), std::string::npos) << refused.err;
  std::vector<std::string> allowed_args = args;
  allowed_args.push_back("--allow-lossy");
  const auto allowed = run(allowed_args);
  EXPECT_EQ(allowed.status, 0) << allowed.err;
  EXPECT_NE(allowed.err.find("rknnop-run: note: input 'input' (" + tiny + "): 1 of 2 values rounded"),
            std::string::npos)
      << allowed.err;
  std::vector<std::string> npy_args = args;
  npy_args.insert(npy_args.end(), {"--tensor-type", "npy"});
  const auto exact = run(npy_args);
  EXPECT_EQ(exact.status, 0) << exact.err;
  EXPECT_EQ(exact.err, "");
}

}  // namespace
