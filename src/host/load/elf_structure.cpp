// SPDX-License-Identifier: MIT
// check_elf_structure: what the dynamic loader (glibc's ld.so) reads from a shared object while it
// maps and relocates it, checked against the file before dlopen sees it. ld.so trusts these
// structures: a relocation whose offset points outside the writable segment makes it write there
// (SIGSEGV), a DT_RELACOUNT larger than the run of RELATIVE entries trips its assertion, a GNU hash
// chain without an end bit walks off the table. Sources: the System V gABI (program headers,
// dynamic section, hash tables, relocations), the GNU symbol versioning and GNU hash formats, and
// the processor supplements for the relocation types; which of them glibc asserts was read from
// glibc's elf/get-dynamic-info.h and elf/dl-lookup.c.
#include "rknnop/host/elf.hpp"

#include "rknnop/host/error.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <tuple>
#include <utility>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "formats/byte_io.hpp"
#include "load/elf_tags.hpp"

namespace rknnop::host {

namespace {

using namespace elf_tags;

constexpr std::uint32_t pf_x = 1, pf_w = 2;

constexpr std::uint64_t df_textrel = 4;

struct segment {
  std::uint32_t type = 0, flags = 0;
  std::uint64_t offset = 0, vaddr = 0, filesz = 0, memsz = 0, align = 0;
};

// The relocation types a shared object for this machine may carry, and which is RELATIVE/IRELATIVE.
struct relocation_set {
  std::uint32_t relative = 0, irelative = 0;
  std::array<std::uint32_t, 14> allowed{};
  std::array<std::uint32_t, 3> absolute{};  // S + A into a word: the word-size absolute, GLOB_DAT, JUMP_SLOT
  [[nodiscard]] bool is_absolute(std::uint32_t type) const noexcept {
    return std::find(absolute.begin(), absolute.end(), type) != absolute.end();
  }
  [[nodiscard]] bool contains(std::uint32_t type) const noexcept {
    return type == 0 || std::find(allowed.begin(), allowed.end(), type) != allowed.end();
  }
};

std::optional<relocation_set> relocations_for(std::uint16_t machine) {
  switch (machine) {
    // NONE, 64, PC32, 32, 32S, GLOB_DAT, JUMP_SLOT, RELATIVE, DTPMOD64, DTPOFF64, TPOFF64, TLSDESC, IRELATIVE
    case elf_machine::x86_64: return relocation_set{8, 37, {1, 2, 10, 11, 6, 7, 8, 16, 17, 18, 36, 37}, {1, 6, 7}};
    // ABS64, ABS32, GLOB_DAT, JUMP_SLOT, RELATIVE, TLS_DTPMOD, TLS_DTPREL, TLS_TPREL, TLSDESC, IRELATIVE
    case elf_machine::aarch64:
      return relocation_set{1027, 1032, {257, 258, 1025, 1026, 1027, 1028, 1029, 1030, 1031, 1032}, {257, 1025, 1026}};
    // ABS32, REL32, TLS_DTPMOD32, TLS_DTPOFF32, TLS_TPOFF32, GLOB_DAT, JUMP_SLOT, RELATIVE, TLS_DESC, IRELATIVE
    case elf_machine::arm: return relocation_set{23, 160, {2, 3, 17, 18, 19, 21, 22, 23, 13, 160}, {2, 21, 22}};
    default: return std::nullopt;
  }
}

struct relocation {
  std::uint32_t type = 0;
  std::uint64_t symbol = 0, addend = 0;
};

class checker {
public:
  checker(std::span<const std::uint8_t> bytes, std::string_view source) : bytes_(bytes), source_(source) {}

  // Long by design: the loader's order — header, segments, dynamic table, then each table it names.
  void run() {
    if (!looks_like_elf(bytes_) || bytes_.size() < 16) fail("not an ELF file");
    if (bytes_[4] != 1 && bytes_[4] != 2) fail(fmt::format("EI_CLASS is {}, expected 1 or 2", bytes_[4]));
    is64_ = bytes_[4] == 2;
    word_ = is64_ ? 8 : 4;
    if (bytes_[5] != 1) fail("not little-endian (EI_DATA is not 1)");
    if (bytes_[6] != 1) fail(fmt::format("EI_VERSION is {}, expected 1", bytes_[6]));
    require_file(0, is64_ ? 64 : 52, "the ELF header");
    const auto type = u16(16);
    machine_ = u16(18);
    if (type != 3) fail(fmt::format("e_type is {}, expected 3 (ET_DYN, a shared object)", type));
    const auto relocs = relocations_for(machine_);
    if (!relocs) fail(fmt::format("e_machine is {}: not x86-64, aarch64 or arm", machine_name(machine_)));
    relocs_ = *relocs;
    if (u32(20) != 1) fail(fmt::format("e_version is {}, expected 1", u32(20)));
    read_segments();
    read_dynamic();
    check_strings();
    check_symbols();
    check_relocations();
    check_versions();
    check_code_pointers();
  }

