// SPDX-License-Identifier: MIT
// rknnop::parallel_for (<rknnop/parallel.hpp>): the fixed partition, bit-identical kernels for 1, 2, 3
// and 7 threads (ResizeArea, Exp, TruncateDiv, shapes from tiny to large, odd sizes), RKNNOP_THREADS,
// the inline fallbacks (another thread's run; pthread_create failing), and the workers' lifetime: at
// most cores - 1, joined at the last node's deinitialize and when a kernel library is dlclose()d
// (workers counted by their thread name in /proc/self/task). Its own program: it interposes pthread_create.
#include "exp/exp.cpp"
#include "resize_area/resize_area.cpp"
#include "truncate_div/truncate_div.cpp"

#include <rknnop/parallel.hpp>

#include "vx_harness.hpp"

#include <gtest/gtest.h>

#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

std::atomic<bool> refuse_threads{false};

}  // namespace

// pthread_create as the program sees it: refuses while refuse_threads is set (the pool in this
// executable calls it; a dlopen()ed kernel library binds its own, to libc).
extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*), void* arg) {
  using create_fn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
  static const auto real = reinterpret_cast<create_fn>(dlsym(RTLD_NEXT, "pthread_create"));
  if (refuse_threads.load()) return EAGAIN;
  return real(thread, attr, start, arg);
}

