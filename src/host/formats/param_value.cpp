// SPDX-License-Identifier: MIT
#include "rknnop/host/param_value.hpp"

#include "rknnop/host/error.hpp"
#include <rknnop/vx_type.hpp>

#include <rknnop/float16.hpp>  // the SDK's exact conversions (round to nearest even)

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace rknnop::host {

namespace {

// The ranges, C++ types and float-ness of the scalar types are the one table's (<rknnop/vx_type.hpp>).
std::optional<vx_integer_range> integer_range(std::int32_t type) { return vx_type_integer_range(type); }

bool is_float_type(std::int32_t type) { return vx_type_is_floating(type); }

// "VX_TYPE_UINT8 (an integer in [0, 255])": what the user should have written.
std::string expectation(std::int32_t type, std::optional<std::size_t> array_length = std::nullopt) {
  const std::string_view name = vx_type_name(type);
  if (type == vx_type::array) {
    if (array_length)
      return fmt::format(
          "VX_TYPE_ARRAY of {} int32 item{} like {}", *array_length, *array_length == 1 ? "" : "s",
          *array_length == 0 ? std::string("''") : [&] {
            std::string s = "64";
            for (std::size_t i = 1; i < *array_length; ++i) s += ",64";
            return s;
          }());
    return "VX_TYPE_ARRAY of int32 like 64,64";
  }
  if (type == vx_type::bool_) return "VX_TYPE_BOOL (true/false/1/0)";
  if (type == vx_type::char_) return "VX_TYPE_CHAR (one character or an integer in [-128, 127])";
  if (const auto range = integer_range(type))
    return fmt::format("{} (an integer in [{}, {}])", name, range->min, range->max);
  if (type == vx_type::float16) return "VX_TYPE_FLOAT16 (a number with |x| <= 65504)";
  if (type == vx_type::float32) return "VX_TYPE_FLOAT32 (a finite number)";
  if (type == vx_type::float64) return "VX_TYPE_FLOAT64 (a finite number)";
  return fmt::format("type 0x{:x}", type);
}

[[noreturn]] void fail(std::string_view name, std::int32_t type, std::string_view got, std::string_view reason = {},
                       std::optional<std::size_t> array_length = std::nullopt) {
  throw error(fmt::format("param '{}': expected {}, got {}{}{}", name, expectation(type, array_length), got,
                          reason.empty() ? "" : " ", reason));
}

std::string quoted(std::string_view text) { return fmt::format("'{}'", text); }

void check_type_known(std::string_view name, std::int32_t type) {
  if (type != vx_type::array && !is_param_scalar_type(type)) {
    const std::string_view type_name = vx_type_name(type);
    throw error(
        fmt::format("param '{}': type {} cannot be a param value; expected VX_TYPE_ARRAY or "
                    "a scalar type the runtime creates (CHAR, INT8..UINT64, FLOAT16/32/64, BOOL)",
                    name, type_name.empty() ? fmt::format("0x{:x}", type) : std::string(type_name)));
  }
}

template <class T>
void store(param_value& v, T value) {
  static_assert(sizeof(T) <= 8);
  std::memcpy(v.scalar.data(), &value, sizeof(T));
}

// Parses a whole string as a signed or unsigned integer (decimal, or hex with 0x); nullopt if it is
// not an integer literal, `overflow` set if it is one but does not fit 64 bits.
struct parsed_int {
  bool negative = false;
  std::uint64_t magnitude = 0;
};
std::optional<parsed_int> parse_integer(std::string_view text, bool& overflow) {
  overflow = false;
  parsed_int result;
  std::string_view digits = text;
  if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) {
    result.negative = digits.front() == '-';
    digits.remove_prefix(1);
  }
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  }
  if (digits.empty() || digits.front() == '-' || digits.front() == '+') return std::nullopt;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), result.magnitude, base);
  if (ptr != digits.data() + digits.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    overflow = true;
    return result;
  }
  if (ec != std::errc()) return std::nullopt;
  return result;
}

