// SPDX-License-Identifier: MIT
#pragma once
// A row's element type as the VX type both RKNN v1 drivers create its tensors with (run_openvx.cpp on
// the host runtime, run_openvx_board.cpp on Rockchip's libOpenVX).
#include "cases.hpp"

#include <rknnop/openvx.h>  // VX_TYPE_*

namespace conformance {

inline vx_enum vx_type(element e) {
  switch (e) {
    case element::float32: return VX_TYPE_FLOAT32;
    case element::float16: return VX_TYPE_FLOAT16;
    case element::int32: return VX_TYPE_INT32;
    case element::int8: return VX_TYPE_INT8;
    case element::uint8: return VX_TYPE_UINT8;
  }
  return VX_TYPE_INVALID;
}

}  // namespace conformance