namespace {

using pool = rknnop::detail::thread_pool;

// The pools' workers in this process: threads named thread_pool::worker_name (every pool, this
// executable's and each loaded kernel library's). The process's own thread count is no measure: qemu-user
// runs threads of its own, which come and go on a loaded machine.
int workers_in_process() {
  int n = 0;
  if (DIR* d = opendir("/proc/self/task")) {
    while (const dirent* e = readdir(d)) {
      if (e->d_name[0] == '.') continue;
      const std::string path = std::string("/proc/self/task/") + e->d_name + "/comm";
      if (FILE* f = std::fopen(path.c_str(), "r")) {
        char name[32] = {};
        if (std::fgets(name, sizeof name, f)) {
          name[std::strcspn(name, "\n")] = '\0';
          if (std::strcmp(name, pool::worker_name) == 0) ++n;
        }
        std::fclose(f);
      }
    }
    closedir(d);
  }
  return n;
}

// The worker count once it is `expected`, up to 5 s: a new worker names itself when it starts, and a
// joined one leaves /proc/self/task a moment after pthread_join returns (under qemu-user the host
// thread that ran it exits later: a joined worker was still listed there once, in the armhf cross run).
int workers_in_process_settled(int expected) {
  int n = workers_in_process();
  for (int waited_ms = 0; n != expected && waited_ms < 5000; ++waited_ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    n = workers_in_process();
  }
  return n;
}

// Sets the thread count for one test, and puts the environment's back afterwards.
struct thread_count {
  explicit thread_count(unsigned n) { pool::set_threads(n); }
  thread_count(const thread_count&) = delete;
  thread_count& operator=(const thread_count&) = delete;
  ~thread_count() { pool::set_threads(0); }
};

constexpr unsigned counts[] = {2, 3, 7};

// The node glue's conversions (detail::convert_range, from a buffer of their own: one pass over the
// pool's threads) and its scan for unwritten elements (detail::find_unwritten, PC builds): the same
// bits and the same count and first element as one thread, at sizes around the ranges' bounds.
TEST(ParallelFor, BoundaryConversionsAndTheUnwrittenScanMatchOneThread) {
  using rknnop::detail::convert_grain;
  using rknnop::detail::convert_range;
  const rknnop::detail::convert_fn widen = &rknnop::detail::convert_span<float, rknnop::float16>;
  const rknnop::detail::convert_fn narrow = &rknnop::detail::convert_span<rknnop::float16, float>;
  for (const unsigned threads : counts) {
    const thread_count scope(threads);
    for (const std::size_t n : {std::size_t{0}, std::size_t{5}, 2 * convert_grain - 1, 2 * convert_grain,
                                5 * convert_grain + 7, std::size_t{300001}, std::size_t{1} << 22}) {
      std::vector<std::uint16_t> halves(n);
      for (std::size_t i = 0; i < n; ++i) {  // every float16 but infinities and NaNs (whose payloads F16C may quiet)
        halves[i] = static_cast<std::uint16_t>((i * 2654435761u) >> 7);
        if ((halves[i] & 0x7C00u) == 0x7C00u) halves[i] = static_cast<std::uint16_t>(halves[i] & 0xBFFFu);
      }
      std::vector<float> expected(n), floats(n);
      for (std::size_t i = 0; i < n; ++i) expected[i] = static_cast<float>(rknnop::float16::from_bits(halves[i]));
      convert_range(widen, reinterpret_cast<const char*>(halves.data()), 2, reinterpret_cast<char*>(floats.data()), 4,
                    0, n);
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(std::bit_cast<std::uint32_t>(floats[i]), std::bit_cast<std::uint32_t>(expected[i]))
            << "widening, " << threads << " threads, n " << n << ", element " << i;
      for (std::size_t i = 0; i < n; ++i) floats[i] = expected[i] * 1.5f + 0.25f;
      convert_range(narrow, reinterpret_cast<const char*>(floats.data()), 4, reinterpret_cast<char*>(halves.data()), 2,
                    0, n);
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(halves[i], rknnop::float16(floats[i]).bits())
            << "narrowing, " << threads << " threads, n " << n << ", element " << i;

      // Unwritten elements (the signalling-NaN pattern) at a few places, counted and the first found.
      rknnop::field_desc f;
      f.vx_type = VX_TYPE_FLOAT32;
      rknnop::detail::tensor_info info;
      info.elements = n;
      std::size_t count = 0, first = n;
      for (std::size_t i = 0; i < n; ++i)
        if (i % 65537 == 3 || i + 1 == n) {
          std::memcpy(&floats[i], &rknnop::detail::untouched_f32, 4);
          ++count;
          first = first < i ? first : i;
        }
      const rknnop::detail::unwritten_elements r = rknnop::detail::find_unwritten(f, info, floats.data());
      EXPECT_EQ(r.count, count) << threads << " threads, n " << n;
      if (count) {
        EXPECT_EQ(r.first, first) << threads << " threads, n " << n;
      }
    }
  }
}

// A rank-1 tensor of n elements of VX type `dtype`.
rknnop::detail::tensor_info flat_tensor(std::size_t n, vx_enum dtype) {
  rknnop::detail::tensor_info info;
  info.dtype = dtype;
  info.rank = info.tensor_rank = 1;
  info.dims[0] = static_cast<std::uint32_t>(n);
  info.elements = n;
  return info;
}

// The PC glue's one pass over an output (detail::check_and_convert: unwritten elements, the conversion
// to the tensor's dtype, the first element it loses): the same verdict and the same first element as a
// loop over the elements with lossy_output, with the lost elements in later ranges as well, for
// float32 and int32 kernels into float16 and float32 tensors. Unwritten elements come before losses.
TEST(ParallelFor, OutputCheckFindsTheFirstLostElementInAnyRange) {
  using rknnop::detail::convert_grain;
  struct loss {
    std::int32_t kernel, tensor;
    double value;  // written at the chosen elements; every other element converts exactly
  };
  for (const loss l : {loss{VX_TYPE_FLOAT32, VX_TYPE_FLOAT16, 1e-6},     // a subnormal float16
                       loss{VX_TYPE_FLOAT32, VX_TYPE_FLOAT16, 1e-9},     // flushed to zero
                       loss{VX_TYPE_FLOAT32, VX_TYPE_FLOAT16, 70000.0},  // overflow
                       loss{VX_TYPE_INT32, VX_TYPE_FLOAT16, 2049.0},     // a changed integer
                       loss{VX_TYPE_INT32, VX_TYPE_FLOAT32, 16777217.0}}) {
    const bool integer = l.kernel == VX_TYPE_INT32;
    const std::size_t out_size = l.tensor == VX_TYPE_FLOAT16 ? 2 : 4;
    static constexpr std::int32_t accepted[] = {VX_TYPE_FLOAT16, VX_TYPE_FLOAT32};
    rknnop::field_desc f;
    f.name = "y";
    f.vx_type = l.kernel;
    f.accepted = accepted;
    f.accepted_count = 2;
    const rknnop::detail::convert_fn from_float[] = {&rknnop::detail::convert_span<rknnop::float16, float>,
                                                     &rknnop::detail::convert_span<float, float>};
    const rknnop::detail::convert_fn from_int[] = {&rknnop::detail::convert_span<rknnop::float16, std::int32_t>,
                                                   &rknnop::detail::convert_span<float, std::int32_t>};
    f.from_kernel = integer ? from_int : from_float;
    for (const unsigned threads : counts) {
      const thread_count scope(threads);
      const std::size_t n = 5 * convert_grain + 7;
      for (const std::size_t first : {std::size_t{0}, convert_grain + 3, 4 * convert_grain, n - 1}) {
        std::vector<float> floats(n);
        std::vector<std::int32_t> ints(n);
        for (std::size_t i = 0; i < n; ++i) {  // exact in float16: k/4 for k < 4096, signed
          floats[i] = static_cast<float>(static_cast<int>(i % 4096) - 2048) / 4.f;
          ints[i] = static_cast<std::int32_t>(i % 4096) - 2048;
        }
        for (const std::size_t at : {first, first + 2 * convert_grain, n - 1})  // later losses, other ranges
          if (at < n) {
            floats[at] = static_cast<float>(l.value);
            ints[at] = static_cast<std::int32_t>(l.value);
          }
        const void* data = integer ? static_cast<const void*>(ints.data()) : floats.data();
        const rknnop::detail::tensor_info info = flat_tensor(n, l.tensor);
        std::vector<char> converted(n * out_size);
        const rknnop::detail::outcome r = rknnop::detail::check_and_convert(f, info, data, converted.data());
        ASSERT_FALSE(r.ok()) << threads << " threads, first loss at " << first;
        EXPECT_NE(std::string(r.message().message())
                      .find("element " + std::to_string(first) + " (index [" + std::to_string(first) + "])"),
                  std::string::npos)
            << r.message().message();
        // Every element but the lost ones converted as one thread converts them.
        std::vector<char> expected(n * out_size);
        f.from_kernel[l.tensor == VX_TYPE_FLOAT16 ? 0 : 1](data, expected.data(), n);
        EXPECT_EQ(converted, expected) << threads << " threads";
      }
      // An element left unwritten is named before any loss.
      if (!integer) {
        std::vector<float> floats(n, 1.f);
        floats[7] = static_cast<float>(l.value);
        std::memcpy(&floats[convert_grain * 3], &rknnop::detail::untouched_f32, 4);
        const rknnop::detail::tensor_info info = flat_tensor(n, l.tensor);
        std::vector<char> converted(n * out_size);
        const rknnop::detail::outcome r = rknnop::detail::check_and_convert(f, info, floats.data(), converted.data());
        EXPECT_NE(std::string(r.message().message()).find("left 1 of " + std::to_string(n) + " elements unwritten"),
                  std::string::npos)
            << r.message().message();
      }
    }
  }
  // Nothing lost: no failure.
  const thread_count scope(2);
  rknnop::field_desc f;
  f.name = "y";
  f.vx_type = VX_TYPE_FLOAT32;
  static constexpr std::int32_t accepted[] = {VX_TYPE_FLOAT16};
  const rknnop::detail::convert_fn from_float[] = {&rknnop::detail::convert_span<rknnop::float16, float>};
  f.accepted = accepted;
  f.accepted_count = 1;
  f.from_kernel = from_float;
  const std::size_t n = 3 * convert_grain;
  std::vector<float> floats(n);
  for (std::size_t i = 0; i < n; ++i) floats[i] = 0.1f * static_cast<float>(i % 1000);  // rounded, no loss
  const rknnop::detail::tensor_info info = flat_tensor(n, VX_TYPE_FLOAT16);
  std::vector<char> converted(n * 2);
  const rknnop::detail::outcome r = rknnop::detail::check_and_convert(f, info, floats.data(), converted.data());
  EXPECT_TRUE(r.ok()) << r.message().message();
}

// The output check's screen (detail::screen_output: blocks of 16 elements proven clean 16 bytes at a
// time, the exact rules on the rest) against the exact rules on every element: random float32 outputs
// with zeros, float16 subnormals and overflows, values flushed to zero, float32 subnormals, NaNs and
// infinities, and unwritten elements at random places, into float16 and float32 tensors, with the
// precision rule on and off (RKNNOP_ALLOW_LOSSY=1), for 1 and 2 threads: the same verdict, count and
// first element, and the same converted bits.
TEST(ParallelFor, OutputCheckScreenAgreesWithTheExactRulesOnEveryElement) {
  using rknnop::detail::convert_grain;
  const float specials[] = {0.f,
                            -0.f,
                            1e-6f,
                            -3e-7f,
                            1e-9f,
                            -1e-30f,
                            1e-40f,
                            65504.f,
                            65519.f,
                            65520.f,
                            -70000.f,
                            1e30f,
                            6.1035e-5f,
                            6.1036e-5f,
                            INFINITY,
                            -INFINITY,
                            std::numeric_limits<float>::quiet_NaN(),
                            5.9604645e-8f};
  static constexpr std::int32_t accepted[] = {VX_TYPE_FLOAT16, VX_TYPE_FLOAT32};
  const rknnop::detail::convert_fn from_float[] = {&rknnop::detail::convert_span<rknnop::float16, float>,
                                                   &rknnop::detail::convert_span<float, float>};
  rknnop::field_desc f;
  f.name = "y";
  f.vx_type = VX_TYPE_FLOAT32;
  f.accepted = accepted;
  f.accepted_count = 2;
  f.from_kernel = from_float;
  std::mt19937 random(49);
  for (const bool allow : {false, true}) {
    if (allow)
      setenv("RKNNOP_ALLOW_LOSSY", "1", 1);
    else
      unsetenv("RKNNOP_ALLOW_LOSSY");
    for (int trial = 0; trial < 120; ++trial) {
      const std::int32_t tensor = trial % 3 == 2 ? VX_TYPE_FLOAT32 : VX_TYPE_FLOAT16;
      const std::size_t n = trial % 4 == 0 ? 2 * convert_grain + std::size_t(random() % 100) : 1 + random() % 5000;
      std::vector<float> floats(n);
      for (float& v : floats) v = static_cast<float>(static_cast<int>(random() % 20000) - 10000) / 8.f;
      const unsigned specials_count = static_cast<unsigned>(random() % 4),
                     unwritten = trial % 5 == 0 ? 1 + static_cast<unsigned>(random() % 3) : 0u;
      for (unsigned k = 0; k < specials_count; ++k)
        floats[random() % n] = specials[random() % (sizeof specials / sizeof specials[0])];
      for (unsigned k = 0; k < unwritten; ++k) std::memcpy(&floats[random() % n], &rknnop::detail::untouched_f32, 4);
      // The exact rules, element by element.
      const std::size_t out_size = tensor == VX_TYPE_FLOAT16 ? 2 : 4;
      std::vector<char> expected(n * out_size), converted(n * out_size);
      from_float[tensor == VX_TYPE_FLOAT16 ? 0 : 1](floats.data(), expected.data(), n);
      std::size_t count = 0, first_unwritten = n, first_lost = n;
      for (std::size_t i = 0; i < n; ++i) {
        if (std::bit_cast<std::uint32_t>(floats[i]) == rknnop::detail::untouched_f32 && !count++) first_unwritten = i;
        const double c = tensor == VX_TYPE_FLOAT16 ? static_cast<double>(static_cast<float>(rknnop::float16(floats[i])))
                                                   : static_cast<double>(floats[i]);
        if (first_lost == n && tensor == VX_TYPE_FLOAT16 && !allow &&
            rknnop::detail::lossy_output(VX_TYPE_FLOAT32, tensor, static_cast<double>(floats[i]), c))
          first_lost = i;
      }
      for (const unsigned threads : {1u, 2u}) {
        const thread_count scope(threads);
        const rknnop::detail::tensor_info info = flat_tensor(n, tensor);
        const rknnop::detail::outcome r = rknnop::detail::check_and_convert(
            f, info, floats.data(), tensor == VX_TYPE_FLOAT16 ? converted.data() : nullptr);
        const std::string text = r.ok() ? std::string() : r.message().message();
        const std::string where = "trial " + std::to_string(trial) + ", n " + std::to_string(n) + ", " +
                                  std::to_string(threads) + " threads, allow " + std::to_string(allow) + ": " + text;
        if (count) {
          EXPECT_NE(text.find("left " + std::to_string(count) + " of " + std::to_string(n) +
                              " elements unwritten, the first at element " + std::to_string(first_unwritten) + " "),
                    std::string::npos)
              << where;
        } else if (first_lost != n) {
          EXPECT_NE(text.find("element " + std::to_string(first_lost) + " (index"), std::string::npos) << where;
        } else {
          EXPECT_TRUE(r.ok()) << where;
        }
        if (tensor == VX_TYPE_FLOAT16) {
          EXPECT_EQ(converted, expected) << where;
        }
      }
    }
  }
  unsetenv("RKNNOP_ALLOW_LOSSY");
}

// The same for a float16 kernel's output (the marker16 screen: four blocks of 16 at a time, one by one
// only where one holds the marker): unwritten elements alone, in runs, across the blocks of 16 and the
// groups of 64, or everywhere, against a count over every element; and allocate_output's fill
// (detail::fill_untouched, 64 bytes a step) sets exactly the elements of its range, from any start.
TEST(ParallelFor, Float16OutputScreenAndMarkerFillAgreeWithEveryElement) {
  using rknnop::detail::untouched_f16;
  using rknnop::detail::untouched_f32;
  static constexpr std::int32_t accepted[] = {VX_TYPE_FLOAT16};
  rknnop::field_desc f;
  f.name = "y";
  f.vx_type = VX_TYPE_FLOAT16;
  f.accepted = accepted;
  f.accepted_count = 1;
  std::mt19937 random(4916);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n =
        trial % 4 == 0 ? 2 * rknnop::detail::convert_grain + std::size_t(random() % 200) : 1 + random() % 3000;
    std::vector<std::uint16_t> halves(n);
    for (std::uint16_t& h : halves) {
      h = static_cast<std::uint16_t>(random());
      if (h == untouched_f16) ++h;
    }
    if (trial % 7 == 3) {
      std::fill(halves.begin(), halves.end(), untouched_f16);  // nothing written
    } else if (trial % 3 != 0) {
      const unsigned runs = 1 + static_cast<unsigned>(random() % 4);
      for (unsigned r = 0; r < runs; ++r) {  // runs of 1..80 elements: within a block, across blocks and groups
        const std::size_t at = random() % n, length = 1 + random() % 80;
        for (std::size_t i = at; i < n && i < at + length; ++i) halves[i] = untouched_f16;
      }
    }
    std::size_t count = 0, first = n;
    for (std::size_t i = 0; i < n; ++i)
      if (halves[i] == untouched_f16 && !count++) first = i;
    for (const unsigned threads : {1u, 2u}) {
      const thread_count scope(threads);
      const rknnop::detail::outcome r =
          rknnop::detail::check_and_convert(f, flat_tensor(n, VX_TYPE_FLOAT16), halves.data(), nullptr);
      const std::string where = "trial " + std::to_string(trial) + ", n " + std::to_string(n) + ", " +
                                std::to_string(threads) + " threads: " + (r.ok() ? "" : r.message().message());
      if (count) {
        EXPECT_NE(where.find("left " + std::to_string(count) + " of " + std::to_string(n) +
                             " elements unwritten, the first at element " + std::to_string(first) + " "),
                  std::string::npos)
            << where;
      } else {
        EXPECT_TRUE(r.ok()) << where;
      }
    }
  }
  for (const bool f32 : {false, true}) {
    const std::size_t size = f32 ? 4 : 2;
    for (int trial = 0; trial < 300; ++trial) {
      const std::size_t n = 1 + random() % 300, a = random() % n, b = a + random() % (n - a + 1);
      std::vector<unsigned char> bytes(n * size, 0xA5);
      rknnop::detail::fill_untouched(f32, reinterpret_cast<char*>(bytes.data()), a, b);
      for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t v = 0;
        std::memcpy(&v, bytes.data() + i * size, size);
        const std::uint32_t expected = i < a || i >= b ? (f32 ? 0xA5A5A5A5u : 0xA5A5u)
                                       : f32           ? untouched_f32
                                                       : untouched_f16;
        ASSERT_EQ(v, expected) << (f32 ? "float32" : "float16") << " fill of [" << a << ", " << b << ") of " << n
                               << ": element " << i;
      }
    }
  }
}

