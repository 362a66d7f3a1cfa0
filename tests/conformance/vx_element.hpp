// SPDX-License-Identifier: MIT
#pragma once
// What both RKNN v1 drivers (run_openvx.cpp on the host runtime, run_openvx_board.cpp on Rockchip's
// libOpenVX, cross-compiled: nothing of rknnop::host here) write the same way: a row's element type as
// the VX type of its tensors and back, the cases RKNN v1 cannot express, and each param as the VX
// scalar or INT32 array a model holds for it.
#include "cases.hpp"

#include <rknnop/openvx.h>     // vx_enum, VX_TYPE_*
#include <rknnop/vx_type.hpp>  // vx_type_npy_descr: the seven tensor element types

#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

namespace conformance {

// rknnop::dtype's values are the VX types (<rknnop/types.hpp>).
inline vx_enum vx_type(element e) { return static_cast<vx_enum>(e); }

// An output's VX type as a row's element type; nullopt for a type no tensor element has (the driver
// refuses the output, naming the type).
inline std::optional<element> element_of_vx(vx_enum type) {
  if (rknnop::vx_type_npy_descr(type).empty()) return std::nullopt;
  return static_cast<element>(type);
}

// v1 params are positional and typed: a model always holds every param of the table (a param the user
// leaves out is written with op.yml's default, the row's value), each a scalar of the param's own VX
// type, so a value that type cannot hold cannot be written. The n/a key, or nullptr.
inline const char* v1_not_expressible(const row& r) {
  for (const param_case& p : r.params) {
    if (!p.given && r.expect_refused) return "v1-positional";
    if (p.kind == param_kind::i8 && (p.values[0] < -128 || p.values[0] > 127)) return "v1-typed-scalar";
  }
  return nullptr;
}

// A param as the object a model holds for it, as librknn_runtime creates it: a scalar of the param's VX
// type (a bool as a 1-byte UINT8 scalar, which holds any byte, so a model's 2 reaches the kernel:
// docs/board-emulation.md §8 item 1), or for an array `vxCreateArray(ctx, VX_TYPE_INT32, n)`'s items.
struct vx_param {
  vx_enum scalar_type = VX_TYPE_INVALID;  // VX_TYPE_INVALID: an INT32 array of `items`
  alignas(4) std::uint8_t scalar[4] = {};
  std::vector<std::int32_t> items;
};
inline vx_param vx_param_of(const param_case& p) {
  const double v = p.values.empty() ? 0 : p.values[0];
  vx_param out;
  const auto set = [&out](vx_enum type, const auto value) {
    out.scalar_type = type;
    std::memcpy(out.scalar, &value, sizeof value);
  };
  switch (p.kind) {
    case param_kind::f32: set(VX_TYPE_FLOAT32, float(v)); break;
    case param_kind::i32:
    case param_kind::enumeration: set(VX_TYPE_INT32, param_integer<std::int32_t>(v)); break;
    case param_kind::i8: set(VX_TYPE_INT8, param_integer<std::int8_t>(v)); break;
    case param_kind::boolean: set(VX_TYPE_UINT8, param_integer<std::uint8_t>(v)); break;
    case param_kind::i32_array:
      for (double x : p.values) out.items.push_back(param_integer<std::int32_t>(x));
      break;
  }
  return out;
}

}  // namespace conformance
