// SPDX-License-Identifier: MIT
#include "rknnop/host/cli.hpp"

#include <charconv>
#include <cstdio>
#include <exception>
#include <set>
#include <system_error>

#include <fmt/format.h>

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
