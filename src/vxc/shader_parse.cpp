// SPDX-License-Identifier: MIT
#include "shader_parse.hpp"

#include <algorithm>  // std::find
#include <array>      // keyword tables
#include <cctype>     // character classes
#include <string>
#include <utility>  // std::move

namespace rknnop::vxc::parsing {
namespace {

bool ident_start(char c) noexcept { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool ident_char(char c) noexcept { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

diagnostic make_error(std::string_view file, std::uint32_t line, std::string message) {
  return diagnostic{std::string(file), line, "rknnop: " + std::move(message)};
}

// A name or token from the shader as a message quotes it: at most 64 bytes, so that a problem's line
// does not repeat a megabyte-long name (one per argument made messages quadratic in the file).
std::string shown(std::string_view text) {
  constexpr std::size_t most = 64;
  if (text.size() <= most) return std::string(text);
  std::string out(text.substr(0, most));
  out += "...";
  return out;
}

// `__kernel` / `kernel` start the next kernel: no scan for one kernel's closing bracket runs past it,
// so that a file of unclosed kernels is read once, not once per kernel.
bool is_kernel_keyword(const token& t) noexcept {
  return t.kind == token_kind::identifier && (t.text == "__kernel" || t.text == "kernel");
}

constexpr std::array<std::string_view, 17> address_and_cv_qualifiers{
    "const",       "__global",  "global",       "__constant", "constant",    "__local",
    "local",       "__private", "private",      "restrict",   "__restrict",  "volatile",
    "__read_only", "read_only", "__write_only", "write_only", "__read_write"};

bool is_qualifier(std::string_view word) noexcept {
  return word == "read_write" || std::find(address_and_cv_qualifiers.begin(), address_and_cv_qualifiers.end(), word) !=
                                     address_and_cv_qualifiers.end();
}

// "unsigned int" -> "uint", "signed char" -> "char", single words unchanged.
std::string normalise_type(const std::vector<std::string_view>& words) {
  bool is_unsigned = false;
  std::string base;
  for (std::string_view w : words) {
    if (w == "unsigned") {
      is_unsigned = true;
    } else if (w == "signed") {
      // plain types are signed already
    } else {
      if (!base.empty()) base += ' ';
      base += w;
    }
  }
  if (is_unsigned) {
    if (base.empty() || base == "int") return "uint";
    if (base == "char" || base == "short" || base == "long") return "u" + base;
    return "unsigned " + base;
  }
  if (base.empty() && !words.empty()) return "int";  // bare "signed"
  return base;
}

std::string join_declaration(const std::vector<token>& tokens, std::size_t first, std::size_t last) {
  std::string out;
  for (std::size_t i = first; i < last; ++i) {
    const std::string_view t = tokens[i].text;
    if (!out.empty() && t != "*" && t != "[" && t != "]" && out.back() != '[') out += ' ';
    out += t;
  }
  return out;
}

}  // namespace

bool is_access_qualifier(std::string_view word) noexcept {
  return word == "__read_only" || word == "read_only" || word == "__write_only" || word == "write_only" ||
         word == "__read_write" || word == "read_write";
}

bool is_image_type(std::string_view type) noexcept {
  return type == "image2d_array_t" || type == "image2d_t" || type == "image3d_t" || type == "image1d_t" ||
         type == "image1d_array_t" || type == "image1d_buffer_t";
}

// Long by design: one lexer state machine; splitting it would pass its cursor around.
lexed_source lex(std::string_view src, std::string_view file) {
  lexed_source out;
  std::uint32_t line = 1;
  std::size_t i = 0;
  bool line_start = true;  // only whitespace since the last newline
  const std::size_t n = src.size();
  while (i < n) {
    const char c = src[i];
    if (c == '\n') {
      ++line;
      ++i;
      line_start = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '\\' && i + 1 < n && (src[i + 1] == '\n' || (src[i + 1] == '\r' && i + 2 < n && src[i + 2] == '\n'))) {
      i += src[i + 1] == '\n' ? 2 : 3;  // line continuation outside a directive
      ++line;
      continue;
    }
    if (c == '/' && i + 1 < n && src[i + 1] == '/') {
      while (i < n && src[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && src[i + 1] == '*') {
      const std::uint32_t start_line = line;
      i += 2;
      bool closed = false;
      while (i < n) {
        if (src[i] == '*' && i + 1 < n && src[i + 1] == '/') {
          i += 2;
          closed = true;
          break;
        }
        if (src[i] == '\n') ++line;
        ++i;
      }
      if (!closed) add_bounded(out.errors, make_error(file, start_line, "unterminated /* comment"));
      continue;
    }
    const std::size_t begin = i;
    const std::uint32_t begin_line = line;
    if (c == '#' && line_start) {
      // A directive runs to the end of the line, across backslash continuations; comments
      // inside it stay part of its text (the translator only inspects #include and #pragma).
      while (i < n && src[i] != '\n') {
        if (src[i] == '\\' && i + 1 < n && src[i + 1] == '\n') {
          i += 2;
          ++line;
          continue;
        }
        ++i;
      }
      out.tokens.push_back({token_kind::directive, src.substr(begin, i - begin), begin, begin_line});
      continue;
    }
    line_start = false;
    if (ident_start(c)) {
      while (i < n && ident_char(src[i])) ++i;
      out.tokens.push_back({token_kind::identifier, src.substr(begin, i - begin), begin, begin_line});
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) != 0 ||
        (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(src[i + 1])) != 0)) {
      // pp-number: digits, letters, '.', and signs after an exponent letter
      while (i < n) {
        const char d = src[i];
        if (ident_char(d) || d == '.') {
          ++i;
        } else if ((d == '+' || d == '-') &&
                   (src[i - 1] == 'e' || src[i - 1] == 'E' || src[i - 1] == 'p' || src[i - 1] == 'P')) {
          ++i;
        } else {
          break;
        }
      }
      out.tokens.push_back({token_kind::number, src.substr(begin, i - begin), begin, begin_line});
      continue;
    }
    if (c == '"' || c == '\'') {
      ++i;
      bool closed = false;
      while (i < n && src[i] != '\n') {
        if (src[i] == '\\' && i + 1 < n) {
          i += 2;
          continue;
        }
        if (src[i] == c) {
          ++i;
          closed = true;
          break;
        }
        ++i;
      }
      if (!closed) {
        add_bounded(out.errors,
                    make_error(file, begin_line,
                               std::string("unterminated ") + (c == '"' ? "string" : "character") + " literal"));
      }
      out.tokens.push_back(
          {c == '"' ? token_kind::string : token_kind::character, src.substr(begin, i - begin), begin, begin_line});
      continue;
    }
    static constexpr std::string_view punctuation = "{}[]()<>;:,.?!~+-*/%&|^=";
    if (punctuation.find(c) == std::string_view::npos) {
      add_bounded(out.errors, make_error(file, line, std::string("unexpected character '") + c + "' in the shader"));
      ++i;
      continue;
    }
    ++i;
    out.tokens.push_back({token_kind::punct, src.substr(begin, 1), begin, begin_line});
  }
  return out;
}

namespace {

struct parser {
  std::string_view file;
  const std::vector<token>& toks;
  std::vector<diagnostic>& errors;

  [[nodiscard]] bool is(std::size_t i, std::string_view text) const {
    return i < toks.size() && toks[i].kind != token_kind::directive && toks[i].text == text;
  }
  [[nodiscard]] std::size_t next(std::size_t i) const {  // skip directives
    while (i < toks.size() && toks[i].kind == token_kind::directive) ++i;
    return i;
  }
  [[nodiscard]] std::string describe(std::size_t i) const {
    if (i >= toks.size()) return "the end of the file";
    std::string quoted(1, '\'');  // appended: GCC 12's -Wrestrict misfires on "'" + std::string at -O3
    quoted += shown(toks[i].text);
    quoted += '\'';
    return quoted;
  }
  [[nodiscard]] std::uint32_t line_of(std::size_t i) const {
    if (toks.empty()) return 1;
    return i < toks.size() ? toks[i].line : toks.back().line;
  }

  // Skips `__attribute__((...))` groups; returns the index after them, or npos on error.
  std::size_t skip_attributes(std::size_t i) {
    i = next(i);
    while (is(i, "__attribute__") || is(i, "__attribute")) {
      const std::size_t at = i;
      i = next(i + 1);
      if (!is(i, "(")) {
        add_bounded(errors, make_error(file, line_of(at), "expected '(' after __attribute__, found " + describe(i)));
        return std::string_view::npos;
      }
      int depth = 0;
      for (; i < toks.size(); ++i) {
        if (is_kernel_keyword(toks[i]) || is(i, ";") || is(i, "{") || is(i, "}")) {
          i = toks.size();
          break;
        }
        if (is(i, "(")) ++depth;
        if (is(i, ")") && --depth == 0) break;
      }
      if (i >= toks.size()) {
        add_bounded(errors, make_error(file, line_of(at), "unterminated __attribute__((...))"));
        return std::string_view::npos;
      }
      i = next(i + 1);
    }
    return i;
  }

  // Returns whether the argument was understood (a refused one adds a problem).
  bool parse_argument(kernel_site& site, std::size_t first, std::size_t last, std::size_t index) {
    shader_argument arg;
    arg.line = toks[first].line;
    arg.declaration = join_declaration(toks, first, last);
    std::vector<std::string_view> type_words;
    std::size_t name_at = last;
    for (std::size_t i = first; i < last; ++i) {
      const token& t = toks[i];
      if (t.kind == token_kind::directive) continue;
      if (t.kind == token_kind::identifier) {
        if (is_qualifier(t.text)) {
          arg.qualifiers.emplace_back(t.text);
        } else {
          type_words.push_back(t.text);
          name_at = i;
        }
      } else if (t.text == "*") {
        arg.pointer = true;
      } else if (t.text == "[" || t.text == "]" || t.kind == token_kind::number) {
        arg.pointer = true;  // array parameters decay to pointers
      } else {
        add_bounded(errors, make_error(file, t.line,
                                       "kernel '" + shown(site.kernel.name) + "': argument " + std::to_string(index) +
                                           " ('" + shown(arg.declaration) + "'): unexpected " + describe(i)));
        return false;
      }
    }
    if (type_words.size() < 2) {
      add_bounded(errors, make_error(file, arg.line,
                                     "kernel '" + shown(site.kernel.name) + "': argument " + std::to_string(index) +
                                         " ('" + shown(arg.declaration) + "') needs a type and a name"));
      return false;
    }
    arg.name = std::string(toks[name_at].text);
    type_words.pop_back();
    arg.type = normalise_type(type_words);
    site.kernel.arguments.push_back(std::move(arg));
    return true;
  }

  // i is at `__kernel` / `kernel`; returns the index to continue from.
  std::size_t parse_kernel(std::size_t i, std::vector<kernel_site>& out) {
    const std::size_t kw = i;
    i = skip_attributes(i + 1);
    if (i == std::string_view::npos) return kw + 1;
    if (!is(i, "void")) {
      add_bounded(errors,
                  make_error(file, line_of(i),
                             "expected 'void' after '" + std::string(toks[kw].text) + "', found " + describe(i)));
      return kw + 1;
    }
    i = skip_attributes(i + 1);
    if (i == std::string_view::npos) return kw + 1;
    if (i >= toks.size() || toks[i].kind != token_kind::identifier) {
      errors.push_back(
          make_error(file, line_of(i), "expected the kernel name after '__kernel void', found " + describe(i)));
      return kw + 1;
    }
    kernel_site site;
    site.kernel.name = std::string(toks[i].text);
    site.kernel.line = toks[i].line;
    site.name_token = i;
    i = next(i + 1);
    if (!is(i, "(")) {
      add_bounded(errors, make_error(file, line_of(i),
                                     "kernel '" + shown(site.kernel.name) + "': expected '(' after the name, found " +
                                         describe(i)));
      return kw + 1;
    }
    site.params_open = i;
    int depth = 0;
    std::size_t arg_first = i + 1;
    std::size_t close = toks.size();
    for (std::size_t j = i; j < toks.size(); ++j) {
      if (toks[j].kind == token_kind::directive) continue;
      if (is_kernel_keyword(toks[j])) break;
      const std::string_view t = toks[j].text;
      if (t == "(" || t == "[") ++depth;
      if (t == "{" || t == "}" || t == ";") break;
      if ((t == ")" || t == "]") && --depth == 0) {
        close = j;
        break;
      }
      if (t == "," && depth == 1) {
        site.argument_tokens.emplace_back(arg_first, j);
        arg_first = j + 1;
      }
    }
    if (close == toks.size()) {
      add_bounded(errors,
                  make_error(file, site.kernel.line,
                             "kernel '" + shown(site.kernel.name) + "': the argument list is not closed by ')'"));
      return kw + 1;
    }
    site.params_close = close;
    site.argument_tokens.emplace_back(arg_first, close);
    // `()` and `(void)` declare no arguments.
    if (site.argument_tokens.size() == 1) {
      const auto [f, l] = site.argument_tokens.front();
      if (f == l || (l == f + 1 && toks[f].text == "void")) site.argument_tokens.clear();
    }
    bool arguments_understood = true;  // counted here: the list of problems stops growing at its bound
    for (std::size_t a = 0; a < site.argument_tokens.size(); ++a) {
      const auto [f, l] = site.argument_tokens[a];
      if (f == l) {
        add_bounded(errors, make_error(file, line_of(f),
                                       "kernel '" + shown(site.kernel.name) + "': argument " + std::to_string(a) +
                                           " is empty"));
        arguments_understood = false;
        continue;
      }
      arguments_understood = parse_argument(site, f, l, a) && arguments_understood;
    }
    const std::size_t after = skip_attributes(close + 1);
    if (after == std::string_view::npos) return close + 1;
    if (is(after, ";")) return after + 1;  // a prototype
    if (!is(after, "{")) {
      add_bounded(errors, make_error(file, line_of(after),
                                     "kernel '" + shown(site.kernel.name) +
                                         "': expected '{' after the argument list, found " + describe(after)));
      return after;
    }
    site.body_open = after;
    if (arguments_understood) out.push_back(std::move(site));
    return after + 1;
  }

  void check_brackets() {
    struct open_bracket {
      char c;
      std::uint32_t line;
    };
    std::vector<open_bracket> stack;
    for (const token& t : toks) {
      if (t.kind != token_kind::punct) continue;
      const char c = t.text[0];
      if (c == '(' || c == '[' || c == '{') {
        stack.push_back({c, t.line});
      } else if (c == ')' || c == ']' || c == '}') {
        const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
        if (stack.empty()) {
          add_bounded(errors, make_error(file, t.line, std::string("'") + c + "' has no matching '" + want + "'"));
          return;
        }
        if (stack.back().c != want) {
          add_bounded(errors, make_error(file, t.line,
                                         std::string("'") + c + "' closes '" + stack.back().c + "' opened at line " +
                                             std::to_string(stack.back().line)));
          return;
        }
        stack.pop_back();
      }
    }
    if (!stack.empty()) {
      add_bounded(errors, make_error(file, stack.back().line, std::string("'") + stack.back().c + "' is never closed"));
    }
  }
};

}  // namespace

void add_bounded(std::vector<diagnostic>& errors, diagnostic problem) {
  if (errors.size() < max_parse_diagnostics) {
    errors.push_back(std::move(problem));
  } else if (errors.size() == max_parse_diagnostics) {
    problem.line = 0;
    problem.message = "rknnop: more than " + std::to_string(max_parse_diagnostics) +
                      " problems in the shader; the rest are not listed";
    errors.push_back(std::move(problem));
  }
}

parsed_source parse(std::string_view source, std::string_view file_name) {
  parsed_source out;
  out.lexed = lex(source, file_name);
  out.errors = out.lexed.errors;
  parser p{file_name, out.lexed.tokens, out.errors};
  p.check_brackets();
  const auto& toks = out.lexed.tokens;
  for (std::size_t i = 0; i < toks.size();) {
    if (toks[i].kind == token_kind::identifier && (toks[i].text == "__kernel" || toks[i].text == "kernel")) {
      i = p.parse_kernel(i, out.kernels);
    } else {
      ++i;
    }
  }
  return out;
}

}  // namespace rknnop::vxc::parsing

namespace rknnop::vxc {

bool shader_argument::is_image() const { return parsing::is_image_type(type) && !pointer; }

bool shader_argument::is_write_only() const {
  return is_image() && std::any_of(qualifiers.begin(), qualifiers.end(),
                                   [](const std::string& q) { return q == "__write_only" || q == "write_only"; });
}

bool shader_argument::is_read_write() const {
  return is_image() && std::any_of(qualifiers.begin(), qualifiers.end(),
                                   [](const std::string& q) { return q == "__read_write" || q == "read_write"; });
}

parsed_shader parse_shader(std::string_view source, std::string_view file_name) {
  parsing::parsed_source parsed = parsing::parse(source, file_name);
  parsed_shader out;
  out.errors = std::move(parsed.errors);
  for (auto& site : parsed.kernels) out.kernels.push_back(std::move(site.kernel));
  return out;
}

}  // namespace rknnop::vxc
