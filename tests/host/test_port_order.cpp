// SPDX-License-Identifier: MIT
// Containers made by RKNN-Toolkit v1.3.2+ list op.yml's inputs in any order (its TruncateDiv lists
// input1 before input0); the kernel's parameter order is the .py section's def_input/def_output.
// Built here with rknnop-pack around examples/truncate_div's library: input0 / input1 must give
// TruncateDiv(input0, input1), not the reverse, with a warning and --describe naming the source.
#include <rknnop/host/npy.hpp>
#include <rknnop/host/op_yml.hpp>

#include "test_util.hpp"
#include "tool_runner.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using namespace rknnop::host;

// What the toolkit's `custom_op --action create` writes, with the map keys in the other order.
constexpr std::string_view toolkit_yml = R"(name: TruncateDiv
framework: tensorflow
inputs:
  input1:
    type: VX_TYPE_TENSOR
  input0:
    type: VX_TYPE_TENSOR
outputs:
  output0:
    type: VX_TYPE_TENSOR
op_version: 2
out_binary: TruncateDiv.rknnop
op_py_file: rknn_op_truncatediv.py
vx_file: rknn_kernel_truncatediv.vx
kernel_index: 0
)";

// The toolkit's generated class (its IoMap labels are port names, not op.yml names).
constexpr std::string_view toolkit_py = R"(from rknn.api import RKNNCustomOP, IoMap, Shape


class TruncateDiv(RKNNCustomOP):

    op = 'TruncateDiv'

    def_input = [
        IoMap('in0', 'in', 'input port 0'),
        IoMap('in1', 'in', 'input port 1')
    ]

    def_output = [
        IoMap('out0', 'out', 'output port 0')
    ]
)";

void write_text(const fs::path& p, std::string_view text) { std::ofstream(p, std::ios::binary) << text; }

class PortOrder : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = rknnop_test::work_dir(std::string("port_order_") +
                                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  fs::path pack(std::string_view yml, std::string_view py) {
    write_text(dir_ / "op.yml", yml);
    write_text(dir_ / "rknn_op_truncatediv.py", py);
    const fs::path out = dir_ / "TruncateDiv.rknnop";
    const auto r = rknnop_test::run_tool(
        RKNNOP_PACK_EXE,
        {"pack", "--pc-only", "--x86", RKNNOP_TRUNCATE_DIV_SO, "--yml", (dir_ / "op.yml").string(), "--py",
         (dir_ / "rknn_op_truncatediv.py").string(), "-o", out.string()},
        dir_);
    EXPECT_EQ(r.status, 0) << r.err;
    return out;
  }
  // output_shape: for kernels whose validator sets no meta format (the toolkit's own), the output's shape.
  rknnop_test::tool_result run(const fs::path& container, std::string_view output = "output0",
                               std::vector<float> a = {8, 9, -7}, std::vector<float> b = {2, 4, 2},
                               std::string_view output_shape = {}) {
    const std::size_t n = a.size();
    write_npy_file(npy_array::from_floats(std::move(a), {n}), dir_ / "a.npy");
    write_npy_file(npy_array::from_floats(std::move(b), {n}), dir_ / "b.npy");
    std::vector<std::string> args{container.string(),
                                  "--input",
                                  "input0=" + (dir_ / "a.npy").string(),
                                  "--input",
                                  "input1=" + (dir_ / "b.npy").string(),
                                  "--output",
                                  std::string(output) + "=" + (dir_ / "out.npy").string()};
    if (!output_shape.empty()) {
      args.emplace_back("--output-shape");
      args.push_back(std::string(output) + "=" + std::string(output_shape));
    }
    return rknnop_test::run_tool(RKNNOP_RUN_EXE, args, dir_);
  }
  fs::path dir_;
};

TEST_F(PortOrder, ToolkitContainerBindsInputsInTheOrderOfItsPythonClass) {
  const fs::path container = pack(toolkit_yml, toolkit_py);
  const auto r = run(container);
  ASSERT_EQ(r.status, 0) << r.err;
  // a / b truncated = 4, 2, -3 (b / a would be 0, 0, -0).
  EXPECT_EQ(read_npy_file(dir_ / "out.npy").to_floats(), (std::vector<float>{4, 2, -3}));
  EXPECT_NE(r.err.find("rknnop-run: warning: op 'TruncateDiv': op.yml lists inputs (input1, input0) but the op's "
                       "definition has (input0, input1)"),
            std::string::npos)
      << r.err;

  const auto d = rknnop_test::run_tool(RKNNOP_RUN_EXE, {container.string(), "--describe"}, dir_);
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_NE(d.out.find("parameter order: the .py section (def_input/def_output)"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("0 input  input0"), std::string::npos) << d.out;
}

// The toolkit's own TruncateDiv (v1.3.2-v1.7.5): its one output is 'out0' in the .py and 'output' in
// op.yml. That output cannot be matched by name or number, which must not throw away the inputs' order.
TEST_F(PortOrder, UnmatchedOutputNameKeepsTheInputsOrder) {
  std::string yml(toolkit_yml);
  yml.replace(yml.find("output0:"), 8, "output:");
  const fs::path container = pack(yml, toolkit_py);
  const auto r = run(container, "output", {6, 8, 10, 12}, {2, 2, 2, 2});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_npy_file(dir_ / "out.npy").to_floats(), (std::vector<float>{3, 4, 5, 6}));
  const auto d = rknnop_test::run_tool(RKNNOP_RUN_EXE, {container.string(), "--describe"}, dir_);
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_NE(d.out.find("parameter order: the .py section (def_input/def_output)"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("0 input  input0"), std::string::npos) << d.out;
}

// The toolkit's own file, when RKNNOP_TOOLKIT_SAMPLES names a folder holding it (the toolkit's
// examples/common_function_demos/custom_op layout, or the file itself in the folder).
TEST_F(PortOrder, ToolkitsOwnTruncateDivDividesInput0ByInput1) {
  const char* samples = std::getenv("RKNNOP_TOOLKIT_SAMPLES");
  if (samples == nullptr || *samples == '\0')
    GTEST_SKIP() << "set RKNNOP_TOOLKIT_SAMPLES to a folder holding RKNN-Toolkit's "
                    "rknn_custom_op_math/truncatediv/TruncateDiv.rknnop";
  fs::path container = fs::path(samples) / "rknn_custom_op_math" / "truncatediv" / "TruncateDiv.rknnop";
  if (!fs::exists(container)) container = fs::path(samples) / "TruncateDiv.rknnop";
  if (!fs::exists(container))
    GTEST_SKIP() << "RKNNOP_TOOLKIT_SAMPLES=" << samples
                 << " holds neither rknn_custom_op_math/truncatediv/TruncateDiv.rknnop nor TruncateDiv.rknnop";
  // Its validator sets no meta format, so the output's shape is given.
  const auto r = run(container, "output", {6, 8, 10, 12}, {2, 2, 2, 2}, "4");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_npy_file(dir_ / "out.npy").to_floats(), (std::vector<float>{3, 4, 5, 6}));
  const auto d = rknnop_test::run_tool(RKNNOP_RUN_EXE, {container.string(), "--describe"}, dir_);
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_NE(d.out.find("parameter order: the .py section (def_input/def_output)"), std::string::npos) << d.out;
}

