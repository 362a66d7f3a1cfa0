// SPDX-License-Identifier: MIT
// TruncateDiv: CPU kernel vs truncate_div.vx on random float16 operands, same shapes and
// broadcast ones (an operand dim of 1), rank 1..3.
#include "truncate_div/truncate_div.cpp"  // the example op, compiled into this test program

#include "parity_test.hpp"

#include <random>

namespace {

using rknnop::vx_type;

TEST(parity, TruncateDiv) {
  rknnop::parity::checker check(rknnop::parity::op_info_of<TruncateDiv>(), vx_kernel_TruncateDiv_list.entries,
                                rknnop::vxc::shader_file(RKNNOP_EXAMPLES_DIR "/truncate_div/truncate_div.vx"));
  struct operands {
    std::vector<std::uint32_t> x, y;
  };
  const operands shapes[] = {{{9}, {9}},       {{5, 4}, {5, 4}},       {{5, 4}, {1, 4}},      {{5, 4}, {5, 1}},
                             {{6, 3, 2}, {1}}, {{1, 3, 2}, {7, 3, 1}}, {{4, 4, 4}, {4, 4, 4}}};
  std::mt19937_64 rng(17);
  std::vector<rknnop::parity::parity_case> cases;
  for (const operands& s : shapes)
    for (int repeat = 0; repeat < 3; ++repeat) {
      rknnop::parity::parity_case c;
      c.inputs.push_back(rknnop::parity::random_tensor(s.x, vx_type::float16, rng, -100.0f, 100.0f));
      c.inputs.push_back(rknnop::parity::random_tensor(s.y, vx_type::float16, rng, 0.25f, 9.0f));
      cases.push_back(std::move(c));
    }
  rknnop::test::expect_parity(check, cases);
}

}  // namespace
