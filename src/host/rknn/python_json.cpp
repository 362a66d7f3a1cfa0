// SPDX-License-Identifier: MIT
// The Python-style JSON writer: json.dumps's separators, escapes and float repr.
#include "rknn/rknn_json.hpp"

#include <array>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace rknnop::host::rknn_json {

namespace {

void append_python_string(std::string& out, std::string_view s) {
  out += '"';
  constexpr char hex[] = "0123456789abcdef";
  const auto u_escape = [&](unsigned cp) {
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += hex[(cp >> shift) & 0xF];
  };
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
          if (c < 0x20)
            u_escape(c);
          else
            out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    // nlohmann's parser accepts only well-formed UTF-8, so the sequence is complete.
    const std::size_t n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
    unsigned cp = c & (0xFFu >> (n + 1));
    for (std::size_t k = 1; k < n && i + k < s.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3Fu);
    i += n;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      u_escape(0xD800 + (cp >> 10));
      u_escape(0xDC00 + (cp & 0x3FF));
    } else {
      u_escape(cp);
    }
  }
  out += '"';
}

// Python's repr of a float: the shortest digits that round-trip, fixed notation for exponents in
// [-4, 16), scientific otherwise ("1e-05", "1e+16"), and ".0" on whole numbers.
void append_python_float(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "NaN";
    return;
  }
  if (std::isinf(value)) {
    out += value < 0 ? "-Infinity" : "Infinity";
    return;
  }
  std::array<char, 64> buffer{};
  const auto done = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::scientific);
  std::string_view sci(buffer.data(), static_cast<std::size_t>(done.ptr - buffer.data()));
  const bool negative = sci.starts_with('-');
  if (negative) sci.remove_prefix(1);
  const auto e = sci.find('e');
  std::string digits;
  for (const char ch : sci.substr(0, e))
    if (ch != '.') digits += ch;
  int exponent = 0;
  std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+' ? 1 : 0), sci.data() + sci.size(), exponent);
  if (negative) out += '-';
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      out += "0.";
      out.append(static_cast<std::size_t>(-exponent - 1), '0');
      out += digits;
    } else if (static_cast<std::size_t>(exponent) + 1 >= digits.size()) {
      out += digits;
      out.append(static_cast<std::size_t>(exponent) + 1 - digits.size(), '0');
      out += ".0";
    } else {
      out += digits.substr(0, static_cast<std::size_t>(exponent) + 1);
      out += '.';
      out += digits.substr(static_cast<std::size_t>(exponent) + 1);
    }
    return;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) {
    out += '.';
    out += digits.substr(1);
  }
  out += fmt::format("e{}{:02}", exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
}

void append_python_json(std::string& out, const json& j) {
  switch (j.type()) {
    case json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, value] : j.items()) {
        if (!first) out += ", ";
        first = false;
        append_python_string(out, key);
        out += ": ";
        append_python_json(out, value);
      }
      out += '}';
      break;
    }
    case json::value_t::array: {
      out += '[';
      bool first = true;
      for (const json& value : j) {
        if (!first) out += ", ";
        first = false;
        append_python_json(out, value);
      }
      out += ']';
      break;
    }
    case json::value_t::string: append_python_string(out, j.get_ref<const std::string&>()); break;
    case json::value_t::boolean: out += j.get<bool>() ? "true" : "false"; break;
    case json::value_t::number_integer: out += fmt::format("{}", j.get<std::int64_t>()); break;
    case json::value_t::number_unsigned: out += fmt::format("{}", j.get<std::uint64_t>()); break;
    case json::value_t::number_float: append_python_float(out, j.get<double>()); break;
    default: out += "null"; break;
  }
}

}  // namespace

std::string python_json(const json& j) {
  std::string out;
  append_python_json(out, j);
  return out;
}

}  // namespace rknnop::host::rknn_json
