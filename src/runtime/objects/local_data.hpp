// SPDX-License-Identifier: MIT
// Node local data blocks as the board's driver keeps them (docs/runtime.md §9): the driver's own
// allocator for the blocks it owns, and the check at node destruction that the pointer still set is
// one of them (the driver frees whatever is there with that allocator).
#pragma once

#include "api.hpp"

#include <cstddef>

namespace rknnop::runtime {

// A zeroed block of `size` bytes behind a 16-byte header (as the driver's allocator with
// VIV_MEMORY_PROFILE lays it out, so free() of such a pointer fails as it would there); nullptr when
// out of memory.
void* allocate_driver_block(std::size_t size) noexcept;

// True if `p` is a live block of allocate_driver_block (read from a registry: a foreign pointer is
// never dereferenced).
bool is_driver_block(const void* p) noexcept;

// Frees a block of allocate_driver_block. Returns false, frees nothing and counts it (see
// rknnopHostGetForeignLocalDataCount) when `p` is not one: on the board the driver would free it
// with its own allocator and corrupt the heap.
bool free_driver_block(void* p) noexcept;

}  // namespace rknnop::runtime
