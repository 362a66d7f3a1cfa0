// SPDX-License-Identifier: MIT
#include "rknnop/host/container.hpp"
#include "rknnop/host/op_yml.hpp"  // max_op_yml_file_size

#include "rknnop/host/error.hpp"
#include "rknnop/host/file_io.hpp"

#include "formats/byte_io.hpp"

// The byte layout, the strict reader and its diagnostics live in the header-only
// <rknnop/container_format.hpp>, shared with the emitter; this file adapts them to rknnop::host's owning
// `container` and its exceptions.
#include <algorithm>  // std::ranges::equal

#include <fmt/format.h>

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

std::string rknn_model_kind(std::span<const std::uint8_t> bytes) {
  const auto starts = [&](std::string_view magic) {
    return bytes.size() >= magic.size() && std::equal(magic.begin(), magic.end(), bytes.begin());
  };
  if (starts(std::string_view("CYPTRKNN", 8))) return "an encrypted RKNN model (.rknn, starts with CYPTRKNN)";
  if (!format::starts_with(bytes, format::magic) || bytes.size() < 24) return {};
  // A model: version, the weights section, then the graph as JSON ("{"); a container's second
  // section is the x86-64 library (an ELF, or empty).
  const std::uint64_t version = byte_io::load_le<std::uint64_t>(bytes.data() + 8);
  const std::uint64_t weights = byte_io::load_le<std::uint64_t>(bytes.data() + 16);
  if (version < 1 || version > 2 || weights > bytes.size() - 24 || bytes.size() - 24 - weights < 9) return {};
  const std::size_t graph = 24 + static_cast<std::size_t>(weights) + 8;
  const std::uint64_t graph_size = byte_io::load_le<std::uint64_t>(bytes.data() + graph - 8);
  if (graph_size == 0 || bytes[graph] != '{') return {};
  return fmt::format("an RKNN model (.rknn, version {}, its graph is JSON)", version);
}

container parse_container(std::span<const std::uint8_t> bytes, std::string_view source,
                          std::vector<section_location>* locations) {
  if (const std::string model = rknn_model_kind(bytes); !model.empty())
    throw error(
        fmt::format("{}: this is {}, not a .rknnop container; the .rknnop tools take the custom op's "
                    "container (rknnop_add_op's <Op>.rknnop, or the toolkit's)",
                    source, model));
  const format::parsed parsed = format::parse(bytes);
  if (!parsed) throw error(format::message(parsed, source));
  container result;
  result.version = parsed.version;
  if (locations) locations->clear();
  for (const format::section_location& where : parsed.sections()) {
    // The op.yml section is bounded as an op.yml file is (before, 900 MiB were parsed for minutes).
    if (where.kind == section_kind::op_yml && where.size > max_op_yml_file_size)
      throw error(fmt::format("{}: its op.yml section is {} bytes, more than an op.yml may hold ({} bytes, 16 MiB)",
                              source, where.size, max_op_yml_file_size));
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
