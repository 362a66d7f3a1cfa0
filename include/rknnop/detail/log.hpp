// SPDX-License-Identifier: MIT
#pragma once

// Layer 6 of detail/ (docs/architecture.md §1): logging. The outcome of a step (a vx_status and,
// on failure, one message), failures that name the field, and the report that sends one line to
// rknnop's sink and the node's OpenVX log.

#include <rknnop/detail/field_desc.hpp>
#include <rknnop/detail/vx_api.hpp>
#include <rknnop/status.hpp>

#include <cstddef>      // std::size_t
#include <new>          // placement new (outcome)
#include <string_view>  // names

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported
RKNNOP_DETAIL_BEGIN_GLUE    // see config.hpp: compiled for size

namespace rknnop::detail {
constexpr const char* vx_status_name(vx_status s) noexcept {
  switch (s) {
    case VX_SUCCESS: return "VX_SUCCESS";
    case VX_FAILURE: return "VX_FAILURE";
    case VX_ERROR_NOT_IMPLEMENTED: return "VX_ERROR_NOT_IMPLEMENTED";
    case VX_ERROR_NOT_SUPPORTED: return "VX_ERROR_NOT_SUPPORTED";
    case VX_ERROR_NO_MEMORY: return "VX_ERROR_NO_MEMORY";
    case VX_ERROR_INVALID_PARAMETERS: return "VX_ERROR_INVALID_PARAMETERS";
    case VX_ERROR_INVALID_REFERENCE: return "VX_ERROR_INVALID_REFERENCE";
    case VX_ERROR_INVALID_FORMAT: return "VX_ERROR_INVALID_FORMAT";
    case VX_ERROR_INVALID_DIMENSION: return "VX_ERROR_INVALID_DIMENSION";
    case VX_ERROR_INVALID_VALUE: return "VX_ERROR_INVALID_VALUE";
    case VX_ERROR_INVALID_TYPE: return "VX_ERROR_INVALID_TYPE";
    default: return "VX_ERROR";
  }
}

// A status of success or failure plus the code; `ok()` when nothing went wrong. The 256-byte
// message is written and copied only on failure: a successful callback passes outcomes around a
// dozen times, and zeroing or copying the message each time cost more than the tiny node's work.
class outcome {
public:
  outcome() noexcept {}
  outcome(vx_status code, const status& message) noexcept : failed_(true), code_(code) { copy(message); }
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
  constexpr vx_status code() const noexcept { return failed_ ? code_ : VX_SUCCESS; }
  const status& message() const noexcept { return failed_ ? message_ : ::rknnop::ok; }

private:
  // Out of line and cold: one call per copy site instead of an inlined 256-byte copy each.
  RKNNOP_DETAIL_COLD void copy(const status& message) noexcept {
    ::new (static_cast<void*>(&message_)) status(message);
  }

  bool failed_ = false;
  vx_status code_ = VX_SUCCESS;
  union {
    status message_;  // set only when failed_
  };
};

// "<role> '<field>': " + the formatted message. Compiled once; the template below only packs arguments.
RKNNOP_DETAIL_COLD inline outcome fail_packed(vx_status code, const field_desc& f, std::string_view pattern,
                                              const format_arg* args, std::size_t count) noexcept {
  status s = error("{} '{}': ", role_name(f.kind), f.name);
  s.append(format_status(pattern, args, count).message());
  return outcome(code, s);
}

template <class... Args>
outcome fail(vx_status code, const field_desc& f, std::string_view pattern, const Args&... args) noexcept {
  const format_arg packed[sizeof...(Args) + 1] = {format_arg::of(args)...};
  return fail_packed(code, f, pattern, packed, sizeof...(Args));
}

// "param 'alpha': nan is not a finite number": the one line for a float param whose value is nan or
// infinite, on every backend that refuses it (attributes always; RKNN v1's scalars in checking builds).
RKNNOP_DETAIL_COLD inline outcome non_finite_failure(const field_desc& f, double value) noexcept {
  return fail(VX_ERROR_INVALID_VALUE, f, "{} is not a finite number", value);
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
  return outcome(VX_ERROR_INVALID_DIMENSION, s);
}

// "<role> '<field>': <call> failed: <code> (<name>)" for an OpenVX call that failed on field f. One
// out-of-line copy for every call site (a board library's size budget is 32 KiB).
RKNNOP_DETAIL_COLD inline outcome call_failed(vx_status code, const field_desc& f, const char* call) noexcept {
  return fail(code, f, "{} failed: {} ({})", call, code, vx_status_name(code));
}

// Sends "rknnop: <op>: <message>" to the sink and to the OpenVX log of the node.
RKNNOP_DETAIL_COLD inline void report(std::string_view op, vx_node node, vx_status code, const char* message) noexcept {
  status line = error("rknnop: {}: {}", op, message);
  if (node) vxAddLogEntry(reinterpret_cast<vx_reference>(node), code, "%s", line.message());
  const log_state& cfg = log_config();
  if (cfg.sink) cfg.sink(line.message(), cfg.user);
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_GLUE
RKNNOP_DETAIL_END_HIDDEN