// A board build's output markers (RKNNOP_GUARD_BUFFERS 0): at most 64 elements all hold the marker
// (allocate_output's 16-byte fill), a larger output has 64 evenly spaced; `untouched` holds until the
// kernel writes one of them, and a write over any element of a small output is seen.
TEST(ParallelFor, OutputMarkersStartInPlaceAndAWriteOverOneIsSeen) {
  if constexpr (rknnop::detail::check_every_element) {
    GTEST_SKIP() << "RKNNOP_GUARD_BUFFERS is 1 in this build (every element checked, no markers): "
                    "the cross step's builds run this";
  } else {
    using rknnop::detail::marker_count;
    for (const bool f32 : {false, true}) {
      static constexpr std::int32_t accepted32[] = {VX_TYPE_FLOAT32}, accepted16[] = {VX_TYPE_FLOAT16};
      rknnop::field_desc f;
      f.name = "y";
      f.vx_type = f32 ? VX_TYPE_FLOAT32 : VX_TYPE_FLOAT16;
      f.accepted = f32 ? accepted32 : accepted16;
      f.accepted_count = 1;
      const std::size_t size = f32 ? 4 : 2;
      const std::uint32_t marker = f32 ? rknnop::detail::unwritten_f32 : rknnop::detail::unwritten_f16;
      for (std::size_t n = 1; n <= 3 * marker_count; ++n) {
        const rknnop::detail::tensor_info info = flat_tensor(n, f.vx_type);
        const std::size_t step = rknnop::detail::marker_step(n);
        const std::size_t marked = n < marker_count ? n : marker_count;  // markers: elements k * step, k < marked
        for (std::size_t k = 0; k < marked; ++k) {
          const std::size_t written = k * step;
          rknnop::detail::buffer_list buffers;
          void* data = nullptr;
          ASSERT_TRUE(rknnop::detail::allocate_output(f, info, buffers, data).ok());
          auto* bytes = static_cast<unsigned char*>(data);
          for (std::size_t i = 0; i < n; ++i) {
            std::uint32_t v = 0;
            std::memcpy(&v, bytes + i * size, size);
            const bool at_marker = n <= marker_count || (i % step == 0 && i / step < marker_count);
            ASSERT_EQ(v, at_marker ? marker : 0u)
                << (f32 ? "float32" : "float16") << ", " << n << " elements: element " << i;
          }
          EXPECT_TRUE(rknnop::detail::untouched(f, info, data)) << n << " elements, nothing written";
          std::memset(bytes + written * size, 0, size);
          EXPECT_FALSE(rknnop::detail::untouched(f, info, data)) << n << " elements, element " << written << " written";
        }
      }
    }
  }
}

