// SPDX-License-Identifier: MIT
#pragma once

// Internal: little-endian loads/stores without pointer punning.

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

namespace rknnop::host::byte_io {

template <class T>
[[nodiscard]] T load_le(const std::uint8_t* p) noexcept {
  static_assert(std::is_unsigned_v<T>);
  T value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) value = static_cast<T>(value | (T(p[i]) << (8 * i)));
  return value;
}

template <class T>
void append_le(std::vector<std::uint8_t>& out, T value) {
  static_assert(std::is_unsigned_v<T>);
  for (std::size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<std::uint8_t>((value >> (8 * i)) & 0xFFu));
}

[[nodiscard]] inline std::string hex_bytes(std::span<const std::uint8_t> bytes) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); ++i) out += fmt::format("{}{:02x}", i == 0 ? "" : " ", bytes[i]);
  return out;
}

}  // namespace rknnop::host::byte_io
