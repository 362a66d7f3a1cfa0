// SPDX-License-Identifier: MIT
#pragma once

// Layer 8 of detail/ (docs/architecture.md §1), in the backend-neutral core.
// RKNNOP_PROFILE=1, what every backend's profiler shares: the setting (read once, by the library's
// constructor), the clock, the marks of one call and its one stderr line: the time in the inputs'
// conversion and layout (the runtime's tensors to the kernel's type and layout), in the kernel (with
// the op's infer and the output buffers), in the outputs' conversion and layout back into the
// runtime's memory, and the threads the call ran on (1 unless it ran a parallel_for on the workers).
// Used by <rknnop/rknpu2.hpp> (an RKNPU2 plugin's compute call) and detail/openvx/record.hpp (the
// instrumented RKNN v1 kernel library's kernel call). What it cannot see: the runtime's own work around the op.

#include <rknnop/detail/threads.hpp>  // thread_pool::threads, workers, generation

#include <cstdint>
#include <cstdio>   // std::snprintf, std::fputs
#include <cstdlib>  // std::getenv
#include <string_view>
#include <time.h>  // clock_gettime

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::detail {

inline constinit bool profile_enabled = false;

// The library's constructor: RKNNOP_PROFILE=1 turns the lines on (anything else, or unset, off).
inline void read_profile_setting() noexcept {
  const char* e = std::getenv("RKNNOP_PROFILE");
  profile_enabled = e != nullptr && e[0] == '1' && e[1] == '\0';
}

inline std::uint64_t profile_now() noexcept {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1000000000u + static_cast<std::uint64_t>(t.tv_nsec);
}

// The marks of one call: start, inputs bound (converted and laid out), first output written from.
struct profile_marks {
  std::uint64_t start = 0, inputs_done = 0, outputs_from = 0;
  int generation = 0;  // thread_pool's at the start: changed, the call ran a parallel_for on the workers
};

inline profile_marks profile_start() noexcept {
  profile_marks m;
  m.generation = thread_pool::generation();
  m.start = profile_now();
  return m;
}

// The call's line, on stderr (not the log sink: the host tools silence that with RKNNOP_LOG=off).
// `what`: the runtime's name of the call ("compute call": librknnrt's; "kernel call": OpenVX's).
inline void print_profile(std::string_view op, const profile_marks& m, bool ok, const char* what) noexcept {
  static constinit unsigned long long calls = 0;
  const unsigned long long call = __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
  const std::uint64_t end = profile_now();
  const std::uint64_t inputs_done = m.inputs_done ? m.inputs_done : end;
  const std::uint64_t outputs_from = m.outputs_from ? m.outputs_from : end;
  const auto ms = [](std::uint64_t from, std::uint64_t to) { return to > from ? double(to - from) / 1e6 : 0.0; };
  // The calling thread, and the workers when the call ran a parallel_for on them (at most its split).
  unsigned threads = 1;
  if (thread_pool::generation() != m.generation) {
    threads = 1 + thread_pool::workers();
    if (threads > thread_pool::threads()) threads = thread_pool::threads();
  }
  char line[320];
  const int n = std::snprintf(line, sizeof line,
                              "rknnop: profile: %.*s: %s %llu%s: inputs %.3f ms (conversion, layout), "
                              "kernel %.3f ms, outputs %.3f ms (conversion, layout), threads %u\n",
                              static_cast<int>(op.size()), op.data(), what, call, ok ? "" : " (failed)",
                              ms(m.start, inputs_done), ms(inputs_done, outputs_from), ms(outputs_from, end), threads);
  if (n > 0) std::fputs(line, stderr);
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_HIDDEN
