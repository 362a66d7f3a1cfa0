// SPDX-License-Identifier: MIT
#include "rknnop/host/container.hpp"

#include "rknnop/host/error.hpp"
#include "rknnop/host/file_io.hpp"

// The byte layout, the strict reader and its diagnostics live in the header-only
// <rknnop/container_format.hpp>, shared with the emitter; this file adapts them to rknnop::host's owning
// `container` and its exceptions.
#include <algorithm>  // std::ranges::equal

namespace rknnop::host {

namespace {
namespace format = rknnop::container_format;

static_assert(std::ranges::equal(all_section_kinds, format::layout(2)),
              "all_section_kinds must be the version-2 file order");
}  // namespace

std::vector<std::uint8_t>& container::section(section_kind kind) noexcept {
  switch (kind) {
    case section_kind::shader: return shader;
    case section_kind::lib_x86_64: return lib_x86_64;
    case section_kind::lib_aarch64: return lib_aarch64;
    case section_kind::lib_armhf: return lib_armhf;
    case section_kind::op_yml: return op_yml;
    case section_kind::op_py: break;
  }
  return op_py;
}

const std::vector<std::uint8_t>& container::section(section_kind kind) const noexcept {
  return const_cast<container&>(*this).section(kind);
}

container parse_container(std::span<const std::uint8_t> bytes, std::string_view source,
                          std::vector<section_location>* locations) {
  const format::parsed parsed = format::parse(bytes);
  if (!parsed) throw error(format::message(parsed, source));
  container result;
  result.version = parsed.version;
  if (locations) locations->clear();
  for (const format::section_location& where : parsed.sections()) {
    const auto data = parsed.bytes_of(bytes, where.kind);
    result.section(where.kind).assign(data.begin(), data.end());
    if (locations) locations->push_back({where.kind, where.offset, where.size});
  }
  return result;
}

container read_container_file(const std::filesystem::path& path, std::vector<section_location>* locations) {
  return parse_container(read_file(path), path.string(), locations);
}

std::vector<std::uint8_t> serialize_container(const container& c) {
  format::contents view;
  view.version = c.version;
  for (const section_kind kind : all_section_kinds) view[kind] = c.section(kind);
  if (const format::result checked = format::check(view); !checked) throw error(checked.error);
  return format::serialize(view);
}

void write_container_file(const container& c, const std::filesystem::path& path) {
  write_file_atomically(path, serialize_container(c));
}

}  // namespace rknnop::host
