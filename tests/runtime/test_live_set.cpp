// SPDX-License-Identifier: MIT
// The runtime's set of live object addresses (src/runtime/objects/live_set.hpp): membership through growth,
// tombstones and in-place rebuilds, and lock-free lookups that never miss a live key while other
// threads create and release objects (run under ThreadSanitizer by scripts/test.sh tsan).
#include "objects/live_set.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace {

using rknnop::runtime::live_set;

// Distinct, 16-aligned addresses that are never dereferenced.
const void* key(std::size_t i) { return reinterpret_cast<const void*>(std::uintptr_t{0x10000} + 16 * i); }

TEST(LiveSet, MembershipThroughGrowthAndErasure) {
  live_set set;
  for (std::size_t i = 0; i < 5000; ++i) set.insert(key(i));
  EXPECT_EQ(set.size(), 5000u);
  for (std::size_t i = 0; i < 5000; i += 2) set.erase(key(i));
  for (std::size_t i = 0; i < 6000; ++i) ASSERT_EQ(set.contains(key(i)), i < 5000 && i % 2 == 1) << i;
  set.erase(key(123456));  // absent: no effect
  EXPECT_EQ(set.size(), 2500u);
  EXPECT_FALSE(set.contains(nullptr));
}

TEST(LiveSet, ChurnReusesTombstonesAndRebuildsInPlace) {
  live_set set;
  for (std::size_t i = 0; i < 10; ++i) set.insert(key(i));
  // Far more creations and releases than slots: the table must not fill up with tombstones.
  for (std::size_t i = 10; i < 200000; ++i) {
    set.insert(key(i));
    set.erase(key(i - 5));
    if (i % 9973 != 0) continue;
    for (std::size_t j = 0; j < i + 3; ++j) {
      ASSERT_EQ(set.contains(key(j)), j < 5 || (j + 5 > i && j <= i)) << i << " " << j;  // 5..9 went first
    }
  }
  EXPECT_EQ(set.size(), 10u);
}

TEST(LiveSet, LookupsNeverMissALiveKeyWhileOthersComeAndGo) {
  live_set set;
  constexpr std::size_t pinned = 100;
  for (std::size_t i = 0; i < pinned; ++i) set.insert(key(i));
  std::atomic<bool> stop{false};
  std::atomic<std::size_t> misses{0}, lookups{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; ++r)
    readers.emplace_back([&] {
      std::size_t i = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        if (!set.contains(key(i % pinned))) misses.fetch_add(1);
        lookups.fetch_add(1, std::memory_order_relaxed);
        ++i;
      }
    });
  while (lookups.load() < 1000) std::this_thread::yield();  // the readers are running
  // Growth (to thousands of keys), then churn with in-place rebuilds, while the readers look.
  for (std::size_t i = pinned; i < pinned + 4000; ++i) set.insert(key(i));
  for (std::size_t i = pinned + 4000; i < pinned + 40000; ++i) {
    set.insert(key(i));
    set.erase(key(i - 4000));
  }
  stop = true;
  for (auto& t : readers) t.join();
  EXPECT_EQ(misses.load(), 0u) << "of " << lookups.load() << " lookups";
}

}  // namespace
