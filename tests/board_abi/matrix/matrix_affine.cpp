// SPDX-License-Identifier: MIT
// One input, one output, a param of every scalar type the board runtime creates and an int32 array:
// y = x + the sum of the params (flag: negated x), so that each param's value shows in the output.
#include "matrix_op.hpp"

struct MatrixAffine {
  static constexpr std::string_view name = "MatrixAffine";
  struct inputs {
    rknnop_matrix::any_tensor x;
  };
  struct outputs {
    rknnop_matrix::any_tensor y;
  };
  struct params {
    std::int8_t i8 = 0;
    std::uint8_t u8 = 0;
    std::int16_t i16 = 0;
    std::uint16_t u16 = 0;
    std::int32_t i32 = 0;
    std::uint32_t u32 = 0;
    std::int64_t i64 = 0;
    std::uint64_t u64 = 0;
    char ch = 0;
    float f32 = 0.0f;
    double f64 = 0.0;
    bool flag = false;
    rknnop::int_array<4> arr{};
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    rknnop_matrix::infer_like(in.x, out.y);
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    double offset = static_cast<double>(p.i8) + p.u8 + p.i16 + p.u16 + p.i32 + p.u32 + static_cast<double>(p.i64) +
                    static_cast<double>(p.u64) + p.ch + p.f32 + p.f64;
    for (const std::int32_t v : p.arr) offset += v;
    const float sign = p.flag ? -1.0f : 1.0f;
    for (std::size_t i = 0; i < in.x.size(); ++i) out.y[i] = sign * in.x[i] + static_cast<float>(offset);
    return rknnop::ok;
  };
};

RKNNOP_EXPORT_OP(MatrixAffine);
