// SPDX-License-Identifier: MIT
// An op whose output is int32 only (`indices`: the index of each element, as an argmax-like op
// returns), and its consumer (Int32Input: int32 in, float16 out). RKNN v1's rknn_outputs_get cannot
// return an INT32 graph output, so the v1 tools refuse Int32Output's model (docs/rknn-model.md §8);
// the pair checks the same tensor between two custom ops (board/CMakeLists.txt).
#include <rknnop/op.hpp>

struct Int32Output {
  struct inputs {
    rknnop::tensor<float, rknnop::float16> x;
  };
  struct outputs {
    rknnop::tensor<std::int32_t> indices;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const rknnop::no_params&) {
    out.indices.set_dims(in.x.dims());
    out.indices.set_dtype(rknnop::dtype::int32);
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const rknnop::no_params&) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.indices[i] = in.x[i] >= 0.0f ? static_cast<std::int32_t>(i) : -1;
    return rknnop::ok;
  };
};

RKNNOP_EXPORT_OP(Int32Output);
