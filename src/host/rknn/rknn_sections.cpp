// SPDX-License-Identifier: MIT
// The .rknn file's sections: the magic, the version and the length-prefixed sections, read and written.
#include "rknnop/host/rknn_model.hpp"

#include "rknnop/host/error.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

#include <fmt/format.h>

#include "formats/byte_io.hpp"

// The layout (docs/rknn-model.md, from the toolkit's own reader and its demo models): magic, u64 LE
// version, then `u64 LE length + bytes` sections back to back: export_data, config (graph JSON) and,
// for version 2, custom_op_config (JSON array) and custom_op_data (the op blobs). No padding.

namespace rknnop::host {

namespace {

struct section_reader {
  std::span<const std::uint8_t> bytes;
  std::string_view source;
  std::size_t at = 0;

  std::span<const std::uint8_t> next(std::string_view what) {
    if (bytes.size() - at < 8)
      throw error(fmt::format("{}: truncated: the {} section's length field needs 8 bytes at offset {}, {} remain",
                              source, what, at, bytes.size() - at));
    const auto length = byte_io::load_le<std::uint64_t>(bytes.data() + at);
    at += 8;
    if (length > bytes.size() - at)
      throw error(fmt::format("{}: the {} section at offset {} says {} bytes but only {} remain", source, what, at,
                              length, bytes.size() - at));
    const auto data = bytes.subspan(at, static_cast<std::size_t>(length));
    at += static_cast<std::size_t>(length);
    return data;
  }
};

std::string text_of(std::span<const std::uint8_t> bytes) { return {bytes.begin(), bytes.end()}; }

}  // namespace

bool is_rknn_model_file(const std::filesystem::path& path) noexcept {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) return false;
  std::array<std::uint8_t, 28> head{};  // magic, version, the first section's length and 4 bytes
  const std::size_t got = std::fread(head.data(), 1, head.size(), file.get());
  if (got < 8) return false;
  const std::string_view magic(reinterpret_cast<const char*>(head.data()), 8);
  if (magic == rknn_encrypted_magic) return true;
  if (magic != rknn_model_magic) return false;
  // The config section (a model's JSON) sits where a .rknnop keeps its x86-64 library (ELF): a
  // non-empty section starting with '{'. (A container's empty x86-64 section is no JSON either.)
  // A file with the magic whose sections are neither is a damaged model, for the model reader to
  // name the section, unless it is named as a container.
  const bool named_container = path.extension() == ".rknnop";
  if (got < 24) return !named_container;
  const auto version = byte_io::load_le<std::uint64_t>(head.data() + 8);
  const auto export_size = byte_io::load_le<std::uint64_t>(head.data() + 16);
  const auto seek_limit = static_cast<std::uint64_t>(std::numeric_limits<long>::max()) - 64;
  std::array<std::uint8_t, 12> config{};  // the length field and the first 4 bytes
  if (export_size > std::min(rknn_model_max_file_size, seek_limit) ||
      std::fseek(file.get(), static_cast<long>(24 + export_size), SEEK_SET) != 0)
    return !named_container;
  const std::size_t config_got = std::fread(config.data(), 1, config.size(), file.get());
  if (config_got < 8) return !named_container;
  const auto config_size = byte_io::load_le<std::uint64_t>(config.data());
  if (config_size > 0 && config_got > 8 && config[8] == '{') return true;
  // A container: a known version, the shader section empty or a shader, the x86-64 section empty or an ELF file.
  const std::span<const std::uint8_t> shader(head.data() + 24, got - 24);
  const std::span<const std::uint8_t> library(config.data() + 8, config_got - 8);
  const bool has_shader = shader.size() == 4 && std::equal(shader.begin(), shader.end(), "SHDR");
  const bool has_library = library.size() == 4 && std::equal(library.begin(), library.end(),
                                                             "\x7f"
                                                             "ELF");
  const bool container_like =
      (version == 1 || version == 2) && (export_size == 0 || has_shader) && (config_size == 0 || has_library);
  // Named as a model, only a shader or a library makes it a container: two empty sections are a
  // damaged model's (its config section is empty), for the model reader to say so.
  if (path.extension() == ".rknn") return !(container_like && (has_shader || has_library));
  return !container_like && !named_container;
}

std::string_view model_blob_key(model_blob_kind kind) noexcept {
  switch (kind) {
    case model_blob_kind::shader: return "vx_kernel_bin";
    case model_blob_kind::lib_x86_64: return "op_lib_x86";
    case model_blob_kind::lib_aarch64: return "op_lib_aarch64";
    case model_blob_kind::lib_armhf: break;
  }
  return "op_lib_armhf";
}

