// SPDX-License-Identifier: MIT
#include "rknnop/host/elf.hpp"

#include "rknnop/host/error.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "formats/byte_io.hpp"
#include "load/elf_tags.hpp"

namespace rknnop::host {

namespace {

using namespace elf_tags;

// Bounds-checked little-endian view of the whole image; every read names what it was reading.
class image {
public:
  image(std::span<const std::uint8_t> bytes, std::string_view source) : bytes_(bytes), source_(source) {}

  template <class T>
  [[nodiscard]] T read(std::uint64_t offset, std::string_view what) const {
    require(offset, sizeof(T), what);
    return byte_io::load_le<T>(bytes_.data() + offset);
  }

  // Reads an unsigned field of 4 or 8 bytes (class-dependent) as u64.
  [[nodiscard]] std::uint64_t read_word(std::uint64_t offset, bool is64, std::string_view what) const {
    return is64 ? read<std::uint64_t>(offset, what) : read<std::uint32_t>(offset, what);
  }

  void require(std::uint64_t offset, std::uint64_t size, std::string_view what) const {
    if (offset > bytes_.size() || size > bytes_.size() - offset)
      throw error(
          fmt::format("{}: malformed ELF: {} at offset {} ({} bytes) is past the end of "
                      "the {}-byte file",
                      source_, what, offset, size, bytes_.size()));
  }

