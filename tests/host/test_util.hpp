// SPDX-License-Identifier: MIT
#pragma once

#include <rknnop/host/error.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rknnop_test {

/// Runs `f`, which must throw rknnop::host::error; returns its what().
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const rknnop::host::error& e) {
    return e.what();
  }
  return "<no rknnop::host::error thrown>";
}

/// EXPECT that `f` throws an error whose text starts with "rknnop: " and contains every fragment.
#define RKNNOP_EXPECT_ERROR(statement, ...)                                                              \
  do {                                                                                                   \
    const std::string rknnop_message_ = ::rknnop_test::error_of([&] { (void)(statement); });             \
    EXPECT_TRUE(rknnop_message_.starts_with("rknnop: ")) << rknnop_message_;                             \
    for (const std::string_view rknnop_fragment_ : std::initializer_list<std::string_view>{__VA_ARGS__}) \
      EXPECT_NE(rknnop_message_.find(rknnop_fragment_), std::string::npos)                               \
          << "missing \"" << rknnop_fragment_ << "\" in: " << rknnop_message_;                           \
  } while (false)

inline std::vector<std::uint8_t> bytes_of(std::string_view s) { return {s.begin(), s.end()}; }

/// A fresh directory under the build tree for one test.
#if defined(RKNNOP_TEST_DATA_DIR)
/// tests/host/data: the test op's op.yml and Python class, the toolkit's files.
inline const std::filesystem::path data_dir = RKNNOP_TEST_DATA_DIR;
#endif

inline std::filesystem::path work_dir(std::string_view name) {
  const auto dir = std::filesystem::path(RKNNOP_TEST_WORK_DIR) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace rknnop_test