  // Reads vx_kernel_<Op>_list as the loader would see it after relocation (run() first).
  // Long by design: list, then each descriptor, then its parameter table, each bounds-checked.
  [[nodiscard]] std::optional<elf_kernel_list> kernel_list(std::string_view symbol_name) const {
    const std::uint64_t symbol_size = is64_ ? 24 : 16;
    std::optional<std::uint64_t> list;
    for (std::uint64_t i = 1; i < symbol_count_ && !list; ++i) {
      const std::uint64_t at = symtab_ + i * symbol_size;
      if (u16(at + (is64_ ? 6 : 14)) == 0) continue;
      const std::uint32_t name = u32(at);
      const auto* text = reinterpret_cast<const char*>(bytes_.data() + strtab_ + name);
      if (std::string_view(text, ::strnlen(text, strsz_ - name)) == symbol_name)
        list = is64_ ? word(at + 8) : word(at + 4);
    }
    if (!list) return std::nullopt;
    elf_kernel_list out;
    constexpr std::size_t max_entries = 1024;
    for (std::size_t n = 0;; ++n) {
      if (n == max_entries) fail(fmt::format("{} has no NULL terminator within {} entries", symbol_name, max_entries));
      const std::uint64_t descriptor = pointer_at(*list + n * word_, symbol_name);
      if (descriptor == 0) break;
      // enumeration, name[256], function, parameters, numParams, validate, 2 x void*, initialize, deinitialize
      const std::uint64_t name_at = descriptor + 4;
      const std::uint64_t function_at = is64_ ? descriptor + 264 : descriptor + 260;
      const std::uint64_t size = function_at + 8 * word_ - descriptor;
      if (!loaded(descriptor, size))
        fail(fmt::format("descriptor {} of {} (0x{:x}) is outside the loaded segments", n, symbol_name, descriptor));
      elf_kernel_descriptor d;
      d.writable = (loaded(descriptor, size)->flags & pf_w) != 0;
      std::array<char, 256> name{};
      for (std::size_t k = 0; k < name.size(); ++k) name[k] = static_cast<char>(byte_at(name_at + k));
      d.name_field.assign(name.data(), name.size());
      // The callbacks the runtime calls: null, another library's function (1), or this library's code.
      const auto callback = [&](std::uint64_t at, std::string_view field) {
        const std::uint64_t p = pointer_at(at, symbol_name);
        // A shared object is loaded anywhere: a callback no relocation fills in stays an absolute address
        // (DT_RELR's packed RELATIVE relocations are not decoded here: then the check is skipped).
        if (p != 0 && !relocations_.contains(at) && !tag(dt_relr))
          fail(fmt::format("descriptor {} of {}: {} holds 0x{:x}, which no relocation fills in", n, symbol_name, field,
                           p));
        if (p > 1 && !in_code(p))
          fail(fmt::format("descriptor {} of {}: {} points to 0x{:x}, outside the code", n, symbol_name, field, p));
        return p != 0;
      };
      d.has_function = callback(function_at, "function");
      const std::uint64_t parameters = pointer_at(function_at + word_, symbol_name);
      d.num_params = static_cast<std::uint32_t>(value_at(function_at + 2 * word_, 4));
      d.has_validate = callback(function_at + 3 * word_, "validate");
      d.has_initialize = callback(function_at + 6 * word_, "initialize");
      d.has_deinitialize = callback(function_at + 7 * word_, "deinitialize");
      d.has_parameters = parameters != 0;
      if (parameters != 0 && d.num_params <= 4096) {
        if (!loaded(parameters, 12 * std::uint64_t{d.num_params}))
          fail(
              fmt::format("the parameter table of descriptor {} of {} is outside the loaded segments", n, symbol_name));
        for (std::uint32_t k = 0; k < d.num_params; ++k) {
          const std::uint64_t p = parameters + 12 * std::uint64_t{k};
          d.parameters.push_back({static_cast<std::int32_t>(value_at(p, 4)),
                                  static_cast<std::int32_t>(value_at(p + 4, 4)),
                                  static_cast<std::int32_t>(value_at(p + 8, 4))});
        }
      }
      out.entries.push_back(std::move(d));
    }
    return out;
  }

private:
  // A byte of the loaded image (0 past a segment's file contents, in .bss).
  [[nodiscard]] std::uint8_t byte_at(std::uint64_t vaddr) const {
    for (const segment& s : loads_)
      if (vaddr >= s.vaddr && vaddr - s.vaddr < s.memsz)
        return vaddr - s.vaddr < s.filesz ? bytes_[s.offset + (vaddr - s.vaddr)] : std::uint8_t{0};
    fail(fmt::format("address 0x{:x} is outside the loaded segments", vaddr));
  }
  [[nodiscard]] std::uint64_t value_at(std::uint64_t vaddr, unsigned size) const {
    std::uint64_t v = 0;
    for (unsigned k = 0; k < size; ++k) v |= std::uint64_t{byte_at(vaddr + k)} << (8 * k);
    return v;
  }
  // The pointer stored at `vaddr` once relocated: a relocation's result relative to load address 0,
  // 1 for a pointer to another library's symbol (not null, not here), else the stored value.
  [[nodiscard]] std::uint64_t pointer_at(std::uint64_t vaddr, std::string_view what) const {
    if (!loaded(vaddr, word_)) fail(fmt::format("{}: address 0x{:x} is outside the loaded segments", what, vaddr));
    const auto it = relocations_.find(vaddr);
    if (it == relocations_.end()) return value_at(vaddr, static_cast<unsigned>(word_));
    const relocation& r = it->second;
    if (r.type == relocs_.relative) return r.addend;
    const std::uint64_t symbol_size = is64_ ? 24 : 16;
    const std::uint64_t at = symtab_ + r.symbol * symbol_size;
    if (r.symbol == 0 || u16(at + (is64_ ? 6 : 14)) == 0) return 1;
    return (is64_ ? word(at + 8) : word(at + 4)) + r.addend;
  }

