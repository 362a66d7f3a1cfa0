// SPDX-License-Identifier: MIT
// op.yml, Python and --describe generation for op structs covering every param kind (golden-free:
// the YAML is parsed back, the Python is searched for what the toolkit needs).

#include <rknnop/emit.hpp>

#include "emit_test_util.hpp"
#include "sample_ops.hpp"

#include <fmt/format.h>

#if RKNNOP_EMIT_TEST_HAS_HOST
#include <rknnop/host/error.hpp>
#include <rknnop/host/op_yml.hpp>
#endif

namespace {

using namespace emit_samples;
using emit_test::count_of;
using emit_test::entries_of;
using emit_test::keys_of;

using entries = std::vector<std::pair<std::string, std::string>>;

TEST(EmitYml, EveryScalarTypeAndArrayInDeclarationOrder) {
  const YAML::Node yml = YAML::Load(rknnop::emit_op_yml<AllTypes>());
  EXPECT_EQ(keys_of(yml), emit_test::toolkit_key_order);
  EXPECT_EQ(entries_of(yml["inputs"]), (entries{{"x", "VX_TYPE_TENSOR"}}));
  EXPECT_EQ(entries_of(yml["outputs"]), (entries{{"y", "VX_TYPE_TENSOR"}}));
  EXPECT_EQ(entries_of(yml["params"]), (entries{{"flag", "VX_TYPE_BOOL"},
                                                {"letter", "VX_TYPE_CHAR"},
                                                {"i8", "VX_TYPE_INT8"},
                                                {"u8", "VX_TYPE_UINT8"},
                                                {"i16", "VX_TYPE_INT16"},
                                                {"u16", "VX_TYPE_UINT16"},
                                                {"i32", "VX_TYPE_INT32"},
                                                {"u32", "VX_TYPE_UINT32"},
                                                {"i64", "VX_TYPE_INT64"},
                                                {"u64", "VX_TYPE_UINT64"},
                                                {"half", "VX_TYPE_FLOAT16"},
                                                {"single", "VX_TYPE_FLOAT32"},
                                                {"twice", "VX_TYPE_FLOAT64"},
                                                {"exact3", "VX_TYPE_ARRAY"},
                                                {"upto4", "VX_TYPE_ARRAY"}}));
  EXPECT_EQ(yml["name"].as<std::string>(), "AllTypes");
  EXPECT_EQ(yml["out_binary"].as<std::string>(), "AllTypes.rknnop");
  EXPECT_EQ(yml["op_py_file"].as<std::string>(), "rknn_op_alltypes.py");
  EXPECT_EQ(yml["vx_file"].as<std::string>(), "rknn_kernel_alltypes.vx");
}

TEST(EmitYml, SeveralPortsAndNoParams) {
  const std::string text = rknnop::emit_op_yml<TwoByTwo>({.target_platform = "RV1126", .kernel_index = 1});
  const YAML::Node yml = YAML::Load(text);
  EXPECT_EQ(keys_of(yml), emit_test::toolkit_key_order);
  EXPECT_EQ(entries_of(yml["inputs"]), (entries{{"x", "VX_TYPE_TENSOR"}, {"mask", "VX_TYPE_TENSOR"}}));
  EXPECT_EQ(entries_of(yml["outputs"]), (entries{{"y", "VX_TYPE_TENSOR"}, {"z", "VX_TYPE_TENSOR"}}));
  // No params: an empty mapping, which Python iterates like any other (null would not be).
  EXPECT_TRUE(yml["params"].IsMap());
  EXPECT_EQ(yml["params"].size(), 0u);
  EXPECT_NE(text.find("\nparams: {}\n"), std::string::npos);
  EXPECT_EQ(yml["target_platform"].as<std::string>(), "RV1126");
  EXPECT_EQ(yml["kernel_index"].as<int>(), 1);
}

TEST(EmitYml, SchemaCommentCarriesTheFingerprint) {
  const std::string text = rknnop::emit_op_yml<Reserved>();
  const std::string line = fmt::format("# rknnop-schema: {:016x}\n", rknnop::detail::op_model<Reserved>::fingerprint);
  EXPECT_EQ(count_of(text, line), 1u) << text;
  // Comments are invisible to YAML readers (the toolkit's and ours).
  EXPECT_EQ(keys_of(YAML::Load(text)), emit_test::toolkit_key_order);
}

TEST(EmitYml, YamlBooleanWordsAreQuoted) {
  const std::string text = rknnop::emit_op_yml<Reserved>();
  EXPECT_NE(text.find("\n  'on':\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  'no':\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  'Null':\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  yes_please:\n"), std::string::npos) << text;
  EXPECT_EQ(entries_of(YAML::Load(text)["params"]), (entries{{"on", "VX_TYPE_BOOL"},
                                                             {"no", "VX_TYPE_INT32"},
                                                             {"Null", "VX_TYPE_FLOAT32"},
                                                             {"yes_please", "VX_TYPE_BOOL"}}));
}

TEST(EmitYml, Deterministic) {
  EXPECT_EQ(rknnop::emit_op_yml<AllTypes>(), rknnop::emit_op_yml<AllTypes>());
  EXPECT_EQ(rknnop::emit_python<AllTypes>(), rknnop::emit_python<AllTypes>());
}

#if RKNNOP_EMIT_TEST_HAS_HOST
// rknnop's own strict op.yml reader (unknown keys, types, duplicates) accepts what we write.
TEST(EmitYml, HostReaderAcceptsEveryOp) {
  for (const std::string& text : {rknnop::emit_op_yml<AllTypes>(), rknnop::emit_op_yml<Reserved>(),
                                  rknnop::emit_op_yml<TwoByTwo>({.target_platform = "RV1109", .kernel_index = 1})}) {
    const rknnop::host::op_yml op = rknnop::host::parse_op_yml(text, "generated op.yml");
    EXPECT_EQ(op.framework, "tensorflow");
    EXPECT_EQ(op.op_version, 2);
    EXPECT_TRUE(op.kernel_index.has_value());
  }
  const auto all = rknnop::host::parse_op_yml(rknnop::emit_op_yml<AllTypes>(), "AllTypes op.yml");
  EXPECT_EQ(all.params.size(), 15u);
  EXPECT_EQ(all.parameter_count(), rknnop::detail::op_model<AllTypes>::table_size);
}
#endif

TEST(EmitPython, ClassIoMapsAndParamReaders) {
  const std::string py = rknnop::emit_python<AllTypes>();
  EXPECT_NE(py.find("from rknn.api import RKNNCustomOP, IoMap, Shape\n"), std::string::npos);
  EXPECT_NE(py.find("\nclass AllTypes(RKNNCustomOP):\n"), std::string::npos);
  EXPECT_NE(py.find("\n    op = 'AllTypes'\n"), std::string::npos);
  EXPECT_NE(py.find("IoMap('in0', 'in', 'input port 0'),  # x\n"), std::string::npos);
  EXPECT_NE(py.find("IoMap('out0', 'out', 'output port 0'),  # y\n"), std::string::npos);
  EXPECT_EQ(count_of(py, "IoMap('"), 2u);
  EXPECT_NE(py.find("p['flag'] = _rknnop_scalar(self.op, node_def, consts, 'flag', bool)"), std::string::npos);
  EXPECT_NE(py.find("p['i8'] = _rknnop_scalar(self.op, node_def, consts, 'i8', int, -128, 127)"), std::string::npos);
  EXPECT_NE(py.find("'u64', int, 0, 18446744073709551615)"), std::string::npos);
  EXPECT_NE(py.find("p['half'] = _rknnop_scalar(self.op, node_def, consts, 'half', float)"), std::string::npos);
  EXPECT_NE(py.find("p['twice'] = _rknnop_scalar(self.op, node_def, consts, 'twice', float)"), std::string::npos);
  // Generated length checks: exact for std::array, a maximum for int_array.
  EXPECT_NE(py.find("p['exact3'] = _rknnop_array(self.op, node_def, consts, 'exact3', exactly=3)"), std::string::npos);
  EXPECT_NE(py.find("p['upto4'] = _rknnop_array(self.op, node_def, consts, 'upto4', at_most=4)"), std::string::npos);
  EXPECT_EQ(count_of(py, "        p['"), 15u);
  EXPECT_NE(py.find(fmt::format("# rknnop-schema: {:016x}\n", rknnop::detail::op_model<AllTypes>::fingerprint)),
            std::string::npos);
}

TEST(EmitPython, DefaultsWithoutPythonMembers) {
  const std::string py = rknnop::emit_python<AllTypes>();
  EXPECT_NE(py.find("no python_output_shape: every output gets input 0's shape"), std::string::npos);
  EXPECT_NE(py.find("shapes = [inputs_shape[0] for _ in self.def_output]"), std::string::npos);
  EXPECT_NE(py.find("raise NotImplementedError("), std::string::npos);
  EXPECT_NE(py.find("python_compute"), std::string::npos);
  EXPECT_NE(py.find("PYTHON file.py to rknnop_add_op"), std::string::npos);
  EXPECT_EQ(py.find("_rknnop_typed_params"), std::string::npos);  // only used by the user's expressions
}

TEST(EmitPython, PythonMembersAreEmbeddedVerbatim) {
  const std::string py = rknnop::emit_python<TwoByTwo>();
  EXPECT_NE(py.find("IoMap('in1', 'in', 'input port 1'),  # mask\n"), std::string::npos);
  EXPECT_NE(py.find("IoMap('out1', 'out', 'output port 1'),  # z\n"), std::string::npos);
  EXPECT_NE(py.find("        shapes = (\n            [inputs_shape[0], inputs_shape[0]]\n        )\n"),
            std::string::npos)
      << py;
  EXPECT_NE(py.find("            inputs_tensor[0] # a comment cannot swallow the closing bracket\n            ]\n"
                    "        )\n"),
            std::string::npos)
      << py;
  EXPECT_EQ(py.find("NotImplementedError"), std::string::npos);
  EXPECT_EQ(py.find("consts ="), std::string::npos);  // no params, nothing to read
}

TEST(EmitOptions, Checked) {
  const auto all = rknnop::schema_of<AllTypes>();
  EXPECT_TRUE(rknnop::check_options(all, {}));
  for (std::string_view p : rknnop::target_platforms)
    EXPECT_TRUE(rknnop::check_options(all, {.target_platform = std::string(p)}));
  const auto bad_platform = rknnop::check_options(all, {.target_platform = "RK1880"});
  EXPECT_NE(bad_platform.error.find("unknown target_platform 'RK1880'"), std::string::npos) << bad_platform.error;
  const auto no_vx = rknnop::check_options(all, {.kernel_index = 1});
  EXPECT_NE(no_vx.error.find("kernel_index 1 selects a VX kernel, but the op has no `vx` member"), std::string::npos)
      << no_vx.error;
  EXPECT_TRUE(rknnop::check_options(rknnop::schema_of<TwoByTwo>(), {.kernel_index = 1}));
  EXPECT_FALSE(rknnop::check_options(rknnop::schema_of<TwoByTwo>(), {.kernel_index = 2}));
}

TEST(EmitDescribe, TableOfFields) {
  const std::string text = rknnop::emit_description<TwoByTwo>({.target_platform = "RV1126", .kernel_index = 1});
  EXPECT_NE(
      text.find(fmt::format("TwoByTwo  (rknnop-schema {:016x})", rknnop::detail::op_model<TwoByTwo>::fingerprint)),
      std::string::npos);
  EXPECT_NE(text.find("0 = CPU \"twobytwo_cpu\", 1 = VX \"twobytwo\""), std::string::npos) << text;
  EXPECT_NE(text.find("target_platform RV1126, kernel_index 1"), std::string::npos) << text;
  EXPECT_NE(text.find("   1  input   mask  VX_TYPE_TENSOR   uint8, kernel sees uint8, rank 4\n"), std::string::npos)
      << text;
  const std::string all = rknnop::emit_description<AllTypes>();
  EXPECT_NE(all.find("exact3  VX_TYPE_ARRAY    int32[3]\n"), std::string::npos) << all;
  EXPECT_NE(all.find("upto4   VX_TYPE_ARRAY    int32[<=4]\n"), std::string::npos) << all;
  EXPECT_NE(all.find("twice   VX_TYPE_FLOAT64  scalar\n"), std::string::npos) << all;
}

TEST(EmitToolkit2, OpTypeTensorsAndParamTable) {
  const std::string py = rknnop::emit_toolkit2_python<emit_samples::Defaults>();
  EXPECT_EQ(rknnop::toolkit2_python_file_name("Defaults"), "rknn_op_defaults_toolkit2.py");
  EXPECT_NE(py.find("\nclass Defaults:\n    op_type = 'Defaults'\n"), std::string::npos) << py;
  EXPECT_NE(py.find("    inputs = ('x',)\n    outputs = ('y',)\n"), std::string::npos);
  EXPECT_NE(py.find("_PLUGIN_FILE = 'librkcst_defaults.so'\n"), std::string::npos);
  // rknn-toolkit2 only when an ONNX node's attributes are read (the module imports without the wheel).
  EXPECT_EQ(py.find("\nfrom rknn"), std::string::npos) << py;
  EXPECT_NE(py.find("\n        from rknn.api.custom_op import get_node_attr\n"), std::string::npos);
  // Runnable on .npy files: `python3 rknn_op_defaults_toolkit2.py ...`.
  EXPECT_NE(py.find("\nif __name__ == '__main__':\n    sys.exit(_main(Defaults, sys.argv[1:]))\n"), std::string::npos);
  EXPECT_NE(py.find("    param_kinds = {'alpha': 'float', 'required': 'float', "), std::string::npos);
  // Defaults as the node attribute would carry them: bool and enum as ints; None when required.
  EXPECT_NE(py.find("        ('alpha', 0.2),  # float\n"), std::string::npos);
  EXPECT_NE(py.find("        ('required', None),  # float\n"), std::string::npos);
  EXPECT_NE(py.find("        ('flag', 1),  # int, 0 or 1\n"), std::string::npos);
  EXPECT_NE(py.find("        ('size', [64, 48]),  # ints, exactly 2\n"), std::string::npos);
  EXPECT_NE(py.find("        ('pads_empty', []),  # ints, at most 4\n"), std::string::npos);
  EXPECT_NE(py.find("        ('mode', 1),  # int, enum: 0 = REFLECT, 1 = SYMMETRIC\n"), std::string::npos);
  EXPECT_NE(py.find("        ('mode_required', None),"), std::string::npos);
  EXPECT_EQ(count_of(py, "\n        ('"), 16u);
  // The ONNX snippet: the defaults, and a marked placeholder for each required param.
  EXPECT_NE(py.find("        alpha=0.2,  # float; the default\n"), std::string::npos);
  EXPECT_NE(py.find("        size_required=[1, 1],  # ints, exactly 2; required (no default): set it\n"),
            std::string::npos);
  EXPECT_NE(py.find(fmt::format("# rknnop-schema: {:016x}\n", rknnop::schema_of<emit_samples::Defaults>().fingerprint)),
            std::string::npos);
}

TEST(EmitToolkit2, Rknpu2TypeNamesTheOpType) {
  EXPECT_EQ(rknnop::schema_of<emit_samples::Typed>().rknpu2_type, "cstTyped");
  EXPECT_EQ(rknnop::schema_of<emit_samples::Defaults>().rknpu2_type, "Defaults");
  const std::string py = rknnop::emit_toolkit2_python<emit_samples::Typed>();
  EXPECT_NE(py.find("\nclass Typed:\n    op_type = 'cstTyped'\n"), std::string::npos) << py;
  EXPECT_NE(py.find("    node = onnx.helper.make_node(\n        'cstTyped',\n"), std::string::npos);
  EXPECT_NE(py.find("_PLUGIN_FILE = 'librkcst_typed.so'\n"), std::string::npos);
}

TEST(EmitMain, PythonKeywordOpNameIsRefused) {
  const auto dir = emit_test::work_dir("keyword");
  const std::string yml = (dir / "op.yml").string();
  std::vector<std::string> args{"gen", "--yml", yml};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStderr();
  const int code = rknnop::emit_main<pass>(static_cast<int>(argv.size()), argv.data());
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, 1);
  EXPECT_EQ(err, "rknnop: pass: 'pass' is a Python keyword, so the toolkit's Python class cannot have the op's name\n");
  EXPECT_FALSE(std::filesystem::exists(yml));
}

}  // namespace
