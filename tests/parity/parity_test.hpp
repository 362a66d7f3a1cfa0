// SPDX-License-Identifier: MIT
#pragma once
// Shared by the parity tests: one call per op runs its cases through rknnop::parity::checker.
#include <rknnop/parity/parity.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace rknnop::test {

struct parity_summary {
  std::size_t cases = 0;
  std::size_t elements = 0;
  double max_abs = 0.0;
  double max_rel = 0.0;
};

// Runs every case: each must pass. Without an OpenCL device the test is skipped with the reason
// (never passed). Prints the largest differences seen, per op, for the record.
// GTEST_SKIP needs a void function: the summary comes back through `out`.
inline void expect_parity(parity::checker& check, const std::vector<parity::parity_case>& cases,
                          parity_summary* out = nullptr) {
  parity_summary summary;
  if (!check.opencl_available()) {
    GTEST_SKIP() << "VX kernel not run: " << check.opencl_status();
  }
  for (const parity::parity_case& c : cases) {
    const parity::case_report r = check.run(c);
    if (r.result == parity::outcome::no_opencl) {
      GTEST_SKIP() << "VX kernel not run: " << r.message;
    }
    EXPECT_EQ(r.result, parity::outcome::pass) << r.to_string();
    ++summary.cases;
    for (const parity::output_diff& d : r.outputs) {
      summary.elements += d.elements;
      summary.max_abs = std::max(summary.max_abs, d.max_abs);
      summary.max_rel = std::max(summary.max_rel, d.max_rel);
    }
  }
  std::printf(
      "[ parity   ] %s: %zu cases, %zu output elements, max abs diff %.3g, max rel diff %.3g "
      "(tolerance abs %.3g + rel %.3g)\n",
      check.op().signature.name.c_str(), summary.cases, summary.elements, summary.max_abs, summary.max_rel,
      check.op().tol.abs, check.op().tol.rel);
  if (out != nullptr) *out = summary;
}

}  // namespace rknnop::test