  [[noreturn]] void fail(std::string_view what) const {
    throw error(fmt::format("{}: corrupt library: {}; it is not loaded", source_, what));
  }

  void require_file(std::uint64_t offset, std::uint64_t size, std::string_view what) const {
    if (offset > bytes_.size() || size > bytes_.size() - offset)
      fail(fmt::format("{} (offset {}, {} bytes) runs past the end of the {}-byte file", what, offset, size,
                       bytes_.size()));
  }
  [[nodiscard]] std::uint16_t u16(std::uint64_t at) const {
    require_file(at, 2, "a field");
    return byte_io::load_le<std::uint16_t>(bytes_.data() + at);
  }
  [[nodiscard]] std::uint32_t u32(std::uint64_t at) const {
    require_file(at, 4, "a field");
    return byte_io::load_le<std::uint32_t>(bytes_.data() + at);
  }
  [[nodiscard]] std::uint64_t word(std::uint64_t at) const {
    require_file(at, word_, "a field");
    return is64_ ? byte_io::load_le<std::uint64_t>(bytes_.data() + at)
                 : byte_io::load_le<std::uint32_t>(bytes_.data() + at);
  }

  // The PT_LOAD segment holding [vaddr, vaddr + size) in memory, or null.
  [[nodiscard]] const segment* loaded(std::uint64_t vaddr, std::uint64_t size) const noexcept {
    for (const segment& s : loads_)
      if (vaddr >= s.vaddr && vaddr - s.vaddr <= s.memsz && size <= s.memsz - (vaddr - s.vaddr)) return &s;
    return nullptr;
  }
  // The file offset of [vaddr, vaddr + size), which must lie in the file-backed part of one PT_LOAD.
  [[nodiscard]] std::uint64_t file_offset(std::uint64_t vaddr, std::uint64_t size, std::string_view what) const {
    for (const segment& s : loads_)
      if (vaddr >= s.vaddr && vaddr - s.vaddr <= s.filesz && size <= s.filesz - (vaddr - s.vaddr))
        return s.offset + (vaddr - s.vaddr);
    fail(fmt::format("{} (address 0x{:x}, {} bytes) is not inside the file contents of a loaded segment", what, vaddr,
                     size));
  }
  [[nodiscard]] bool in_code(std::uint64_t vaddr) const noexcept {
    const segment* s = loaded(vaddr, 1);
    return s != nullptr && (s->flags & pf_x) != 0;
  }