param_value make_integer(std::string_view name, std::int32_t type, bool negative, std::uint64_t magnitude,
                         std::string_view shown) {
  const vx_integer_range range = *integer_range(type);
  const bool fits =
      negative ? magnitude == 0 || (range.min < 0 && magnitude <= static_cast<std::uint64_t>(-(range.min + 1)) + 1)
               : magnitude <= range.max;
  if (!fits) fail(name, type, shown, "(out of range)");
  param_value v;
  v.type = type;
  const std::int64_t signed_value =
      negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
  visit_scalar_type(type, [&]<class T>(std::type_identity<T>) {
    if constexpr (std::is_integral_v<T>)
      store(v, std::is_signed_v<T> ? static_cast<T>(signed_value) : static_cast<T>(magnitude));
  });
  return v;
}

param_value make_float(std::string_view name, std::int32_t type, double value, std::string_view shown) {
  if (!std::isfinite(value)) fail(name, type, shown, "(not finite)");
  param_value v;
  v.type = type;
  if (type == vx_type::float16) {
    const std::uint16_t half = rknnop::float16::from_float(static_cast<float>(value));
    if ((half & 0x7C00u) == 0x7C00u || std::fabs(value) > 65504.0 * (1.0 + 1.0 / 2048.0))
      fail(name, type, shown, "(out of range)");
    store(v, half);
  } else if (type == vx_type::float32) {
    // In range when it rounds to a finite float: below FLT_MAX + half an ulp (2^103; the tie rounds
    // to even, i.e. to infinity). So "3.4028235e+38", how FLT_MAX prints, is accepted.
    constexpr double float32_limit = static_cast<double>(std::numeric_limits<float>::max()) + 0x1p103;
    if (std::fabs(value) >= float32_limit) fail(name, type, shown, "(out of range)");
    store(v, static_cast<float>(value));
  } else {
    store(v, value);
  }
  return v;
}

param_value make_array(std::string_view name, std::span<const std::int32_t> items,
                       std::optional<std::size_t> array_length, std::string_view shown) {
  if (items.empty() && (!array_length || *array_length != 0))
    fail(name, vx_type::array, shown, "(no items)", array_length);
  if (array_length && items.size() != *array_length)
    fail(name, vx_type::array, shown, fmt::format("({} item{})", items.size(), items.size() == 1 ? "" : "s"),
         array_length);
  param_value v;
  v.type = vx_type::array;
  v.items.assign(items.begin(), items.end());
  return v;
}

}  // namespace

bool param_value::is_array() const noexcept { return type == vx_type::array; }

std::size_t param_value::scalar_size() const noexcept { return is_array() ? 0 : vx_scalar_size(type); }

std::string param_value::to_string() const {
  const auto load = [this]<class T>(T) {
    T value{};
    std::memcpy(&value, scalar.data(), sizeof(T));
    return value;
  };
  if (type == vx_type::array) return fmt::format("{}", fmt::join(items, ","));
  if (type == vx_type::bool_) return load(std::int32_t{}) != 0 ? "true" : "false";
  std::string text = "?";
  visit_scalar_type(type, [&]<class T>(std::type_identity<T>) {
    if constexpr (std::is_same_v<T, rknnop::float16>)
      text = fmt::format("{}", rknnop::float16::to_float(load(std::uint16_t{})));
    else
      text = fmt::format("{}", load(T{}));  // std::int8_t (CHAR too) prints as a number
  });
  return text;
}

