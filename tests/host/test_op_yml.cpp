// SPDX-License-Identifier: MIT
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/op_yml.hpp>
#include <rknnop/vx_type.hpp>

#include "op_yml_writer.hpp"
#include "test_util.hpp"

#include <filesystem>

namespace {

using namespace rknnop::host;
using rknnop::vx_type;
using rknnop::vx_type_from_name;
using rknnop::vx_type_name;

constexpr std::string_view resize_area = R"(name: ResizeArea
framework: tensorflow
inputs:
  input:
    type: VX_TYPE_TENSOR
outputs:
  output:
    type: VX_TYPE_TENSOR
params:
  size:
    type: VX_TYPE_ARRAY
  align_corners:
    type: VX_TYPE_BOOL
out_binary: ResizeArea.rknnop
op_py_file: rknn_op_resizearea.py
vx_file: rknn_kernel_resizearea.vx
kernel_index: 0
)";

TEST(OpYml, ParsesTheGuidesExample) {
  const op_yml op = parse_op_yml(resize_area, "op.yml");
  EXPECT_EQ(op.name, "ResizeArea");
  EXPECT_EQ(op.lower_name(), "resizearea");
  EXPECT_EQ(op.framework, "tensorflow");
  EXPECT_FALSE(op.target_platform);
  ASSERT_EQ(op.inputs.size(), 1u);
  EXPECT_EQ(op.inputs[0], (op_yml_entry{"input", vx_type::tensor}));
  ASSERT_EQ(op.params.size(), 2u);
  EXPECT_EQ(op.params[0], (op_yml_entry{"size", vx_type::array}));
  EXPECT_EQ(op.params[1], (op_yml_entry{"align_corners", vx_type::bool_}));
  EXPECT_EQ(op.kernel_index, 0u);
  EXPECT_EQ(op.op_py_file, "rknn_op_resizearea.py");
  EXPECT_EQ(op.parameter_count(), 4u);
  EXPECT_NE(op.find_param("size"), nullptr);
  EXPECT_EQ(op.find_param("input"), nullptr);
}

TEST(OpYml, KeepsTheFileOrderNotAlphabetical) {
  // yaml-cpp iterates a mapping in document order; the parameter table depends on it.
  const op_yml op = parse_op_yml(R"(name: Order
inputs: {zeta: {type: VX_TYPE_TENSOR}, alpha: {type: VX_TYPE_TENSOR}}
outputs: {out: {type: VX_TYPE_TENSOR}}
params:
  z: {type: VX_TYPE_INT8}
  m: {type: VX_TYPE_UINT64}
  a: {type: VX_TYPE_FLOAT16}
  b: {type: VX_TYPE_CHAR}
)",
                                 "order.yml");
  ASSERT_EQ(op.inputs.size(), 2u);
  EXPECT_EQ(op.inputs[0].name, "zeta");
  EXPECT_EQ(op.inputs[1].name, "alpha");
  ASSERT_EQ(op.params.size(), 4u);
  EXPECT_EQ(op.params[0], (op_yml_entry{"z", vx_type::int8}));
  EXPECT_EQ(op.params[1], (op_yml_entry{"m", vx_type::uint64}));
  EXPECT_EQ(op.params[2], (op_yml_entry{"a", vx_type::float16}));
  EXPECT_EQ(op.params[3], (op_yml_entry{"b", vx_type::char_}));
}

TEST(OpYml, EveryBoardScalarTypeMapsToItsValue) {
  const std::pair<std::string_view, std::int32_t> expected[] = {
      {"VX_TYPE_CHAR", 0x1},   {"VX_TYPE_INT8", 0x2},    {"VX_TYPE_UINT8", 0x3},   {"VX_TYPE_INT16", 0x4},
      {"VX_TYPE_UINT16", 0x5}, {"VX_TYPE_INT32", 0x6},   {"VX_TYPE_UINT32", 0x7},  {"VX_TYPE_INT64", 0x8},
      {"VX_TYPE_UINT64", 0x9}, {"VX_TYPE_FLOAT32", 0xA}, {"VX_TYPE_FLOAT64", 0xB}, {"VX_TYPE_FLOAT16", 0xF},
      {"VX_TYPE_BOOL", 0x10},  {"VX_TYPE_ARRAY", 0x80E}};
  for (const auto& [name, value] : expected) {
    const std::string text =
        "name: T\ninputs: {i: {type: VX_TYPE_TENSOR}}\noutputs: {o: {type: "
        "VX_TYPE_TENSOR}}\nparams: {p: {type: " +
        std::string(name) + "}}\n";
    const op_yml op = parse_op_yml(text, "t.yml");
    EXPECT_EQ(op.params.at(0).type, value) << name;
    EXPECT_EQ(vx_type_name(value), name);
  }
  EXPECT_EQ(vx_type_from_name("VX_TYPE_TENSOR"), 0x815);
}

TEST(OpYml, EmitParseRoundTrip) {
  const op_yml op = parse_op_yml(resize_area, "op.yml");
  const std::string text = rknnop_test::yaml_op_yml(op);
  EXPECT_EQ(parse_op_yml(text, "emitted.yml"), op);
  // Toolkit key order.
  EXPECT_LT(text.find("name:"), text.find("inputs:"));
  EXPECT_LT(text.find("params:"), text.find("out_binary:"));
  EXPECT_LT(text.find("size:"), text.find("align_corners:"));

  const auto dir = rknnop_test::work_dir("op_yml_file");
  write_file_atomically(dir / "op.yml", text);
  EXPECT_EQ(read_op_yml_file(dir / "op.yml"), op);
}

std::string with(std::string_view body) { return std::string(body); }

