// SPDX-License-Identifier: MIT
#include "cli.hpp"

#include <rknnop/host/memory_budget.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <exception>
#include <new>
#include <set>
#include <system_error>

namespace rknnop::tools {

std::optional<int> parse_or_exit(CLI::App& app, int argc, char** argv) {
  // A file size limit (RLIMIT_FSIZE) makes a write fail with EFBIG, reported with the file's name,
  // instead of killing the tool silently with SIGXFSZ halfway through (its temporary file left behind).
  (void)std::signal(SIGXFSZ, SIG_IGN);
  try {
    app.parse(argc, argv);
    return std::nullopt;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    for (char& ch : message)
      if (ch == '\n') ch = ' ';
    std::fprintf(stderr, "%s: %s\n", app.get_name().c_str(), message.c_str());
    return exit_usage;
  }
}

void add_memory_limit_option(CLI::App& app) {
  app.add_option_function<std::string>(
         "--memory-limit",
         [](const std::string& text) {
           try {
             host::set_memory_budget(host::parse_memory_size(text, "--memory-limit"));
           } catch (const host::error& e) {
             throw usage_error(e.detail());
           }
         },
         "The most memory the tensors of a run, a model's JSON or an op's outputs may take: 512M, 4G, ... "
         "(default 2G, or RKNNOP_MEMORY_LIMIT)")
      ->type_name("SIZE");
}

namespace {

// The shared options' names and help texts, top to bottom like a --help text: one row each.
struct shared_option_row {
  shared_option which;
  const char* names;
  const char* help;
};
constexpr shared_option_row shared_option_table[] = {
    {shared_option::op, "op", "The op: a .rknnop container or a kernel library lib<op>.so"},
    {shared_option::op_yml, "--op-yml", "op.yml (required for a .so without op.yml beside it)"},
    {shared_option::input, "-i,--input", "NAME=FILE.npy for each input"},
    {shared_option::param, "-p,--param", "NAME=VALUE for each param (arrays as 64,64; bools true/false)"},
    {shared_option::output, "-o,--output", "NAME=FILE.npy: write this output"},
    {shared_option::vx, "--vx",
     "The .vx shader of a VX kernel (default: op.yml's vx_file, <kernel>.vx or rknn_kernel_<kernel>.vx beside "
     "op.yml, or beside the op without --op-yml)"},
    {shared_option::tensor_type, "--tensor-type",
     "VX tensor type of the inputs: VX_TYPE_FLOAT16 (default, what the board hands a custom op), VX_TYPE_FLOAT32, "
     "..., or npy (each .npy's own dtype)"},
    {shared_option::allow_lossy, "--allow-lossy",
     "Accept inputs whose conversion to the tensor type overflows to inf, gives NaN or flushes a nonzero value to "
     "zero, and outputs whose conversion to a narrower tensor type changes an integer or loses a float the same way "
     "or as a subnormal (an error otherwise)"},
    {shared_option::describe, "--describe", "Print inputs, outputs and params with their VX types and exit"},
    {shared_option::repeat, "--repeat",
     "Run the node N more times and print the per-run time (median, min) and the thread count"},
};

}  // namespace

CLI::Option* add_shared_option(CLI::App& app, shared_option which, shared_options& values, std::string_view help) {
  const shared_option_row* row = nullptr;
  for (const shared_option_row& r : shared_option_table)
    if (r.which == which) row = &r;
  const std::string names = row->names;
  const std::string text = help.empty() ? std::string(row->help) : std::string(help);
  switch (which) {
    case shared_option::op: return app.add_option(names, values.op, text)->required();
    case shared_option::op_yml: return app.add_option(names, values.op_yml, text);
    case shared_option::input: return app.add_option(names, values.inputs, text);
    case shared_option::param: return app.add_option(names, values.params, text);
    case shared_option::output: return app.add_option(names, values.outputs, text);
    case shared_option::vx: return app.add_option(names, values.vx_file, text);
    case shared_option::tensor_type: return app.add_option(names, values.tensor_type, text);
    case shared_option::allow_lossy: return app.add_flag(names, values.allow_lossy, text);
    case shared_option::describe: return app.add_flag(names, values.describe, text);
    case shared_option::repeat: return app.add_option(names, values.repeat, text)->check(CLI::Range(1u, 100000u));
  }
  return nullptr;
}

host::load_options load_options_of(const shared_options& values, std::optional<std::uint32_t> kernel_index) {
  host::load_options load;
  if (!values.op_yml.empty()) load.op_yml = values.op_yml;
  load.kernel_index = kernel_index;
  return load;
}

std::string terminal_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto escape = [&out](unsigned char byte) { out += fmt::format("\\x{:02x}", byte); };
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {  // ASCII: its control bytes (newline and tab too) and DEL escaped
      if (byte < 0x20 || byte == 0x7f)
        escape(byte);
      else
        out += static_cast<char>(byte);
      ++i;
      continue;
    }
    // UTF-8: a well-formed sequence of a character that is not a control (C1: U+0080-U+009F, which
    // some terminals read as ESC sequences) nor a bidirectional override passes; any other byte escaped.
    const std::size_t length = byte >= 0xf0 && byte <= 0xf4   ? 4
                               : byte >= 0xe0                 ? 3
                               : byte >= 0xc2 && byte <= 0xdf ? 2
                                                              : 0;
    std::uint32_t code = length == 4 ? byte & 0x07U : length == 3 ? byte & 0x0fU : byte & 0x1fU;
    bool valid = length != 0 && byte < 0xf5 && i + length <= text.size();
    for (std::size_t k = 1; valid && k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      valid = (next & 0xc0U) == 0x80U;
      code = (code << 6) | (next & 0x3fU);
    }
    const std::uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    valid = valid && code >= least[length] && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    const bool control = code <= 0x9f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) ||
                         code == 0x2028 || code == 0x2029;
    if (valid && !control) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      escape(byte);
      ++i;
    }
  }
  return out;
}

