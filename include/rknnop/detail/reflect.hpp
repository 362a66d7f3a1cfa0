// SPDX-License-Identifier: MIT
#pragma once

// Layer 3 of detail/ (docs/architecture.md §1): reflection.
// The one header that includes Boost.PFR: field counts, field access and field names.
// Names come from boost::pfr::get_name where the installed PFR has it (Boost >= 1.84) and from
// rknnop's own fallback otherwise (Debian 12 ships Boost 1.81); a test checks that both agree.

#include <rknnop/config.hpp>

#include <boost/pfr/core.hpp>
#include <boost/pfr/tuple_size.hpp>
#if __has_include(<boost/pfr/core_name.hpp>)
#include <boost/pfr/core_name.hpp>
#endif

#include <array>        // name storage
#include <cstddef>      // std::size_t
#include <string_view>  // field names
#include <type_traits>  // std::integral_constant
#include <utility>      // std::index_sequence

#if defined(BOOST_PFR_CORE_NAME_ENABLED) && BOOST_PFR_CORE_NAME_ENABLED
#define RKNNOP_DETAIL_PFR_HAS_NAMES 1
#else
#define RKNNOP_DETAIL_PFR_HAS_NAMES 0
#endif

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

    namespace rknnop::detail {
  template <class T>
  inline constexpr std::size_t field_count = boost::pfr::tuple_size_v<T>;

  template <std::size_t I, class T>
  constexpr decltype(auto) field(T & value) noexcept {
    return boost::pfr::get<I>(value);
  }

  // Calls f(std::integral_constant<std::size_t, I>{}) for every field index of T, in order.
  template <class T, class F>
  constexpr void for_each_field_index(F && f) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (f(std::integral_constant<std::size_t, I>{}), ...);
    }(std::make_index_sequence<field_count<T>>{});
  }

  namespace names {

  // A never-defined object whose members' addresses are constant expressions: the compiler spells
  // such an address, member name included, in the __PRETTY_FUNCTION__ of a template taking it.
  template <class T>
  struct holder {
    T value;
  };
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wundefined-var-template"
#endif
  template <class T>
  extern const holder<T> fake_object;

  template <class P>
  struct pointer_box {
    P pointer;
  };

  template <std::size_t I, class First, class... Rest>
  consteval auto nth(First first, Rest... rest) {
    if constexpr (I == 0)
      return pointer_box<First>{first};
    else
      return nth<I - 1>(rest...);
  }

  inline constexpr std::size_t max_fields = 24;

  template <class T, std::size_t I>
  consteval auto member_address() {
    constexpr std::size_t N = field_count<T>;
    static_assert(N <= max_fields, "rknnop: at most 24 fields per inputs/outputs/params struct");
    if constexpr (N == 1) {
      const auto& [m0] = fake_object<T>.value;
      return nth<I>(&m0);
    } else if constexpr (N == 2) {
      const auto& [m0, m1] = fake_object<T>.value;
      return nth<I>(&m0, &m1);
    } else if constexpr (N == 3) {
      const auto& [m0, m1, m2] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2);
    } else if constexpr (N == 4) {
      const auto& [m0, m1, m2, m3] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3);
    } else if constexpr (N == 5) {
      const auto& [m0, m1, m2, m3, m4] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4);
    } else if constexpr (N == 6) {
      const auto& [m0, m1, m2, m3, m4, m5] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5);
    } else if constexpr (N == 7) {
      const auto& [m0, m1, m2, m3, m4, m5, m6] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6);
    } else if constexpr (N == 8) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7);
    } else if constexpr (N == 9) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8);
    } else if constexpr (N == 10) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9);
    } else if constexpr (N == 11) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10);
    } else if constexpr (N == 12) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11);
    } else if constexpr (N == 13) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12);
    } else if constexpr (N == 14) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13);
    } else if constexpr (N == 15) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14);
    } else if constexpr (N == 16) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15);
    } else if constexpr (N == 17) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16);
    } else if constexpr (N == 18) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17] =
          fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17);
    } else if constexpr (N == 19) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18] =
          fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17,
                    &m18);
    } else if constexpr (N == 20) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19] =
          fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17,
                    &m18, &m19);
    } else if constexpr (N == 21) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20] =
          fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17,
                    &m18, &m19, &m20);
    } else if constexpr (N == 22) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21] =
          fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17,
                    &m18, &m19, &m20, &m21);
    } else if constexpr (N == 23) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21,
                   m22] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17,
                    &m18, &m19, &m20, &m21, &m22);
    } else if constexpr (N == 24) {
      const auto& [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21,
                   m22, m23] = fake_object<T>.value;
      return nth<I>(&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17,
                    &m18, &m19, &m20, &m21, &m22, &m23);
    }
  }
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

  template <auto Box>
  consteval std::string_view pretty() {
    return __PRETTY_FUNCTION__;
  }

  constexpr bool is_identifier_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  // GCC spells the address "(& fake_object<T>.holder<T>::value.T::member)}", clang
  // "{&fake_object.value.member}]": the member is the identifier just before the last ")}" (GCC) or
  // "}]" (clang). Namespaces such as "{anonymous}" appear earlier and do not match.
  constexpr std::string_view member_from_pretty(std::string_view s) {
    std::size_t end = s.rfind(")}");
    if (end == std::string_view::npos) end = s.rfind("}]");
    if (end == std::string_view::npos) return {};
    std::size_t begin = end;
    while (begin > 0 && is_identifier_char(s[begin - 1])) --begin;
    return s.substr(begin, end - begin);
  }

  template <class T, std::size_t I>
  consteval std::string_view fallback_name_view() {
    return member_from_pretty(pretty<member_address<T, I>()>());
  }

  // Copied into a variable so the characters outlive the consteval call (they reach diagnostics).
  // Hidden explicitly: GCC does not apply #pragma GCC visibility to variable template instances.
  template <class T, std::size_t I>
  RKNNOP_DETAIL_HIDDEN inline constexpr auto fallback_storage = [] {
    constexpr std::string_view name = fallback_name_view<T, I>();
    std::array<char, name.size() + 1> chars{};
    for (std::size_t k = 0; k < name.size(); ++k) chars[k] = name[k];
    return chars;
  }();

  template <class T, std::size_t I>
  inline constexpr std::string_view fallback_name{fallback_storage<T, I>.data(), fallback_storage<T, I>.size() - 1};

  }  // namespace names

  // The name of field I of T, as written in the source.
  template <class T, std::size_t I>
  inline constexpr std::string_view field_name =
#if RKNNOP_DETAIL_PFR_HAS_NAMES
      boost::pfr::get_name<I, T>();
#else
      names::fallback_name<T, I>;
#endif

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_HIDDEN
