// SPDX-License-Identifier: MIT
#include "rknnop/host/cli.hpp"

#include <charconv>
#include <cstdio>
#include <exception>
#include <set>
#include <system_error>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace rknnop::host {

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

const op_yml_entry& find_op_entry(const op_yml& op, op_entry_kind kind, std::string_view name) {
  const auto list_of = [&](op_entry_kind k) -> const std::vector<op_yml_entry>& {
    return k == op_entry_kind::input ? op.inputs : k == op_entry_kind::output ? op.outputs : op.params;
  };
  const auto kind_name = [](op_entry_kind k) -> std::string_view {
    return k == op_entry_kind::input ? "input" : k == op_entry_kind::output ? "output" : "param";
  };
  const auto find = [&](op_entry_kind k) -> const op_yml_entry* {
    for (const op_yml_entry& e : list_of(k))
      if (e.name == name) return &e;
    return nullptr;
  };
  if (const op_yml_entry* e = find(kind)) return *e;
  std::string hint;  // the first other kind that has the name, in op.yml's order
  for (const op_entry_kind other : {op_entry_kind::input, op_entry_kind::output, op_entry_kind::param})
    if (hint.empty() && other != kind && find(other))
      hint = fmt::format("; '{}' is {} {}", name, other == op_entry_kind::param ? "a" : "an", kind_name(other));
  std::vector<std::string> names;
  for (const op_yml_entry& e : list_of(kind)) names.push_back(e.name);
  throw error(fmt::format("op '{}' has no {} '{}' ({}s: {}){}", op.name, kind_name(kind), name, kind_name(kind),
                          names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", ")), hint));
}

const op_yml_entry& find_option_entry(const op_yml& op, op_entry_kind kind, std::string_view option,
                                      std::string_view name) {
  try {
    return find_op_entry(op, kind, name);
  } catch (const error& e) {
    throw usage_error(fmt::format("{} '{}': {}", option, name, e.detail()));
  }
}

int tool_failure(const char* tool) noexcept {
  std::fflush(stdout);
  try {
    throw;  // the exception being handled by the caller's catch (...)
  } catch (const error& e) {
    std::fprintf(stderr, "%s: %s\n", tool, e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: rknnop: %s\n", tool, e.what());
  } catch (...) {
    std::fprintf(stderr, "%s: rknnop: an exception that is not a std::exception\n", tool);
  }
  return 1;
}

}  // namespace rknnop::host
