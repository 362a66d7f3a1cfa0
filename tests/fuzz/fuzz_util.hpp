// SPDX-License-Identifier: MIT
#pragma once
// Shared helpers of the libFuzzer targets: a failed expectation aborts (libFuzzer then saves the
// input as a crash reproducer), and a byte reader that turns the fuzz input into choices.

#include <rknnop/host/error.hpp>

#include <cstddef>  // std::size_t
#include <cstdint>  // std::uint8_t
#include <cstdio>   // std::fprintf
#include <cstdlib>  // std::abort
#include <cstring>  // std::memcpy
#include <string>   // std::string
#include <string_view>

namespace rknnop::fuzz {

[[noreturn]] inline void failed(const char* what, const char* file, int line, std::string_view detail = {}) {
  std::fprintf(stderr, "%s:%d: fuzz expectation failed: %s\n", file, line, what);
  if (!detail.empty()) std::fprintf(stderr, "  detail: %.*s\n", static_cast<int>(detail.size()), detail.data());
  std::abort();
}

// Aborts with the expression text when `cond` is false; `detail` is printed too.
#define RKNNOP_FUZZ_EXPECT(cond, ...) \
  ((cond) ? void(0) : ::rknnop::fuzz::failed(#cond, __FILE__, __LINE__ __VA_OPT__(, ) __VA_ARGS__))
#define RKNNOP_FUZZ_EXPECT_MSG(cond, what, detail) \
  ((cond) ? void(0) : ::rknnop::fuzz::failed(what, __FILE__, __LINE__, detail))

// Every contract is checked by default (CI included). RKNNOP_FUZZ_STRICT=0 in the environment skips
// the two that once had known gaps (one-line messages, non-UTF-8 op.yml round trips), to look at
// something else while one of them is being fixed.
inline bool strict() {
  static const bool on = [] {
    const char* v = std::getenv("RKNNOP_FUZZ_STRICT");
    return v == nullptr || v[0] != '0';
  }();
  return on;
}

// Every host-side parser reports bad input as rknnop::host::error whose what() starts "rknnop: "
// and is one line: bytes quoted from the input are escaped (no NUL, no line break).
inline void expect_clean_error(const rknnop::host::error& e) {
  const std::string_view what = e.what();
  RKNNOP_FUZZ_EXPECT(what.starts_with("rknnop: "), what);
  RKNNOP_FUZZ_EXPECT(!e.detail().empty(), what);
  if (!strict()) return;
  RKNNOP_FUZZ_EXPECT_MSG(what.size() == e.detail().size() + 8, "the message holds a NUL byte", e.detail());
  RKNNOP_FUZZ_EXPECT_MSG(e.detail().find_first_of("\n\r") == std::string::npos, "the message is not one line",
                         e.detail());
}

// Well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF).
inline bool is_utf8(std::string_view s) noexcept {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    // Continuation bytes, smallest code point of that length, bits of the lead byte.
    const std::size_t n = (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : 0;
    if (n == 0) return false;
    const unsigned min = n == 1 ? 0x80u : n == 2 ? 0x800u : 0x10000u;
    unsigned cp = c & (0x7Fu >> (n + 1));
    if (s.size() - i <= n) return false;
    for (std::size_t k = 1; k <= n; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n + 1;
  }
  return true;
}

// Consumes the fuzz input front to back; reads past the end give zeros.
class byte_reader {
public:
  byte_reader(const std::uint8_t* data, std::size_t size) noexcept : data_(data), size_(size) {}

  std::uint8_t u8() noexcept { return pos_ < size_ ? data_[pos_++] : 0; }
  template <class T>
  T value() noexcept {
    unsigned char bytes[sizeof(T)] = {};
    for (auto& b : bytes) b = u8();
    T v;
    std::memcpy(&v, bytes, sizeof v);
    return v;
  }
  bool flag() noexcept { return (u8() & 1u) != 0; }
  // A number in [0, n) (n > 0).
  std::size_t below(std::size_t n) noexcept { return u8() % n; }
  // Up to `max` bytes as a string (length from one byte).
  std::string text(std::size_t max) {
    const std::size_t n = below(max + 1);
    std::string s;
    for (std::size_t i = 0; i < n && pos_ < size_; ++i) s += static_cast<char>(u8());
    return s;
  }
  // Copies up to `n` remaining bytes into `out`; zero-fills the rest.
  void fill(void* out, std::size_t n) noexcept {
    const std::size_t take = n < remaining() ? n : remaining();
    if (take) std::memcpy(out, data_ + pos_, take);
    if (n > take) std::memset(static_cast<unsigned char*>(out) + take, 0, n - take);
    pos_ += take;
  }
  std::size_t remaining() const noexcept { return size_ - pos_; }

private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace rknnop::fuzz
