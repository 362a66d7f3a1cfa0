// SPDX-License-Identifier: MIT
// The driver's allocator for node local data (local_data.hpp).
#include "objects/local_data.hpp"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_set>

namespace rknnop::runtime {

namespace {

constexpr std::size_t header_size = 16;                       // the driver's profiling header (free(p - 16))
constexpr std::uint64_t block_magic = 0x6b6e6f707264626bULL;  // "kbdrponk": a block of this allocator

struct block_registry {
  std::mutex mutex;
  std::unordered_set<const void*> live;
};

block_registry& registry() {
  static auto* r = new block_registry;  // never destroyed: nodes may go during static destruction
  return *r;
}

std::atomic<std::uint32_t> foreign_blocks{0};

}  // namespace

void* allocate_driver_block(std::size_t size) noexcept {
  if (size > SIZE_MAX - header_size) return nullptr;
  auto* base = static_cast<std::byte*>(std::calloc(1, header_size + size));
  if (base == nullptr) return nullptr;
  std::memcpy(base, &block_magic, sizeof block_magic);
  std::memcpy(base + sizeof block_magic, &size, sizeof size);
  void* p = base + header_size;
  try {
    block_registry& r = registry();
    std::lock_guard lock(r.mutex);
    r.live.insert(p);
  } catch (...) {
    std::free(base);
    return nullptr;
  }
  return p;
}

bool is_driver_block(const void* p) noexcept {
  block_registry& r = registry();
  std::lock_guard lock(r.mutex);
  return r.live.contains(p);
}

bool free_driver_block(void* p) noexcept {
  {
    block_registry& r = registry();
    std::lock_guard lock(r.mutex);
    if (r.live.erase(p) == 0) {
      foreign_blocks.fetch_add(1);
      return false;
    }
  }
  auto* base = static_cast<std::byte*>(p) - header_size;
  std::uint64_t magic = 0;
  std::memcpy(&magic, base, sizeof magic);
  if (magic != block_magic) {  // the kernel wrote before its block: the driver's free would crash
    foreign_blocks.fetch_add(1);
    return false;
  }
  std::free(base);
  return true;
}

}  // namespace rknnop::runtime

extern "C" vx_uint32 rknnopHostGetForeignLocalDataCount(void) { return rknnop::runtime::foreign_blocks.load(); }
