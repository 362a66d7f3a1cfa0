// SPDX-License-Identifier: MIT
#pragma once

// An op's params as the attributes of a MindSpore Lite Custom node, without any MindSpore header:
// the converter side writes them with encode_attrs, the kernel side (<rknnop/mindspore.hpp>) reads
// them back with the same rules.
//
// One attribute per params field, named by the field's name, holding little-endian bytes: bool,
// char and 8-bit integers 1 byte, float16 and 16-bit integers 2, int32/uint32/float 4, 64-bit
// types 8, int32 arrays 4 bytes per item (an int_array<Max> stores only its items). One more
// attribute, "rknnop:schema", holds the op's schema fingerprint (8 bytes), so that a model converted
// for another version of the op struct is refused instead of misread. (':' cannot appear in a field
// name, so the two never collide.)

#include <rknnop/config.hpp>
#include <rknnop/detail/decode.hpp>
#include <rknnop/detail/invoke/attrs.hpp>  // the core: the one decoding of params from attributes
#include <rknnop/detail/model.hpp>
#include <rknnop/detail/reflect.hpp>
#include <rknnop/detail/schema.hpp>  // has_default_member_initializer

#include <cstddef>      // std::size_t
#include <cstdint>      // fixed-width types
#include <cstring>      // std::memcpy
#include <map>          // the attribute map ops::Custom::set_attr takes
#include <string>       // attribute names
#include <string_view>  // names
#include <type_traits>  // field types
#include <vector>       // attribute bytes

namespace rknnop::mindspore {

using attr_map = std::map<std::string, std::vector<std::uint8_t>>;

inline constexpr std::string_view schema_attr = "rknnop:schema";

}  // namespace rknnop::mindspore

namespace rknnop::detail::mindspore {

// Bytes of one param's attribute: bool is 1 byte here (a vx_bool scalar is 4).
constexpr std::size_t attr_item_size(const field_desc& f) noexcept {
  return f.kind == field_kind::array ? 4 : f.vx_type == vx_type::bool_ ? 1 : dtype_size(f.vx_type);
}

// "int8", "float16", "bool": the VX type's name in lower case (from the one table) for the types with a
// C++ scalar type; "?" for the others.
struct attr_type_name_rows {
  char name[vx_type_count][sizeof vx_type_info::name];
};
constexpr attr_type_name_rows make_attr_type_name_rows() noexcept {
  attr_type_name_rows rows{};
  for (std::size_t r = 0; r < vx_type_count; ++r) {
    if (!visit_scalar_storage(vx_type_table[r].value, [](auto) {})) {
      rows.name[r][0] = '?';
      continue;
    }
    // "VX_TYPE_INT8": the short name starts at 8 (indexed, not through a pointer: constexpr under UBSan)
    for (std::size_t i = 8; vx_type_table[r].name[i] != '\0'; ++i) {
      const char c = vx_type_table[r].name[i];
      rows.name[r][i - 8] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    }
  }
  return rows;
}
inline constexpr attr_type_name_rows attr_type_names = make_attr_type_name_rows();

constexpr const char* attr_type_name(std::int32_t type) noexcept {
  const std::size_t r = vx_type_index(type);
  return r < vx_type_count ? attr_type_names.name[r] : "?";
}

inline void append_le(std::vector<std::uint8_t>& out, std::uint64_t bits, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
}

inline std::uint64_t load_le(const std::uint8_t* data, std::size_t bytes) noexcept {
  std::uint64_t bits = 0;
  for (std::size_t i = 0; i < bytes; ++i) bits |= std::uint64_t{data[i]} << (8 * i);
  return bits;
}

// The raw bits of a scalar of 1, 2, 4 or 8 bytes, zero-extended (so byte order is the host's
// business only here).
template <class T>
std::uint64_t bits_of(const T& value) noexcept {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? 1u : 0u;
  } else {
    using U = std::conditional_t<sizeof(T) == 1, std::uint8_t,
                                 std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                                    std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
    static_assert(sizeof(U) == sizeof(T), "rknnop: a param scalar must be 1, 2, 4 or 8 bytes");
    U u;
    std::memcpy(&u, &value, sizeof u);
    return u;
  }
}

template <class T>
void set_from_bits(T& value, std::uint64_t bits) noexcept {
  if constexpr (std::is_same_v<T, bool>) {
    value = bits != 0;
  } else {
    using U = std::conditional_t<sizeof(T) == 1, std::uint8_t,
                                 std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                                    std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
    const U u = static_cast<U>(bits);
    std::memcpy(static_cast<void*>(&value), &u, sizeof u);
  }
}

// One attribute as found on the node: absent, or `size` bytes at `data`.
struct attr_bytes {
  const std::uint8_t* data = nullptr;
  std::size_t size = 0;
  bool present = false;
};

// Checks a scalar attribute's size; its little-endian value in `bits`.
inline outcome decode_scalar_attr(const field_desc& f, const attr_bytes& a, std::uint64_t& bits) noexcept {
  const std::size_t expected = attr_item_size(f);
  if (a.size != expected)
    return fail(status_code::invalid_parameters, f, "attr '{}' has {} bytes, expected {} (a little-endian {})", f.name,
                a.size, expected, attr_type_name(f.vx_type));
  bits = load_le(a.data, a.size);
  return {};
}