TEST_F(PortOrder, AgreeingOrderGivesNoWarning) {
  std::string yml(toolkit_yml);
  yml.replace(yml.find("input1:"), 7, "inputX:");
  yml.replace(yml.find("input0:"), 7, "input1:");
  yml.replace(yml.find("inputX:"), 7, "input0:");
  const auto r = run(pack(yml, toolkit_py));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_npy_file(dir_ / "out.npy").to_floats(), (std::vector<float>{4, 2, -3}));
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

TEST(PortOrderUnit, MatchesByCommentLabelOrNumberAndExplainsFailures) {
  op_yml op = parse_op_yml(toolkit_yml, "op.yml");
  // rknnop's own .py names each field in a comment after its IoMap.
  apply_python_port_order(op,
                          "def_input = [\n IoMap('in0', 'in', 'input port 0'),  # input0\n"
                          " IoMap('in1', 'in', 'input port 1'),  # input1\n]\n"
                          "def_output = [IoMap('out0', 'out', 'output port 0')]\n",
                          "x.py");
  EXPECT_EQ(op.inputs.front().name, "input0");
  EXPECT_EQ(op.port_order_source, "x.py (def_input/def_output)");
  ASSERT_TRUE(op.port_order_warning);

  op = parse_op_yml(toolkit_yml, "op.yml");
  apply_python_port_order(op,
                          "def_input = [IoMap('input1', 'in', ''), IoMap('input0', 'in', '')]\n"
                          "def_output = [IoMap('output0', 'out', '')]\n",
                          "y.py");  // labels that are op.yml names win over port numbers
  EXPECT_EQ(op.inputs.front().name, "input1");
  EXPECT_FALSE(op.port_order_warning);

  op = parse_op_yml(toolkit_yml, "op.yml");
  apply_python_port_order(op, "class X:\n    pass\n", "z.py");
  EXPECT_EQ(op.inputs.front().name, "input1");
  EXPECT_EQ(op.port_order_source, "op.yml (z.py has no def_input/def_output lists)");

  // Directions are independent: an unmatched input list leaves the outputs matched (one port: trivially).
  op = parse_op_yml(toolkit_yml, "op.yml");
  apply_python_port_order(op, "def_input = [IoMap('a', 'in', '')]\ndef_output = [IoMap('b', 'out', '')]\n", "w.py");
  EXPECT_EQ(op.port_order_source,
            "inputs: op.yml (w.py: def_input has 1 IoMap entries, op.yml 2); outputs: w.py (def_output)");
  EXPECT_EQ(op.inputs.front().name, "input1");

  op = parse_op_yml(toolkit_yml, "op.yml");
  apply_python_port_order(op,
                          "def_input = [IoMap('in0', 'in', ''), IoMap('in1', 'in', '')]\n"
                          "def_output = [IoMap('a', 'out', ''), IoMap('b', 'out', '')]\n",
                          "v.py");
  EXPECT_EQ(op.port_order_source,
            "inputs: v.py (def_input); outputs: op.yml (v.py: def_output has 2 IoMap "
            "entries, op.yml 1)");
  EXPECT_EQ(op.inputs.front().name, "input0");
  ASSERT_TRUE(op.port_order_warning);

  op = parse_op_yml(toolkit_yml, "op.yml");
  apply_python_port_order(op,
                          "def_input = [IoMap('a', 'in', ''), IoMap('b', 'in', '')]\n"
                          "def_output = [IoMap('c', 'out', ''), IoMap('d', 'out', '')]\n",
                          "u.py");
  EXPECT_EQ(op.port_order_source,
            "op.yml (u.py: def_input's IoMap 'a' (port 0) names no op.yml entry and no entry "
            "ends in 0; def_output has 2 IoMap entries, op.yml 1)");
  EXPECT_EQ(op.inputs.front().name, "input1");
  EXPECT_FALSE(op.port_order_warning);
}

}  // namespace
