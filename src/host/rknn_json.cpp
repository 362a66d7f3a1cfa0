// SPDX-License-Identifier: MIT
#include "rknn_json.hpp"

#include "rknnop/host/error.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace rknnop::host::rknn_json {

std::string quote(std::string_view text) {
  constexpr std::size_t max_quoted = 60;
  return text.size() <= max_quoted ? fmt::format("'{}'", text) : fmt::format("'{}...'", text.substr(0, max_quoted));
}

json parse_json(std::string_view text, const std::string& where) {
  // Depth is bounded while parsing, so neither the parser nor the writers below recurse without limit.
  const json::parser_callback_t limit_depth = [&](int depth, json::parse_event_t, json&) {
    if (static_cast<std::size_t>(depth) > max_json_depth)
      throw error(fmt::format("{}: JSON nested deeper than {} levels", where, max_json_depth));
    return true;
  };
  try {
    return json::parse(text.begin(), text.end(), limit_depth);
  } catch (const json::exception& e) {
    std::string_view what = e.what();
    if (const auto bracket = what.find("] "); what.starts_with("[json.exception") && bracket != std::string_view::npos)
      what.remove_prefix(bracket + 2);
    throw error(fmt::format("{}: invalid JSON: {}", where, what));
  }
}

std::string_view json_kind(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "an integer";
    case json::value_t::number_float: return "a number with a fraction or exponent";
    default: return "binary data";
  }
}

std::optional<std::uint64_t> as_unsigned(const json& j) {
  if (j.is_number_unsigned()) return j.get<std::uint64_t>();
  if (j.is_number_integer() && j.get<std::int64_t>() >= 0) return static_cast<std::uint64_t>(j.get<std::int64_t>());
  return std::nullopt;
}

std::optional<std::int64_t> as_signed(const json& j) {
  if (j.is_number_integer()) return j.get<std::int64_t>();  // number_unsigned is also "integer"
  return std::nullopt;
}

std::string found(const json& j) {
  if (j.is_primitive()) return fmt::format("{} {}", json_kind(j), quote(python_json(j)));
  return std::string(json_kind(j));
}

const json* member(const json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || s.size() > 255 || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace rknnop::host::rknn_json