param_value parse_param_value(std::string_view name, std::int32_t type, std::string_view text,
                              std::optional<std::size_t> array_length) {
  check_type_known(name, type);
  const std::string shown = quoted(text);
  if (type == vx_type::array) {
    std::vector<std::int32_t> items;
    if (!text.empty()) {
      std::size_t index = 0;
      std::string_view rest = text;
      while (true) {
        ++index;
        const auto comma = rest.find(',');
        std::string_view item = rest.substr(0, comma);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        bool overflow = false;
        const auto parsed = parse_integer(item, overflow);
        if (!parsed)
          fail(name, type, shown, fmt::format("(item {} '{}' is not an integer)", index, item), array_length);
        const bool fits =
            !overflow && (parsed->negative ? parsed->magnitude <= 2147483648ull : parsed->magnitude <= 2147483647ull);
        if (!fits)
          fail(name, type, shown, fmt::format("(item {} '{}' is out of int32 range)", index, item), array_length);
        items.push_back(parsed->negative ? static_cast<std::int32_t>(-static_cast<std::int64_t>(parsed->magnitude))
                                         : static_cast<std::int32_t>(parsed->magnitude));
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
      }
    }
    return make_array(name, items, array_length, shown);
  }
  if (type == vx_type::bool_) {
    param_value v;
    v.type = type;
    if (text == "true" || text == "True" || text == "1")
      store(v, std::int32_t{1});
    else if (text == "false" || text == "False" || text == "0")
      store(v, std::int32_t{0});
    else
      fail(name, type, shown);
    return v;
  }
  if (type == vx_type::char_ && text.size() == 1 && !(text[0] >= '0' && text[0] <= '9')) {
    param_value v;
    v.type = type;
    store(v, text[0]);
    return v;
  }
  if (integer_range(type)) {
    bool overflow = false;
    const auto parsed = parse_integer(text, overflow);
    if (!parsed) fail(name, type, shown);
    if (overflow) fail(name, type, shown, "(out of range)");
    return make_integer(name, type, parsed->negative, parsed->magnitude, shown);
  }
  // floating point
  double value = 0;
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ptr != digits.data() + digits.size() ||
      (ec != std::errc() && ec != std::errc::result_out_of_range))
    fail(name, type, shown);
  if (ec == std::errc::result_out_of_range) fail(name, type, shown, "(out of range)");
  return make_float(name, type, value, shown);
}

namespace {

std::string enumerator_list(const op_yml_entry& e) {
  std::vector<std::string> names;
  for (const op_yml_enumerator& n : e.enumerators) names.push_back(fmt::format("{} ({})", n.name, n.value));
  return fmt::format("{}", fmt::join(names, ", "));
}

// The scalar's bytes as a T (host order, as the session stores them), widened.
template <class T>
std::int64_t scalar_as(const param_value& v) {
  T x{};
  std::memcpy(&x, v.scalar.data(), sizeof x);
  return static_cast<std::int64_t>(x);
}

// The value of an integer scalar that fits int64 (op.yml's enums are INT32).
std::optional<std::int64_t> scalar_integer(const param_value& v) {
  std::optional<std::int64_t> number;
  if (!integer_range(v.type)) return number;
  visit_scalar_type(v.type, [&]<class T>(std::type_identity<T>) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, std::uint64_t>) number = scalar_as<T>(v);
  });
  return number;
}

const op_yml_enumerator* find_enumerator(const op_yml_entry& e, const param_value& v) {
  const auto number = scalar_integer(v);
  if (!number) return nullptr;
  for (const op_yml_enumerator& n : e.enumerators)
    if (n.value == *number) return &n;
  return nullptr;
}

}  // namespace

param_value parse_param_value(const op_yml_entry& e, std::string_view text) {
  if (!e.enumerators.empty()) {
    for (const op_yml_enumerator& n : e.enumerators)
      if (n.name == text) return make_param_value(e.name, e.type, std::int64_t{n.value});
    throw error(fmt::format("param '{}': expected one of {} (an enum, given by name), got '{}'", e.name,
                            enumerator_list(e), text));
  }
  const bool exact = e.items && e.items_exact;
  if (e.type == vx_type::array && text.empty() && !exact)
    return make_param_value(e.name, e.type, std::span<const std::int32_t>(), std::size_t{0});
  param_value v = parse_param_value(e.name, e.type, text, exact ? std::optional<std::size_t>(*e.items) : std::nullopt);
  check_param_value(e, v);
  return v;
}