  // Long by design: one check per program-header field the loader uses.
  void read_segments() {
    const std::uint64_t phoff = word(is64_ ? 32 : 28);
    const std::uint16_t phentsize = u16(is64_ ? 54 : 42);
    const std::uint16_t phnum = u16(is64_ ? 56 : 44);
    const std::uint16_t expected = is64_ ? 56 : 32;
    if (phentsize != expected) fail(fmt::format("e_phentsize is {}, expected {}", phentsize, expected));
    if (phnum == 0 || phnum == 0xffff) fail(fmt::format("e_phnum is {}", phnum));
    require_file(phoff, std::uint64_t{phnum} * phentsize, "the program header table");
    std::uint64_t previous_end = 0;
    int dynamic_count = 0;
    for (std::uint16_t i = 0; i < phnum; ++i) {
      const std::uint64_t at = phoff + std::uint64_t{i} * phentsize;
      segment s;
      s.type = u32(at);
      if (is64_) {
        s.flags = u32(at + 4);
        s.offset = word(at + 8);
        s.vaddr = word(at + 16);
        s.filesz = word(at + 32);
        s.memsz = word(at + 40);
        s.align = word(at + 48);
      } else {
        s.offset = word(at + 4);
        s.vaddr = word(at + 8);
        s.filesz = word(at + 16);
        s.memsz = word(at + 20);
        s.flags = u32(at + 24);
        s.align = word(at + 28);
      }
      const std::string name = fmt::format("program header {} (type 0x{:x})", i, s.type);
      require_file(s.offset, s.filesz, name);
      if (s.type == pt_load || s.type == pt_tls) {
        if (s.filesz > s.memsz) fail(fmt::format("{} has p_filesz {} > p_memsz {}", name, s.filesz, s.memsz));
        if (s.align > 1 && (s.align & (s.align - 1)) != 0)
          fail(fmt::format("{} has p_align {}, not a power of two", name, s.align));
      }
      if (s.type == pt_load) {
        constexpr std::uint64_t max_span = std::uint64_t{1} << 30;
        if (s.memsz > max_span || s.vaddr > max_span)
          fail(fmt::format("{} maps {} bytes at 0x{:x}: beyond the 1 GiB a kernel library may span", name, s.memsz,
                           s.vaddr));
        if (s.align > 1 && s.vaddr % s.align != s.offset % s.align)
          fail(fmt::format("{} has p_vaddr 0x{:x} and p_offset 0x{:x} not congruent modulo p_align {}", name, s.vaddr,
                           s.offset, s.align));
        if (!loads_.empty() && s.vaddr < previous_end)
          fail(fmt::format("{} at 0x{:x} overlaps or precedes the previous loaded segment", name, s.vaddr));
        previous_end = s.vaddr + s.memsz;
        loads_.push_back(s);
      } else if (s.type == pt_dynamic) {
        ++dynamic_count;
        dynamic_ = s;
      } else if (s.type == pt_tls) {
        has_tls_ = true;
      }
    }
    if (loads_.empty()) fail("no loadable (PT_LOAD) segment");
    if (loads_.size() > 64) fail(fmt::format("{} loadable segments; a shared object has a handful", loads_.size()));
    if (dynamic_count != 1) fail(fmt::format("{} dynamic (PT_DYNAMIC) segments, expected 1", dynamic_count));
    if (dynamic_.filesz != dynamic_.memsz ||
        file_offset(dynamic_.vaddr, dynamic_.filesz, "the dynamic segment") != dynamic_.offset)
      fail("the dynamic segment is not the file contents of a loaded segment at its address");
  }

  void read_dynamic() {
    const std::uint64_t entry_size = 2 * word_;
    bool terminated = false;
    for (std::uint64_t at = 0; at + entry_size <= dynamic_.filesz; at += entry_size) {
      const std::uint64_t tag = word(dynamic_.offset + at);
      const std::uint64_t value = word(dynamic_.offset + at + word_);
      if (tag == dt_null) {
        terminated = true;
        break;
      }
      if (tag == dt_needed || tag == dt_soname || tag == dt_rpath || tag == dt_runpath) {
        string_refs_.emplace_back(tag, value);
        continue;
      }
      if (tag == dt_textrel) fail("DT_TEXTREL: relocations in read-only code (build with -fPIC)");
      if (tag == dt_flags && (value & df_textrel) != 0) fail("DF_TEXTREL: relocations in read-only code");
      dyn_[tag] = value;  // ld.so keeps the last of repeated tags
    }
    if (!terminated) fail("the dynamic table has no DT_NULL end");
    for (const std::uint64_t needed : {std::uint64_t{dt_strtab}, std::uint64_t{dt_strsz}, std::uint64_t{dt_symtab}})
      if (!dyn_.contains(needed)) fail(fmt::format("the dynamic table has no tag {}", needed));
    const std::uint64_t symbol_size = is64_ ? 24 : 16;
    if (const auto e = tag(dt_syment); e && *e != symbol_size)
      fail(fmt::format("DT_SYMENT is {}, expected {}", *e, symbol_size));
    if (tag(dt_pltrel) && *tag(dt_pltrel) != (rela() ? dt_rela : dt_rel))
      fail(fmt::format("DT_PLTREL is {}, expected {}", *tag(dt_pltrel), rela() ? "DT_RELA (7)" : "DT_REL (17)"));
    if (tag(dt_rela) && tag(dt_relaent) != std::optional<std::uint64_t>(3 * word_))
      fail(fmt::format("DT_RELAENT is missing or not {}", 3 * word_));
    if (tag(dt_rel) && tag(dt_relent) != std::optional<std::uint64_t>(2 * word_))
      fail(fmt::format("DT_RELENT is missing or not {}", 2 * word_));
    if (tag(dt_relr) && tag(dt_relrent) != std::optional<std::uint64_t>(word_))
      fail(fmt::format("DT_RELRENT is missing or not {}", word_));
    if (rela() ? tag(dt_rel).has_value() : tag(dt_rela).has_value())
      fail(fmt::format("{} relocations on {}, which uses {}", rela() ? "REL" : "RELA", machine_name(machine_),
                       rela() ? "RELA" : "REL"));
    strtab_ = file_offset(*tag(dt_strtab), *tag(dt_strsz), "the string table (DT_STRTAB, DT_STRSZ)");
    strsz_ = *tag(dt_strsz);
    if (strsz_ == 0 || bytes_[strtab_ + strsz_ - 1] != 0) fail("the string table does not end with a NUL");
    if (const auto got = tag(dt_pltgot); got && !loaded(*got, 3 * word_))
      fail(fmt::format("DT_PLTGOT 0x{:x} is outside the loaded segments", *got));
  }

