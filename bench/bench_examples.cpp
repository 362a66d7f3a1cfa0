// SPDX-License-Identifier: MIT
// The CPU kernels of the other examples called directly (no runtime glue), for instruction counts
// (--callgrind NAME) and side-by-side times: Exp over 921,600 floats, TruncateDiv float32 (same shape,
// and y broadcast along rows), QuantizedMaxPool 3x3 stride 2 SAME on uint8 480x640x3.
#include "exp/exp.cpp"
#include "quantized_max_pool/quantized_max_pool.cpp"
#include "side_by_side.hpp"
#include "truncate_div/truncate_div.cpp"

#include <cstdint>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  rknnop::detail::thread_pool::set_threads(1);  // one thread: bench_threads compares thread counts
  constexpr std::uint32_t H = 480, W = 640, C = 3;
  const std::uint32_t dims[4] = {W, H, C, 1}, row_dims[4] = {W, 1, 1, 1}, nhwc[4] = {C, W, H, 1};
  std::vector<float> x(std::size_t(H) * W * C), y(x.size()), z(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(int(i % 2001) - 1000) / 7.f, y[i] = float(i % 13) + 0.5f;
  Exp::inputs exp_in;
  Exp::outputs exp_out;
  exp_in.x.bind(x.data(), dims, 4, VX_TYPE_FLOAT32);
  exp_out.y.bind(z.data(), dims, 4, VX_TYPE_FLOAT32);
  TruncateDiv::inputs div_in, div_row_in;
  TruncateDiv::outputs div_out;
  div_in.x.bind(x.data(), dims, 4, VX_TYPE_FLOAT32);
  div_in.y.bind(y.data(), dims, 4, VX_TYPE_FLOAT32);
  div_row_in.x.bind(x.data(), dims, 4, VX_TYPE_FLOAT32);
  div_row_in.y.bind(y.data(), row_dims, 4, VX_TYPE_FLOAT32);
  div_out.z.bind(z.data(), dims, 4, VX_TYPE_FLOAT32);
  std::vector<std::uint8_t> pixels(x.size()), pooled(std::size_t(H / 2) * (W / 2) * C);
  for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = std::uint8_t(i * 2654435761u >> 24);
  float range[2] = {};
  QuantizedMaxPool::inputs pool_in;
  QuantizedMaxPool::outputs pool_out;
  const std::uint32_t pooled_dims[4] = {C, W / 2, H / 2, 1}, one[1] = {1};
  pool_in.input.bind(pixels.data(), nhwc, 4, VX_TYPE_UINT8);
  pool_out.output.bind(pooled.data(), pooled_dims, 4, VX_TYPE_UINT8);
  pool_out.min_output.bind(range, one, 1, VX_TYPE_FLOAT32);
  pool_out.max_output.bind(range + 1, one, 1, VX_TYPE_FLOAT32);
  const QuantizedMaxPool::params pool_params{0.f, 6.f, {1, 3, 3, 1}, {1, 2, 2, 1}, 1};
  const rknnop::no_params none;
  const std::vector<bench::contender> contenders = {
      {"exp", [&] { Exp::cpu(exp_in, exp_out, none), bench::keep(z.data()); }},
      {"truncate_div",
       [&] {
         if (!TruncateDiv::cpu(div_in, div_out, none).ok()) std::abort();
         bench::keep(z.data());
       }},
      {"truncate_div_row",
       [&] {
         if (!TruncateDiv::cpu(div_row_in, div_out, none).ok()) std::abort();
         bench::keep(z.data());
       }},
      {"quantized_max_pool",
       [&] { QuantizedMaxPool::cpu(pool_in, pool_out, pool_params), bench::keep(pooled.data()); }},
  };
  return bench::run(argc, argv, "bench_examples (CPU kernels, 3x480x640)", contenders, {});
}
