// SPDX-License-Identifier: MIT
// Exp: CPU kernel vs exp.vx (8 float16 lanes per work-item) on random float16 tensors of rank 1..3,
// rows that are and are not multiples of 8.
#include "exp/exp.cpp"  // the example op, compiled into this test program

#include "parity_test.hpp"

#include <random>

namespace {

using rknnop::vx_type;

TEST(parity, Exp) {
  // e^x overflows float16 past 11.09 and is subnormal or 0 below -9.7: the op's float16 semantics,
  // tested here, which the PC library's output precision rule (docs/running.md §1) would refuse.
  setenv("RKNNOP_ALLOW_LOSSY", "1", 1);
  rknnop::parity::checker check(rknnop::parity::op_info_of<Exp>(), vx_kernel_Exp_list.entries,
                                rknnop::vxc::shader_file(RKNNOP_EXAMPLES_DIR "/exp/exp.vx"));
  std::mt19937_64 rng(31);
  std::vector<rknnop::parity::parity_case> cases;
  for (const auto& dims :
       std::vector<std::vector<std::uint32_t>>{{1}, {8}, {13}, {64, 3}, {7, 5}, {17, 4, 3}, {3, 3, 3, 1}, {40, 2, 2}})
    for (int repeat = 0; repeat < 2; ++repeat) {
      rknnop::parity::parity_case c;
      c.inputs.push_back(rknnop::parity::random_tensor(dims, vx_type::float16, rng, -10.0f, 10.0f));
      cases.push_back(std::move(c));
    }
  rknnop::test::expect_parity(check, cases);
}

}  // namespace
