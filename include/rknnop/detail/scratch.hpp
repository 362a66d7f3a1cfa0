// SPDX-License-Identifier: MIT
#pragma once

// Layer 7 of detail/ (docs/architecture.md §1): scratch memory. The blocks callbacks copy tensors
// into, cached between calls, and the list that returns them whatever path a callback leaves by.

#include <rknnop/config.hpp>

#include <cstddef>  // std::size_t, std::ptrdiff_t
#include <cstdlib>  // posix_memalign, std::free
#include <cstring>  // std::memcpy, std::memset

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported
RKNNOP_DETAIL_BEGIN_GLUE    // see config.hpp: compiled for size

namespace rknnop::detail {
// Scratch blocks kept between calls: large tensors would otherwise cost fresh pages (page faults
// and kernel zeroing) on every node execution. A few slots shared by all nodes of the library, each
// an atomic pointer to a block whose capacity is stored in front of it; taking and returning are
// lock-free exchanges, so concurrent nodes never share a block. At most `slots` blocks stay cached.
class scratch_cache {
public:
  static constexpr std::size_t slots = 8;
  static constexpr std::size_t header = 16;  // keeps the payload 16-byte aligned (blocks are)

  // A block of at least `bytes`, from the cache when one is big enough. Every slot is looked at (a
  // small block in the first slot must not hide a big one behind it); when none fits, one block that
  // was too small is freed, so that the fresh block can take its slot when it is released.
  static void* take(std::size_t bytes) noexcept {
    void* too_small = nullptr;
    for (auto& slot : slots_) {
      if (!__atomic_load_n(&slot, __ATOMIC_RELAXED)) continue;  // empty: no read-modify-write
      void* block = __atomic_exchange_n(&slot, nullptr, __ATOMIC_ACQ_REL);
      if (!block) continue;
      if (capacity(block) >= bytes) {
        if (too_small) give_back(too_small);
        return static_cast<char*>(block) + header;
      }
      if (too_small) give_back(too_small);
      too_small = block;  // the last one seen is evicted if nothing fits
    }
    std::free(too_small);
    if (bytes > ~std::size_t{0} - header) return nullptr;
    // 16-byte aligned on every target: malloc gives only 8 on 32-bit ARM.
    void* block = nullptr;
    if (posix_memalign(&block, 16, bytes + header) != 0) return nullptr;
    std::memcpy(block, &bytes, sizeof bytes);
    return static_cast<char*>(block) + header;
  }
  static void release(void* payload) noexcept {
    if (payload) give_back(static_cast<char*>(payload) - header);
  }
  // The usable bytes of a block take() returned (at least what was asked for).
  static std::size_t capacity_of(const void* payload) noexcept {
    return capacity(static_cast<const char*>(payload) - header);
  }
  // Frees every cached block; RKNNOP_EXPORT_OP runs it when the library is unloaded.
  static void drain() noexcept {
    for (auto& slot : slots_) std::free(__atomic_exchange_n(&slot, nullptr, __ATOMIC_ACQ_REL));
  }

private:
  static std::size_t capacity(const void* block) noexcept {
    std::size_t c;
    std::memcpy(&c, block, sizeof c);
    return c;
  }
  static void give_back(void* block) noexcept {
    for (auto& slot : slots_) {
      void* expected = nullptr;
      if (__atomic_load_n(&slot, __ATOMIC_RELAXED)) continue;  // taken: no locked compare-exchange
      if (__atomic_compare_exchange_n(&slot, &expected, block, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) return;
    }
    std::free(block);  // every slot is taken: the cache stays bounded
  }
  static inline constinit void* slots_[slots] = {};
};

// RKNNOP_GUARD_BUFFERS: the bytes of each guard of a buffer_list buffer, from the guard's first byte
// on (before a buffer: 64; after it: up to 64 + 15). Varied, so that a memset-like overrun differs.
struct buffer_guard_bytes {
  char bytes[64 + 16];
};
inline constexpr buffer_guard_bytes buffer_guard_pattern = [] {
  buffer_guard_bytes g{};
  for (std::size_t i = 0; i < sizeof g.bytes; ++i) g.bytes[i] = static_cast<char>(0xA5u ^ ((i * 0x3Bu) & 0xFFu));
  return g;
}();

// Releases every buffer a callback took, whatever path it leaves by.
class buffer_list {
public:
  static constexpr std::size_t capacity = 2 * 48;
  buffer_list() noexcept = default;
  // A list whose requests are served first from `block` (`bytes`, 16-byte aligned, owned by the
  // caller and never released here: a node's scratch kept between its calls), then from the cache.
  buffer_list(void* block, std::size_t bytes) noexcept
      : cursor_(static_cast<char*>(block)), spare_(block ? bytes : 0) {}
  buffer_list(const buffer_list&) = delete;
  buffer_list& operator=(const buffer_list&) = delete;
  ~buffer_list() {
    for (std::size_t i = 0; i < count_; ++i) scratch_cache::release(items_[i]);
  }
  // 16-byte aligned. Small requests share blocks: a call's tensors usually come from one block
  // (each block taken and returned is two atomic read-modify-writes). With RKNNOP_GUARD_BUFFERS, each
  // request gets `guard` bytes of a known pattern before it and from its last byte to `guard` bytes
  // past its 16-byte rounding, which overrun() checks after the kernel.
  void* allocate(std::size_t bytes) noexcept {
    const std::size_t need = footprint(bytes);
    if (need == 0) return nullptr;  // overflow
    char* p = nullptr;
    if (need <= spare_) {
      p = cursor_;
      cursor_ += need;
      spare_ -= need;
    } else {
      if (count_ == capacity) return nullptr;
      p = static_cast<char*>(scratch_cache::take(need < shared_block ? shared_block : need));
      if (!p) return nullptr;
      items_[count_++] = p;
      cursor_ = p + need;
      spare_ = scratch_cache::capacity_of(p) - need;
    }
    if constexpr (guard != 0) {  // two memcpy: a byte loop here cost a tiny node a third of its time
      std::memcpy(p, buffer_guard_pattern.bytes, guard);
      std::memcpy(p + guard + bytes, buffer_guard_pattern.bytes, need - guard - bytes);
      if (guarded_count_ < capacity) guarded_[guarded_count_++] = {p + guard, bytes};
    }
    return p + guard;
  }

