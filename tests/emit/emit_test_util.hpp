// SPDX-License-Identifier: MIT
#pragma once

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace emit_test {

/// The top-level keys of a YAML mapping, in file order.
inline std::vector<std::string> keys_of(const YAML::Node& map) {
  std::vector<std::string> keys;
  for (auto it = map.begin(); it != map.end(); ++it) keys.push_back(it->first.as<std::string>());
  return keys;
}

/// (name, type) of each entry of inputs/outputs/params, in file order.
inline std::vector<std::pair<std::string, std::string>> entries_of(const YAML::Node& map) {
  std::vector<std::pair<std::string, std::string>> entries;
  for (auto it = map.begin(); it != map.end(); ++it)
    entries.emplace_back(it->first.as<std::string>(), it->second["type"].as<std::string>());
  return entries;
}

inline std::size_t count_of(std::string_view text, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// A fresh directory under the build tree for one test.
inline std::filesystem::path work_dir(std::string_view name) {
  const auto dir = std::filesystem::path(RKNNOP_EMIT_TEST_WORK_DIR) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline const std::vector<std::string> toolkit_key_order{"name",       "framework", "target_platform", "inputs",
                                                        "outputs",    "params",    "op_version",      "out_binary",
                                                        "op_py_file", "vx_file",   "kernel_index"};

}  // namespace emit_test
