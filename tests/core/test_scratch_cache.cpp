// SPDX-License-Identifier: MIT
// The scratch blocks the generated callbacks keep between calls: a large call after a small one
// must reuse cached blocks instead of allocating (and faulting in) fresh memory every time.
#include <rknnop/detail/scratch.hpp>
#include <rknnop/types.hpp>  // rknnop::buffer

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace {

using rknnop::detail::scratch_cache;

// One "node call": takes `count` blocks of `bytes`, touches them, returns them to the cache.
void call(std::size_t count, std::size_t bytes, void** taken) {
  for (std::size_t i = 0; i < count; ++i) {
    taken[i] = scratch_cache::take(bytes);
    ASSERT_NE(taken[i], nullptr);
    std::memset(taken[i], 1, bytes);
  }
  for (std::size_t i = 0; i < count; ++i) scratch_cache::release(taken[i]);
}

TEST(ScratchCache, LargeCallsAfterSmallOnesReuseCachedBlocks) {
  scratch_cache::drain();
  void* small[4] = {};
  void* first[3] = {};
  void* second[3] = {};
  void* third[3] = {};
  call(4, 64, small);              // small blocks now sit in the first slots
  call(3, 1 << 20, first);         // cannot fit: fresh blocks, which the cache keeps
  call(3, 1 << 20, second);        // must find them behind the small ones
  call(3, (1 << 20) - 16, third);  // and again for a slightly smaller request
  for (void* p : second) EXPECT_TRUE(p == first[0] || p == first[1] || p == first[2]) << p;
  for (void* p : third) EXPECT_TRUE(p == first[0] || p == first[1] || p == first[2]) << p;
  scratch_cache::drain();
}

TEST(ScratchCache, SmallCallsTakeCachedBigBlocksAndTheCacheStaysBounded) {
  scratch_cache::drain();
  void* big[2] = {};
  void* small[2] = {};
  call(2, 4096, big);
  call(2, 16, small);  // a big block serves a small request
  for (void* p : small) EXPECT_TRUE(p == big[0] || p == big[1]) << p;
  void* many[2 * scratch_cache::slots] = {};
  call(2 * scratch_cache::slots, 32, many);  // more blocks than slots: the surplus is freed (ASan: no leak)
  scratch_cache::drain();
}

TEST(ScratchCache, SmallBuffersOfOneCallShareABlock) {
  scratch_cache::drain();
  using rknnop::detail::buffer_list;
  buffer_list buffers;
  auto* a = static_cast<char*>(buffers.allocate(96));  // a tiny node's input and output
  auto* b = static_cast<char*>(buffers.allocate(24));
  auto* c = static_cast<char*>(buffers.allocate(1));
  ASSERT_TRUE(a && b && c);
  // Carved from the same block, in order, 16-byte aligned (with RKNNOP_GUARD_BUFFERS, guard bytes between).
  constexpr std::size_t guards = 2 * buffer_list::guard;
  EXPECT_EQ(b, a + 96 + guards);
  EXPECT_EQ(c, b + 32 + guards);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % 16, 0u);  // on 32-bit ARM too, where malloc gives 8
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(c) % 16, 0u);
  std::memset(a, 1, 96);  // each fits in its own bytes (ASan)
  std::memset(b, 2, 24);
  std::memset(c, 3, 1);
  EXPECT_EQ(a[95], 1);
  EXPECT_EQ(b[0], 2);
  auto* big = static_cast<char*>(buffers.allocate(buffer_list::shared_block * 4));  // too big for the rest
  ASSERT_NE(big, nullptr);
  EXPECT_TRUE(big + buffer_list::shared_block * 4 <= a || big >= a + buffer_list::shared_block);
  std::memset(big, 4, buffer_list::shared_block * 4);
  EXPECT_EQ(buffers.allocate(~std::size_t{0} - 3), nullptr);  // rounding up would overflow
}

// RKNNOP_GUARD_BUFFERS (on by default on x86): a write just outside a buffer is found, with its
// offsets; the bytes of the 16-byte rounding past a buffer's end are guarded too.
TEST(ScratchCache, GuardBytesFindWritesOutsideABuffer) {
  using rknnop::detail::buffer_list;
  if (buffer_list::guard == 0) GTEST_SKIP() << "RKNNOP_GUARD_BUFFERS is 0 in this build (no guard bytes)";
  buffer_list buffers;
  auto* a = static_cast<char*>(buffers.allocate(10));
  auto* b = static_cast<char*>(buffers.allocate(16));
  ASSERT_TRUE(a && b);
  std::memset(a, 7, 10);
  EXPECT_EQ(buffers.overrun(a).changed, 0u);  // its own bytes are free to write
  a[10] = static_cast<char>(~a[10]);          // inside the rounding to 16 bytes: still caught
  a[12] = static_cast<char>(~a[12]);
  const buffer_list::overrun_report past = buffers.overrun(a);
  EXPECT_EQ(past.changed, 2u);
  EXPECT_EQ(past.first, 10);
  EXPECT_EQ(past.last, 12);
  EXPECT_EQ(past.size, 10u);
  b[-3] = static_cast<char>(~b[-3]);
  const buffer_list::overrun_report before = buffers.overrun(b);
  EXPECT_EQ(before.changed, 1u);
  EXPECT_EQ(before.first, -3);
  EXPECT_EQ(buffers.overrun(nullptr).changed, 0u);  // not one of its buffers
}

// rknnop::buffer, kernels' scratch: zero-filled whatever the block held before (small blocks are
// malloc's recycled ones), and false when the size cannot be allocated.
TEST(KernelBuffer, ZeroFilledAfterDirtyReuseAtEverySize) {
  for (std::size_t count :
       {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{256}, std::size_t{257}, std::size_t{5000}}) {
    for (int round = 0; round < 3; ++round) {  // the same block comes back: it was left dirty
      rknnop::buffer<std::uint32_t> b(count);
      ASSERT_TRUE(b);
      ASSERT_EQ(b.size(), count);
      for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(b[i], 0u) << "count " << count << " element " << i;
      for (std::size_t i = 0; i < count; ++i) b[i] = 0xA5A5A5A5u;
    }
  }
  volatile std::size_t too_many = ~std::size_t{0} / 4;  // count * 8 overflows (volatile: not folded)
  rknnop::buffer<std::uint64_t> huge(too_many);
  EXPECT_FALSE(huge);
  EXPECT_EQ(huge.size(), 0u);
}

}  // namespace
