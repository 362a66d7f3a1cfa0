// SPDX-License-Identifier: MIT
// A host header whose private helpers sit in a namespace named detail (check_detail_private.cmake must
// reject it: a grep for the SDK's namespace should find only the SDK).
#pragma once

namespace rknnop::host::detail {
inline int twice(int x) { return 2 * x; }
}  // namespace rknnop::host::detail
