// SPDX-License-Identifier: MIT
// The op's name is its struct's, and a template's instance ("Padded<2>") is no C identifier: such a
// struct declares `name` (the twin does).
#include "copy_op.hpp"
template <int N>
struct Padded : copy_op<> {
#ifndef RKNNOP_COMPILE_FAIL
  static constexpr std::string_view name = "Padded2";
#endif
};
using Padded2 = Padded<2>;
RKNNOP_EXPORT_OP(Padded2);
