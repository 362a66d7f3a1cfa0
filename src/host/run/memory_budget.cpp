// SPDX-License-Identifier: MIT
#include "rknnop/host/memory_budget.hpp"

#include "rknnop/host/error.hpp"

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

namespace rknnop::host {

namespace {

std::atomic<std::uint64_t> chosen_budget{0};  // 0: not set by the program

}  // namespace

std::uint64_t parse_memory_size(std::string_view text, std::string_view what) {
  const auto bad = [&] {
    return error(fmt::format("{}: '{}' is not a memory size (bytes, or a number with K, M, G or T, like 512M or 4G)",
                             what, text));
  };
  std::size_t digits = 0;
  while (digits < text.size() && ((text[digits] >= '0' && text[digits] <= '9') || text[digits] == '.')) ++digits;
  if (digits == 0 || digits > 24) throw bad();
  const std::string number(text.substr(0, digits));
  std::string_view unit = text.substr(digits);
  if (unit.ends_with("iB"))
    unit.remove_suffix(2);
  else if (unit.size() == 2 && unit.back() == 'B')
    unit.remove_suffix(1);
  int shift = 0;
  if (unit.size() == 1) {
    switch (unit[0] | 0x20) {
      case 'k': shift = 10; break;
      case 'm': shift = 20; break;
      case 'g': shift = 30; break;
      case 't': shift = 40; break;
      default: throw bad();
    }
  } else if (!unit.empty() && unit != "B") {
    throw bad();
  }
  char* end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size() || !std::isfinite(value) || value <= 0) throw bad();
  const double bytes = std::ldexp(value, shift);
  if (bytes < 1 || bytes >= 0x1p63) throw bad();
  return static_cast<std::uint64_t>(bytes);
}

std::uint64_t memory_budget() {
  if (const std::uint64_t set = chosen_budget.load(std::memory_order_relaxed); set != 0) return set;
  static const std::uint64_t from_environment = [] {
    const char* text = std::getenv("RKNNOP_MEMORY_LIMIT");
    return text == nullptr || *text == '\0' ? default_memory_budget : parse_memory_size(text, "RKNNOP_MEMORY_LIMIT");
  }();
  return from_environment;
}

bool memory_budget_given() {
  if (chosen_budget.load(std::memory_order_relaxed) != 0) return true;
  const char* text = std::getenv("RKNNOP_MEMORY_LIMIT");
  return text != nullptr && *text != '\0';
}

void set_memory_budget(std::uint64_t bytes) noexcept { chosen_budget.store(bytes, std::memory_order_relaxed); }

std::string memory_size_text(std::uint64_t bytes) {
  constexpr const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return fmt::format("{} bytes", bytes);
  double value = static_cast<double>(bytes) / 1024;
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  return value == std::floor(value) ? fmt::format("{:.0f} {}", value, units[unit])
                                    : fmt::format("{:.1f} {}", value, units[unit]);
}

void check_memory(std::uint64_t bytes, std::string_view what) {
  const std::uint64_t budget = memory_budget();
  if (bytes <= budget) return;
  throw error(
      fmt::format("{} needs {}, over the memory budget of {} (raise it with --memory-limit or "
                  "RKNNOP_MEMORY_LIMIT)",
                  what, memory_size_text(bytes), memory_size_text(budget)));
}

}  // namespace rknnop::host
