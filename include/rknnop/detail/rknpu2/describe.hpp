// SPDX-License-Identifier: MIT
#pragma once

// Layer 14 of detail/ (docs/architecture.md §1), in the RKNPU2 backend's room.
// The RKNPU2 plugin's description (rknnop_rknpu2_describe, <rknnop/rknpu2_plugin.h>): the op, its
// tensors with the RKNN dtypes each takes, and its attributes with ONNX's attribute type and the op
// struct's default, from the same reflection the toolkit2 class is generated from (schema.hpp's
// param_extras). Text built once, on the first call, into a static buffer; `rknnop-run plugin.so
// --describe` prints it and reads the tensors' names from it.
//
//   op LeakyRelu (RKNPU2 op type 'LeakyRelu')
//   input x: FLOAT32 or FLOAT16
//   output y: FLOAT32 or FLOAT16
//   attribute alpha: float, default 0.01
//   attribute paddings: ints (at most 12 items), required
//   attribute mode: int64 (0 REFLECT, 1 SYMMETRIC), default 0

#include <rknnop/detail/model.hpp>
#include <rknnop/detail/rknpu2/tensor.hpp>
#include <rknnop/detail/schema.hpp>  // param_extras
#include <rknnop/vx_type.hpp>        // vx_type_is_floating

#include <cstdint>
#include <cstdio>       // std::snprintf, std::strtod
#include <cstdlib>      // std::strtof
#include <string_view>  // names

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::detail::rknpu2 {

// Text appended into a fixed buffer, cut (never overrun) when it is full.
struct describe_text {
  char* out;
  std::size_t capacity;  // including the terminating NUL
  std::size_t length = 0;
  void add(std::string_view text) noexcept {
    for (const char c : text)
      if (length + 1 < capacity) out[length++] = c;
    out[length] = '\0';
  }
  void add_int(long long value) noexcept {
    char digits[32];
    const int n = std::snprintf(digits, sizeof digits, "%lld", value);
    if (n > 0) add(std::string_view(digits, static_cast<std::size_t>(n)));
  }
  // The shortest text that reads back as the same value of the field's type (float: 0.01, not
  // 0.00999999978).
  void add_float(double value, bool is_double) noexcept {
    char digits[40];
    int n = 0;
    for (int precision = 6; precision <= 17; ++precision) {
      n = std::snprintf(digits, sizeof digits, "%.*g", precision, value);
      if (is_double ? std::strtod(digits, nullptr) == value : std::strtof(digits, nullptr) == static_cast<float>(value))
        break;
    }
    if (n > 0) add(std::string_view(digits, static_cast<std::size_t>(n)));
  }
};

inline void describe_tensor(describe_text& t, const field_desc& f) noexcept {
  t.add(f.kind == field_kind::input ? "input " : "output ");
  t.add(f.name);
  t.add(":");
  std::size_t listed = 0;
  std::size_t total = 0;
  for (const rknn_type_row& row : rknn_types)
    if (row.vx != vx_type::invalid && accepts(f, row.vx)) ++total;
  for (const rknn_type_row& row : rknn_types) {
    if (row.vx == vx_type::invalid || !accepts(f, row.vx)) continue;
    t.add(listed == 0 ? " " : listed + 1 == total ? " or " : ", ");
    t.add(row.name);
    ++listed;
  }
  if (f.required_rank != 0) {
    t.add(", rank ");
    t.add_int(f.required_rank);
  }
  t.add("\n");
}

inline void describe_attribute(describe_text& t, const field_desc& f, const param_extra& e) noexcept {
  t.add("attribute ");
  t.add(f.name);
  if (f.kind == field_kind::array) {
    t.add(": ints (");
    t.add(f.exact ? "exactly " : "at most ");
    t.add_int(static_cast<long long>(f.capacity));
    t.add(f.capacity == 1 ? " item)" : " items)");
  } else if (e.enumerator_count != 0) {
    t.add(": int64 (");
    for (std::size_t k = 0; k < e.enumerator_count; ++k) {
      if (k) t.add(", ");
      t.add_int(e.enumerators[k].value);
      t.add(" ");
      t.add(e.enumerators[k].name);
    }
    t.add(")");
  } else if (vx_type_is_floating(f.vx_type)) {
    t.add(": float");
  } else if (f.vx_type == vx_type::bool_) {
    t.add(": int64 (0 or 1)");
  } else {
    t.add(": int64");
  }
  if (!e.has_default) {
    t.add(", required\n");
    return;
  }
  t.add(", default ");
  if (f.kind == field_kind::array) {
    t.add("[");
    for (std::size_t k = 0; k < e.items_default_count; ++k) {
      if (k) t.add(", ");
      t.add_int(e.items_default[k]);
    }
    t.add("]");
  } else if (vx_type_is_floating(f.vx_type)) {
    t.add_float(e.float_default, f.vx_type == vx_type::float64);
  } else if (e.enumerator_count == 0 && e.uint_default != 0) {
    char digits[32];
    const int n = std::snprintf(digits, sizeof digits, "%llu", static_cast<unsigned long long>(e.uint_default));
    if (n > 0) t.add(std::string_view(digits, static_cast<std::size_t>(n)));
  } else {
    t.add_int(e.int_default);
  }
  t.add("\n");
}

// The description, built on the first call (a second thread racing the first waits for it).
template <class Op>
const char* describe_entry() noexcept {
  static constinit char buffer[16384] = {};
  static constinit int state = 0;  // 0 not built, 1 being built, 2 built
  int expected = 0;
  if (__atomic_compare_exchange_n(&state, &expected, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    using model = op_model<Op>;
    describe_text t{buffer, sizeof buffer};
    t.add("op ");
    t.add(model::name);
    t.add(" (RKNPU2 op type '");
    t.add(model::rknpu2_type);
    t.add("')\n");
    for (std::size_t k = 0; k < model::input_count + model::output_count; ++k) describe_tensor(t, model::fields[k]);
    constexpr std::size_t first = model::input_count + model::output_count;
    for (std::size_t k = 0; k < model::param_count; ++k)
      describe_attribute(t, model::fields[first + k], param_extras<typename model::params>::value[k]);
    __atomic_store_n(&state, 2, __ATOMIC_RELEASE);
  } else {
    while (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != 2) {}
  }
  return buffer;
}

}  // namespace rknnop::detail::rknpu2

RKNNOP_DETAIL_END_HIDDEN