TEST(ParallelFor, RangesAreFixedConsecutiveAndCoverEveryItemOnce) {
  for (unsigned threads : {1u, 2u, 3u, 7u})
    for (std::size_t count : {0u, 1u, 5u, 6u, 7u, 13u, 64u, 1000u, 1001u})
      for (std::size_t grain : {0u, 1u, 2u, 3u, 100u}) {
        const thread_count set(threads);
        std::vector<std::atomic<int>> seen(count);
        std::vector<std::atomic<std::size_t>> ends(count + 1);
        std::atomic<unsigned> calls{0};
        const bool ok = rknnop::parallel_for(count, grain, [&](std::size_t begin, std::size_t end) {
          ++calls;
          ends[begin] = end;
          for (std::size_t i = begin; i < end; ++i) ++seen[i];
        });
        EXPECT_TRUE(ok);
        for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(seen[i].load(), 1) << "item " << i;
        // n = min(threads, count / grain) ranges (one at least), sizes q or q + 1, the larger first.
        const std::size_t g = grain ? grain : 1, most = count / g;
        const std::size_t n = count == 0 ? 0 : std::max<std::size_t>(1, std::min<std::size_t>(threads, most));
        ASSERT_EQ(calls.load(), n) << count << " items, grain " << grain << ", " << threads << " threads";
        std::size_t at = 0;
        for (std::size_t k = 0; k < n; ++k) {
          const std::size_t size = count / n + (k < count % n ? 1 : 0);
          ASSERT_EQ(ends[at].load(), at + size) << "range " << k;
          if (n > 1) {
            EXPECT_GE(size, g);
          }
          at += size;
        }
        EXPECT_EQ(at, count);
      }
}

