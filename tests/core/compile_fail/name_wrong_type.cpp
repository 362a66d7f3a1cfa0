// SPDX-License-Identifier: MIT
// `name` is optional, but when given it is a string.
#include "copy_op.hpp"
struct Numbered : copy_op<> {
#ifdef RKNNOP_COMPILE_FAIL
  static constexpr int name = 3;
#else
  static constexpr std::string_view name = "Numbered";
#endif
};
RKNNOP_EXPORT_OP(Numbered);
