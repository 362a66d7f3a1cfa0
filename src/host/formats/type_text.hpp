// SPDX-License-Identifier: MIT
#pragma once
// A VX type as the host's messages name it: VX_TYPE_FLOAT16, or "type 0x..." for a value no table knows.
#include <rknnop/vx_type.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace rknnop::host {

inline std::string type_text(std::int32_t t) {
  const std::string_view name = vx_type_name(t);
  return name.empty() ? fmt::format("type 0x{:x}", t) : std::string(name);
}

}  // namespace rknnop::host
