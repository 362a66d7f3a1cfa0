// SPDX-License-Identifier: MIT
// TensorFlow's DepthToSpace as a newcomer writes it from the docs (issue 31): a param with a default
// (block_size = 2) and an enum param (data_format, NHWC or NCHW). Rank 4, or rank 3 as batch 1
// ([h, w, c] for NHWC, [c, h, w] for NCHW). The fixture every tool is tried with in
// tests/host/test_new_op.cpp: run, wrap, --describe, --check, update.
#include <rknnop/op.hpp>

enum class depth_to_space_format : std::int32_t { nhwc = 0, nchw = 1 };

template <>
struct rknnop::customize::enum_names<depth_to_space_format> {
  static constexpr rknnop::enum_name<depth_to_space_format> table[] = {{depth_to_space_format::nhwc, "NHWC"},
                                                                       {depth_to_space_format::nchw, "NCHW"}};
};

struct DepthToSpace {
  static constexpr std::string_view name = "DepthToSpace";
  struct inputs {
    rknnop::tensor<float, rknnop::float16> input;
  };
  struct outputs {
    rknnop::tensor<float, rknnop::float16> output;
  };
  struct params {
    std::int32_t block_size = 2;
    depth_to_space_format data_format = depth_to_space_format::nhwc;
  };

  // OpenVX dims (innermost first) of the channel, width and height axes.
  struct axes {
    std::uint32_t c, w, h;
  };
  static constexpr axes axes_of(depth_to_space_format f) {
    return f == depth_to_space_format::nhwc ? axes{0, 1, 2} : axes{2, 0, 1};
  }

  static constexpr auto infer = [](const inputs& in, outputs& out, const params& p) {
    const std::uint32_t rank = in.input.rank();
    if (rank != 3 && rank != 4) return rknnop::error("input must have rank 3 or 4, got {}", rank);
    if (p.block_size < 2) return rknnop::error("block_size must be at least 2, got {}", p.block_size);
    const auto b = static_cast<std::uint32_t>(p.block_size);
    const axes a = axes_of(p.data_format);
    if (in.input.dim(a.c) % (b * b) != 0)
      return rknnop::error("the depth {} is not divisible by block_size^2 = {}", in.input.dim(a.c), b * b);
    std::uint32_t dims[4] = {in.input.dim(0), in.input.dim(1), in.input.dim(2), in.input.dim(3)};
    dims[a.c] /= b * b;
    dims[a.w] *= b;
    dims[a.h] *= b;
    out.output.set_dims(dims, rank);
    out.output.set_dtype(in.input.dtype());
    return rknnop::ok;
  };

  // out[n, h*b + i, w*b + j, c] = in[n, h, w, (i*b + j)*C + c] (NHWC; NCHW alike).
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    const auto b = static_cast<std::size_t>(p.block_size);
    const axes a = axes_of(p.data_format);
    std::size_t in_stride[4] = {1, 0, 0, 0}, out_stride[4] = {1, 0, 0, 0};
    for (std::uint32_t d = 1; d < 4; ++d) {
      in_stride[d] = in_stride[d - 1] * in.input.dim(d - 1);
      out_stride[d] = out_stride[d - 1] * out.output.dim(d - 1);
    }
    const std::size_t depth = out.output.dim(a.c);
    for (std::size_t n = 0; n < in.input.dim(3); ++n)
      for (std::size_t y = 0; y < out.output.dim(a.h); ++y)
        for (std::size_t x = 0; x < out.output.dim(a.w); ++x)
          for (std::size_t c = 0; c < depth; ++c) {
            const std::size_t from_c = ((y % b) * b + x % b) * depth + c;
            out.output[n * out_stride[3] + y * out_stride[a.h] + x * out_stride[a.w] + c * out_stride[a.c]] =
                in.input[n * in_stride[3] + (y / b) * in_stride[a.h] + (x / b) * in_stride[a.w] +
                         from_c * in_stride[a.c]];
          }
    return rknnop::ok;
  };
};

RKNNOP_EXPORT_OP(DepthToSpace);
