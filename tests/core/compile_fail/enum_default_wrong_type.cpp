// SPDX-License-Identifier: MIT
// An enum param's default written as a number: the compiler's own error names the field, and
// rknnop adds one line saying where to look, never "not a plain aggregate" (issue 31).
#include <rknnop/op.hpp>

enum class layout_mode : std::int32_t { nhwc = 0, nchw = 1 };
template <>
struct rknnop::customize::enum_names<layout_mode> {
  static constexpr rknnop::enum_name<layout_mode> table[] = {{layout_mode::nhwc, "NHWC"}, {layout_mode::nchw, "NCHW"}};
};

struct EnumDefault {
  static constexpr std::string_view name = "EnumDefault";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {
#ifdef RKNNOP_COMPILE_FAIL
    layout_mode data_format = 0;
#else
    layout_mode data_format = layout_mode::nhwc;
#endif
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    out.y.set_dims(in.x.dims(), in.x.rank());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params&) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.y[i] = in.x[i];
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(EnumDefault);
