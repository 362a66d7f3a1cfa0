// SPDX-License-Identifier: MIT
#include "rknnop/host/descriptor_pointers.hpp"

#include "rknnop/host/error.hpp"

#include <rknnop/openvx.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <link.h>

namespace rknnop::host {

namespace {

struct mapped_segment {
  std::uintptr_t start = 0, size = 0;
  bool readable = false, executable = false;
};

// The PT_LOAD segments of the loaded object one of whose segments holds `address`.
std::vector<mapped_segment> segments_holding(std::uintptr_t address) {
  struct search {
    std::uintptr_t address;
    std::vector<mapped_segment> found;
  } s{address, {}};
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) noexcept -> int {
        auto& wanted = *static_cast<search*>(data);
        std::vector<mapped_segment> loads;
        bool holds = false;
        for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& p = info->dlpi_phdr[i];
          if (p.p_type != PT_LOAD) continue;
          const mapped_segment m{info->dlpi_addr + p.p_vaddr, p.p_memsz, (p.p_flags & PF_R) != 0,
                                 (p.p_flags & PF_X) != 0};
          holds = holds || (wanted.address >= m.start && wanted.address - m.start < m.size);
          loads.push_back(m);
        }
        if (!holds) return 0;
        wanted.found = std::move(loads);
        return 1;
      },
      &s);
  return s.found;
}

class pointer_check {
public:
  pointer_check(std::vector<mapped_segment> segments, std::string_view label)
      : segments_(std::move(segments)), label_(label) {}

  // [address, address + size) inside one readable segment.
  void readable(const void* address, std::size_t size, std::string_view what) const {
    const auto a = reinterpret_cast<std::uintptr_t>(address);
    for (const mapped_segment& m : segments_)
      if (m.readable && a >= m.start && a - m.start <= m.size && size <= m.size - (a - m.start)) return;
    throw error(fmt::format("{}: {} (at {}, {} bytes) is outside the library's readable segments; it is not read",
                            label_, what, address, size));
  }

  // A callback: null, or inside one executable segment.
  template <class Function>
  void code(Function* function, std::string_view what) const {
    if (function == nullptr) return;
    const auto a = reinterpret_cast<std::uintptr_t>(function);
    for (const mapped_segment& m : segments_)
      if (m.executable && a >= m.start && a - m.start < m.size) return;
    throw error(fmt::format("{}: {} points to 0x{:x}, outside the library's code; it is not called", label_, what, a));
  }

private:
  std::vector<mapped_segment> segments_;
  std::string_view label_;
};

}  // namespace

void check_descriptor_pointers(const void* list, std::string_view symbol, std::size_t max_entries,
                               std::string_view label) {
  const auto address = reinterpret_cast<std::uintptr_t>(list);
  std::vector<mapped_segment> segments = segments_holding(address);
  if (segments.empty()) throw error(fmt::format("{}: {} at {} lies in no loaded library", label, symbol, list));
  const pointer_check check(std::move(segments), label);
  const auto* slots = static_cast<const unsigned char*>(list);
  for (std::size_t n = 0; n < max_entries; ++n) {
    const std::string entry = fmt::format("{} entry {}", symbol, n);
    check.readable(slots + n * sizeof(void*), sizeof(void*), entry);
    vx_kernel_description_t* descriptor = nullptr;
    std::memcpy(&descriptor, slots + n * sizeof(void*), sizeof descriptor);
    if (descriptor == nullptr) return;
    const std::string at = fmt::format("descriptor {} of {}", n, symbol);
    check.readable(descriptor, sizeof *descriptor, at);
    check.code(descriptor->function, at + ": function");
    check.code(descriptor->validate, at + ": validate");
    check.code(descriptor->initialize, at + ": initialize");
    check.code(descriptor->deinitialize, at + ": deinitialize");
    constexpr vx_uint32 max_params = 4096;
    if (descriptor->parameters != nullptr && descriptor->numParams <= max_params)
      check.readable(descriptor->parameters, descriptor->numParams * sizeof(vx_param_description_t),
                     at + ": the parameter table");
  }
}

}  // namespace rknnop::host
