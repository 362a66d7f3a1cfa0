// SPDX-License-Identifier: MIT
// An enum param's default written as a number: the compiler's own error names the field, and
// rknnop adds one line saying where to look, never "not a plain aggregate" (issue 31).
#include "copy_op.hpp"

enum class layout_mode : std::int32_t { nhwc = 0, nchw = 1 };
template <>
struct rknnop::customize::enum_names<layout_mode> {
  static constexpr rknnop::enum_name<layout_mode> table[] = {{layout_mode::nhwc, "NHWC"}, {layout_mode::nchw, "NCHW"}};
};

struct enum_params {
#ifdef RKNNOP_COMPILE_FAIL
  layout_mode data_format = 0;
#else
  layout_mode data_format = layout_mode::nhwc;
#endif
};
struct EnumDefault : copy_op<enum_params> {
  static constexpr std::string_view name = "EnumDefault";
};
RKNNOP_EXPORT_OP(EnumDefault);
