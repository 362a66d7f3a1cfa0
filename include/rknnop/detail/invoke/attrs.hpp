// SPDX-License-Identifier: MIT
#pragma once

// Layer 11 of detail/ (docs/architecture.md §1): params from named attributes, the one decoding the
// MindSpore Lite and RKNPU2 adapters share (docs/architecture.md §1). A backend reads an attribute
// item as an integer or a float (`attr_item`); this layer alone decides what a param takes: the
// range of an integer type, 0 or 1 for a bool, the value of one of an enum's names, a float value
// the param's float type holds exactly and that is finite (as `rknnop-run --param` refuses nan and
// inf), and the one line for each refusal.

#include <rknnop/detail/invoke/pipeline.hpp>
#include <rknnop/detail/log.hpp>
#include <rknnop/float16.hpp>
#include <rknnop/status.hpp>

#include <cstdint>      // fixed-width types
#include <limits>       // integer ranges
#include <type_traits>  // param types

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::detail {
// One item of an attribute, as an integer or a float.
struct attr_item {
  bool integer = false;
  std::int64_t i = 0;
  double d = 0;
};

// "param 'alpha': item 0 of the node's attribute is 300, expected a value the param's type holds"
RKNNOP_DETAIL_COLD inline outcome attr_value_failure(const field_desc& f, const attr_item& v, std::uint32_t k,
                                                     const char* expected) noexcept {
  status s = error("{} '{}': ", role_name(f.kind), f.name);
  if (v.integer)
    s.append(error("item {} of the node's attribute is {}, expected {}", k, v.i, expected).message());
  else
    s.append(error("item {} of the node's attribute is {}, expected {}", k, v.d, expected).message());
  return outcome(status_code::invalid_value, s);
}

// "the node has no attribute 'x' and the param has no default (...)": the one line for a param
// without a value on every backend that reads attributes.
RKNNOP_DETAIL_COLD inline outcome missing_attr_failure(const field_desc& f) noexcept {
  return fail(status_code::invalid_parameters, f,
              "the node has no attribute '{}' and the param has no default (give the node the attribute, or "
              "the field a default member initializer)",
              f.name);
}

// A float param's value from one item: a float, or an integer the field's type holds exactly; the
// value must be finite and held exactly by the param's float type.
template <class T>
outcome attr_to_float(const field_desc& f, const attr_item& v, std::uint32_t k, T& out) noexcept {
  const double d = v.integer ? double(v.i) : v.d;
  if (v.integer && double(std::int64_t(d)) != d) return attr_value_failure(f, v, k, "an integer a float holds exactly");
  if (d != d || d - d != 0) return non_finite_failure(f, d);
  T converted{};
  double back = 0;
  if constexpr (std::is_same_v<T, float16>) {
    converted = float16(float(d));
    back = double(float(converted));
  } else {
    converted = T(d);
    back = double(converted);
  }
  if (back != d)
    return attr_value_failure(
        f, v, k,
        std::is_same_v<T, float16> ? "a value float16 holds exactly" : "a value the param's float type holds exactly");
  out = converted;
  return {};
}

// An integer item into a param of type F (bool, an enum or an integer type): THE range rules.
template <class F>
outcome attr_to_integer(const field_desc& f, const attr_item& v, std::uint32_t k, F& value) noexcept {
  if constexpr (std::is_same_v<F, bool>) {
    if (v.i != 0 && v.i != 1) return bool_value_failure(f, v.i);
    value = v.i != 0;
    return {};
  } else if constexpr (std::is_enum_v<F>) {
    return decode_enum(f, v.i, value);
  } else {
    using L = std::numeric_limits<F>;
    if ((L::is_signed && (v.i < std::int64_t(L::min()) || v.i > std::int64_t(L::max()))) ||
        (!L::is_signed && (v.i < 0 || std::uint64_t(v.i) > std::uint64_t(L::max()))))
      return attr_value_failure(f, v, k, "a value the param's type holds");
    value = static_cast<F>(v.i);
    return {};
  }
}

// One scalar param from one item.
template <class F>
outcome decode_scalar_item(const field_desc& f, const attr_item& v, F& value) noexcept {
  if constexpr (std::is_floating_point_v<F> || std::is_same_v<F, float16>) {
    return attr_to_float(f, v, 0, value);
  } else {
    if (!v.integer) return attr_value_failure(f, v, 0, "an integer");
    return attr_to_integer(f, v, 0, value);
  }
}

// One int32 array item.
inline outcome decode_array_item(const field_desc& f, const attr_item& v, std::uint32_t k, std::int32_t& out) noexcept {
  if (!v.integer) return attr_value_failure(f, v, k, "an integer");
  return attr_to_integer(f, v, k, out);
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_HIDDEN
