// SPDX-License-Identifier: MIT
#pragma once

// Layer 6 of detail/ (docs/architecture.md §1): logging. The outcome of a step (a status_code, the
// core's neutral status, and on failure one message) and the failures that name the field. Each
// backend sends the line to its runtime's log (RKNN v1: detail/openvx/io.hpp's report).

#include <rknnop/detail/field_desc.hpp>
#include <rknnop/status.hpp>

#include <cstddef>      // std::size_t
#include <cstdint>      // std::int32_t: status_code
#include <new>          // placement new (outcome)
#include <string_view>  // names

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported
RKNNOP_DETAIL_BEGIN_GLUE    // see config.hpp: compiled for size

namespace rknnop::detail {
// The core's status: what went wrong, whatever the backend. Each backend maps it to its own codes at
// its edge (RKNN v1: vx_status, detail/openvx/io.hpp, where the values below are pinned to OpenVX's,
// which makes that mapping free; RKNPU2: librknnrt's return codes, detail/rknpu2/tensor.hpp;
// MindSpore Lite: its kernel return codes, detail/mindspore/tensor.hpp). A code from a runtime that
// the core does not name is carried as it is (the underlying type is fixed).
enum class status_code : std::int32_t {
  success = 0,
  failure = -1,
  not_implemented = -2,
  not_supported = -3,
  no_memory = -8,
  invalid_parameters = -10,
  invalid_reference = -12,
  invalid_format = -14,
  invalid_dimension = -15,
  invalid_value = -16,
  invalid_type = -17,
};

// A status of success or failure plus the code; `ok()` when nothing went wrong. The 256-byte
// message is written and copied only on failure: a successful callback passes outcomes around a
// dozen times, and zeroing or copying the message each time cost more than the tiny node's work.
class outcome {
public:
  outcome() noexcept {}
  outcome(status_code code, const status& message) noexcept : failed_(true), code_(code) { copy(message); }
  outcome(const outcome& other) noexcept : failed_(other.failed_), code_(other.code_) {
    if (failed_) copy(other.message_);
  }
  outcome& operator=(const outcome& other) noexcept {
    failed_ = other.failed_;
    code_ = other.code_;
    if (failed_) copy(other.message_);
    return *this;
  }
  ~outcome() = default;  // status is trivially destructible
  constexpr bool ok() const noexcept { return !failed_; }
  constexpr status_code code() const noexcept { return failed_ ? code_ : status_code::success; }
  const status& message() const noexcept { return failed_ ? message_ : ::rknnop::ok; }

private:
  // Out of line and cold: one call per copy site instead of an inlined 256-byte copy each.
  RKNNOP_DETAIL_COLD void copy(const status& message) noexcept {
    ::new (static_cast<void*>(&message_)) status(message);
  }

  bool failed_ = false;
  status_code code_ = status_code::success;
  union {
    status message_;  // set only when failed_
  };
};

// "<role> '<field>': " + the formatted message. Compiled once; the template below only packs arguments.
RKNNOP_DETAIL_COLD inline outcome fail_packed(status_code code, const field_desc& f, std::string_view pattern,
                                              const format_arg* args, std::size_t count) noexcept {
  status s = error("{} '{}': ", role_name(f.kind), f.name);
  s.append(format_status(pattern, args, count).message());
  return outcome(code, s);
}

template <class... Args>
outcome fail(status_code code, const field_desc& f, std::string_view pattern, const Args&... args) noexcept {
  const format_arg packed[sizeof...(Args) + 1] = {format_arg::of(args)...};
  return fail_packed(code, f, pattern, packed, sizeof...(Args));
}

// "param 'alpha': nan is not a finite number": the one line for a float param whose value is nan or
// infinite, on every backend that refuses it (attributes always; RKNN v1's scalars in checking builds).
RKNNOP_DETAIL_COLD inline outcome non_finite_failure(const field_desc& f, double value) noexcept {
  return fail(status_code::invalid_value, f, "{} is not a finite number", value);
}

// "param 'flag': 2 is not a bool value, expected 0 or 1": the one line for a bool param holding any
// other integer, on every backend (an attribute's item; RKNN v1's scalar, whose UINT8 form holds 0..255).
// Not cold: inlined into the board's read_scalar it costs less than a call (its size budget).
inline outcome bool_value_failure(const field_desc& f, std::int64_t value) noexcept {
  return fail(status_code::invalid_value, f, "{} is not a bool value, expected 0 or 1", value);
}

// "input 'x': a dim is 0 (shape [2,0,3])": the one line for a runtime tensor with a zero dim, on every
// backend whose runtime can hand one over (shape outermost first, as NumPy writes it).
template <class Dim>
RKNNOP_DETAIL_COLD outcome zero_dim_failure(const field_desc& f, const Dim* dims, std::size_t rank) noexcept {
  status s = error("{} '{}': a dim is 0 (shape [", role_name(f.kind), f.name);
  for (std::size_t i = 0; i < rank; ++i) {
    if (i) s.append(",");
    append_any(s, dims[i]);
  }
  s.append("])");
  return outcome(status_code::invalid_dimension, s);
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_GLUE
RKNNOP_DETAIL_END_HIDDEN
