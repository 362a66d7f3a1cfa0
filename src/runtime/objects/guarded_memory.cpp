// SPDX-License-Identifier: MIT
// Tensor buffers between guard pages (rknnopHostSetGuardPages): [inaccessible page][...data][inaccessible
// page], the data ending where the second guard starts, so the first byte past the end faults.
#include "api.hpp"

#include "objects/objects.hpp"

#include <atomic>
#include <cstdint>
#include <limits>
#include <sys/mman.h>
#include <unistd.h>

namespace rknnop::runtime {

namespace {
std::atomic<bool> guard_pages{false};
}  // namespace

bool guard_pages_enabled() noexcept { return guard_pages.load(std::memory_order_relaxed); }

byte_buffer allocate_guarded_bytes(vx_size bytes) noexcept {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t wanted = bytes == 0 ? 1 : bytes;
  if (wanted > std::numeric_limits<std::size_t>::max() - 3 * page) return {};
  const std::size_t data_pages = (wanted + page - 1) / page;
  const std::size_t size = (data_pages + 2) * page;
  void* mapping = ::mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) return {};
  auto* base = static_cast<std::byte*>(mapping);
  if (::mprotect(base + page, data_pages * page, PROT_READ | PROT_WRITE) != 0) {
    ::munmap(mapping, size);
    return {};
  }
  // Anonymous pages are zeroed: the buffer starts as allocate_bytes' does.
  std::byte* data = base + page + data_pages * page - wanted;
  return byte_buffer(data, aligned_free{mapping, size});
}

void release_guarded(void* mapping, std::size_t size) noexcept { ::munmap(mapping, size); }

}  // namespace rknnop::runtime

vx_status rknnopHostSetGuardPages(vx_bool enabled) {
  rknnop::runtime::guard_pages.store(enabled == vx_true_e, std::memory_order_relaxed);
  return VX_SUCCESS;
}
