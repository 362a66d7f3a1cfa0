// SPDX-License-Identifier: MIT
// QuantizedMaxPool (three outputs; float, array and int32 params): CPU kernel vs
// quantized_max_pool.vx on random quint8 codes delivered as float16, VALID and SAME padding.
#include "quantized_max_pool/quantized_max_pool.cpp"  // the example op, compiled into this test program

#include "parity_test.hpp"

#include <random>

namespace {

using rknnop::vx_type;
using rknnop::parity::param_data;

TEST(parity, QuantizedMaxPool) {
  rknnop::parity::checker check(
      rknnop::parity::op_info_of<QuantizedMaxPool>(), vx_kernel_QuantizedMaxPool_list.entries,
      rknnop::vxc::shader_file(RKNNOP_EXAMPLES_DIR "/quantized_max_pool/quantized_max_pool.vx"));
  struct pool {
    std::uint32_t h, w, c;
    std::int32_t kh, kw, sh, sw;
  };
  const pool pools[] = {{8, 8, 1, 2, 2, 2, 2},
                        {9, 7, 3, 3, 3, 2, 2},
                        {5, 6, 4, 1, 1, 1, 1},
                        {10, 5, 2, 3, 2, 1, 3},
                        {4, 4, 2, 5, 5, 1, 1}};
  std::mt19937_64 rng(23);
  std::vector<rknnop::parity::parity_case> cases;
  for (const pool& p : pools)
    for (std::int32_t padding : {0, 1}) {
      if (padding == 0 && (p.kh > static_cast<std::int32_t>(p.h) || p.kw > static_cast<std::int32_t>(p.w))) continue;
      rknnop::parity::parity_case c;
      // quint8 codes 0..255, as the board delivers them: float16 holding whole numbers.
      const auto codes = rknnop::parity::random_tensor({p.c, p.w, p.h, 1}, vx_type::uint8, rng, 0.0f, 255.0f);
      c.inputs.push_back(rknnop::parity::tensor_data::from_floats(codes.dims, vx_type::float16, codes.to_floats()));
      c.params = {param_data::scalar("min_input", vx_type::float32, -1.5),
                  param_data::scalar("max_input", vx_type::float32, 6.0),
                  param_data::array("ksize", {1, p.kh, p.kw, 1}), param_data::array("strides", {1, p.sh, p.sw, 1}),
                  param_data::scalar("padding", vx_type::int32, padding)};
      cases.push_back(std::move(c));
    }
  rknnop::test::expect_parity(check, cases);
}

}  // namespace
