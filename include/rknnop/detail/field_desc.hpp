// SPDX-License-Identifier: MIT
#pragma once

// Layer 4 of detail/ (docs/architecture.md §1): the field description. What the non-template code
// knows about one field of an op; model.hpp fills it in from the op struct, decode.hpp and the
// emitter read it.

#include <rknnop/detail/vx_types.hpp>  // the VX type values (std only)

#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint32_t
#include <string_view>  // names

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

// The field description is public (<rknnop/schema.hpp> documents it: op_schema::fields is a table of
// them, which the emitter, the parity harness and the MindSpore backend read); defined here because
// decode.hpp and model.hpp, below the schema, need it.
namespace rknnop {
enum class field_kind : unsigned char { input, output, scalar, array };

// Everything the non-template code needs to know about one field of an op.
struct field_desc {
  std::string_view name;
  field_kind kind = field_kind::input;
  std::int32_t vx_type =
      ::rknnop::vx_type::invalid;  // tensors: the kernel's element type; scalars: the scalar type; arrays: INT32
  const std::int32_t* accepted = nullptr;  // tensors: accepted dtypes
  std::uint32_t accepted_count = 0;
  // tensors: per accepted dtype, conversion to / from the kernel's element type (only the pairs an
  // op can meet are compiled)
  void (*const* to_kernel)(const void*, void*, std::size_t) noexcept = nullptr;
  void (*const* from_kernel)(const void*, void*, std::size_t) noexcept = nullptr;
  std::uint32_t required_rank = 0;  // 0: any rank 1..6
  const char* layout = "";          // tensors: "NHWC" or "NCHW" when layout-tagged
  std::size_t capacity = 0;         // arrays: exact count or maximum
  bool exact = false;               // arrays: std::array (exact) or int_array (bounded)
  std::size_t param_index = 0;      // position in the parameter table
};

// One enumerator of an enum param: its value and TensorFlow's name for it.
struct enum_desc {
  std::int32_t value = 0;
  std::string_view name;
};

// What emission and the host tools know about a param beyond its field_desc: its default (the
// default member initializer in `params`, if any) and, for an enum, its names. Built by schema.hpp
// for the emitter only, so kernel libraries do not carry it.
struct param_extra {
  bool has_default = false;
  std::int64_t int_default = 0;                 // BOOL, CHAR, signed integers, enums
  std::uint64_t uint_default = 0;               // unsigned integers
  double float_default = 0;                     // FLOAT16, FLOAT32, FLOAT64
  const std::int32_t* items_default = nullptr;  // arrays
  std::size_t items_default_count = 0;
  const enum_desc* enumerators = nullptr;  // enums
  std::size_t enumerator_count = 0;
};

}  // namespace rknnop

namespace rknnop::detail {
constexpr const char* role_name(field_kind k) noexcept {
  switch (k) {
    case field_kind::input: return "input";
    case field_kind::output: return "output";
    case field_kind::scalar: return "param";
    case field_kind::array: return "param";
  }
  return "field";
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_HIDDEN
