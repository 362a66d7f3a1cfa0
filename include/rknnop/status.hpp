// SPDX-License-Identifier: MIT
#pragma once

#include <rknnop/config.hpp>

#include <cstddef>      // std::size_t
#include <cstdio>       // std::snprintf, std::fputs
#include <cstdlib>      // std::getenv: RKNNOP_LOG
#include <cstring>      // std::memcpy
#include <string_view>  // messages and names
#include <type_traits>  // argument classification

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported
RKNNOP_DETAIL_BEGIN_GLUE    // see config.hpp: compiled for size

namespace rknnop {
// What a kernel, shape function or work-size function returns: success, or a failure carrying its
// message. The message lives inside the object (no allocation, no exceptions, thread-safe).
class status {
public:
  static constexpr std::size_t capacity = 240;

  constexpr status() noexcept = default;

  constexpr bool ok() const noexcept { return !failed_; }
  constexpr explicit operator bool() const noexcept { return ok(); }
  constexpr const char* message() const noexcept { return message_; }

  static status failure(std::string_view text) noexcept {
    status s;
    s.failed_ = true;
    s.append(text);
    return s;
  }

  // Appends as much of text as fits (messages are truncated, never overflow).
  void append(std::string_view text) noexcept {
    const std::size_t room = capacity - 1 - length_;
    const std::size_t n = text.size() < room ? text.size() : room;
    if (n != 0) std::memcpy(message_ + length_, text.data(), n);  // an empty view may have data() == nullptr
    length_ += n;
    message_[length_] = '\0';
  }

private:
  char message_[capacity] = {};
  std::size_t length_ = 0;
  bool failed_ = false;
};

// The success value: `return rknnop::ok;`
inline constexpr status ok{};

namespace detail {

// One formatting argument, type-erased so that the formatter below is compiled once, not once per
// combination of argument types (kernel libraries stay small).
struct format_arg {
  enum class kind : unsigned char { signed_int, unsigned_int, floating, text, boolean } type;
  union {
    long long i;
    unsigned long long u;
    double d;
  };
  std::string_view s{};

  template <class T>
  static format_arg of(const T& v) noexcept {
    format_arg a{};
    if constexpr (std::is_same_v<T, bool>) {
      a.type = kind::boolean;
      a.u = v ? 1u : 0u;
    } else if constexpr (std::is_same_v<T, char>) {
      a.type = kind::text;
      a.s = std::string_view(&v, 1);
    } else if constexpr ((std::is_integral_v<T> && std::is_signed_v<T>) || std::is_enum_v<T>) {
      a.type = kind::signed_int;
      a.i = static_cast<long long>(v);
    } else if constexpr (std::is_integral_v<T>) {
      a.type = kind::unsigned_int;
      a.u = static_cast<unsigned long long>(v);
    } else if constexpr (std::is_floating_point_v<T>) {
      a.type = kind::floating;
      a.d = static_cast<double>(v);
    } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
      a.type = kind::text;
      if constexpr (std::is_pointer_v<T>)
        a.s = v ? std::string_view(v) : std::string_view("(null)");
      else
        a.s = std::string_view(v);
    } else {  // float16 and other types convertible to float
      a.type = kind::floating;
      a.d = static_cast<double>(static_cast<float>(v));
    }
    return a;
  }
};

RKNNOP_DETAIL_COLD inline void append_arg(status& s, const format_arg& a) noexcept {
  char buf[48];
  int n = 0;
  switch (a.type) {
    case format_arg::kind::boolean: s.append(a.u ? "true" : "false"); return;
    case format_arg::kind::text: s.append(a.s); return;
    case format_arg::kind::signed_int: n = std::snprintf(buf, sizeof buf, "%lld", a.i); break;
    case format_arg::kind::unsigned_int: n = std::snprintf(buf, sizeof buf, "%llu", a.u); break;
    case format_arg::kind::floating: n = std::snprintf(buf, sizeof buf, "%g", a.d); break;
  }
  if (n > 0) s.append(std::string_view(buf, static_cast<std::size_t>(n)));
}

// Replaces each "{}" in pattern by the next argument (a tiny, allocation-free subset of {fmt}:
// kernel libraries must not depend on {fmt} or libstdc++).
RKNNOP_DETAIL_COLD inline status format_status(std::string_view pattern, const format_arg* args,
                                               std::size_t count) noexcept {
  status s = status::failure({});
  for (std::size_t k = 0; k < count; ++k) {
    std::size_t hole = 0;  // the next "{}" (a loop, not find: memchr is one more import of every library)
    while (hole + 1 < pattern.size() && !(pattern[hole] == '{' && pattern[hole + 1] == '}')) ++hole;
    if (hole + 1 >= pattern.size()) break;
    s.append(pattern.substr(0, hole));
    append_arg(s, args[k]);
    pattern.remove_prefix(hole + 2);
  }
  s.append(pattern);
  return s;
}

template <class T>
void append_any(status& s, const T& v) noexcept {
  append_arg(s, format_arg::of(v));
}

}  // namespace detail

// A failure with a message: `return rknnop::error("size[{}] must be > 0, got {}", i, v);`
template <class... Args>
status error(std::string_view pattern, const Args&... args) noexcept {
  const detail::format_arg packed[sizeof...(Args) + 1] = {detail::format_arg::of(args)...};
  return detail::format_status(pattern, packed, sizeof...(Args));
}

// Where rknnop's diagnostics go (one line each, already prefixed "rknnop: <op>: ").
// The default writes to stderr; the generated callbacks also hand each message to the OpenVX log
// (vxAddLogEntry), which is where a host runtime or the board's driver logs pick it up.
using log_sink = void (*)(const char* line, void* user) noexcept;

namespace detail {
// RKNNOP_LOG=off in the environment silences it: rknnop's host tools set it, since they print each
// message once from the node's OpenVX log (with the step that failed).
inline void stderr_sink(const char* line, void*) noexcept {
  const char* setting = std::getenv("RKNNOP_LOG");
  // "off" compared by hand: strcmp would be one more import of every board library.
  if (setting != nullptr && setting[0] == 'o' && setting[1] == 'f' && setting[2] == 'f' && setting[3] == '\0') return;
  std::fputs(line, stderr);
  std::fputc('\n', stderr);
}
struct log_state {
  log_sink sink = &stderr_sink;
  void* user = nullptr;
};
inline log_state& log_config() noexcept {
  static constinit log_state state{};  // constant-initialised: no guard, no libstdc++
  return state;
}
}  // namespace detail

// Replaces the sink (nullptr silences rknnop). Not synchronised: set it before running kernels.
inline void set_log_sink(log_sink sink, void* user = nullptr) noexcept {
  detail::log_config() = detail::log_state{sink, user};
}

}  // namespace rknnop

RKNNOP_DETAIL_END_GLUE
RKNNOP_DETAIL_END_HIDDEN
