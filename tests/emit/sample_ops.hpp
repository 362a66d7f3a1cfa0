// SPDX-License-Identifier: MIT
#pragma once

// Op structs covering what the emitter must translate: every scalar type, exact and bounded
// arrays, several ports, no params, names YAML 1.1 reads as booleans, a Python keyword as op name.
// Not exported (no RKNNOP_EXPORT_OP), so any number of test programs may include this header.

#include <rknnop/op.hpp>

namespace emit_samples {

using any_tensor = rknnop::tensor<float, rknnop::float16>;

inline constexpr auto same_shape = [](const auto& in, auto& out, const auto&) {
  out.y.set_dims(in.x.dims());
  return rknnop::ok;
};
inline constexpr auto nothing = [](const auto&, auto&, const auto&) { return rknnop::ok; };

struct AllTypes {
  static constexpr std::string_view name = "AllTypes";
  struct inputs {
    any_tensor x;
  };
  struct outputs {
    any_tensor y;
  };
  struct params {
    bool flag;
    char letter;
    std::int8_t i8;
    std::uint8_t u8;
    std::int16_t i16;
    std::uint16_t u16;
    std::int32_t i32;
    std::uint32_t u32;
    std::int64_t i64;
    std::uint64_t u64;
    rknnop::float16 half;
    float single;
    double twice;
    std::array<std::int32_t, 3> exact3;
    rknnop::int_array<4> upto4;
  };
  static constexpr auto infer = same_shape;
  static constexpr auto cpu = nothing;
};

struct TwoByTwo {
  static constexpr std::string_view name = "TwoByTwo";
  struct inputs {
    any_tensor x;
    rknnop::tensor<rknnop::layout::nhwc, std::uint8_t> mask;
  };
  struct outputs {
    any_tensor y;
    any_tensor z;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const rknnop::no_params&) {
    out.y.set_dims(in.x.dims());
    out.z.set_dims(in.x.dims());
    return rknnop::ok;
  };
  static constexpr auto cpu = nothing;
  static constexpr auto vx = [](const inputs&, const outputs&, const rknnop::no_params&, rknnop::work_size&) {
    return rknnop::ok;
  };
  static constexpr std::string_view python_output_shape = "[inputs_shape[0], inputs_shape[0]]";
  static constexpr std::string_view python_compute =
      "[inputs_tensor[0] * tf.cast(inputs_tensor[1], tf.float32),\n"
      " inputs_tensor[0] # a comment cannot swallow the closing bracket\n"
      "]";
};

struct Reserved {
  static constexpr std::string_view name = "Reserved";
  struct inputs {
    any_tensor x;
  };
  struct outputs {
    any_tensor y;
  };
  struct params {
    bool on;
    std::int32_t no;
    float Null;
    bool yes_please;
  };
  static constexpr auto infer = same_shape;
  static constexpr auto cpu = nothing;
};

struct pass {
  static constexpr std::string_view name = "pass";
  struct inputs {
    any_tensor x;
  };
  struct outputs {
    any_tensor y;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const rknnop::no_params&) {
    out.y.set_dims(in.x.dims());
    return rknnop::ok;
  };
  static constexpr auto cpu = nothing;
};

enum class pad_mode { reflect = 0, symmetric = 1 };
enum plain_enum : unsigned char { first = 3, second = 7 };

}  // namespace emit_samples

template <>
struct rknnop::customize::enum_names<emit_samples::pad_mode> {
  static constexpr rknnop::enum_name<emit_samples::pad_mode> table[] = {
      {emit_samples::pad_mode::reflect, "REFLECT"}, {emit_samples::pad_mode::symmetric, "SYMMETRIC"}};
};
template <>
struct rknnop::customize::enum_names<emit_samples::plain_enum> {
  static constexpr rknnop::enum_name<emit_samples::plain_enum> table[] = {{emit_samples::first, "FIRST"},
                                                                          {emit_samples::second, "SECOND"}};
};

namespace emit_samples {

// Every param kind with a default member initializer, next to ones without (required), and enums.
struct Defaults {
  static constexpr std::string_view name = "Defaults";
  struct inputs {
    any_tensor x;
  };
  struct outputs {
    any_tensor y;
  };
  struct params {
    float alpha = 0.2f;
    float required;
    bool flag = true;
    std::int32_t count = -3;
    std::uint8_t small = 200;
    rknnop::float16 half = rknnop::float16(1.5f);
    rknnop::float16 half_required;
    double twice = 1e-300;
    std::array<std::int32_t, 2> size = {64, 48};
    std::array<std::int32_t, 2> size_required;
    rknnop::int_array<4> pads = {1, 2};
    rknnop::int_array<4> pads_empty{};
    rknnop::int_array<4> pads_required;
    pad_mode mode = pad_mode::symmetric;
    pad_mode mode_required;
    plain_enum which = second;
  };
  static constexpr auto infer = same_shape;
  static constexpr auto cpu = nothing;
};

// An RKNPU2 op type that is not the op's name (RKNN-Toolkit2's own examples use a `cst` prefix).
struct Typed {
  static constexpr std::string_view name = "Typed";
  static constexpr std::string_view rknpu2_type = "cstTyped";
  struct inputs {
    any_tensor x;
  };
  struct outputs {
    any_tensor y;
  };
  struct params {
    float alpha;
  };
  static constexpr auto infer = same_shape;
  static constexpr auto cpu = nothing;
};

}  // namespace emit_samples
