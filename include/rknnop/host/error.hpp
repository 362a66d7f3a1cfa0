// SPDX-License-Identifier: MIT
#pragma once

// The exception every rknnop host-side function throws. Its what() is one line that starts with
// "rknnop: " and names the file/op/param that was wrong; tools re-prefix detail() with their own name.
// Messages quote bytes of the user's files (op.yml values, .npy headers, param text): the
// constructor escapes every byte that would break the line or the terminal (controls, DEL, bytes
// that are not UTF-8) as \n, \t, \0, \xNN, so what() is one line whatever the input held.

#include <cstddef>      // std::size_t
#include <stdexcept>    // std::runtime_error
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <utility>      // std::move

namespace rknnop::host {

/// `text` with control characters, DEL and bytes outside well-formed UTF-8 sequences escaped
/// (`\n`, `\r`, `\t`, `\0`, `\xNN`); everything else, including UTF-8 text, is kept as it is.
[[nodiscard]] inline std::string escape_nonprintable(std::string_view text) {
  // Length of the well-formed UTF-8 sequence starting at text[i] (0 when it is not one).
  const auto utf8_length = [&](std::size_t i) -> std::size_t {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || text.size() - i < n) return 0;
    unsigned cp = c & (0xFFu >> (n + 1));
    for (std::size_t k = 1; k < n; ++k) {
      const auto cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0) != 0x80) return 0;
      cp = (cp << 6) | (cc & 0x3Fu);
    }
    const unsigned min = n == 2 ? 0x80u : n == 3 ? 0x800u : 0x10000u;
    // C1 controls (U+0080..U+009F) break lines on some terminals (U+0085 is NEL), as do U+2028/9.
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp <= 0x9F || cp == 0x2028 || cp == 0x2029)
      return 0;
    return n;
  };
  constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
      ++i;
    } else if (const std::size_t n = c >= 0x80 ? utf8_length(i) : 0; n != 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      switch (c) {
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\0': out += "\\0"; break;
        default:
          out += "\\x";
          out += hex[c >> 4];
          out += hex[c & 0xF];
      }
      ++i;
    }
  }
  return out;
}

class error : public std::runtime_error {
public:
  /// `detail` is the message without the "rknnop: " prefix; non-printable bytes in it are escaped.
  explicit error(const std::string& detail) : error(escaped{escape_nonprintable(detail)}) {}

  /// The message without the "rknnop: " prefix, for tools that print "<tool>: <detail>".
  [[nodiscard]] const std::string& detail() const noexcept { return detail_; }

private:
  struct escaped {
    std::string text;
  };
  explicit error(escaped e) : std::runtime_error("rknnop: " + e.text), detail_(std::move(e.text)) {}
  std::string detail_;
};

}  // namespace rknnop::host
