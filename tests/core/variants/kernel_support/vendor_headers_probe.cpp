// SPDX-License-Identifier: MIT
// Built by rknnop_add_op(... OPENVX_INCLUDE_DIR dir KHRONOS_DIMS) for every architecture: fails to
// compile unless the vendor headers were the ones used (the tests' stand-in, or Khronos' real ones).
#include <rknnop/op.hpp>

#ifndef RKNNOP_EMITTER  // the op.yml emitter is a host program using rknnop's own declarations
#if !defined(RKNNOP_USE_VENDOR_OPENVX) || RKNNOP_VX_KHRONOS_DIMS != 1
#error "rknnop_add_op(OPENVX_INCLUDE_DIR ... KHRONOS_DIMS) did not select the vendor headers and Khronos dims"
#endif
#if defined(RKNNOP_OWN_OPENVX_DECLARATIONS) && !defined(RKNNOP_TEST_VENDOR_HEADER_USED)
#error "rknnop's own <rknnop/openvx.h> was used instead of the vendor's <VX/vx.h>"
#endif
#endif

struct VendorHeadersProbe {
  static constexpr std::string_view name = "VendorHeadersProbe";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {};

  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) { out.y.set_dims(in.x.dims()); };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params&) {
    for (std::size_t i = 0, n = in.x.size(); i < n; ++i) out.y.data()[i] = -in.x.data()[i];
  };
};
RKNNOP_EXPORT_OP(VendorHeadersProbe);
