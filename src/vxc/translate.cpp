// SPDX-License-Identifier: MIT
// .vx -> OpenCL C 1.2: refuse what is not emulated, rewrite what standard OpenCL rejects.
#include <rknnop/vxc/vxc.hpp>

#include "shader_parse.hpp"

#include <algorithm>  // std::sort, std::find
#include <array>
#include <string>

namespace rknnop::vxc {
namespace generated {
extern const char* const vxc_prelude_text;  // generated from vxc_prelude.cl
}  // namespace generated

std::string_view compat_prelude() noexcept { return generated::vxc_prelude_text; }

namespace {

constexpr std::array<std::string_view, 9> emulated_vxc{
    "VXC_ReadImage",     "VXC_WriteImage",    "VXC_ReadImage2DArray", "VXC_WriteImage2DArray", "VXC_MODIFIER",
    "VXC_5BITOFFSET_XY", "VXC_RM_TowardZero", "VXC_RM_TowardInf",     "VXC_RM_ToNearestEven"};

constexpr std::array<std::string_view, 23> emulated_vxc_types{
    "vxc_char2",  "vxc_char4",  "vxc_char8",  "vxc_char16",  "vxc_uchar2",  "vxc_uchar4",  "vxc_uchar8", "vxc_uchar16",
    "vxc_short2", "vxc_short4", "vxc_short8", "vxc_ushort2", "vxc_ushort4", "vxc_ushort8", "vxc_int2",   "vxc_int4",
    "vxc_uint2",  "vxc_uint4",  "vxc_float2", "vxc_float4",  "vxc_half2",   "vxc_half4",   "vxc_half8"};

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& list, std::string_view word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// 'word', appended piece by piece: GCC 12's -Wrestrict misfires on "'" + std::string at -O3.
std::string quote(std::string_view word) {
  std::string quoted(1, '\'');
  quoted += word;
  quoted += '\'';
  return quoted;
}

// Why an identifier cannot be emulated; empty when it can.
std::string refusal(std::string_view word) {
  if (starts_with(word, "VXC_DP")) {
    return quote(word) +
           " is a VXC dot-product instruction driven by uniforms; rknnop's OpenCL emulation does not implement "
           "it";
  }
  if (starts_with(word, "VXC_") && !contains(emulated_vxc, word)) {
    return quote(word) +
           " is a VXC construct rknnop's OpenCL emulation does not implement "
           "(emulated: VXC_ReadImage, VXC_WriteImage, VXC_ReadImage2DArray, "
           "VXC_WriteImage2DArray, VXC_MODIFIER, VXC_5BITOFFSET_XY, VXC_RM_*)";
  }
  if (word == "_viv_uniform") {
    return "'_viv_uniform' declares a uniform set by vxSetNodeUniform; uniforms are not emulated";
  }
  if (starts_with(word, "_viv_") && word != "_viv_asm") {
    return quote(word) + " is a Vivante built-in rknnop's OpenCL emulation does not implement";
  }
  if (starts_with(word, "vxc_") && !contains(emulated_vxc_types, word)) {
    return quote(word) + " is a VXC type rknnop's OpenCL emulation does not implement";
  }
  if (starts_with(word, "vx_array_") && word != "vx_array_int") {
    return quote(word) + " is not emulated (custom-op arrays are vx_array_int)";
  }
  if (word == "sampler_t" || starts_with(word, "CLK_ADDRESS_") || starts_with(word, "CLK_FILTER_") ||
      starts_with(word, "CLK_NORMALIZED_COORDS_")) {
    return quote(word) + ": samplers are not emulated (read tensors with integer coordinates and no sampler)";
  }
  if (parsing::is_image_type(word) && word != "image2d_array_t" && word != "image2d_t") {
    return quote(word) + " is not emulated (tensors are image2d_array_t)";
  }
  return {};
}

std::string quote_for_line_directive(std::string_view file) {
  std::string out;
  for (char c : file) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out;
}

// Keeps line numbers when a (possibly continued) directive is removed.
std::string blank_lines(std::string_view text) {
  return std::string(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')), '\n');
}

struct edit {
  std::size_t begin;
  std::size_t end;
  std::string text;
};

diagnostic refuse(std::string_view file, std::uint32_t line, std::string message) {
  return diagnostic{std::string(file), line, "rknnop: " + std::move(message)};
}

}  // namespace

// Long by design: one pass over the token stream; its four rules share the position state.
translation translate_shader(std::string_view source, std::string_view file_name, const execution_parameters& params) {
  translation out;
  parsing::parsed_source parsed = parsing::parse(source, file_name);
  out.errors = parsed.errors;
  if (!out.errors.empty()) return out;
  const auto& toks = parsed.lexed.tokens;
  std::vector<edit> edits;

  // Directives: drop the VXC header and extension pragmas, refuse other includes.
  for (const auto& t : toks) {
    if (t.kind != parsing::token_kind::directive) continue;
    const parsing::lexed_source inner = parsing::lex(t.text.substr(1), file_name);
    if (inner.tokens.empty()) continue;
    const std::string_view what = inner.tokens.front().text;
    if (what == "include") {
      const std::string_view rest = t.text;
      if (rest.find("cl_viv_vx_ext.h") != std::string_view::npos) {
        edits.push_back({t.offset, t.offset + t.text.size(), blank_lines(t.text)});
      } else {
        out.errors.push_back(refuse(file_name, t.line,
                                    "'" + std::string(t.text) +
                                        "': only cl_viv_vx_ext.h may be included (it is replaced by rknnop's "
                                        "VXC compatibility prelude)"));
      }
      continue;
    }
    if (what == "pragma") {
      if (t.text.find("cl_viv_") != std::string_view::npos) {
        edits.push_back({t.offset, t.offset + t.text.size(), blank_lines(t.text)});
      }
      continue;
    }
    for (const auto& it : inner.tokens) {  // #define bodies may use VXC instructions too
      if (it.kind != parsing::token_kind::identifier) continue;
      if (std::string why = refusal(it.text); !why.empty()) {
        out.errors.push_back(refuse(file_name, t.line + it.line - 1, std::move(why)));
      }
    }
  }

  // Identifiers: refuse what is not emulated.
  for (std::size_t i = 0; i < toks.size(); ++i) {
    const auto& t = toks[i];
    if (t.kind != parsing::token_kind::identifier) continue;
    if (std::string why = refusal(t.text); !why.empty()) {
      out.errors.push_back(refuse(file_name, t.line, std::move(why)));
      continue;
    }
    if (t.text == "_viv_asm") {
      std::size_t j = i + 1;
      if (j < toks.size() && toks[j].text == "(" && j + 1 < toks.size() &&
          toks[j + 1].kind == parsing::token_kind::identifier) {
        if (toks[j + 1].text != "COPY") {
          out.errors.push_back(refuse(file_name, t.line,
                                      "'_viv_asm(" + std::string(toks[j + 1].text) +
                                          ", ...)' is not emulated (only _viv_asm(COPY, dst, src, bytes) is)"));
        }
      } else {
        out.errors.push_back(refuse(file_name, t.line, "'_viv_asm' without an operation name is not emulated"));
      }
    }
  }
  if (!out.errors.empty()) return out;

  // Kernel argument lists: tensors -> (buffer, shape), arrays -> (items, size), bool/half scalars
  // -> 32/16-bit values converted in a prologue, access qualifiers dropped from everything else.
  std::vector<bool> in_kernel_args(toks.size(), false);
  for (const auto& site : parsed.kernels) {
    for (std::size_t i = site.params_open; i <= site.params_close; ++i) in_kernel_args[i] = true;
    translated_kernel tk;
    tk.name = site.kernel.name;
    tk.cl_name = "rknnop_kernel_" + site.kernel.name;
    const auto& name_tok = toks[site.name_token];
    edits.push_back({name_tok.offset, name_tok.offset + name_tok.text.size(), tk.cl_name});
    tk.arguments = site.kernel.arguments;
    std::string prologue;
    std::string new_args;
    for (std::size_t a = 0; a < site.kernel.arguments.size(); ++a) {
      const shader_argument& arg = site.kernel.arguments[a];
      const std::string id = "rknnop_a" + std::to_string(a);
      if (!new_args.empty()) new_args += ", ";
      if (arg.is_image()) {
        tk.kinds.push_back(translated_arg_kind::image);
        new_args += "__global uchar* " + id + "_data, int8 " + id + "_shape";
        prologue += "rknnop_image_t " + arg.name + " = rknnop_make_image(" + id + "_data, " + id + "_shape, " +
                    std::to_string(a) + ", rknnop_status); ";
      } else if (arg.type == "vx_array_int" && !arg.pointer) {
        tk.kinds.push_back(translated_arg_kind::array);
        new_args += "__global int* " + id + "_items, uint " + id + "_size";
        prologue += "vx_array_int " + arg.name + "; " + arg.name + ".size = (size_t)" + id + "_size; " + arg.name +
                    ".item = " + id + "_items; ";
      } else if (arg.type == "bool" && !arg.pointer) {
        tk.kinds.push_back(translated_arg_kind::bool_scalar);
        new_args += "int " + id;
        prologue += "bool " + arg.name + " = " + id + " != 0; ";
      } else if (arg.type == "half" && !arg.pointer) {
        tk.kinds.push_back(translated_arg_kind::half_scalar);
        new_args += "ushort " + id;
        prologue += "float " + arg.name + " = vload_half(0, (const __private half*)&" + id + "); ";
      } else {
        tk.kinds.push_back(translated_arg_kind::scalar);
        const auto [first, last] = site.argument_tokens[a];
        std::string kept;
        for (std::size_t i = first; i < last; ++i) {
          if (toks[i].kind == parsing::token_kind::directive || parsing::is_access_qualifier(toks[i].text)) continue;
          if (!kept.empty()) kept += ' ';
          kept += toks[i].text;
        }
        new_args += kept;
      }
    }
    if (!new_args.empty()) new_args += ", ";
    new_args += "__global int* rknnop_status";
    const auto& open = toks[site.params_open];
    const auto& close = toks[site.params_close];
    // Keep the argument list's line count so that shader lines stay put for #line.
    new_args += blank_lines(source.substr(open.offset + 1, close.offset - open.offset - 1));
    edits.push_back({open.offset + 1, close.offset, std::move(new_args)});
    const auto& brace = toks[site.body_open];
    edits.push_back({brace.offset + 1, brace.offset + 1, " " + prologue});
    out.kernels.push_back(std::move(tk));
  }

  // Outside kernel argument lists (helper functions): image types -> rknnop_image_t.
  for (std::size_t i = 0; i < toks.size(); ++i) {
    const auto& t = toks[i];
    if (in_kernel_args[i] || t.kind != parsing::token_kind::identifier) continue;
    if (t.text == "image2d_array_t" || t.text == "image2d_t") {
      edits.push_back({t.offset, t.offset + t.text.size(), "rknnop_image_t"});
    } else if (parsing::is_access_qualifier(t.text)) {
      edits.push_back({t.offset, t.offset + t.text.size(), ""});
    }
  }

  std::sort(edits.begin(), edits.end(), [](const edit& a, const edit& b) { return a.begin < b.begin; });
  std::string body;
  body.reserve(source.size() + 1024);
  std::size_t pos = 0;
  for (const auto& e : edits) {
    body.append(source.substr(pos, e.begin - pos));
    body += e.text;
    pos = e.end;
  }
  body.append(source.substr(pos));

  std::string program;
  program.reserve(body.size() + compat_prelude().size() + 512);
  program += "/* generated by rknnop::vxc::translate_shader */\n";
  for (std::size_t d = 0; d < 3; ++d) {
    program +=
        "#define RKNNOP_VX_OFFSET" + std::to_string(d) + " " + std::to_string(params.global_work_offset[d]) + "\n";
    program += "#define RKNNOP_VX_SCALE" + std::to_string(d) + " " + std::to_string(params.global_work_scale[d]) + "\n";
  }
  program += "#line 1 \"rknnop_vxc_prelude.cl\"\n";
  program += compat_prelude();
  program += "\n#line 1 \"" + quote_for_line_directive(file_name) + "\"\n";
  program += body;
  program += "\n";
  out.source = std::move(program);
  return out;
}

}  // namespace rknnop::vxc