  [[nodiscard]] bool rela() const noexcept { return machine_ != elf_machine::arm; }
  [[nodiscard]] std::optional<std::uint64_t> tag(std::uint64_t t) const {
    const auto it = dyn_.find(t);
    return it == dyn_.end() ? std::nullopt : std::optional<std::uint64_t>(it->second);
  }

  void check_string(std::uint64_t index, std::string_view what) const {
    if (index >= strsz_)
      fail(fmt::format("{}: string index {} is outside the {}-byte string table", what, index, strsz_));
  }

  // Symbol names are identifiers (C++ mangling included): a mangled byte would make the loader look
  // for a symbol no library defines.
  // Each byte of the string table is checked once: names may share tails.
  void check_symbol_name(std::uint32_t index, std::uint64_t symbol) {
    for (std::uint64_t k = strtab_ + index; k < strtab_ + strsz_ && bytes_[k] != 0; ++k) {
      if (checked_names_[k - strtab_]) break;
      checked_names_[k - strtab_] = true;
      const auto c = static_cast<char>(bytes_[k]);
      const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                         c == '.' || c == '$' || c == '@';
      if (!plain)
        fail(fmt::format("symbol {} has byte 0x{:02x} in its name, which no identifier holds", symbol,
                         static_cast<unsigned char>(c)));
    }
  }

  void check_strings() const {
    for (const auto& [t, index] : string_refs_) check_string(index, fmt::format("dynamic tag {}", t));
  }

