// SPDX-License-Identifier: MIT
// TensorFlow's MirrorPad as an RKNN custom op: pads every axis of `input` by mirroring it, REFLECT
// (the edge is not repeated) or SYMMETRIC (it is), for any rank 1..6. `mode` is TensorFlow's string
// attribute, an enum param; `paddings` TensorFlow's [rank, 2] constant input, flattened. README.md.
#include <rknnop/op.hpp>

enum class mirror_pad_mode : std::int32_t { reflect = 0, symmetric = 1 };

// The names TensorFlow spells the attribute with: what op.yml, `rknnop-run --param mode=REFLECT` and
// the generated Python class use.
template <>
struct rknnop::customize::enum_names<mirror_pad_mode> {
  static constexpr rknnop::enum_name<mirror_pad_mode> table[] = {{mirror_pad_mode::reflect, "REFLECT"},
                                                                 {mirror_pad_mode::symmetric, "SYMMETRIC"}};
};

struct MirrorPad {
  struct inputs {
    rknnop::tensor<float, rknnop::float16> input;
  };
  struct outputs {
    rknnop::tensor<float, rknnop::float16> output;
  };
  struct params {
    rknnop::int_array<12> paddings;  // TensorFlow's order: before/after of the outermost axis first
    mirror_pad_mode mode = mirror_pad_mode::reflect;
  };

  // Input coordinate of output coordinate `o` along an axis of `size` padded by `before`.
  static constexpr std::uint32_t source(std::int64_t o, std::int64_t before, std::int64_t size, bool symmetric) {
    std::int64_t i = o - before;
    if (i < 0) i = symmetric ? -i - 1 : -i;
    if (i >= size) i = symmetric ? 2 * size - 1 - i : 2 * size - 2 - i;
    return static_cast<std::uint32_t>(i);
  }

  static constexpr auto infer = [](const inputs& in, outputs& out, const params& p) {
    const std::uint32_t rank = in.input.rank();
    if (p.mode != mirror_pad_mode::reflect && p.mode != mirror_pad_mode::symmetric)
      return rknnop::error("mode {} is neither REFLECT (0) nor SYMMETRIC (1)", static_cast<std::int32_t>(p.mode));
    if (p.paddings.size() != 2 * std::size_t{rank})
      return rknnop::error("paddings must hold 2 values per input dimension ([{}, 2] for rank {}), got {} values", rank,
                           rank, p.paddings.size());
    const bool symmetric = p.mode == mirror_pad_mode::symmetric;
    std::uint32_t dims[6] = {};
    for (std::uint32_t d = 0; d < rank; ++d) {
      const std::uint32_t axis = rank - 1 - d;  // TensorFlow axis of OpenVX dim d
      const std::int32_t before = p.paddings[2 * axis];
      const std::int32_t after = p.paddings[2 * axis + 1];
      const std::int64_t size = in.input.dim(d);
      const std::int64_t limit = symmetric ? size : size - 1;
      if (before < 0 || after < 0)
        return rknnop::error("paddings must be non-negative, got [{}, {}] for axis {}", before, after, axis);
      if (before > limit || after > limit)
        return rknnop::error("paddings [{}, {}] for axis {} must be {} the dimension size {} in {} mode", before, after,
                             axis, symmetric ? "no greater than" : "less than", size,
                             symmetric ? "SYMMETRIC" : "REFLECT");
      dims[d] = static_cast<std::uint32_t>(size + before + after);
    }
    out.output.set_dims(dims, rank);
    out.output.set_dtype(in.input.dtype());
    return rknnop::ok;
  };

  // One output row (OpenVX dim 0) at a time: the outer coordinates pick the input row, dim 0 mirrors.
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    const std::uint32_t rank = in.input.rank();
    const bool symmetric = p.mode == mirror_pad_mode::symmetric;
    std::int64_t before[6] = {};
    for (std::uint32_t d = 0; d < rank; ++d) before[d] = p.paddings[2 * (rank - 1 - d)];
    const std::size_t row = out.output.dim(0);
    const std::size_t in_row = in.input.dim(0);
    std::uint32_t at[6] = {};  // output coordinates of the row, dims 1..rank-1
    for (std::size_t o = 0; o < out.output.size(); o += row) {
      std::size_t from = 0;
      std::size_t stride = in_row;
      for (std::uint32_t d = 1; d < rank; ++d) {
        from += source(at[d], before[d], in.input.dim(d), symmetric) * stride;
        stride *= in.input.dim(d);
      }
      for (std::size_t k = 0; k < row; ++k)
        out.output[o + k] = in.input[from + source(static_cast<std::int64_t>(k), before[0],
                                                   static_cast<std::int64_t>(in_row), symmetric)];
      for (std::uint32_t d = 1; d < rank && ++at[d] == out.output.dim(d); ++d) at[d] = 0;
    }
    return rknnop::ok;
  };

  // For the toolkit's model conversion: the padded NHWC shape, and TensorFlow's own MirrorPad.
  static constexpr std::string_view python_output_shape =
      "[[s + params['paddings'][2 * i] + params['paddings'][2 * i + 1] for i, s in enumerate(inputs_shape[0])]]";
  static constexpr std::string_view python_compute =
      "[tf.pad(inputs_tensor[0], np.reshape(params['paddings'], [-1, 2]),\n"
      "        mode=['REFLECT', 'SYMMETRIC'][params['mode']])]";
};

RKNNOP_EXPORT_OP(MirrorPad);