void check_param_value(const op_yml_entry& e, const param_value& value) {
  if (value.type != e.type) {
    const std::string_view want = vx_type_name(e.type), got = vx_type_name(value.type);
    throw error(fmt::format("param '{}': expected {} (op.yml), got a {} value", e.name,
                            want.empty() ? fmt::format("type 0x{:x}", e.type) : std::string(want),
                            got.empty() ? fmt::format("type 0x{:x}", value.type) : std::string(got)));
  }
  if (!e.enumerators.empty() && find_enumerator(e, value) == nullptr)
    throw error(fmt::format("param '{}': {} is not a value of the op's enum (expected one of {})", e.name,
                            value.to_string(), enumerator_list(e)));
  if (value.is_array() && e.items) {
    if (e.items_exact && value.items.size() != *e.items)
      throw error(
          fmt::format("param '{}': expected exactly {} int32 items, got {}", e.name, *e.items, value.items.size()));
    if (!e.items_exact && value.items.size() > *e.items)
      throw error(
          fmt::format("param '{}': expected at most {} int32 items, got {}", e.name, *e.items, value.items.size()));
  }
}

std::optional<param_value> default_param_value(const op_yml_entry& e) {
  if (!e.default_text) return std::nullopt;
  try {
    return parse_param_value(e, *e.default_text);
  } catch (const error& ex) {
    throw error(fmt::format("{} (the op's default)", ex.detail()));
  }
}

std::string param_value_text(const op_yml_entry& e, const param_value& value) {
  if (!e.enumerators.empty())
    if (const op_yml_enumerator* n = find_enumerator(e, value)) return fmt::format("{} ({})", n->name, n->value);
  return value.to_string();
}

param_value make_param_value(std::string_view name, std::int32_t type, bool value) {
  check_type_known(name, type);
  if (type != vx_type::bool_) fail(name, type, fmt::format("a bool ({})", value));
  param_value v;
  v.type = type;
  store(v, std::int32_t{value ? 1 : 0});
  return v;
}

param_value make_param_value(std::string_view name, std::int32_t type, std::int64_t value) {
  check_type_known(name, type);
  const std::string shown = fmt::format("{}", value);
  if (type == vx_type::bool_) {
    if (value != 0 && value != 1) fail(name, type, shown);
    return make_param_value(name, type, value == 1);
  }
  if (is_float_type(type)) return make_float(name, type, static_cast<double>(value), shown);
  if (!integer_range(type)) fail(name, type, fmt::format("an integer ({})", value));
  const bool negative = value < 0;
  const std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  return make_integer(name, type, negative, magnitude, shown);
}

param_value make_param_value(std::string_view name, std::int32_t type, std::uint64_t value) {
  check_type_known(name, type);
  const std::string shown = fmt::format("{}", value);
  if (type == vx_type::bool_) {
    if (value > 1) fail(name, type, shown);
    return make_param_value(name, type, value == 1);
  }
  if (is_float_type(type)) return make_float(name, type, static_cast<double>(value), shown);
  if (!integer_range(type)) fail(name, type, fmt::format("an integer ({})", value));
  return make_integer(name, type, false, value, shown);
}

param_value make_param_value(std::string_view name, std::int32_t type, double value) {
  check_type_known(name, type);
  if (!is_float_type(type)) fail(name, type, fmt::format("a floating-point number ({})", value));
  return make_float(name, type, value, fmt::format("{}", value));
}

param_value make_param_value(std::string_view name, std::int32_t type, std::span<const std::int32_t> items,
                             std::optional<std::size_t> array_length) {
  check_type_known(name, type);
  const std::string shown = fmt::format("[{}]", fmt::join(items, ","));
  if (type != vx_type::array) fail(name, type, fmt::format("an array {}", shown));
  return make_array(name, items, array_length, shown);
}

}  // namespace rknnop::host
