// SPDX-License-Identifier: MIT
// A host source that reaches into the SDK's detail/ (check_detail_private.cmake must reject it).
#include <rknnop/detail/vx_types.hpp>

int size_of_int32() { return static_cast<int>(rknnop::detail::vx_type_size(6, rknnop::detail::vx_use_scalar)); }