// Checks an int32 array attribute's size and item count, then copies its items (an attribute of 0
// bytes is an empty list, not an absent attribute).
inline outcome decode_array_attr(const field_desc& f, const attr_bytes& a, std::int32_t* items,
                                 std::size_t& count) noexcept {
  if (a.size % 4 != 0)
    return fail(status_code::invalid_parameters, f, "attr '{}' has {} bytes, not a whole number of 4-byte int32 items",
                f.name, a.size);
  const std::size_t n = a.size / 4;
  if (f.exact && n != f.capacity)
    return fail(status_code::invalid_parameters, f, "expected exactly {} items, got {}", f.capacity, n);
  if (!f.exact && n > f.capacity)
    return fail(status_code::invalid_parameters, f, "expected at most {} items, got {}", f.capacity, n);
  for (std::size_t i = 0; i < n; ++i)
    items[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(load_le(a.data + 4 * i, 4)));
  count = n;
  return {};
}

RKNNOP_DETAIL_COLD inline void append_hex(status& s, std::uint64_t v) noexcept {
  char hex[17] = {};
  for (int i = 0; i < 16; ++i) hex[i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 0xF];
  s.append(hex);
}

// The node's schema fingerprint against the library's.
inline outcome check_schema_attr(const attr_bytes& a, std::uint64_t fingerprint) noexcept {
  if (!a.present)
    return outcome(status_code::invalid_parameters,
                   error("the Custom node has no attr 'rknnop:schema' (write the node's attrs with "
                         "rknnop::mindspore::encode_attrs)"));
  if (a.size != 8)
    return outcome(status_code::invalid_parameters,
                   error("attr 'rknnop:schema' has {} bytes, expected 8 (a little-endian uint64)", a.size));
  const std::uint64_t model = load_le(a.data, 8);
  if (model == fingerprint) return {};
  status s = error("the model's attrs were written for a different op struct (model schema ");
  append_hex(s, model);
  s.append(", library schema ");
  append_hex(s, fingerprint);
  s.append("); convert the model again with this op's rknnop::mindspore::encode_attrs");
  return outcome(status_code::invalid_parameters, s);
}

// Decodes every param from the attributes `lookup(name)` returns (an attr_bytes), after the schema.
template <class Op, class Lookup>
outcome decode_attrs(const Lookup& lookup, typename op_model<Op>::params& params) noexcept {
  using model = op_model<Op>;
  outcome result = check_schema_attr(lookup(::rknnop::mindspore::schema_attr), model::fingerprint);
  for_each_field_index<typename model::params>([&](auto i) {
    if (!result.ok()) return;
    constexpr field_desc f = model::fields[model::input_count + model::output_count + i];
    auto& value = field<i>(params);
    using F = std::remove_cvref_t<decltype(value)>;
    const attr_bytes a = lookup(f.name);
    if (!a.present) {  // the core's rule: the struct's default, else refused
      if (!has_default_member_initializer<typename model::params, decltype(i)::value>) result = missing_attr_failure(f);
      return;
    }
    if constexpr (int32_array_type<F>) {
      std::size_t count = 0;
      if constexpr (array_traits<F>::exact) {
        result = decode_array_attr(f, a, value.data(), count);
      } else {
        result = decode_array_attr(f, a, value.storage(), count);
        value.resize(count);
      }
    } else {
      std::uint64_t bits = 0;
      result = decode_scalar_attr(f, a, bits);
      if (!result.ok()) return;
      // The bytes as the field's own type, then the core's rules (0 or 1 for a bool, an enum's
      // values, a finite float), as on RKNPU2.
      attr_item v;
      if constexpr (std::is_same_v<F, bool>) {
        v.integer = true;
        v.i = static_cast<std::int64_t>(bits);
      } else if constexpr (std::is_enum_v<F>) {
        v.integer = true;
        v.i = static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));  // an enum travels as int32
      } else {
        F raw{};
        set_from_bits(raw, bits);
        if constexpr (std::is_same_v<F, std::uint64_t>) {
          value = raw;  // every bit pattern is a value (no int64 item holds it)
          return;
        } else if constexpr (std::is_floating_point_v<F> || std::is_same_v<F, float16>) {
          v.d = static_cast<double>(static_cast<std::conditional_t<std::is_same_v<F, float16>, float, F>>(raw));
        } else {
          v.integer = true;
          v.i = static_cast<std::int64_t>(raw);
        }
      }
      result = decode_scalar_item(f, v, value);
    }
  });
  return result;
}

}  // namespace rknnop::detail::mindspore

namespace rknnop::mindspore {

// The attributes of a Custom node for op Op with these params: give them to ops::Custom::set_attr
// (and rknnop::op_name<Op> to set_type) in a converter pass or node parser.
template <class Op>
attr_map encode_attrs(const typename detail::op_model<Op>::params& params = {}) {
  static_assert(detail::check_op<Op>(), "rknnop: encode_attrs<Op> needs a valid op struct (see above)");
  using model = detail::op_model<Op>;
  attr_map attrs;
  std::vector<std::uint8_t>& schema = attrs[std::string(schema_attr)];
  detail::mindspore::append_le(schema, model::fingerprint, 8);
  detail::for_each_field_index<typename model::params>([&](auto i) {
    constexpr field_desc f = model::fields[model::input_count + model::output_count + i];
    const auto& value = detail::field<i>(params);
    using F = std::remove_cvref_t<decltype(value)>;
    std::vector<std::uint8_t>& bytes = attrs[std::string(f.name)];
    if constexpr (detail::int32_array_type<F>) {
      for (std::int32_t item : value) detail::mindspore::append_le(bytes, static_cast<std::uint32_t>(item), 4);
    } else {
      detail::mindspore::append_le(bytes, detail::mindspore::bits_of(value), detail::mindspore::attr_item_size(f));
    }
  });
  return attrs;
}

}  // namespace rknnop::mindspore
