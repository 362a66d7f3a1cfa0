// SPDX-License-Identifier: MIT
// An op whose kernel uses what real kernels use: std::vector (operator new, __throw_length_error)
// and std::string_view::substr (__throw_out_of_range_fmt). Built for the boards, these helpers must
// come from rknnopKernelSupport.cpp: GCC 12's static libstdc++ versions drag in its exception runtime,
// which needs a newer glibc than the boards' 2.28. tests/core checks its board libraries.
#include <rknnop/op.hpp>

#include <string_view>
#include <vector>

struct KernelSupportProbe {
  static constexpr std::string_view name = "KernelSupportProbe";
  using values = rknnop::tensor<float>;
  struct inputs {
    values x;
  };
  struct outputs {
    values y;
  };
  struct params {
    std::int32_t skip;
  };

  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) { out.y.set_dims(in.x.dims()); };
  // y = x reversed, through a std::vector; `skip` characters of a name are dropped via substr.
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    std::vector<float> copy(in.x.data(), in.x.data() + in.x.size());
    const std::string_view label = std::string_view(name).substr(std::size_t(p.skip < 0 ? 0 : p.skip));
    for (std::size_t i = 0, n = copy.size(); i < n; ++i) out.y.data()[i] = copy[n - 1 - i] + float(label.empty());
  };
};
RKNNOP_EXPORT_OP(KernelSupportProbe);