  // The symbol count comes from the hash tables (the dynamic table does not state it).
  void check_symbols() {
    std::uint64_t count = 0;
    bool any_hash = false;
    if (const auto hash = tag(dt_hash)) {
      any_hash = true;
      const std::uint64_t at = file_offset(*hash, 8, "the hash table (DT_HASH)");
      const std::uint32_t nbucket = u32(at), nchain = u32(at + 4);
      if (nbucket == 0) fail("the hash table (DT_HASH) has no buckets");
      const std::uint64_t table = file_offset(*hash, 8 + 4 * (std::uint64_t{nbucket} + nchain), "the hash table");
      for (std::uint64_t i = 0; i < std::uint64_t{nbucket} + nchain; ++i)
        if (u32(table + 8 + 4 * i) >= std::max<std::uint32_t>(nchain, 1))
          fail(fmt::format("the hash table (DT_HASH) entry {} points past its {} chains", i, nchain));
      // Chains must end: a cycle would make every symbol lookup loop forever. Each entry is walked
      // once (0 not seen, 1 on the chain being walked, 2 known to end).
      std::vector<std::uint8_t> state(nchain, 0);
      std::vector<std::uint32_t> path;
      for (std::uint32_t b = 0; b < nbucket; ++b) {
        path.clear();
        for (std::uint32_t s = u32(table + 8 + 4 * b); s != 0 && state[s] != 2;
             s = u32(table + 8 + 4 * (std::uint64_t{nbucket} + s))) {
          if (state[s] == 1) fail("a hash table (DT_HASH) chain does not end");
          state[s] = 1;
          path.push_back(s);
        }
        for (const std::uint32_t s : path) state[s] = 2;
      }
      count = nchain;
    }
    if (const auto gnu = tag(dt_gnu_hash)) {
      any_hash = true;
      const std::uint64_t at = file_offset(*gnu, 16, "the GNU hash table (DT_GNU_HASH)");
      const std::uint32_t nbuckets = u32(at), symoffset = u32(at + 4), bloom_words = u32(at + 8);
      if (nbuckets == 0) fail("the GNU hash table has no buckets");
      if (bloom_words == 0 || (bloom_words & (bloom_words - 1)) != 0)
        fail(fmt::format("the GNU hash table's bloom filter has {} words, not a power of two", bloom_words));
      const std::uint64_t buckets_vaddr = *gnu + 16 + std::uint64_t{bloom_words} * word_;
      const std::uint64_t buckets = file_offset(buckets_vaddr, 4 * std::uint64_t{nbuckets}, "the GNU hash buckets");
      const std::uint64_t chains_vaddr = buckets_vaddr + 4 * std::uint64_t{nbuckets};
      std::uint64_t gnu_count = symoffset;
      constexpr std::uint64_t max_chain_symbols = std::uint64_t{1} << 24;
      std::vector<bool> walked;  // chains are runs of the same array: walk each entry once
      for (std::uint32_t b = 0; b < nbuckets; ++b) {
        const std::uint32_t first = u32(buckets + 4 * b);
        if (first == 0) continue;
        if (first < symoffset)
          fail(fmt::format("GNU hash bucket {} starts at symbol {} < symoffset {}", b, first, symoffset));
        for (std::uint64_t s = first;; ++s) {
          if (s - symoffset >= max_chain_symbols) fail("a GNU hash chain does not end");
          if (s - symoffset < walked.size() && walked[s - symoffset]) break;
          if (s - symoffset >= walked.size()) walked.resize(s - symoffset + 1);
          walked[s - symoffset] = true;
          const std::uint64_t entry = file_offset(chains_vaddr + 4 * (s - symoffset), 4, "a GNU hash chain");
          gnu_count = std::max(gnu_count, s + 1);
          if ((u32(entry) & 1u) != 0) break;
        }
      }
      if (count != 0 && gnu_count > count) fail("the GNU hash table names more symbols than DT_HASH");
      count = std::max(count, gnu_count);
    }
    if (!any_hash) fail("no symbol hash table (DT_HASH or DT_GNU_HASH)");
    constexpr std::uint64_t max_symbols = std::uint64_t{1} << 20;
    if (count > max_symbols)
      fail(fmt::format("{} symbols, more than the {} a kernel library could need", count, max_symbols));
    symbol_count_ = count;
    checked_names_.assign(strsz_, false);
    const std::uint64_t symbol_size = is64_ ? 24 : 16;
    symtab_ = file_offset(*tag(dt_symtab), count * symbol_size, "the symbol table (DT_SYMTAB)");
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint64_t at = symtab_ + i * symbol_size;
      check_string(u32(at), fmt::format("symbol {}", i));
      check_symbol_name(u32(at), i);
      const std::uint8_t info = bytes_[at + (is64_ ? 4 : 12)];
      const std::uint16_t shndx = u16(at + (is64_ ? 6 : 14));
      const std::uint64_t value = is64_ ? word(at + 8) : word(at + 4);
      constexpr unsigned stt_gnu_ifunc = 10, stt_tls = 6;
      if ((info & 0xfu) == stt_gnu_ifunc && shndx != 0 && !in_code(value))
        fail(fmt::format("indirect function symbol {} resolves to 0x{:x}, outside the code", i, value));
      if ((info & 0xfu) == stt_tls && shndx != 0 && !has_tls_)
        fail(fmt::format("TLS symbol {} without a TLS segment", i));
    }
  }

  // Long by design: each relocation table the loader walks, entry by entry.
  void check_relocations() {
    const bool with_addend = rela();
    const std::uint64_t entry = (with_addend ? 3 : 2) * word_;
    struct table {
      std::uint64_t address_tag, size_tag;
      std::string_view name;
    };
    const table tables[] = {
        {with_addend ? std::uint64_t{dt_rela} : std::uint64_t{dt_rel},
         with_addend ? std::uint64_t{dt_relasz} : std::uint64_t{dt_relsz}, with_addend ? "DT_RELA" : "DT_REL"},
        {dt_jmprel, dt_pltrelsz, "DT_JMPREL"}};
    for (const table& t : tables) {
      const auto address = tag(t.address_tag);
      if (!address) continue;
      const std::uint64_t size = tag(t.size_tag).value_or(0);
      if (size % entry != 0) fail(fmt::format("{} size {} is not a multiple of {}", t.name, size, entry));
      const std::uint64_t at = file_offset(*address, size, t.name);
      const std::uint64_t count = size / entry;
      constexpr std::uint64_t max_relocations = std::uint64_t{1} << 20;
      if (count > max_relocations)
        fail(fmt::format("{} has {} relocations, more than the {} a kernel library could need", t.name, count,
                         max_relocations));
      const auto relative_run = tag(with_addend ? dt_relacount : dt_relcount);
      if (t.address_tag != dt_jmprel && relative_run && *relative_run > count)
        fail(fmt::format("DT_RELACOUNT {} exceeds the {} relocations", *relative_run, count));
      for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint64_t e = at + i * entry;
        const std::uint64_t offset = word(e);
        const std::uint64_t info = word(e + word_);
        const std::uint64_t symbol = is64_ ? info >> 32 : info >> 8;
        const auto type = static_cast<std::uint32_t>(is64_ ? info & 0xffffffffu : info & 0xffu);
        const std::string which = fmt::format("{} relocation {}", t.name, i);
        if (!relocs_.contains(type)) fail(fmt::format("{} has type {}, not one a shared object uses", which, type));
        if (type == 0) continue;
        if (t.address_tag != dt_jmprel && relative_run && i < *relative_run && type != relocs_.relative)
          fail(fmt::format("{} has type {} within the DT_RELACOUNT run of RELATIVE relocations", which, type));
        if (symbol >= std::max<std::uint64_t>(symbol_count_, 1))
          fail(fmt::format("{} names symbol {} of {}", which, symbol, symbol_count_));
        const segment* target = loaded(offset, word_);
        if (target == nullptr || (target->flags & pf_w) == 0)
          fail(fmt::format("{} writes at 0x{:x}, outside the writable segments", which, offset));
        if (type == relocs_.irelative) {
          const std::uint64_t resolver = with_addend ? word(e + 2 * word_) : in_place(offset);
          if (!in_code(resolver)) fail(fmt::format("{} calls a resolver at 0x{:x}, outside the code", which, resolver));
        }
        const std::uint64_t addend = with_addend ? word(e + 2 * word_) : in_place(offset);
        check_relocated_pointer(which, type, symbol, addend, with_addend, offset);
        if (type == relocs_.relative) relative_targets_.emplace(offset, addend);
        relocations_[offset] = {type, symbol, addend};
      }
    }
    if (tag(dt_relr)) (void)file_offset(*tag(dt_relr), tag(dt_relrsz).value_or(0), "DT_RELR");
  }