TEST(ParallelFor, AFailingRangeIsReportedAfterEveryRangeRan) {
  const thread_count set(4);
  std::atomic<int> ran{0};
  EXPECT_FALSE(rknnop::parallel_for(100, 1, [&](std::size_t begin, std::size_t) { return ++ran, begin != 0; }));
  EXPECT_EQ(ran.load(), 4);
  EXPECT_TRUE(rknnop::parallel_for(100, 1, [&](std::size_t, std::size_t) { return true; }));
}

// docs/runtime.md §10 "Nesting": a parallel_for inside a range runs inline, every item once.
TEST(ParallelFor, NestedCallsRunInlineAndCoverEveryItemOnce) {
  const thread_count set(4);
  std::vector<std::atomic<int>> hits(64 * 64);
  const bool ok = rknnop::parallel_for(64, 1, [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r)
      if (!rknnop::parallel_for(64, 1, [&](std::size_t b, std::size_t e) {
            for (std::size_t c = b; c < e; ++c) hits[r * 64 + c].fetch_add(1);
          }))
        return false;
    return true;
  });
  EXPECT_TRUE(ok);
  for (std::size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i].load(), 1) << i;
}

TEST(ParallelFor, EnvironmentSetsTheThreadCountAndOneMeansThisThreadOnly) {
  const char* old = std::getenv("RKNNOP_THREADS");
  const std::string saved = old ? old : "";
  const unsigned cores = pool::cores();
  for (auto [value, expected] : {std::pair{"1", 1u},
                                 {"3", 3u},
                                 {"17", 17u},
                                 {"0", cores},
                                 {"abc", cores},
                                 {"2x", cores},
                                 {"", cores},
                                 {"100000", cores}}) {
    setenv("RKNNOP_THREADS", value, 1);
    pool::set_threads(0);  // read the environment again
    EXPECT_EQ(rknnop::thread_count(), expected) << "RKNNOP_THREADS=" << value;
  }
  setenv("RKNNOP_THREADS", "1", 1);
  pool::set_threads(0);
  const pthread_t self = pthread_self();
  std::atomic<int> elsewhere{0}, calls{0};
  rknnop::parallel_for(1 << 20, 1, [&](std::size_t, std::size_t) {
    ++calls;
    if (!pthread_equal(pthread_self(), self)) ++elsewhere;
  });
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(elsewhere.load(), 0);
  if (old)
    setenv("RKNNOP_THREADS", saved.c_str(), 1);
  else
    unsetenv("RKNNOP_THREADS");
  pool::set_threads(0);
}

TEST(ParallelFor, AThreadThatCannotBeCreatedLeavesItsRangesToTheCaller) {
  pool::release();  // no worker left: the next run must create them
  refuse_threads = true;
  const thread_count set(4);
  std::vector<std::atomic<int>> seen(1000);
  const pthread_t self = pthread_self();
  std::atomic<int> elsewhere{0};
  EXPECT_TRUE(rknnop::parallel_for(seen.size(), 1, [&](std::size_t begin, std::size_t end) {
    if (!pthread_equal(pthread_self(), self)) ++elsewhere;
    for (std::size_t i = begin; i < end; ++i) ++seen[i];
  }));
  refuse_threads = false;
  for (auto& s : seen) ASSERT_EQ(s.load(), 1);
  EXPECT_EQ(elsewhere.load(), 0);
  EXPECT_EQ(pool::workers(), 0u);
}

