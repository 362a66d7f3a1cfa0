// SPDX-License-Identifier: MIT
// A correct op in a library whose constructor fills memory: it maps and writes 4 GiB in 64 MiB
// blocks (fewer if the address space ends first), then releases them. What a corrupt segment size or
// constructor does to a load probe (tests/host/test_hostile_files.cpp, CorruptLibraries); the loader's
// probe must stop it at its memory budget, long before the 30-s deadline.
#include <rknnop/op.hpp>

#include <cstring>
#include <sys/mman.h>

namespace {

#ifndef RKNNOP_EMITTER  // the build's emitter (the same source) runs at build time: 4 GiB there cost 9 s
constexpr std::size_t block = std::size_t{64} << 20;
constexpr std::size_t blocks = 64;  // 4 GiB

__attribute__((constructor)) void fill_memory() {
  void* mapped[blocks] = {};
  for (std::size_t i = 0; i < blocks; ++i) {
    void* p = ::mmap(nullptr, block, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) break;
    std::memset(p, 0x5a, block);
    mapped[i] = p;
  }
  for (void* p : mapped)
    if (p != nullptr) ::munmap(p, block);
}
#endif

}  // namespace

struct MemoryHungry {
  static constexpr std::string_view name = "MemoryHungry";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const auto&) { out.y.set_dims(in.x.dims()); };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const auto&) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.y[i] = in.x[i];
  };
};

RKNNOP_EXPORT_OP(MemoryHungry);
