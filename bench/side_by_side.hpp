// SPDX-License-Identifier: MIT
#pragma once
// Side-by-side timing for the benchmarks on a shared machine: each round runs every contender once,
// in turn, in this one process, so load from other processes falls on all of them alike. Times are
// this thread's CPU time per call (a contender may repeat its call `repeat` times per measurement, for
// calls too short to time alone, or to time warm caches) or start from evicted caches (`cold`, so
// the order of contenders favours none). Prints min and median per contender and, for each ratio a/b, the
// min and median of the per-round ratios. Never a pass/fail: numbers only.
//
//   prog [--rounds N]          interleaved timing (default 31 rounds)
//   prog --callgrind NAME      one warm-up call, then NAME's `repeat` calls with callgrind's
//                              instrumentation on: valgrind --tool=callgrind --instr-atstart=no prog ...
//   prog --calls K --callgrind NAME   the same with K calls (e.g. for perf record)
//   prog --list                contender names and repeat counts
//   prog --digest NAME         one call, then a 64-bit FNV-1a hash of NAME's output bytes (the same
//                              on every architecture when the results are bit-identical)
// The --callgrind calls run between bench_roi_begin() and bench_roi_end(), two empty functions that
// instruction counters without callgrind's client requests look for (scripts/perf-report-arm.sh counts
// what qemu-user executes between them).
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCH_CALLGRIND 1
#else
#define BENCH_CALLGRIND 0
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <utility>
#include <vector>

extern "C" {
[[gnu::noinline, gnu::used]] inline void bench_roi_begin() { __asm__ volatile("" ::: "memory"); }
[[gnu::noinline, gnu::used]] inline void bench_roi_end() { __asm__ volatile("nop" ::: "memory"); }
}

namespace bench {

struct contender {
  std::string name;
  std::function<void()> run;
  int repeat = 1;     // calls per measurement
  bool cold = false;  // evict the caches (write 64 MiB) before each measurement, untimed
  std::function<std::pair<const void*, std::size_t>()> output = {};  // its result's bytes, for --digest
};
struct ratio {
  std::string label, numerator, denominator;
};

// Makes the compiler assume `p`'s memory is read and written here (nothing is optimised away).
inline void keep(const void* p) { __asm__ volatile("" : : "r"(p) : "memory"); }

// Writes 64 MiB (twice this machine's last-level cache) so that the next call starts cold, whatever
// ran before it: the order of contenders in a round then favours none of them.
inline void evict_caches() {
  static std::vector<unsigned char> junk(std::size_t(64) << 20);
  static unsigned char value = 0;
  std::memset(junk.data(), ++value, junk.size());
  keep(junk.data());
}

inline double wall_seconds() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

inline double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0.0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

inline std::string load_average() {
  char text[64] = {};
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (!std::fgets(text, sizeof text, f)) text[0] = '\0';
    std::fclose(f);
  }
  std::string s(text);
  const auto cut = s.find(' ', s.find(' ', s.find(' ') + 1) + 1);
  return cut == std::string::npos ? s : s.substr(0, cut);
}

// wall: time with the monotonic clock instead of this thread's CPU time (for contenders that use
// other threads).
inline int run(int argc, char** argv, const char* title, const std::vector<contender>& contenders,
               const std::vector<ratio>& ratios, bool wall = false) {
  double (*const clock)() = wall ? &wall_seconds : &thread_cpu_seconds;
  int rounds = 31, calls = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--calls") && i + 1 < argc) {
      calls = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) {
      rounds = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--list")) {
      for (const contender& c : contenders) std::printf("%s %d\n", c.name.c_str(), c.repeat);
      return 0;
    } else if (!std::strcmp(argv[i], "--digest") && i + 1 < argc) {
      const char* name = argv[++i];
      for (const contender& c : contenders)
        if (c.name == name && c.output) {
          c.run();
          const auto [data, size] = c.output();
          std::uint64_t hash = 14695981039346656037ull;
          for (std::size_t k = 0; k < size; ++k)
            hash = (hash ^ static_cast<const unsigned char*>(data)[k]) * 1099511628211ull;
          std::printf("digest %s %zu bytes %016llx\n", name, size, static_cast<unsigned long long>(hash));
          return 0;
        }
      std::fprintf(stderr, "%s: no contender '%s' with an output (--list)\n", argv[0], name);
      return 2;
    } else if (!std::strcmp(argv[i], "--callgrind") && i + 1 < argc) {
      const char* name = argv[++i];
      for (const contender& c : contenders)
        if (c.name == name) {
          c.run();  // warm-up: first-touch page faults, lazy binding, caches
#if BENCH_CALLGRIND
          CALLGRIND_ZERO_STATS;
          CALLGRIND_START_INSTRUMENTATION;
#endif
          const int n = calls ? calls : c.repeat;
          bench_roi_begin();
          for (int k = 0; k < n; ++k) c.run();
          bench_roi_end();
#if BENCH_CALLGRIND
          CALLGRIND_STOP_INSTRUMENTATION;
#endif
          std::printf("callgrind %s %d calls\n", name, n);
          return 0;
        }
      std::fprintf(stderr, "%s: no contender '%s' (--list)\n", argv[0], name);
      return 2;
    } else {
      std::fprintf(stderr, "usage: %s [--rounds N | --callgrind NAME | --digest NAME | --list]\n", argv[0]);
      return 2;
    }
  }
  std::vector<std::vector<double>> times(contenders.size());
  for (const contender& c : contenders) c.run();  // warm-up
  for (int r = 0; r < rounds; ++r)
    for (std::size_t slot = 0; slot < contenders.size(); ++slot) {
      // Every other round runs the list backwards, so no contender always runs right after another
      // (a pair's ratio would otherwise carry whatever the first one leaves behind for the second).
      const std::size_t i = r % 2 ? contenders.size() - 1 - slot : slot;
      // Each measurement starts from the same state: cold contenders from evicted caches, the others
      // from one untimed call (otherwise whichever contender follows a large one pays for refilling
      // the caches, and a pair's ratio depends on the order the contenders are listed in).
      if (contenders[i].cold)
        evict_caches();
      else
        contenders[i].run();
      const double start = clock();
      for (int k = 0; k < contenders[i].repeat; ++k) contenders[i].run();
      times[i].push_back((clock() - start) / contenders[i].repeat);
    }
  std::printf("# %s: %d interleaved rounds, %s per call; load %s\n", title, rounds,
              wall ? "wall time" : "CPU time of this thread", load_average().c_str());
  std::printf("%-28s %12s %12s\n", "contender", "min (us)", "median (us)");
  auto index = [&](const std::string& name) {
    for (std::size_t i = 0; i < contenders.size(); ++i)
      if (contenders[i].name == name) return i;
    std::fprintf(stderr, "bench: no contender '%s'\n", name.c_str());
    std::abort();
  };
  for (std::size_t i = 0; i < contenders.size(); ++i)
    std::printf("time  %-22s %12.2f %12.2f\n", contenders[i].name.c_str(),
                1e6 * *std::min_element(times[i].begin(), times[i].end()), 1e6 * median(times[i]));
  for (const ratio& q : ratios) {
    const auto& a = times[index(q.numerator)];
    const auto& b = times[index(q.denominator)];
    std::vector<double> per_round;
    for (std::size_t r = 0; r < a.size(); ++r) per_round.push_back(a[r] / b[r]);
    std::printf("ratio %-34s min %6.3f median %6.3f\n", q.label.c_str(),
                *std::min_element(per_round.begin(), per_round.end()), median(per_round));
  }
  return 0;
}

}  // namespace bench
