// SPDX-License-Identifier: MIT
#pragma once

// Layer 2 of emit/ (docs/architecture.md §1): op.yml text (docs/op-yml.md), from an op_schema.

#include <rknnop/detail/field_desc.hpp>
#include <rknnop/detail/schema.hpp>
#include <rknnop/detail/vx_api.hpp>
#include <rknnop/emit/options.hpp>
#include <rknnop/schema_marker.hpp>
#include <rknnop/vx_type.hpp>  // visit_scalar_type

#include <array>        // reserved words
#include <cstddef>      // std::size_t
#include <iterator>     // std::back_inserter
#include <string>       // generated text
#include <string_view>  // names
#include <type_traits>  // default_text's dispatch

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop {
namespace detail {

// Words PyYAML (YAML 1.1, what the toolkit reads op.yml with) turns into booleans or None; names
// are C identifiers, so these are the only ones that need quotes.
inline std::string yaml_key(std::string_view name) {
  static constexpr std::array<std::string_view, 7> reserved{"yes", "no", "true", "false", "on", "off", "null"};
  const std::string lower = lower_name(name);
  for (std::string_view word : reserved)
    if (lower == word) return fmt::format("'{}'", name);
  return std::string(name);
}

// "float16": the dtype spelling of a tensor element type in op.yml's details; "?" for others.
constexpr std::string_view dtype_name(vx_enum type) noexcept {
  const vx_type_info* row = find_vx_type(type);
  return row != nullptr && row->dtype() != nullptr ? std::string_view(row->dtype()) : std::string_view("?");
}

// The type written in op.yml for a field.
inline std::string_view yml_type(const field_desc& f) noexcept {
  switch (f.kind) {
    case field_kind::input:
    case field_kind::output: return "VX_TYPE_TENSOR";
    case field_kind::array: return "VX_TYPE_ARRAY";
    case field_kind::scalar: break;
  }
  return vx_type_name(f.vx_type);
}

// A param's default as op.yml's comment, rknnop-run's --param and --describe spell it ("0.2", "true",
// "64,64", "REFLECT"); floats print the shortest text that reads back to the same value.
inline std::string default_text(const field_desc& f, const param_extra& e) {
  if (e.enumerator_count != 0) {
    for (std::size_t k = 0; k < e.enumerator_count; ++k)
      if (e.enumerators[k].value == e.int_default) return std::string(e.enumerators[k].name);
    return fmt::format("{}", e.int_default);  // a value outside the table: shown, refused when used
  }
  if (f.kind == field_kind::array) {
    std::string out;
    for (std::size_t k = 0; k < e.items_default_count; ++k)
      fmt::format_to(std::back_inserter(out), "{}{}", k ? "," : "", e.items_default[k]);
    return out;
  }
  if (f.vx_type == VX_TYPE_BOOL) return e.int_default != 0 ? "true" : "false";
  // By the scalar's C++ type (the one table's): FLOAT16 prints as float, unsigned types their
  // uint_default, the others (CHAR, signed, ENUM, SIZE) their int_default.
  std::string text = fmt::format("{}", e.int_default);
  visit_scalar_type(f.vx_type, [&]<class T>(std::type_identity<T>) {
    if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, float>)
      text = fmt::format("{}", static_cast<float>(e.float_default));
    else if constexpr (std::is_same_v<T, double>)
      text = fmt::format("{}", e.float_default);
    else if constexpr (std::is_unsigned_v<T>)
      text = fmt::format("{}", e.uint_default);
  });
  return text;
}

// "# rknnop-field: <name> <role> key=value ...": what the toolkit's op.yml has no key for (docs/op-yml.md
// §6), for rknnop's host tools. Values hold no spaces.
inline std::string field_comment(const field_desc& f, const param_extra* e) {
  std::string out = fmt::format("# rknnop-field: {} {}", f.name, role_name(f.kind));
  auto it = std::back_inserter(out);
  if (f.kind == field_kind::input || f.kind == field_kind::output) {
    out += " dtypes=";
    for (std::uint32_t k = 0; k < f.accepted_count; ++k)
      fmt::format_to(it, "{}{}", k ? "," : "", dtype_name(f.accepted[k]));
    if (f.layout[0] != '\0') fmt::format_to(it, " layout={}", f.layout);
  } else if (f.kind == field_kind::array) {
    fmt::format_to(it, " items{}{}", f.exact ? "=" : "<=", f.capacity);
  }
  if (e != nullptr && e->enumerator_count != 0) {
    out += " enum=";
    for (std::size_t k = 0; k < e->enumerator_count; ++k)
      fmt::format_to(it, "{}{}:{}", k ? "," : "", e->enumerators[k].name, e->enumerators[k].value);
  }
  if (e != nullptr && e->has_default) fmt::format_to(it, " default={}", default_text(f, *e));
  out += '\n';
  return out;
}
}  // namespace detail

// --- op.yml ----------------------------------------------------------------------------------

/// op.yml as `custom_op --action create` leaves it, plus a comment carrying the schema
/// fingerprint (the library stores the same value after its descriptor name's NUL; rknnop's
/// loader compares them). Assumes check_options(op, options) passed.
inline std::string emit_op_yml(const op_schema& op, const emit_options& options = {}) {
  std::string out;
  auto it = std::back_inserter(out);
  // rknnop's comments come first, one block with the fingerprint (PyYAML and yaml-cpp skip comments).
  std::string fields;
  const std::size_t first_param = op.input_count + op.output_count;
  for (std::size_t i = 0; i < op.fields.size(); ++i) {
    const param_extra* e =
        i >= first_param && i - first_param < op.param_extras.size() ? &op.param_extras[i - first_param] : nullptr;
    fields += detail::field_comment(op.fields[i], e);
  }
  fmt::format_to(it,
                 "# op.yml of the custom op {}, generated by rknnop from its C++ op struct.\n"
                 "# {} {:016x}\n"
                 "{}"
                 "name: {}\n"
                 "framework: tensorflow\n"
                 "target_platform: {}\n",
                 op.name, schema_marker, op.fingerprint, fields, detail::yaml_key(op.name), options.target_platform);
  const auto section = [&](std::string_view key, std::size_t first, std::size_t count) {
    if (count == 0) {
      fmt::format_to(it, "{}: {{}}\n", key);  // an empty mapping, not null
      return;
    }
    fmt::format_to(it, "{}:\n", key);
    for (std::size_t i = first; i < first + count; ++i)
      fmt::format_to(it, "  {}:\n    type: {}\n", detail::yaml_key(op.fields[i].name), detail::yml_type(op.fields[i]));
  };
  section("inputs", 0, op.input_count);
  section("outputs", op.input_count, op.output_count);
  section("params", op.input_count + op.output_count, op.param_count);
  fmt::format_to(it,
                 "op_version: 2\n"
                 "out_binary: {}\n"
                 "op_py_file: {}\n"
                 "vx_file: {}\n"
                 "kernel_index: {}\n",
                 container_file_name(op.name), python_file_name(op.name), shader_file_name(op.name),
                 options.kernel_index);
  return out;
}

template <class Op>
std::string emit_op_yml(const emit_options& options = {}) {
  return emit_op_yml(schema_of<Op>(), options);
}

}  // namespace rknnop

RKNNOP_DETAIL_END_HIDDEN
