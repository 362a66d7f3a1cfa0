// SPDX-License-Identifier: MIT
#pragma once

// Splitting a CPU kernel's work across the board's cores, with results bit-identical to one thread.
//
//   rknnop::parallel_for(rows, grain, [&](std::size_t begin, std::size_t end) {
//     for (std::size_t r = begin; r < end; ++r) ...;   // rows [begin, end): write only their output
//   });
//
// [0, count) (nothing when count is 0) is cut into at most rknnop::thread_count() consecutive ranges of at least
// `grain` items (one range, run inline on the calling thread, when count < 2 * grain): range k of n is [k*q + min(k,
// r), (k+1)*q + min(k+1, r)) with q = count / n, r = count % n. The ranges depend only on count, grain and the thread
// count, never on timing; as long as an item's result does not depend on which range holds it (no reduction across
// items), the output is the same bit for bit for every thread count. f runs on the calling thread and on the library's
// workers, concurrently, and must not throw; it may return void, or bool (false: a failure, e.g. out of memory, which
// parallel_for reports after every range ran).
//
// Thread count: RKNNOP_THREADS in the environment (1 turns threads off), else the online cores; under
// MindSpore Lite, the context's thread number. Workers (at most cores - 1 per library) are created
// on first use and kept; a worker that cannot be created leaves its ranges to the calling thread,
// never an error. When another thread of the process is already in a parallel_for of this library,
// the ranges run inline. docs/runtime.md §10 says how this meets the drivers.

#include <rknnop/config.hpp>
#include <rknnop/detail/threads.hpp>

#include <cstddef>      // std::size_t
#include <type_traits>  // std::is_same_v, std::invoke_result_t

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop {
// The number of ranges a parallel_for splits its work into at most (1: one thread).
inline unsigned thread_count() noexcept { return detail::thread_pool::threads(); }

namespace detail {
// parallel_for's gate: the callback's shape, checked before anything is instantiated with it.
template <class F>
inline constexpr bool takes_a_range = std::is_invocable_v<F&, std::size_t, std::size_t>;
template <class F, bool = takes_a_range<F>>
struct range_result {
  using type = void;  // the static_assert below has failed already; stop here
};
template <class F>
struct range_result<F, true> {
  using type = std::invoke_result_t<F&, std::size_t, std::size_t>;
};

// A parallel_for's ranges: range k of n is [k*q + min(k, r), ...) (count = q * n + r), and whether
// every range succeeded.
struct range_split {
  std::size_t q = 0, r = 0;
  bool ok = true;
};
template <class Call>
struct range_job {
  range_split split;
  Call& run;
};
template <class Call>
[[gnu::noinline]] void run_range(void* context, std::size_t k) noexcept {
  range_job<Call>& job = *static_cast<range_job<Call>*>(context);
  const std::size_t q = job.split.q, r = job.split.r;
  const std::size_t begin = k * q + (k < r ? k : r);
  const std::size_t end = begin + q + (k < r ? 1 : 0);
  if (!job.run(begin, end)) __atomic_store_n(&job.split.ok, false, __ATOMIC_RELAXED);
}

// What parallel_for does whatever its function: the number of ranges, then `range` (run_range) on
// each, on this thread for one range (the same out-of-line function as the pool's ranges: one copy
// of f's body in the library, not one inline here and one for the pool), else on the pool. Not a
// template: one copy for every parallel_for of a library (compile time).
[[gnu::noinline]] inline bool run_ranges(std::size_t count, std::size_t grain, range_split& split,
                                         void (*range)(void*, std::size_t) noexcept, void* job) noexcept {
  if (count == 0) return true;
  if (grain == 0) grain = 1;
  // (fewer than two grains: one range whatever the thread count, which is then not asked for)
  const std::size_t most = count / grain, threads = most < 2 ? 1 : thread_count();
  const std::size_t n = most < 1 ? 1 : most < threads ? most : threads;
  split.q = count / n;
  split.r = count % n;
  if (n == 1)
    range(job, 0);
  else
    thread_pool::run(n, range, job);
  return split.ok;
}
}  // namespace detail

template <class F>
bool parallel_for(std::size_t count, std::size_t grain, F&& f) noexcept {
  static_assert(detail::takes_a_range<F>,
                "rknnop: parallel_for calls f(begin, end) with two std::size_t, a range [begin, end) of items, "
                "never f(i): write [&](std::size_t begin, std::size_t end) { for (std::size_t i = begin; i < end; "
                "++i) ...; }");
  using result = typename detail::range_result<F>::type;
  static_assert(std::is_same_v<result, void> || std::is_same_v<result, bool>,
                "rknnop: parallel_for's function returns void or bool (false: this range failed)");
  auto call = [&f](std::size_t begin, std::size_t end) noexcept -> bool {
    if constexpr (!detail::takes_a_range<F>)
      return false;
    else if constexpr (std::is_same_v<result, bool>)
      return f(begin, end);
    else
      return f(begin, end), true;
  };
  detail::range_job<decltype(call)> job{{}, call};
  return detail::run_ranges(count, grain, job.split, &detail::run_range<decltype(call)>, &job);
}

}  // namespace rknnop

RKNNOP_DETAIL_END_HIDDEN
