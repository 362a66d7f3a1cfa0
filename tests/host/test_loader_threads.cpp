// SPDX-License-Identifier: MIT
// Two threads, each with its own session on the same kernel library (.so + op.yml), loading it
// and running large and small tensors at the same time. Built alone with ThreadSanitizer by
// `scripts/test.sh tsan` (a race in op_library::open on the descriptor's enumeration was found
// this way); in the other builds it checks the results.
#include <rknnop/host/error.hpp>
#include <rknnop/host/session.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace rknnop::host;

// Loads its own session `rounds` times and runs a small and a large tensor each time; returns the
// number of wrong results (a failure message in `failure`).
int load_and_run(int seed, int rounds, std::string& failure) {
  int wrong = 0;
  try {
    for (int round = 0; round < rounds; ++round) {
      load_options o;
      o.op_yml = fs::path(RKNNOP_TEST_DATA_DIR) / "testscale.yml";
      session s = session::load(RKNNOP_TEST_SCALE_SO, o);
      s.set_param("bias", {seed});
      s.set_param("scale", 1.0f);
      s.set_param("negate", false);
      for (const std::size_t count : {std::size_t{3}, std::size_t{1} << 16}) {
        std::vector<float> in(count);
        for (std::size_t i = 0; i < count; ++i) in[i] = static_cast<float>(i % 512);
        s.set_input("input", in, {count});
        s.run();
        const std::vector<float>& out = s.output("output").values;
        for (std::size_t i = 0; i < count; ++i)
          if (out[i] != in[i] + static_cast<float>(seed)) ++wrong;
      }
    }
  } catch (const error& e) {
    failure = e.what();
    return -1;
  }
  return wrong;
}

TEST(LoaderThreads, TwoSessionsOnOneLibrary) {
  constexpr int rounds = 4;
  std::atomic<bool> go{false};
  int wrong[2] = {0, 0};
  std::string failure[2];
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&, t] {
      while (!go.load()) std::this_thread::yield();
      wrong[t] = load_and_run(t + 1, rounds, failure[t]);
    });
  go.store(true);
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < 2; ++t) EXPECT_EQ(wrong[t], 0) << "thread " << t << ": " << failure[t];
}

}  // namespace