TEST(ParallelFor, NoMoreWorkersThanCoresAndReleaseJoinsThem) {
  pool::release();
  const int before = workers_in_process();
  {
    const thread_count set(7);
    std::atomic<int> sum{0};
    for (int round = 0; round < 5; ++round)
      rknnop::parallel_for(7000, 1, [&](std::size_t begin, std::size_t end) { sum += int(end - begin); });
    EXPECT_EQ(sum.load(), 5 * 7000);
  }
  const unsigned workers = pool::workers();
  EXPECT_EQ(workers, pool::cores() - 1);  // created lazily, kept between runs, never more
  EXPECT_EQ(workers_in_process_settled(before + int(workers)), before + int(workers));
  pool::release();
  EXPECT_EQ(pool::workers(), 0u);
  EXPECT_EQ(workers_in_process_settled(before), before);
}

TEST(ParallelFor, ConcurrentCallersGetCorrectResults) {
  const thread_count set(3);
  std::vector<std::vector<int>> out(4, std::vector<int>(20000));
  std::vector<std::thread> callers;
  for (std::size_t t = 0; t < out.size(); ++t)
    callers.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round)
        rknnop::parallel_for(out[t].size(), 64, [&](std::size_t begin, std::size_t end) {
          for (std::size_t i = begin; i < end; ++i) out[t][i] = int(i * (t + 1)) + round;
        });
    });
  for (auto& c : callers) c.join();
  for (std::size_t t = 0; t < out.size(); ++t)
    for (std::size_t i = 0; i < out[t].size(); ++i) ASSERT_EQ(out[t][i], int(i * (t + 1)) + 19);
}

// --- the examples: one thread vs 2, 3 and 7 ------------------------------------------------------

