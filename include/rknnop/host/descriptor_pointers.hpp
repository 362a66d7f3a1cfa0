// SPDX-License-Identifier: MIT
#pragma once

// Before the loader calls a kernel library's callbacks or reads its tables, every pointer its
// kernel list holds is checked against the library's mapped segments (dl_iterate_phdr): a pointer a
// damaged relocation sent elsewhere is refused with its field named, instead of being called.

#include <cstddef>      // std::size_t
#include <string_view>  // std::string_view

namespace rknnop::host {

/// Throws "<label>: ... outside the library's ... segments" unless the kernel list at `list` (the
/// address dlsym gave for `symbol`) and what it names lie in the PT_LOAD segments of the loaded
/// library that holds `list`: the list's slots, each descriptor and its parameter table in readable
/// segments, its callbacks (function, validate, initialize, deinitialize) null or in executable
/// ones. Reads no pointer before checking where it points; stops at the NULL entry or after
/// `max_entries`. Only on hosts with the session (it reads the loaded process).
void check_descriptor_pointers(const void* list, std::string_view symbol, std::size_t max_entries,
                               std::string_view label);

}  // namespace rknnop::host
