// SPDX-License-Identifier: MIT
#pragma once

// Layer 5 of detail/ (docs/architecture.md §1): element conversion between dtypes at the tensor
// boundary, one function per (to, from) pair; model.hpp tabulates the pairs a field can meet.

#include <rknnop/float16.hpp>

#include <cmath>        // std::isnan for float -> int conversion
#include <cstddef>      // std::size_t
#include <cstring>      // std::memcpy
#include <limits>       // saturation bounds
#include <type_traits>  // type dispatch
#include <utility>      // std::cmp_less

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::detail {
// Element conversion between dtypes at the boundary. Float -> integer saturates (NaN -> 0), so a
// bad value never becomes undefined behaviour.
template <class To, class From>
constexpr To convert_value(From v) noexcept {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<From, float16>) {
    return convert_value<To>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, float16>) {
    return float16(static_cast<float>(v));
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    if (std::isnan(v)) return To{0};
    if (v <= static_cast<From>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    if (v >= static_cast<From>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(v);
  } else if constexpr (std::is_integral_v<To> && std::is_integral_v<From>) {
    if (std::cmp_less(v, std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    if (std::cmp_greater(v, std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

// May run in place: narrowing with dst == src, widening with src at the end of dst's buffer (every
// access goes through memcpy or F16C loads/stores, so overlapping storage is not an aliasing issue).
template <class To, class From>
void convert_span(const void* src, void* dst, std::size_t n) noexcept {
  if constexpr (std::is_same_v<From, float16> && std::is_same_v<To, float>) {
    convert(static_cast<const float16*>(src), static_cast<float*>(dst), n);
  } else if constexpr (std::is_same_v<From, float> && std::is_same_v<To, float16>) {
    convert(static_cast<const float*>(src), static_cast<float16*>(dst), n);
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      From v;
      std::memcpy(&v, static_cast<const char*>(src) + i * sizeof(From), sizeof v);
      const To w = convert_value<To>(v);
      std::memcpy(static_cast<char*>(dst) + i * sizeof(To), &w, sizeof w);
    }
  }
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_HIDDEN
