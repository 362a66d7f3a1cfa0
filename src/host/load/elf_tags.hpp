// SPDX-License-Identifier: MIT
#pragma once
// The ELF numbers the two readers share (elf.cpp: the library's identity; elf_structure.cpp: what
// ld.so would do with it), from the System V gABI and the GNU extensions: segment, section and
// dynamic tags.
#include <cstdint>

namespace rknnop::host::elf_tags {

constexpr std::uint32_t pt_load = 1, pt_dynamic = 2, pt_tls = 7;

constexpr std::uint32_t sht_strtab = 3;
constexpr std::uint32_t sht_dynamic = 6;
constexpr std::uint32_t sht_dynsym = 11;
constexpr std::uint32_t sht_gnu_verdef = 0x6ffffffd;
constexpr std::uint32_t sht_gnu_verneed = 0x6ffffffe;
constexpr std::uint32_t sht_gnu_versym = 0x6fffffff;

// Dynamic tags (ld.so acts on these).
enum : std::uint64_t {
  dt_null = 0,
  dt_needed = 1,
  dt_pltrelsz = 2,
  dt_pltgot = 3,
  dt_hash = 4,
  dt_strtab = 5,
  dt_symtab = 6,
  dt_rela = 7,
  dt_relasz = 8,
  dt_relaent = 9,
  dt_strsz = 10,
  dt_syment = 11,
  dt_init = 12,
  dt_fini = 13,
  dt_soname = 14,
  dt_rpath = 15,
  dt_rel = 17,
  dt_relsz = 18,
  dt_relent = 19,
  dt_pltrel = 20,
  dt_textrel = 22,
  dt_jmprel = 23,
  dt_init_array = 25,
  dt_fini_array = 26,
  dt_init_arraysz = 27,
  dt_fini_arraysz = 28,
  dt_runpath = 29,
  dt_flags = 30,
  dt_preinit_array = 32,
  dt_preinit_arraysz = 33,
  dt_relrsz = 35,
  dt_relr = 36,
  dt_relrent = 37,
  dt_gnu_hash = 0x6ffffef5,
  dt_versym = 0x6ffffff0,
  dt_relacount = 0x6ffffff9,
  dt_relcount = 0x6ffffffa,
  dt_verdef = 0x6ffffffc,
  dt_verdefnum = 0x6ffffffd,
  dt_verneed = 0x6ffffffe,
  dt_verneednum = 0x6fffffff,
};

}  // namespace rknnop::host::elf_tags
