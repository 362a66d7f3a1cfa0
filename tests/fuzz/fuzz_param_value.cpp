// SPDX-License-Identifier: MIT
// Param value parsing: a type (any vx_type_e value, mostly the param types), an optional array
// length and the command-line text come from the input. Parsing succeeds or throws
// rknnop::host::error; a parsed value prints as text that parses back to the same value, and the
// typed builders agree with the text parser.
#include "fuzz_util.hpp"

#include <rknnop/host/param_value.hpp>
#include <rknnop/vx_type.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace {

using namespace rknnop::host;
using rknnop::vx_type;

constexpr std::array<std::int32_t, 21> interesting_types{vx_type::char_,
                                                         vx_type::int8,
                                                         vx_type::uint8,
                                                         vx_type::int16,
                                                         vx_type::uint16,
                                                         vx_type::int32,
                                                         vx_type::uint32,
                                                         vx_type::int64,
                                                         vx_type::uint64,
                                                         vx_type::float32,
                                                         vx_type::float64,
                                                         vx_type::float16,
                                                         vx_type::bool_,
                                                         vx_type::array,
                                                         vx_type::enum_,
                                                         vx_type::size,
                                                         vx_type::scalar,
                                                         vx_type::tensor,
                                                         0,
                                                         0x011,
                                                         -1};

bool is_integer(std::int32_t type) { return type >= vx_type::char_ && type <= vx_type::uint64; }

template <class F>
void expect_value_or_error(F&& f) {
  try {
    (void)f();
  } catch (const error& e) {
    rknnop::fuzz::expect_clean_error(e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rknnop::fuzz::byte_reader in(data, size);
  const std::uint8_t selector = in.u8();
  const std::int32_t type =
      selector < 0xF0 ? interesting_types[selector % interesting_types.size()] : in.value<std::int32_t>();
  const std::uint8_t length_byte = in.u8();
  const std::optional<std::size_t> array_length =
      length_byte & 0x80 ? std::optional<std::size_t>(length_byte & 0x0F) : std::nullopt;
  const std::string name = in.text(8);
  std::string text(in.remaining(), '\0');
  in.fill(text.data(), text.size());

  param_value parsed;
  try {
    parsed = parse_param_value(name, type, text, array_length);
  } catch (const error& e) {
    rknnop::fuzz::expect_clean_error(e);
    parsed.type = 0;
  }
  if (parsed.type != 0) {
    RKNNOP_FUZZ_EXPECT(parsed.type == type);
    RKNNOP_FUZZ_EXPECT(parsed.is_array() == (type == vx_type::array));
    if (parsed.is_array()) {
      RKNNOP_FUZZ_EXPECT(!array_length || parsed.items.size() == *array_length);
    } else {
      RKNNOP_FUZZ_EXPECT(parsed.scalar_size() > 0 && parsed.scalar_size() <= parsed.scalar.size());
    }
    const std::string shown = parsed.to_string();
    param_value again;
    try {
      again = parse_param_value(name, type, shown, array_length);
    } catch (const error& e) {
      rknnop::fuzz::failed("to_string() of a parsed value does not parse back", __FILE__, __LINE__,
                           shown + " -> " + e.what());
    }
    RKNNOP_FUZZ_EXPECT(again == parsed, text + " -> " + shown + " parses to another value");
  }

  // The typed builders: same checks, no crash, and agreement with the text parser for integers.
  in = rknnop::fuzz::byte_reader(data, size);
  (void)in.u8();
  const auto i64 = in.value<std::int64_t>();
  const auto u64 = in.value<std::uint64_t>();
  const auto f64 = in.value<double>();
  std::array<std::int32_t, 4> items{};
  for (auto& item : items) item = in.value<std::int32_t>();
  const std::size_t item_count = in.below(items.size() + 1);
  expect_value_or_error([&] { return make_param_value(name, type, (i64 & 1) != 0); });
  expect_value_or_error([&] { return make_param_value(name, type, u64); });
  expect_value_or_error([&] { return make_param_value(name, type, f64); });
  expect_value_or_error([&] {
    return make_param_value(name, type, std::span<const std::int32_t>(items.data(), item_count), array_length);
  });
  std::optional<param_value> built;
  try {
    built = make_param_value(name, type, i64);
  } catch (const error& e) {
    rknnop::fuzz::expect_clean_error(e);
  }
  if (built && is_integer(type)) {
    const param_value from_text = parse_param_value(name, type, std::to_string(i64));
    RKNNOP_FUZZ_EXPECT(from_text == *built, std::to_string(i64));
  }
  return 0;
}