std::string_view model_blob_description(model_blob_kind kind) noexcept {
  switch (kind) {
    case model_blob_kind::shader: return "shader";
    case model_blob_kind::lib_x86_64: return "x86-64 library";
    case model_blob_kind::lib_aarch64: return "aarch64 library";
    case model_blob_kind::lib_armhf: break;
  }
  return "armhf library";
}

model_file model_file::parse(std::span<const std::uint8_t> bytes, std::string_view source) {
  if (bytes.size() < 8)
    throw error(
        fmt::format("{}: not an .rknn model: {} bytes, a model starts with the 8-byte magic \"RKNN\\0\\0\\0\\0\"",
                    source, bytes.size()));
  const std::string_view head(reinterpret_cast<const char*>(bytes.data()), 8);
  if (head == rknn_encrypted_magic)
    throw error(
        fmt::format("{}: an encrypted model (starts with \"CYPTRKNN\"): the toolkit encrypted it and neither "
                    "its own reader nor rknnop can open it; use the model from before encryption",
                    source));
  if (head != rknn_model_magic)
    throw error(fmt::format("{}: not an .rknn model: starts with {}, expected \"RKNN\\0\\0\\0\\0\"", source,
                            byte_io::hex_bytes(bytes.first(8))));
  if (bytes.size() < 16)
    throw error(fmt::format("{}: truncated: the format version needs 8 bytes at offset 8, {} remain", source,
                            bytes.size() - 8));
  model_file file;
  file.version = byte_io::load_le<std::uint64_t>(bytes.data() + 8);
  if (file.version != 1 && file.version != 2)
    throw error(
        fmt::format("{}: format version {}, rknnop reads versions 1 and 2 (RKNN-Toolkit v1)", source, file.version));
  section_reader reader{bytes, source, 16};
  const auto export_data = reader.next("export_data");
  file.export_data.assign(export_data.begin(), export_data.end());
  file.config = text_of(reader.next("config (graph JSON)"));
  if (file.version >= 2) {
    file.custom_op_config = text_of(reader.next("custom_op_config (op descriptions)"));
    const auto data = reader.next("custom_op_data (op blobs)");
    file.custom_op_data.assign(data.begin(), data.end());
  }
  file.trailing.assign(bytes.begin() + static_cast<std::ptrdiff_t>(reader.at), bytes.end());
  return file;
}

std::vector<std::uint8_t> model_file::serialize() const {
  if (version != 1 && version != 2) throw error(fmt::format("model format version {}: expected 1 or 2", version));
  if (version == 1 && (!custom_op_config.empty() || !custom_op_data.empty()))
    throw error("a version-1 model has no custom-op sections; use version 2");
  std::vector<std::uint8_t> out(rknn_model_magic.begin(), rknn_model_magic.end());
  byte_io::append_le<std::uint64_t>(out, version);
  const auto section = [&](std::span<const std::uint8_t> data) {
    byte_io::append_le<std::uint64_t>(out, data.size());
    out.insert(out.end(), data.begin(), data.end());
  };
  const auto text = [](const std::string& s) {
    return std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  };
  section(export_data);
  section(text(config));
  if (version >= 2) {
    section(text(custom_op_config));
    section(custom_op_data);
  }
  out.insert(out.end(), trailing.begin(), trailing.end());
  return out;
}

std::vector<std::uint8_t> read_model_bytes(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec) throw error(fmt::format("cannot open '{}': {}", path.string(), ec.message()));
  if (!std::filesystem::is_regular_file(status)) throw error(fmt::format("'{}' is not a regular file", path.string()));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.string().c_str(), "rb"), &std::fclose);
  if (!file) throw error(fmt::format("cannot open '{}': {}", path.string(), std::strerror(errno)));
  std::vector<std::uint8_t> bytes;
  std::array<std::uint8_t, 1 << 16> chunk{};
  for (;;) {
    const std::size_t got = std::fread(chunk.data(), 1, chunk.size(), file.get());
    if (bytes.size() + got > rknn_model_max_file_size)
      throw error(fmt::format("'{}': larger than {} bytes, the most rknnop reads as a model", path.string(),
                              rknn_model_max_file_size));
    bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(got));
    if (got < chunk.size()) break;
  }
  if (std::ferror(file.get()) != 0) throw error(fmt::format("cannot read '{}'", path.string()));
  return bytes;
}

}  // namespace rknnop::host