  // Where the type makes it decidable, the pointer a relocation stores must point into the loaded
  // image (its end included): RELATIVE's B + A, and S + A for a symbol this library defines. A
  // pointer elsewhere is a function or a table the loader would call or read at a wild address.
  void check_relocated_pointer(const std::string& which, std::uint32_t type, std::uint64_t symbol, std::uint64_t addend,
                               bool with_addend, std::uint64_t offset) const {
    const std::uint64_t mask = is64_ ? ~std::uint64_t{0} : 0xffffffffu;
    if (type == relocs_.relative) {
      if (!loaded(addend & mask, 0))
        fail(fmt::format("{} (RELATIVE) stores load address + 0x{:x} at 0x{:x}, outside the loaded segments", which,
                         addend, offset));
      return;
    }
    if (!relocs_.is_absolute(type) || symbol == 0) return;
    const std::uint64_t at = symtab_ + symbol * (is64_ ? 24 : 16);
    const std::uint8_t info = bytes_[at + (is64_ ? 4 : 12)];
    const std::uint16_t shndx = u16(at + (is64_ ? 6 : 14));
    constexpr std::uint16_t shn_abs = 0xfff1;
    constexpr unsigned stt_tls = 6;
    if (shndx == 0 || shndx == shn_abs || (info & 0xfu) == stt_tls) return;  // another library's, or no address
    const std::uint64_t value = is64_ ? word(at + 8) : word(at + 4);
    // GLOB_DAT and JUMP_SLOT store S; the word-size absolute stores S + A (REL: A in place).
    const bool adds = type == relocs_.absolute[0];
    const std::uint64_t result = (adds && with_addend ? value + addend : value) & mask;
    if (!loaded(result, 0))
      fail(fmt::format("{} stores symbol {}'s address 0x{:x} at 0x{:x}, outside the loaded segments", which, symbol,
                       result, offset));
  }

  // The value stored at `vaddr` (REL relocations keep their addend there); 0 in .bss.
  [[nodiscard]] std::uint64_t in_place(std::uint64_t vaddr) const {
    for (const segment& s : loads_)
      if (vaddr >= s.vaddr && vaddr - s.vaddr < s.filesz && s.filesz - (vaddr - s.vaddr) >= word_)
        return word(s.offset + (vaddr - s.vaddr));
    return 0;
  }