TEST(OpYml, MissingKeys) {
  RKNNOP_EXPECT_ERROR(
      parse_op_yml("inputs: {i: {type: VX_TYPE_TENSOR}}\noutputs: {o: {type: VX_TYPE_TENSOR}}\n", "m.yml"),
      "m.yml: missing key 'name'");
  RKNNOP_EXPECT_ERROR(parse_op_yml("name: X\ninputs: {i: {type: VX_TYPE_TENSOR}}\n", "m.yml"),
                      "m.yml: missing key 'outputs'");
  RKNNOP_EXPECT_ERROR(parse_op_yml("name: X\ninputs: {i: {type: VX_TYPE_TENSOR}}\noutputs: {o: {}}\n", "m.yml"),
                      "m.yml:3: outputs 'o' has no 'type'");
  RKNNOP_EXPECT_ERROR(parse_op_yml("name: X\ninputs:\noutputs: {o: {type: VX_TYPE_TENSOR}}\n", "m.yml"),
                      "op 'X' has no inputs");
}

TEST(OpYml, UnknownAndMisplacedTypes) {
  RKNNOP_EXPECT_ERROR(parse_op_yml("name: X\ninputs: {i: {type: VX_TYPE_TENSOR}}\noutputs: {o: {type: "
                                   "VX_TYPE_TENSOR}}\nparams:\n  p:\n    type: VX_TYPE_INT33\n",
                                   "u.yml"),
                      "u.yml:6: unknown type 'VX_TYPE_INT33' for params 'p'",
                      "expected VX_TYPE_ARRAY or a scalar type");
  RKNNOP_EXPECT_ERROR(parse_op_yml("name: X\ninputs: {i: {type: VX_TYPE_ARRAY}}\noutputs: {o: {type: "
                                   "VX_TYPE_TENSOR}}\n",
                                   "u.yml"),
                      "inputs 'i' has type VX_TYPE_ARRAY: inputs and outputs must be VX_TYPE_TENSOR");
  RKNNOP_EXPECT_ERROR(parse_op_yml("name: X\ninputs: {i: {type: VX_TYPE_TENSOR}}\noutputs: {o: {type: "
                                   "VX_TYPE_TENSOR}}\nparams: {p: {type: VX_TYPE_TENSOR}}\n",
                                   "u.yml"),
                      "param 'p' has type VX_TYPE_TENSOR: expected VX_TYPE_ARRAY or a scalar type");
  RKNNOP_EXPECT_ERROR(parse_op_yml("name: X\ninputs: {i: {type: VX_TYPE_TENSOR}}\noutputs: {o: {type: "
                                   "VX_TYPE_TENSOR}}\nparams: {p: {type: VX_TYPE_ENUM}}\n",
                                   "u.yml"),
                      "param 'p' has type VX_TYPE_ENUM, which the board runtime cannot create");
}

TEST(OpYml, DuplicateNames) {
  RKNNOP_EXPECT_ERROR(parse_op_yml("name: X\ninputs:\n  a: {type: VX_TYPE_TENSOR}\n  a: {type: "
                                   "VX_TYPE_TENSOR}\noutputs: {o: {type: VX_TYPE_TENSOR}}\n",
                                   "d.yml"),
                      "d.yml:4: duplicate name 'a' in 'inputs' (already used in 'inputs')");
  RKNNOP_EXPECT_ERROR(parse_op_yml("name: X\ninputs: {a: {type: VX_TYPE_TENSOR}}\noutputs: {o: {type: "
                                   "VX_TYPE_TENSOR}}\nparams: {a: {type: VX_TYPE_INT32}}\n",
                                   "d.yml"),
                      "duplicate name 'a' in 'params' (already used in 'inputs')");
  RKNNOP_EXPECT_ERROR(parse_op_yml("name: X\nname: Y\ninputs: {a: {type: VX_TYPE_TENSOR}}\noutputs: {o: "
                                   "{type: VX_TYPE_TENSOR}}\n",
                                   "d.yml"),
                      "d.yml:2: duplicate key 'name'");
}

TEST(OpYml, OtherErrors) {
  RKNNOP_EXPECT_ERROR(parse_op_yml("name: [unclosed\n", "s.yml"), "s.yml:", "invalid YAML");
  RKNNOP_EXPECT_ERROR(parse_op_yml("- a\n- b\n", "s.yml"), "s.yml: op.yml must be a mapping");
  RKNNOP_EXPECT_ERROR(parse_op_yml("name: X\nimputs: {}\n", "k.yml"), "k.yml:2: unknown key 'imputs'");
  RKNNOP_EXPECT_ERROR(parse_op_yml("name: X\ninputs: {i: {type: VX_TYPE_TENSOR, shape: 4}}\noutputs: {o: "
                                   "{type: VX_TYPE_TENSOR}}\n",
                                   "k.yml"),
                      "unknown key 'shape' in inputs 'i'");
  RKNNOP_EXPECT_ERROR(parse_op_yml("name: 1X\ninputs: {i: {type: VX_TYPE_TENSOR}}\noutputs: {o: {type: "
                                   "VX_TYPE_TENSOR}}\n",
                                   "n.yml"),
                      "op name '1X' is not a C identifier");
  RKNNOP_EXPECT_ERROR(
      parse_op_yml(with(resize_area).replace(with(resize_area).find("kernel_index: 0"), 15, "kernel_index: -1"),
                   "ki.yml"),
      "'kernel_index' must be an integer >= 0, got '-1'");
  RKNNOP_EXPECT_ERROR(read_op_yml_file("/nonexistent/op.yml"), "cannot open '/nonexistent/op.yml'");
}

}  // namespace