  [[nodiscard]] std::size_t size() const noexcept { return bytes_.size(); }
  [[nodiscard]] const std::uint8_t* data() const noexcept { return bytes_.data(); }
  [[nodiscard]] std::string_view source() const noexcept { return source_; }

private:
  std::span<const std::uint8_t> bytes_;
  std::string_view source_;
};

struct section {
  std::uint32_t name = 0;
  std::uint32_t type = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t link = 0;
  std::uint32_t info = 0;
  std::uint64_t entsize = 0;
};

// A string table section; lookups are bounded by the section, not by the NUL.
class string_table {
public:
  string_table() = default;
  string_table(const image& img, const section& s, std::string_view what) {
    img.require(s.offset, s.size, what);
    base_ = img.data() + s.offset;
    size_ = static_cast<std::size_t>(s.size);
    what_ = what;
    source_ = img.source();
  }
  [[nodiscard]] std::string at(std::uint64_t index) const {
    if (index >= size_)
      throw error(
          fmt::format("{}: malformed ELF: string index {} is outside {} ({} bytes)", source_, index, what_, size_));
    const auto* begin = reinterpret_cast<const char*>(base_) + index;
    const auto* end = static_cast<const char*>(std::memchr(begin, 0, size_ - static_cast<std::size_t>(index)));
    if (end == nullptr)
      throw error(fmt::format("{}: malformed ELF: string at index {} of {} is not terminated", source_, index, what_));
    return std::string(begin, end);
  }

private:
  const std::uint8_t* base_ = nullptr;
  std::size_t size_ = 0;
  std::string_view what_;
  std::string_view source_;
};

std::optional<std::string_view> version_prefix(std::string_view v) {
  for (std::string_view prefix : {"GLIBCXX_", "CXXABI_", "GLIBC_"}) {
    if (v.starts_with(prefix)) {
      const std::string_view tail = v.substr(prefix.size());
      if (tail.empty() || tail.front() < '0' || tail.front() > '9') return std::nullopt;
      return prefix;
    }
  }
  return std::nullopt;
}

void keep_newest(std::string& current, const std::string& candidate) {
  if (current.empty() || compare_symbol_versions(candidate, current) > 0) current = candidate;
}

}  // namespace

std::string machine_name(std::uint16_t machine) {
  switch (machine) {
    case elf_machine::i386: return "x86 (i386)";
    case elf_machine::arm: return "arm";
    case elf_machine::x86_64: return "x86-64";
    case elf_machine::aarch64: return "aarch64";
    default: return fmt::format("machine {}", machine);
  }
}

std::uint16_t host_machine() noexcept {
#if defined(__x86_64__)
  return elf_machine::x86_64;
#elif defined(__aarch64__)
  return elf_machine::aarch64;
#elif defined(__arm__)
  return elf_machine::arm;
#elif defined(__i386__)
  return elf_machine::i386;
#else
  return 0;
#endif
}

std::string kernel_list_symbol(std::string_view op_name) { return fmt::format("vx_kernel_{}_list", op_name); }

const elf_symbol* elf_info::find_export(std::string_view name) const noexcept {
  const auto it = std::find_if(exported.begin(), exported.end(), [&](const elf_symbol& s) { return s.name == name; });
  return it == exported.end() ? nullptr : &*it;
}

bool elf_info::exports_kernel_list(std::string_view op_name) const noexcept {
  try {
    const elf_symbol* s = find_export(kernel_list_symbol(op_name));
    return s != nullptr && s->kind == elf_symbol_kind::object;
  } catch (...) {  // allocation failure building the name
    return false;
  }
}

std::string elf_info::summary() const {
  std::string_view kind = "file";
  switch (type) {
    case 1: kind = "relocatable object"; break;
    case 2: kind = "executable"; break;
    case 3: kind = "shared object"; break;
    case 4: kind = "core file"; break;
    default: break;
  }
  return fmt::format("ELF{} {} {}", bits, machine_name(machine), kind);
}

bool looks_like_elf(std::span<const std::uint8_t> bytes) noexcept {
  return bytes.size() >= 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' && bytes[3] == 'F';
}

int compare_symbol_versions(std::string_view a, std::string_view b) noexcept {
  const auto skip_prefix = [](std::string_view v) {
    const auto pos = v.find('_');
    return pos == std::string_view::npos ? v : v.substr(pos + 1);
  };
  a = skip_prefix(a);
  b = skip_prefix(b);
  // Compare dot-separated numbers; a missing component counts as 0 (2.2 == 2.2.0).
  while (!a.empty() || !b.empty()) {
    const auto next = [](std::string_view& v) {
      std::uint64_t n = 0;
      std::size_t i = 0;
      while (i < v.size() && v[i] >= '0' && v[i] <= '9') {
        if (n < std::numeric_limits<std::uint64_t>::max() / 16) n = n * 10 + static_cast<std::uint64_t>(v[i] - '0');
        ++i;
      }
      while (i < v.size() && (v[i] < '0' || v[i] > '9')) ++i;  // skip the separator(s)
      v.remove_prefix(i);
      return n;
    };
    const std::uint64_t x = next(a);
    const std::uint64_t y = next(b);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

namespace {

// The section header table, with what the readers below share.
struct section_table {
  const image* img = nullptr;
  bool is64 = false;
  std::vector<section> sections;

  [[nodiscard]] std::string_view source() const noexcept { return img->source(); }

  [[nodiscard]] const section* find(std::uint32_t type) const {
    for (const section& s : sections)
      if (s.type == type) return &s;
    return nullptr;
  }

  [[nodiscard]] string_table linked_strtab(const section& s, std::string_view what) const {
    if (s.link >= sections.size() || sections[s.link].type != sht_strtab)
      throw error(
          fmt::format("{}: malformed ELF: {} links to section {}, which is not a string "
                      "table",
                      source(), what, s.link));
    return string_table(*img, sections[s.link], what);
  }
};

// e_ident, the ELF header and the section header table; nullopt when there is none (stripped hard).
std::optional<section_table> read_headers(const image& img, elf_info& info) {
  const std::string_view source = img.source();
  if (img.size() < 16)
    throw error(fmt::format("{}: malformed ELF: {} bytes, shorter than the 16-byte e_ident", source, img.size()));
  const std::uint8_t ei_class = img.data()[4];
  const std::uint8_t ei_data = img.data()[5];
  if (ei_class != 1 && ei_class != 2)
    throw error(fmt::format("{}: malformed ELF: EI_CLASS is {}, expected 1 (ELF32) or 2 (ELF64)", source, ei_class));
  const bool is64 = ei_class == 2;
  info.bits = is64 ? 64 : 32;
  if (ei_data != 1)
    throw error(
        fmt::format("{}: unsupported ELF: EI_DATA is {} ({}), only little-endian (1) is "
                    "supported",
                    source, ei_data, ei_data == 2 ? "big-endian" : "invalid"));
  const std::uint64_t ehsize = is64 ? 64 : 52;
  img.require(0, ehsize, "the ELF header");
  info.type = img.read<std::uint16_t>(16, "e_type");
  info.machine = img.read<std::uint16_t>(18, "e_machine");
  const std::uint64_t shoff = img.read_word(is64 ? 40 : 32, is64, "e_shoff");
  const std::uint16_t shentsize = img.read<std::uint16_t>(is64 ? 58 : 46, "e_shentsize");
  const std::uint16_t shnum = img.read<std::uint16_t>(is64 ? 60 : 48, "e_shnum");
  if (shoff == 0 || shnum == 0) return std::nullopt;
  const std::uint64_t min_shentsize = is64 ? 64 : 40;
  if (shentsize < min_shentsize)
    throw error(
        fmt::format("{}: malformed ELF: e_shentsize is {}, expected at least {}", source, shentsize, min_shentsize));
  img.require(shoff, std::uint64_t{shentsize} * shnum, "the section header table");

  section_table table{&img, is64, std::vector<section>(shnum)};
  for (std::uint16_t i = 0; i < shnum; ++i) {
    const std::uint64_t base = shoff + std::uint64_t{i} * shentsize;
    section& s = table.sections[i];
    s.name = img.read<std::uint32_t>(base, "sh_name");
    s.type = img.read<std::uint32_t>(base + 4, "sh_type");
    s.offset = img.read_word(base + (is64 ? 24 : 16), is64, "sh_offset");
    s.size = img.read_word(base + (is64 ? 32 : 20), is64, "sh_size");
    s.link = img.read<std::uint32_t>(base + (is64 ? 40 : 24), "sh_link");
    s.info = img.read<std::uint32_t>(base + (is64 ? 44 : 28), "sh_info");
    s.entsize = img.read_word(base + (is64 ? 56 : 36), is64, "sh_entsize");
  }
  return table;
}

// Symbol version names by version index.
using version_name_map = std::map<std::uint16_t, std::string>;

// Walks the linked entries of a version section of `type` (named `name`, its strings `strings_name`):
// visit(section, strings, at) gets each entry's offset in the section, checked to hold `entry_size`
// bytes, and returns the entry's next field; the walk ends at a next of 0 or after sh_info entries.
template <class Visit>
void walk_version_entries(const section_table& table, std::uint32_t type, std::string_view name,
                          std::string_view strings_name, std::uint64_t entry_size, Visit visit) {
  const section* s = table.find(type);
  if (s == nullptr) return;
  const string_table strings = table.linked_strtab(*s, strings_name);
  table.img->require(s->offset, s->size, name);
  std::uint64_t at = 0;
  for (std::uint32_t n = 0; n < s->info; ++n) {
    if (at > s->size || s->size - at < entry_size)
      throw error(fmt::format("{}: malformed ELF: {} entry {} runs past its section", table.source(), name, n));
    const std::uint32_t next = visit(*s, strings, at);
    if (next == 0) break;
    at += next;
  }
}

// .gnu.version_r: the versions the library needs, and the newest GLIBC_, GLIBCXX_ and CXXABI_ of them.
void read_versions_needed(const section_table& table, version_name_map& version_names, elf_info& info) {
  const image& img = *table.img;
  const auto visit = [&](const section& verneed, const string_table& strings, std::uint64_t at) {
    const std::uint64_t entry = verneed.offset + at;
    const std::uint16_t count = img.read<std::uint16_t>(entry + 2, "vn_cnt");
    const std::uint32_t aux = img.read<std::uint32_t>(entry + 8, "vn_aux");
    const std::uint32_t next = img.read<std::uint32_t>(entry + 12, "vn_next");
    std::uint64_t aux_at = at + aux;
    for (std::uint16_t k = 0; k < count; ++k) {
      if (aux_at > verneed.size || verneed.size - aux_at < 16)
        throw error(
            fmt::format("{}: malformed ELF: .gnu.version_r auxiliary entry runs past "
                        "its section",
                        table.source()));
      const std::uint64_t vna = verneed.offset + aux_at;
      const std::uint16_t other = img.read<std::uint16_t>(vna + 6, "vna_other");
      std::string name = strings.at(img.read<std::uint32_t>(vna + 8, "vna_name"));
      if (const auto prefix = version_prefix(name)) {
        if (*prefix == "GLIBC_")
          keep_newest(info.max_glibc, name);
        else if (*prefix == "GLIBCXX_")
          keep_newest(info.max_glibcxx, name);
        else
          keep_newest(info.max_cxxabi, name);
      }
      version_names[static_cast<std::uint16_t>(other & 0x7fff)] = std::move(name);
      const std::uint32_t vna_next = img.read<std::uint32_t>(vna + 12, "vna_next");
      if (vna_next == 0) break;
      aux_at += vna_next;
    }
    return next;
  };
  walk_version_entries(table, sht_gnu_verneed, ".gnu.version_r", "the .gnu.version_r string table", 16, visit);
}

// .gnu.version_d: the versions the library defines.
void read_versions_defined(const section_table& table, version_name_map& version_names) {
  const image& img = *table.img;
  const auto visit = [&](const section& verdef, const string_table& strings, std::uint64_t at) {
    const std::uint64_t entry = verdef.offset + at;
    const std::uint16_t flags = img.read<std::uint16_t>(entry + 2, "vd_flags");
    const std::uint16_t index = img.read<std::uint16_t>(entry + 4, "vd_ndx");
    const std::uint16_t count = img.read<std::uint16_t>(entry + 6, "vd_cnt");
    const std::uint32_t aux = img.read<std::uint32_t>(entry + 12, "vd_aux");
    const std::uint32_t next = img.read<std::uint32_t>(entry + 16, "vd_next");
    constexpr std::uint16_t ver_flg_base = 1;  // the file's own soname, not a symbol version
    if (count > 0 && (flags & ver_flg_base) == 0) {
      if (at + aux > verdef.size || verdef.size - (at + aux) < 8)
        throw error(
            fmt::format("{}: malformed ELF: .gnu.version_d auxiliary entry runs past "
                        "its section",
                        table.source()));
      version_names[static_cast<std::uint16_t>(index & 0x7fff)] =
          strings.at(img.read<std::uint32_t>(verdef.offset + at + aux, "vda_name"));
    }
    return next;
  };
  walk_version_entries(table, sht_gnu_verdef, ".gnu.version_d", "the .gnu.version_d string table", 20, visit);
}

// .dynsym: the exported and the undefined symbols, with their versions.
void read_dynamic_symbols(const section_table& table, const version_name_map& version_names, elf_info& info) {
  const section* dynsym = table.find(sht_dynsym);
  if (dynsym == nullptr) return;
  const image& img = *table.img;
  const std::string_view source = table.source();
  const bool is64 = table.is64;
  const std::uint64_t symsize = is64 ? 24 : 16;
  if (dynsym->entsize != symsize)
    throw error(
        fmt::format("{}: malformed ELF: .dynsym entry size is {}, expected {}", source, dynsym->entsize, symsize));
  img.require(dynsym->offset, dynsym->size, ".dynsym");
  const string_table strings = table.linked_strtab(*dynsym, "the .dynsym string table");
  const section* versym = table.find(sht_gnu_versym);
  const std::uint64_t count = dynsym->size / symsize;
  if (versym) img.require(versym->offset, versym->size, ".gnu.version");
  for (std::uint64_t i = 1; i < count; ++i) {  // entry 0 is the null symbol
    const std::uint64_t base = dynsym->offset + i * symsize;
    const std::uint32_t name_index = img.read<std::uint32_t>(base, "st_name");
    const std::uint8_t st_info = img.read<std::uint8_t>(base + (is64 ? 4 : 12), "st_info");
    const std::uint8_t st_other = img.read<std::uint8_t>(base + (is64 ? 5 : 13), "st_other");
    const std::uint16_t shndx = img.read<std::uint16_t>(base + (is64 ? 6 : 14), "st_shndx");
    const unsigned bind = st_info >> 4u;
    const unsigned type = st_info & 0xfu;
    const unsigned visibility = st_other & 3u;
    if (bind != 1 && bind != 2 && bind != 10) continue;  // local symbols are not exported
    elf_symbol symbol;
    symbol.name = strings.at(name_index);
    symbol.weak = bind == 2;
    symbol.kind = type == 1                 ? elf_symbol_kind::object
                  : type == 2 || type == 10 ? elf_symbol_kind::function
                  : type == 6               ? elf_symbol_kind::tls
                                            : elf_symbol_kind::other;
    if (versym && (i + 1) * 2 <= versym->size) {
      const std::uint16_t v = img.read<std::uint16_t>(versym->offset + i * 2, "a .gnu.version entry");
      if (const auto it = version_names.find(static_cast<std::uint16_t>(v & 0x7fff));
          (v & 0x7fff) >= 2 && it != version_names.end())
        symbol.version = it->second;
    }
    if (shndx == 0) {
      info.undefined.push_back(std::move(symbol));
    } else if (visibility == 0 || visibility == 3) {
      info.exported.push_back(std::move(symbol));
    }
  }
}

// .dynamic: DT_NEEDED and DT_SONAME.
void read_dynamic_table(const section_table& table, elf_info& info) {
  const section* dynamic = table.find(sht_dynamic);
  if (dynamic == nullptr) return;
  const image& img = *table.img;
  const bool is64 = table.is64;
  img.require(dynamic->offset, dynamic->size, ".dynamic");
  const string_table strings = table.linked_strtab(*dynamic, "the .dynamic string table");
  const std::uint64_t entsize = is64 ? 16 : 8;
  for (std::uint64_t at = 0; at + entsize <= dynamic->size; at += entsize) {
    const std::uint64_t base = dynamic->offset + at;
    const std::uint64_t tag = img.read_word(base, is64, "d_tag");
    const std::uint64_t value = img.read_word(base + entsize / 2, is64, "d_val");
    if (tag == 0) break;
    if (tag == dt_needed)
      info.needed.push_back(strings.at(value));
    else if (tag == dt_soname)
      info.soname = strings.at(value);
  }
}

}  // namespace

// The ELF headers and sections in file order, one bounds-checked read and message per field.
elf_info inspect_elf(std::span<const std::uint8_t> bytes, std::string_view source) {
  if (!looks_like_elf(bytes))
    throw error(fmt::format("{}: not an ELF file (starts with {}, expected 7f 45 4c 46)", source,
                            bytes.empty() ? std::string("nothing: the file is empty")
                                          : byte_io::hex_bytes(bytes.first(std::min<std::size_t>(4, bytes.size())))));
  const image img(bytes, source);
  elf_info info;
  const std::optional<section_table> table = read_headers(img, info);
  if (!table) return info;  // no section headers (stripped hard): no symbol data
  version_name_map version_names;
  read_versions_needed(*table, version_names, info);
  read_versions_defined(*table, version_names);
  read_dynamic_symbols(*table, version_names, info);
  read_dynamic_table(*table, info);
  return info;
}

void check_loadable_on_host(const elf_info& info, std::string_view source) {
  const std::uint16_t host = host_machine();
  const int host_bits = static_cast<int>(sizeof(void*) * 8);
  if (info.machine != host || info.bits != host_bits)
    throw error(fmt::format(
        "{}: library is for {} ({}) but this host is {} (ELF{}); use the {} "
        "library",
        source, machine_name(info.machine), info.summary(), machine_name(host), host_bits, machine_name(host)));
  if (!info.is_shared_object())
    throw error(
        fmt::format("{}: {} is not a shared object (e_type {}, expected 3 = ET_DYN); build "
                    "it with -shared -fPIC",
                    source, info.summary(), info.type));
}

}  // namespace rknnop::host