std::string terminal_lines(std::string_view text) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    out += terminal_text(text.substr(at, end - at));
    if (end < text.size()) out += '\n';
    at = end + 1;
  }
  return out;
}

int tool_failure(const char* tool, std::string_view stage) noexcept {
  std::fflush(stdout);
  try {
    throw;  // the exception being handled by the caller's catch (...)
  } catch (const usage_error& e) {
    std::fprintf(stderr, "%s: %s\n", tool, terminal_text(e.detail()).c_str());
    return exit_usage;
  } catch (const host::error& e) {
    std::fprintf(stderr, "%s: %s\n", tool, terminal_text(e.detail()).c_str());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: out of memory%s%.*s\n", tool, stage.empty() ? "" : " while ",
                 static_cast<int>(stage.size()), stage.data());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", tool, terminal_text(e.what()).c_str());
  } catch (...) {
    std::fprintf(stderr, "%s: an exception that is not a std::exception\n", tool);
  }
  return exit_failure;
}

std::vector<assignment> parse_assignments(std::string_view option, const std::vector<std::string>& texts,
                                          std::string_view value_hint) {
  std::vector<assignment> out;
  std::set<std::string, std::less<>> seen;
  for (const std::string& text : texts) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
      throw usage_error(fmt::format("{} '{}': expected NAME={}", option, text, value_hint));
    assignment a{text.substr(0, eq), text.substr(eq + 1)};
    if (!seen.insert(a.name).second) throw usage_error(fmt::format("{} '{}' given twice", option, a.name));
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<std::size_t> parse_numpy_shape(std::string_view option, std::string_view name, std::string_view text,
                                           std::string_view example, zero_dims zeros) {
  std::vector<std::size_t> shape;
  std::string_view rest = text;
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    std::size_t value = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size() ||
        (value == 0 && zeros == zero_dims::rejected))
      throw usage_error(fmt::format("{} '{}': expected a NumPy shape like {}, got '{}'", option, name, example, text));
    shape.push_back(value);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return shape;
}

const host::op_yml_entry& find_option_entry(const host::op_yml& op, host::op_entry_kind kind, std::string_view option,
                                            std::string_view name) {
  try {
    return host::find_op_entry(op, kind, name);
  } catch (const host::error& e) {
    throw usage_error(fmt::format("{} '{}': {}", option, name, e.detail()));
  }
}

}  // namespace rknnop::tools
