// SPDX-License-Identifier: MIT
// TensorFlow's TruncateDiv as an RKNN custom op: z = x / y rounded toward zero, with TensorFlow's
// (numpy) broadcasting, for float16/float32 and the integer dtypes. See README.md for the design.
#include <rknnop/op.hpp>
#include <rknnop/parallel.hpp>

#include <cmath>

struct TruncateDiv {
  // The kernel computes in float. Every dtype listed converts to float exactly, except int32 beyond
  // +-2^24, which the kernel refuses instead of rounding (see README.md).
  using operand =
      rknnop::tensor<float, rknnop::float16, std::int32_t, std::int16_t, std::int8_t, std::uint16_t, std::uint8_t>;
  struct inputs {
    operand x;
    operand y;
  };
  struct outputs {
    operand z;
  };

  // Appends dims outermost first, as TensorFlow prints shapes.
  static void append_shape(rknnop::status& s, const operand& t) {
    s.append("[");
    for (std::uint32_t i = t.rank(); i-- > 0;)
      s.append(rknnop::error(i + 1 < t.rank() ? ",{}" : "{}", t.dim(i)).message());
    s.append("]");
  }

  // Broadcasting from the innermost dim (OpenVX dims[0]): sizes must match or one of them be 1.
  static constexpr auto infer = [](const inputs& in, outputs& out, rknnop::no_params) {
    if (in.x.dtype() != in.y.dtype())
      return rknnop::error("x and y must have the same dtype, got {} and {}", rknnop::dtype_vx_name(in.x.dtype()),
                           rknnop::dtype_vx_name(in.y.dtype()));
    const std::uint32_t rank = in.x.rank() > in.y.rank() ? in.x.rank() : in.y.rank();
    std::uint32_t dims[6] = {};
    for (std::uint32_t d = 0; d < rank; ++d) {
      const std::uint32_t a = in.x.dim(d);
      const std::uint32_t b = in.y.dim(d);
      if (a != b && a != 1 && b != 1) {
        rknnop::status s = rknnop::error("Incompatible shapes: ");
        append_shape(s, in.x);
        s.append(" vs. ");
        append_shape(s, in.y);
        return s;
      }
      dims[d] = a == 1 ? b : a;
    }
    out.z.set_dims(dims, rank);
    out.z.set_dtype(in.x.dtype());
    return rknnop::ok;
  };

  static constexpr auto cpu = [](const inputs& in, outputs& out, rknnop::no_params) {
    const auto type = in.x.dtype();
    const bool real = type == rknnop::dtype::float32 || type == rknnop::dtype::float16;
    // Per output dim: its size and each input's element step (0 where that input is broadcast).
    std::size_t size[6] = {};
    std::size_t step_x[6] = {};
    std::size_t step_y[6] = {};
    std::size_t sx = 1;  // elements of x (of y) in one step of dim d
    std::size_t sy = 1;
    const std::uint32_t rank = out.z.rank();
    for (std::uint32_t d = 0; d < rank; ++d) {
      size[d] = out.z.dim(d);
      step_x[d] = in.x.dim(d) == 1 ? 0 : sx;
      step_y[d] = in.y.dim(d) == 1 ? 0 : sy;
      sx *= in.x.dim(d);
      sy *= in.y.dim(d);
    }
    // Output rows (runs of dims[0]) [begin, end); the first error in row order.
    auto rows = [&](std::size_t begin, std::size_t end) -> rknnop::status {
      std::size_t at[6] = {};  // row `begin`'s position in dims 1..rank-1
      std::size_t ix = 0;      // and its first element in x and in y
      std::size_t iy = 0;
      std::size_t rest = begin;
      for (std::size_t d = 1; d < rank; ++d) {
        at[d] = rest % size[d];
        rest /= size[d];
        ix += at[d] * step_x[d];
        iy += at[d] * step_y[d];
      }
      for (std::size_t i = begin * size[0]; i < end * size[0]; i += size[0]) {
        for (std::size_t k = 0; k < size[0]; ++k) {
          const std::size_t jx = ix + k * step_x[0];
          const std::size_t jy = iy + k * step_y[0];
          const float a = in.x[jx];
          const float b = in.y[jy];
          if (real) {  // float16: TensorFlow's half arithmetic rounds the quotient to half before trunc
            const float q = a / b;
            out.z[i + k] = std::trunc(type == rknnop::dtype::float16 ? float(rknnop::float16(q)) : q);
            continue;
          }
          if (b == 0.f) return rknnop::error("Integer division by zero: y[{}] is 0", jy);
          if (std::fabs(a) >= 0x1p24f || std::fabs(b) >= 0x1p24f)
            return rknnop::error(
                "int32 operands must lie within +-(2^24 - 1) (the kernel divides in float), "
                "x[{}] or y[{}] does not",
                jx, jy);
          auto q = std::int32_t(a) / std::int32_t(b);           // C++ division truncates toward zero, like TensorFlow
          if (type == rknnop::dtype::int8) q = std::int8_t(q);  // -128 / -1 wraps to -128, as in TensorFlow
          if (type == rknnop::dtype::int16) q = std::int16_t(q);
          out.z[i + k] = float(q);
        }
        for (std::uint32_t d = 1; d < rank; ++d) {  // next row: carry through the outer dims
          ix += step_x[d];
          iy += step_y[d];
          if (++at[d] < size[d]) break;
          ix -= step_x[d] * size[d];
          iy -= step_y[d] * size[d];
          at[d] = 0;
        }
      }
      return rknnop::ok;
    };
    // Rows across the cores (>= 16K elements per thread); on a failure, the rows again on this thread,
    // for the first error in row order whatever the thread count.
    const std::size_t count = size[0] ? out.z.size() / size[0] : 0;
    const bool ok = rknnop::parallel_for(count, 16384 / (size[0] + 1) + 1,
                                         [&](std::size_t begin, std::size_t end) { return rows(begin, end).ok(); });
    return ok ? rknnop::ok : rows(0, count);
  };

  // VX kernel (truncate_div.vx, float16 tensors): one work-item per output element, x/y/z = dims[0..2].
  static constexpr auto vx = [](const inputs&, const outputs& out, const auto&, rknnop::work_size& ws) {
    for (std::uint32_t d = 3; d < out.z.rank(); ++d)
      if (out.z.dim(d) != 1)
        return rknnop::error("the VX kernel handles up to 3 dims, got dims[{}] = {} (use the CPU kernel)", d,
                             out.z.dim(d));
    ws = rknnop::work_size::grid(out.z.dim(0), out.z.dim(1), out.z.dim(2));
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(TruncateDiv);