std::vector<float> random_values(std::size_t n, unsigned seed, float lo, float hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

struct resize_case {
  std::uint32_t n, h, w, c, out_h, out_w;
  bool align;
};

std::vector<float> resize(const resize_case& k, const std::vector<float>& src) {
  std::vector<float> dst(std::size_t(k.n) * k.out_h * k.out_w * k.c);
  ResizeArea::inputs in;
  ResizeArea::outputs out;
  const std::uint32_t in_dims[4] = {k.c, k.w, k.h, k.n}, out_dims[4] = {k.c, k.out_w, k.out_h, k.n};
  in.images.bind(const_cast<float*>(src.data()), in_dims, 4, VX_TYPE_FLOAT32);
  out.output.bind(dst.data(), out_dims, 4, VX_TYPE_FLOAT32);
  const ResizeArea::params p{{std::int32_t(k.out_h), std::int32_t(k.out_w)}, k.align};
  EXPECT_TRUE(ResizeArea::cpu(in, out, p).ok());
  return dst;
}

TEST(ParallelExamples, ResizeAreaIsBitIdenticalForEveryThreadCount) {
  const resize_case cases[] = {
      {1, 1, 1, 1, 1, 1, false},         {1, 4, 4, 3, 2, 2, false},         {1, 5, 7, 3, 3, 2, true},
      {1, 37, 53, 3, 17, 29, false},     {1, 13, 11, 4, 29, 31, false},     {2, 97, 131, 3, 45, 67, true},
      {1, 480, 640, 3, 240, 320, false}, {1, 480, 640, 3, 206, 274, false}, {1, 479, 643, 3, 211, 97, false},
      {1, 301, 257, 1, 149, 255, false}, {1, 200, 180, 7, 67, 61, true},    {3, 161, 123, 4, 80, 60, false},
      {1, 240, 320, 2, 480, 640, false},
  };
  for (const resize_case& k : cases) {
    const auto src = random_values(std::size_t(k.n) * k.h * k.w * k.c, k.h * 31 + k.w, -100.f, 100.f);
    std::vector<float> one;
    {
      const thread_count set(1);
      one = resize(k, src);
    }
    for (unsigned threads : counts) {
      const thread_count set(threads);
      const auto many = resize(k, src);
      ASSERT_EQ(std::memcmp(one.data(), many.data(), one.size() * sizeof(float)), 0)
          << k.n << "x" << k.h << "x" << k.w << "x" << k.c << " -> " << k.out_h << "x" << k.out_w << ", " << threads
          << " threads";
    }
  }
}

// The node glue on the PC (detail::read_tensor, write_tensor with copies_on_the_pool): each range of
// the pool copies its slabs of the runtime tensor (outermost dim of more than one: batch, rows, or
// columns of a one-row image; rank 4 and rank 3) and converts them. The node's output is the kernel's
// own result on the same values, bit for bit, for float16 and float32 tensors, for every thread count.
TEST(ParallelExamples, ResizeAreaNodeCopiesSlabsOnThePoolBitIdentically) {
  struct node_case {
    resize_case k;
    std::uint32_t rank;  // of the runtime tensors: 4, or 3 (no batch dim)
  };
  const node_case cases[] = {
      {{1, 480, 640, 3, 240, 320, false}, 4}, {{2, 97, 131, 3, 45, 67, false}, 4},
      {{1, 1, 70001, 1, 1, 35000, false}, 4}, {{1, 301, 257, 3, 149, 255, true}, 3},
      {{1, 3, 5, 2, 2, 3, false}, 4},
  };
  for (const vx_enum dtype : {VX_TYPE_FLOAT16, VX_TYPE_FLOAT32})
    for (const node_case& c : cases) {
      const resize_case& k = c.k;
      const std::size_t in_n = std::size_t(k.n) * k.h * k.w * k.c;
      auto src = random_values(in_n, k.h * 7 + k.w, -100.f, 100.f);
      if (dtype == VX_TYPE_FLOAT16)
        for (float& v : src) v = static_cast<float>(rknnop::float16(v));  // what the node's kernel sees
      std::vector<float> expected;
      {
        const thread_count set(1);
        expected = resize(k, src);
      }
      std::vector<std::uint32_t> in_dims{k.c, k.w, k.h, k.n}, out_dims{k.c, k.out_w, k.out_h, k.n};
      if (c.rank == 3) in_dims.pop_back(), out_dims.pop_back();
      for (const unsigned threads : {1u, 2u, 3u, 7u}) {
        const thread_count set(threads);
        rknnop::test::harness h(vx_kernel_ResizeArea_list.entries[0]);
        vx_tensor in, out;
        if (dtype == VX_TYPE_FLOAT16) {
          std::vector<rknnop::float16> halves(src.begin(), src.end());
          in = h.tensor<rknnop::float16>(in_dims, dtype, halves);
          out = h.tensor<rknnop::float16>(out_dims, dtype);
        } else {
          in = h.tensor<float>(in_dims, dtype, src);
          out = h.tensor<float>(out_dims, dtype);
        }
        const vx_bool align = k.align ? vx_true_e : vx_false_e;
        ASSERT_EQ(h.run({reinterpret_cast<vx_reference>(in), reinterpret_cast<vx_reference>(out),
                         reinterpret_cast<vx_reference>(h.array({std::int32_t(k.out_h), std::int32_t(k.out_w)})),
                         reinterpret_cast<vx_reference>(h.scalar(VX_TYPE_BOOL, &align))}),
                  VX_SUCCESS)
            << h.last_log();
        std::vector<float> got;
        if (dtype == VX_TYPE_FLOAT16) {
          const auto halves = rknnop::test::harness::read<rknnop::float16>(out);
          for (const rknnop::float16 v : halves) got.push_back(static_cast<float>(v));
          for (float& v : expected) v = static_cast<float>(rknnop::float16(v));
        } else {
          got = rknnop::test::harness::read<float>(out);
        }
        ASSERT_EQ(got.size(), expected.size());
        ASSERT_EQ(std::memcmp(got.data(), expected.data(), got.size() * sizeof(float)), 0)
            << k.n << "x" << k.h << "x" << k.w << "x" << k.c << " -> " << k.out_h << "x" << k.out_w << ", rank "
            << c.rank << ", " << (dtype == VX_TYPE_FLOAT16 ? "float16" : "float32") << ", " << threads << " threads";
      }
    }
}

TEST(ParallelExamples, ExpIsBitIdenticalForEveryThreadCount) {
  for (std::uint32_t size : {1u, 7u, 16384u, 2u * 16384u + 5u, 100003u, 3u * 480u * 640u}) {
    const auto x = random_values(size, size, -20.f, 20.f);
    auto run = [&] {
      std::vector<float> y(size);
      Exp::inputs in;
      Exp::outputs out;
      const std::uint32_t dims[1] = {size};
      in.x.bind(const_cast<float*>(x.data()), dims, 1, VX_TYPE_FLOAT32);
      out.y.bind(y.data(), dims, 1, VX_TYPE_FLOAT32);
      Exp::cpu(in, out, rknnop::no_params{});
      return y;
    };
    std::vector<float> one;
    {
      const thread_count set(1);
      one = run();
    }
    for (unsigned threads : counts) {
      const thread_count set(threads);
      ASSERT_EQ(std::memcmp(one.data(), run().data(), size * sizeof(float)), 0) << size << ", " << threads;
    }
  }
}

struct division {
  std::vector<std::uint32_t> x_dims, y_dims;  // innermost first
  vx_enum dtype;
};

std::pair<std::vector<float>, std::string> divide(const division& d, const std::vector<float>& x,
                                                  const std::vector<float>& y) {
  TruncateDiv::inputs in;
  TruncateDiv::outputs out;
  std::vector<std::uint32_t> z_dims(std::max(d.x_dims.size(), d.y_dims.size()));
  std::size_t n = 1;
  for (std::size_t i = 0; i < z_dims.size(); ++i) {
    const std::uint32_t a = i < d.x_dims.size() ? d.x_dims[i] : 1, b = i < d.y_dims.size() ? d.y_dims[i] : 1;
    z_dims[i] = a == 1 ? b : a;
    n *= z_dims[i];
  }
  std::vector<float> z(n, -1.f);
  in.x.bind(const_cast<float*>(x.data()), d.x_dims.data(), std::uint32_t(d.x_dims.size()), d.dtype);
  in.y.bind(const_cast<float*>(y.data()), d.y_dims.data(), std::uint32_t(d.y_dims.size()), d.dtype);
  out.z.bind(z.data(), z_dims.data(), std::uint32_t(z_dims.size()), d.dtype);
  const rknnop::status s = TruncateDiv::cpu(in, out, rknnop::no_params{});
  return {z, s.ok() ? "" : std::string(s.message())};
}

TEST(ParallelExamples, TruncateDivIsBitIdenticalAndReportsTheSameFirstError) {
  const division cases[] = {
      {{211, 157, 3}, {211, 157, 3}, VX_TYPE_FLOAT32},
      {{211, 157, 3}, {1, 157, 1}, VX_TYPE_FLOAT32},
      {{1, 157, 3}, {211, 1, 3}, VX_TYPE_FLOAT32},
      {{640, 480, 3}, {640}, VX_TYPE_FLOAT32},
      {{5}, {5}, VX_TYPE_FLOAT32},
      {{97, 1031}, {97, 1031}, VX_TYPE_INT32},
  };
  for (const division& d : cases) {
    std::size_t nx = 1, ny = 1;
    for (auto v : d.x_dims) nx *= v;
    for (auto v : d.y_dims) ny *= v;
    auto x = random_values(nx, unsigned(nx), -1000.f, 1000.f), y = random_values(ny, unsigned(ny) + 1, -50.f, 50.f);
    if (d.dtype == VX_TYPE_INT32) {
      for (float& v : x) v = std::trunc(v);
      for (float& v : y) v = std::trunc(v) == 0.f ? 3.f : std::trunc(v);
    }
    for (bool with_zero : {false, true}) {
      if (with_zero && d.dtype != VX_TYPE_INT32) continue;
      if (with_zero) y[ny / 2] = 0.f, y[ny - 3] = 0.f;  // the first in row order is reported
      std::pair<std::vector<float>, std::string> one;
      {
        const thread_count set(1);
        one = divide(d, x, y);
      }
      EXPECT_EQ(one.second.empty(), !with_zero) << one.second;
      for (unsigned threads : counts) {
        const thread_count set(threads);
        const auto many = divide(d, x, y);
        EXPECT_EQ(many.second, one.second) << threads << " threads";
        if (!with_zero) {
          ASSERT_EQ(std::memcmp(one.first.data(), many.first.data(), one.first.size() * sizeof(float)), 0)
              << threads << " threads";
        }
      }
    }
  }
}

// --- a kernel library's workers: joined at the last deinitialize, and at dlclose -----------------

#ifdef RKNNOP_TEST_RESIZE_AREA_LIBRARY
struct library {
  void* handle = dlopen(RKNNOP_TEST_RESIZE_AREA_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  vx_kernel_description_t* cpu() const {
    auto** list = handle ? static_cast<vx_kernel_description_t**>(dlsym(handle, "vx_kernel_ResizeArea_list")) : nullptr;
    return list ? list[0] : nullptr;
  }
};

// A 480x640x3 image of `value` resized to 240x320 (enough work for two ranges) by the harness's node,
// run once; the output tensor.
vx_tensor resize_480p(rknnop::test::harness& h, float value) {
  const std::vector<rknnop::float16> pixels(480 * 640 * 3, rknnop::float16(value));
  vx_tensor in = h.tensor<rknnop::float16>({3, 640, 480, 1}, VX_TYPE_FLOAT16, pixels);
  vx_tensor out = h.tensor<rknnop::float16>({3, 320, 240, 1}, VX_TYPE_FLOAT16);
  const vx_bool align = vx_false_e;
  EXPECT_EQ(h.run({reinterpret_cast<vx_reference>(in), reinterpret_cast<vx_reference>(out),
                   reinterpret_cast<vx_reference>(h.array({240, 320})),
                   reinterpret_cast<vx_reference>(h.scalar(VX_TYPE_BOOL, &align))}),
            VX_SUCCESS);
  return out;
}

// One 480x640x3 -> 240x320 node, run `runs` times.
void run_node(vx_kernel_description_t* d, bool with_initializers, int runs) {
  vx_kernel_description_t copy = *d;
  if (!with_initializers) copy.initialize = copy.deinitialize = nullptr;
  rknnop::test::harness h(&copy);
  vx_tensor out = resize_480p(h, 1.5f);
  for (int r = 1; r < runs; ++r) ASSERT_EQ(vxProcessGraph(h.graph()), VX_SUCCESS);
  EXPECT_EQ(float(rknnop::test::harness::read<rknnop::float16>(out)[0]), 1.5f);
}

// The board driver verifies again without a deinitializer pass after vxSetGraphParameterByIndex
// (docs/runtime.md §9): the node's initializer runs twice, its deinitializer once at the release. The
// node counts once, so the worker is still joined when the node goes.
TEST(ParallelLibrary, WorkersAreJoinedWhenTheDriverInitializesANodeTwice) {
  if (pool::cores() < 2) GTEST_SKIP() << "one online core: a kernel library starts no worker";
  setenv("RKNNOP_THREADS", "2", 1);
  const int before = workers_in_process();
  {
    library lib;
    ASSERT_NE(lib.cpu(), nullptr) << dlerror();
    vx_kernel_description_t copy = *lib.cpu();
    {
      rknnop::test::harness h(&copy);
      vx_tensor out = resize_480p(h, 1.5f);
      const std::vector<rknnop::float16> other(480 * 640 * 3, rknnop::float16(-2.0f));
      vx_tensor in2 = h.tensor<rknnop::float16>({3, 640, 480, 1}, VX_TYPE_FLOAT16, other);
      vx_parameter p = vxGetParameterByIndex(h.node(), 0);
      ASSERT_EQ(vxAddParameterToGraph(h.graph(), p), VX_SUCCESS);
      vxReleaseParameter(&p);
      ASSERT_EQ(vxSetGraphParameterByIndex(h.graph(), 0, reinterpret_cast<vx_reference>(in2)), VX_SUCCESS);
      ASSERT_EQ(vxProcessGraph(h.graph()), VX_SUCCESS);  // initializer again, no deinitializer first
      EXPECT_EQ(float(rknnop::test::harness::read<rknnop::float16>(out)[0]), -2.0f);
    }
    EXPECT_EQ(workers_in_process_settled(before), before) << "a worker outlived the library's last node";
    ASSERT_EQ(dlclose(lib.handle), 0);
  }
  unsetenv("RKNNOP_THREADS");
}

TEST(ParallelLibrary, WorkersAreJoinedAtTheLastDeinitializeAndAtDlclose) {
  if (pool::cores() < 2) GTEST_SKIP() << "one online core: a kernel library starts no worker";
  setenv("RKNNOP_THREADS", "2", 1);  // read by the library on its first run
  const int before = workers_in_process();
  {
    library lib;
    ASSERT_NE(lib.cpu(), nullptr) << dlerror();
    // Through the runtime with the initializer/deinitializer: the node's going joins the worker.
    run_node(lib.cpu(), true, 3);
    EXPECT_EQ(workers_in_process_settled(before), before) << "a worker outlived the library's last node";
    // Without them (a driver that never calls them): the worker stays until the library goes.
    run_node(lib.cpu(), false, 3);
    EXPECT_EQ(workers_in_process_settled(before + 1), before + 1);
    ASSERT_EQ(dlclose(lib.handle), 0);
  }
  EXPECT_EQ(workers_in_process_settled(before), before) << "a worker outlived dlclose";
  unsetenv("RKNNOP_THREADS");
}
#endif

}  // namespace
