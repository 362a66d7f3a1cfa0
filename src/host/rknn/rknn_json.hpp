// SPDX-License-Identifier: MIT
// The .rknn model's JSON inside rknnop::host: reading it (bounded depth, keys in file order) and the
// small accessors the section, graph and writer files share. Private to src/host.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rknnop::host::rknn_json {

// Member order is kept: the writers re-emit the toolkit's JSON in its own order.
using json = nlohmann::ordered_json;

inline constexpr std::size_t max_json_depth = 64;  // the toolkit's JSON nests 4 deep
// What a parsed JSON may hold in memory (as the builder counts it): this floor plus this many bytes
// per byte of text, and never more than the memory budget. A toolkit graph is far below the floor;
// `[],` repeated counts 21 bytes a byte, `0,` 16, `{"op": "ADD"},` 11.
inline constexpr std::uint64_t json_memory_floor = std::uint64_t{16} << 20;
inline constexpr std::uint64_t json_memory_per_byte = 4;

// `text` parsed in linear time (duplicate keys refused), or an error naming `where`.
json parse_json(std::string_view text, const std::string& where);

// Python's json.dumps of `j` (", " and ": " separators, ASCII escapes, repr floats): what the
// toolkit writes, so a model rknnop rewrites reads as one the toolkit wrote (python_json.cpp).
std::string python_json(const json& j);

std::string_view json_kind(const json& j);
// "a string 'abc'" for a primitive, "an array" for a container: the "found ..." of an error.
std::string found(const json& j);
// `text` in single quotes, cut at 60 characters.
std::string quote(std::string_view text);
// The member `key` of an object, or null.
const json* member(const json& object, std::string_view key);
// A whole number >= 0 (Python writes ints without a fraction); nullopt for anything else.
std::optional<std::uint64_t> as_unsigned(const json& j);
std::optional<std::int64_t> as_signed(const json& j);
bool is_identifier(std::string_view s);
std::string upper(std::string_view s);
std::string lower(std::string_view s);

}  // namespace rknnop::host::rknn_json
