// SPDX-License-Identifier: MIT
// op.yml reading: any text parses or throws rknnop::host::error (never a yaml-cpp exception); a
// parsed op.yml is self-consistent and survives emit -> parse unchanged.
#include "fuzz_util.hpp"

#include <rknnop/host/op_yml.hpp>
#include <op_yml_writer.hpp>
#include <rknnop/vx_type.hpp>

#include <set>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rknnop::host;
  using rknnop::is_param_scalar_type;
  using rknnop::vx_type;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  op_yml op;
  try {
    op = parse_op_yml(text, "fuzz.yml");
  } catch (const error& e) {
    rknnop::fuzz::expect_clean_error(e);
    return 0;
  }
  RKNNOP_FUZZ_EXPECT(!op.name.empty());
  RKNNOP_FUZZ_EXPECT(!op.inputs.empty() && !op.outputs.empty());
  RKNNOP_FUZZ_EXPECT(op.parameter_count() == op.inputs.size() + op.outputs.size() + op.params.size());
  std::set<std::string> names;
  for (const auto* list : {&op.inputs, &op.outputs, &op.params})
    for (const op_yml_entry& e : *list) {
      RKNNOP_FUZZ_EXPECT(!e.name.empty());
      RKNNOP_FUZZ_EXPECT(names.insert(e.name).second, "duplicate name accepted: " + e.name);
      RKNNOP_FUZZ_EXPECT(list == &op.params ? (e.type == vx_type::array || is_param_scalar_type(e.type))
                                            : e.type == vx_type::tensor);
    }
  for (const op_yml_entry& p : op.params) RKNNOP_FUZZ_EXPECT(op.find_param(p.name) != nullptr);
  RKNNOP_FUZZ_EXPECT(op.lower_name().size() == op.name.size());

  // The parser refuses values holding control characters or bytes that are not UTF-8 (yaml-cpp's
  // emitter would write them differently), so every parsed op.yml must survive emit -> parse.
  if (!rknnop::fuzz::strict() && !rknnop::fuzz::is_utf8(text)) return 0;
  std::string emitted;
  try {
    emitted = rknnop_test::yaml_op_yml(op);
  } catch (const error& e) {
    rknnop::fuzz::failed("the yaml-cpp writer failed on a parsed op.yml", __FILE__, __LINE__, e.what());
  }
  op_yml again;
  try {
    again = parse_op_yml(emitted, "emitted.yml");
  } catch (const error& e) {
    rknnop::fuzz::failed("emitted op.yml does not parse", __FILE__, __LINE__, emitted + "\n" + e.what());
  }
  RKNNOP_FUZZ_EXPECT(again == op, "emit -> parse changed the op.yml:\n" + emitted);
  return 0;
}
