// SPDX-License-Identifier: MIT
// docs/first-op.md §4: a default written with braces cannot narrow (`std::int32_t block_size = 2.5;`
// would silently become 2, and op.yml, --describe and every tool would show 2).
#include "copy_op.hpp"

struct braced_params {
#ifdef RKNNOP_COMPILE_FAIL
  std::int32_t block_size{2.5};
#else
  std::int32_t block_size{2};
#endif
};
struct BracedDefault : copy_op<braced_params> {
  static constexpr std::string_view name = "BracedDefault";
};
RKNNOP_EXPORT_OP(BracedDefault);