  // Long by design: the two GNU version structures, each a linked list of entries and auxiliaries.
  void check_versions() {
    std::uint64_t highest = 1;  // 0 local, 1 global
    std::uint64_t auxiliaries = 0;
    const auto walk = [&](std::uint64_t address_tag, std::uint64_t number_tag, bool needed) {
      const auto address = tag(address_tag);
      if (!address) return;
      const std::string_view name = needed ? "DT_VERNEED" : "DT_VERDEF";
      const std::uint64_t number = tag(number_tag).value_or(0);
      if (number == 0 || number > 4096) fail(fmt::format("{} with {} entries", name, number));
      std::uint64_t vaddr = *address;
      for (std::uint64_t n = 0; n < number; ++n) {
        const std::uint64_t at = file_offset(vaddr, needed ? 16 : 20, name);
        const std::uint16_t version = u16(at);
        if (version != 1) fail(fmt::format("{} entry {} has version {}, expected 1", name, n, version));
        const std::uint16_t count = u16(at + (needed ? 2 : 6));
        if (needed)
          check_string(u32(at + 4), fmt::format("{} entry {}", name, n));
        else
          highest = std::max<std::uint64_t>(highest, u16(at + 4) & 0x7fffu);
        std::uint64_t aux = vaddr + u32(at + (needed ? 8 : 12));
        for (std::uint16_t k = 0; k < count; ++k) {
          if (++auxiliaries > 65536) fail(fmt::format("{} has more than 65536 auxiliary entries", name));
          const std::uint64_t a = file_offset(aux, needed ? 16 : 8, name);
          if (needed) {
            highest = std::max<std::uint64_t>(highest, u16(a + 6) & 0x7fffu);
            check_string(u32(a + 8), fmt::format("{} entry {}", name, n));
          } else {
            check_string(u32(a), fmt::format("{} entry {}", name, n));
          }
          const std::uint32_t next = u32(a + (needed ? 12 : 4));
          if (next == 0) break;
          aux += next;
        }
        const std::uint32_t next = u32(at + (needed ? 12 : 16));
        if (next == 0) {
          if (n + 1 != number) fail(fmt::format("{} lists {} entries but its chain holds {}", name, number, n + 1));
          break;
        }
        vaddr += next;
      }
    };
    walk(dt_verneed, dt_verneednum, true);
    walk(dt_verdef, dt_verdefnum, false);
    if (const auto versym = tag(dt_versym)) {
      const std::uint64_t at = file_offset(*versym, 2 * symbol_count_, "the symbol versions (DT_VERSYM)");
      for (std::uint64_t i = 0; i < symbol_count_; ++i)
        if ((u16(at + 2 * i) & 0x7fffu) > highest)
          fail(fmt::format("symbol {} has version index {}, but the library defines and needs {} at most", i,
                           u16(at + 2 * i) & 0x7fffu, highest));
    }
  }

  // The constructors and destructors ld.so calls: DT_INIT/DT_FINI and the pointers in the arrays,
  // which RELATIVE relocations fill in.
  void check_code_pointers() const {
    for (const auto& [t, name] :
         {std::pair{std::uint64_t{dt_init}, "DT_INIT"}, std::pair{std::uint64_t{dt_fini}, "DT_FINI"}})
      if (const auto address = tag(t); address && !in_code(*address))
        fail(fmt::format("{} 0x{:x} is outside the code", name, *address));
    for (const auto& [array, size, name] :
         {std::tuple{std::uint64_t{dt_init_array}, std::uint64_t{dt_init_arraysz}, "DT_INIT_ARRAY"},
          std::tuple{std::uint64_t{dt_fini_array}, std::uint64_t{dt_fini_arraysz}, "DT_FINI_ARRAY"},
          std::tuple{std::uint64_t{dt_preinit_array}, std::uint64_t{dt_preinit_arraysz}, "DT_PREINIT_ARRAY"}}) {
      const auto address = tag(array);
      if (!address) continue;
      const std::uint64_t bytes = tag(size).value_or(0);
      if (bytes % word_ != 0 || !loaded(*address, bytes))
        fail(fmt::format("{} (0x{:x}, {} bytes) is not inside a loaded segment", name, *address, bytes));
      for (std::uint64_t i = 0; i < bytes / word_; ++i) {
        const std::uint64_t slot = *address + i * word_;
        const auto relocated = relative_targets_.find(slot);
        const std::uint64_t target = relocated != relative_targets_.end() ? relocated->second : in_place(slot);
        // 0 and -1 are the conventional "no function" entries.
        if (target != 0 && target != (is64_ ? ~std::uint64_t{0} : 0xffffffffu) && !in_code(target))
          fail(fmt::format("{} entry {} calls 0x{:x}, outside the code", name, i, target));
      }
    }
  }

  std::span<const std::uint8_t> bytes_;
  std::string_view source_;
  bool is64_ = true;
  std::uint64_t word_ = 8;
  std::uint16_t machine_ = 0;
  relocation_set relocs_;
  std::vector<segment> loads_;
  segment dynamic_;
  bool has_tls_ = false;
  std::map<std::uint64_t, std::uint64_t> dyn_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> string_refs_;
  std::uint64_t strtab_ = 0, strsz_ = 0, symtab_ = 0, symbol_count_ = 0;
  std::map<std::uint64_t, std::uint64_t> relative_targets_;
  std::map<std::uint64_t, relocation> relocations_;
  std::vector<bool> checked_names_;
};

}  // namespace

void check_elf_structure(std::span<const std::uint8_t> bytes, std::string_view source) { checker(bytes, source).run(); }

std::optional<elf_kernel_list> read_kernel_list(std::span<const std::uint8_t> bytes, std::string_view symbol,
                                                std::string_view source) {
  checker c(bytes, source);
  c.run();
  return c.kernel_list(symbol);
}

}  // namespace rknnop::host
