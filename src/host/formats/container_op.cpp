// SPDX-License-Identifier: MIT
// A container's op, as the loader and --verify read it: the op.yml section parsed, the .py section
// checked and its port order applied.
#include "rknnop/host/op_yml.hpp"

#include "rknnop/host/error.hpp"

#include <fmt/format.h>

namespace rknnop::host {

namespace {

std::string_view text_of(std::span<const std::uint8_t> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace

void check_python_section(std::span<const std::uint8_t> py, std::string_view source) {
  // Python 3 reads source files as UTF-8 (PEP 3120); a NUL byte stops its parser.
  std::size_t line = 1;
  for (std::size_t i = 0; i < py.size();) {
    const std::uint8_t c = py[i];
    if (c == 0)
      throw error(fmt::format("{}: the .py section holds a NUL byte at byte {} (line {}); it is not Python source",
                              source, i, line));
    if (c == '\n') ++line;
    if (c < 0x80) {
      ++i;
      continue;
    }
    const std::size_t n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    bool ok = n != 0 && py.size() - i >= n && c != 0xC0 && c != 0xC1 && c < 0xF5;
    for (std::size_t k = 1; ok && k < n; ++k) ok = (py[i + k] & 0xC0) == 0x80;
    if (!ok)
      throw error(
          fmt::format("{}: the .py section is not UTF-8 text: byte {} (line {}) is 0x{:02x}; Python 3 "
                      "reads its source as UTF-8",
                      source, i, line, c));
    i += n;
  }
}

op_yml container_op(const container& c, std::string_view source) {
  op_yml op = parse_op_yml(text_of(c.op_yml), fmt::format("{} (op.yml section)", source));
  check_python_section(c.op_py, source);
  if (!c.op_py.empty()) apply_python_port_order(op, text_of(c.op_py), "the .py section");
  return op;
}

}  // namespace rknnop::host