  // The bytes allocate(bytes) takes of a block (its 16-byte rounding and guards); 0: it overflows.
  static constexpr std::size_t footprint(std::size_t bytes) noexcept {
    const std::size_t body = bytes ? (bytes + 15) & ~std::size_t{15} : 16;
    if (body < bytes || body > ~std::size_t{0} - 2 * guard) return 0;
    return body + 2 * guard;
  }

  // Where a kernel wrote outside a buffer allocate() returned: the first and last changed guard byte
  // on one side, as offsets from the buffer's start (negative: before it; >= size: past its end; past
  // the end wins when both sides changed), and how many guard bytes differ. Nothing found (or no
  // guards in this build): changed == 0.
  struct overrun_report {
    std::ptrdiff_t first = 0, last = 0;
    std::size_t size = 0;
    std::size_t changed = 0;
  };
  overrun_report overrun(const void* payload) const noexcept {
    overrun_report r;
    if constexpr (guard != 0) {
      for (std::size_t g = 0; g < guarded_count_; ++g) {
        if (guarded_[g].payload != payload) continue;
        const char* base = guarded_[g].payload - guard;
        const std::size_t bytes = guarded_[g].bytes;
        const std::size_t end = footprint(bytes);  // allocate() took it: it did not overflow
        const std::size_t tail = end - guard - bytes;
        r.size = bytes;
        if (std::memcmp(base, buffer_guard_pattern.bytes, guard) == 0 &&
            std::memcmp(base + guard + bytes, buffer_guard_pattern.bytes, tail) == 0)
          return r;  // the usual case: one comparison per side
        for (std::size_t i = 0; i < end; ++i) {
          if (i == guard) i = guard + bytes;
          if (base[i] == buffer_guard_pattern.bytes[i < guard ? i : i - guard - bytes]) continue;
          const auto offset = static_cast<std::ptrdiff_t>(i) - static_cast<std::ptrdiff_t>(guard);
          if (r.changed == 0 || (offset >= 0 && r.first < 0)) r.first = offset;
          r.last = offset;
          ++r.changed;
        }
        return r;
      }
    }
    return r;
  }

  static constexpr std::size_t shared_block = 4096;  // the least a block is taken for
  static constexpr std::size_t guard = RKNNOP_GUARD_BUFFERS ? 64 : 0;
  static_assert(guard + 16 <= sizeof buffer_guard_pattern.bytes);

private:
  struct guarded_buffer {
    const char* payload;
    std::size_t bytes;
  };
  guarded_buffer guarded_[guard != 0 ? capacity : 1];  // the first guarded_count_ are set
  std::size_t guarded_count_ = 0;

  void* items_[capacity];  // the first count_ are set: no per-call zeroing of the rest
  std::size_t count_ = 0;
  char* cursor_ = nullptr;  // the unused rest of the last block taken
  std::size_t spare_ = 0;
};

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_GLUE
RKNNOP_DETAIL_END_HIDDEN
