// SPDX-License-Identifier: MIT
#pragma once
// Internal: a small OpenCL C lexer and the __kernel finder shared by the signature check and the
// translator. Not a C parser: it knows comments, literals, preprocessor lines, brackets and the
// shape `__kernel [attributes] void [attributes] name ( args ) { ... }`.

#include <rknnop/vxc/vxc.hpp>

#include <cstddef>     // std::size_t
#include <cstdint>     // line numbers
#include <filesystem>  // read_shader_text
#include <string>
#include <string_view>
#include <vector>

namespace rknnop::vxc::parsing {

enum class token_kind { identifier, number, string, character, punct, directive };

struct token {
  token_kind kind = token_kind::punct;
  std::string_view text;  // view into the source
  std::size_t offset = 0;
  std::uint32_t line = 0;
};

struct lexed_source {
  std::vector<token> tokens;
  std::vector<diagnostic> errors;
};

[[nodiscard]] lexed_source lex(std::string_view source, std::string_view file_name);

struct kernel_site {
  shader_kernel kernel;
  std::size_t name_token = 0;                                        // token index of the kernel name
  std::size_t params_open = 0;                                       // token index of '('
  std::size_t params_close = 0;                                      // token index of ')'
  std::size_t body_open = 0;                                         // token index of '{'
  std::vector<std::pair<std::size_t, std::size_t>> argument_tokens;  // [first, last) per argument
};

struct parsed_source {
  lexed_source lexed;
  std::vector<kernel_site> kernels;
  std::vector<diagnostic> errors;  // lexer errors included
};

[[nodiscard]] parsed_source parse(std::string_view source, std::string_view file_name);

/// At most this many problems are listed for one source; one more line says the rest are not (a
/// binary or hostile file would otherwise make a diagnostic per byte).
inline constexpr std::size_t max_parse_diagnostics = 100;

/// Adds `problem` unless max_parse_diagnostics are listed; the first one over adds the "not listed" line.
void add_bounded(std::vector<diagnostic>& errors, diagnostic problem);

[[nodiscard]] bool is_access_qualifier(std::string_view word) noexcept;
[[nodiscard]] bool is_image_type(std::string_view type) noexcept;

}  // namespace rknnop::vxc::parsing

namespace rknnop::vxc {

/// Reads a shader source into `text`: a regular file of at most max_shader_size bytes (a device, a FIFO
/// or a directory is refused without being read). Returns "" or why it cannot (one phrase).
[[nodiscard]] std::string read_shader_text(const std::filesystem::path& path, std::string& text);

}  // namespace rknnop::vxc
