// SPDX-License-Identifier: MIT
// The conformance matrix's ops (tests/board_abi/matrix/matrix.py, docs/board-rules.md): small ops whose
// tensors accept every dtype the SDK knows, so that one op runs in each cell of the matrix. Each output
// j is the sum of the inputs plus j (MatrixAffine: plus its params), computed in float.
#pragma once

#include <cstddef>  // std::size_t
#include <cstdint>  // the element and param types

#include <rknnop/op.hpp>

namespace rknnop_matrix {
// Every dtype of rknnop::dtype: the kernel sees float, the runtime's tensor may be any of them.
using any_tensor =
    rknnop::tensor<float, rknnop::float16, float, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t>;

// Each output takes the first input's dims and dtype.
template <class... Outputs>
constexpr void infer_like(const any_tensor& first, Outputs&... outs) {
  (outs.set_dims(first.dims()), ...);
  (outs.set_dtype(first.dtype()), ...);
}

// out_j[i] = sum of the inputs' [i] + offset + j, for each output j.
template <std::size_t N, std::size_t M>
inline void sum_plus_index(const any_tensor* const (&in)[N], any_tensor* const (&out)[M], float offset) {
  for (std::size_t i = 0; i < in[0]->size(); ++i) {
    float sum = offset;
    for (const any_tensor* t : in) sum += (*t)[i];
    for (std::size_t j = 0; j < M; ++j) (*out[j])[i] = sum + static_cast<float>(j);
  }
}
}  // namespace rknnop_matrix
