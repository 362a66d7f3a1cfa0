// SPDX-License-Identifier: MIT
#include "cli.hpp"

#include <rknnop/host/memory_budget.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <exception>
#include <new>
#include <set>
#include <system_error>

namespace rknnop::tools {

std::optional<int> parse_or_exit(CLI::App& app, int argc, char** argv) {
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

std::string terminal_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\n' && c != '\t') || byte == 0x7f)
      out += fmt::format("\\x{:02x}", byte);
    else
      out += c;
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
