// SPDX-License-Identifier: MIT
// The RKNPU2 backend (<rknnop/rknpu2.hpp>) driven as librknnrt drives a plugin: init with the node's
// attributes (read through rknn_custom_op_get_op_attr, defined here as the runtime would), compute on
// rknn_custom_op_tensor buffers (FLOAT32 NCHW, FLOAT16, NHWC), destroy. Expected values are computed
// here independently (the formula, or index arithmetic for layouts), never by rknnop.
#define RKNNOP_RKNPU2_EMBED 1  // the example's RKNNOP_EXPORT_OP keeps its checks (no plugin symbols here)
#include <rknnop/rknpu2.hpp>

#include "bad_infer_ops.hpp"  // tests/core
#include "exp/exp.cpp"        // the example: e^x through rknnop::each_element

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <csignal>

#include <dirent.h>
#include <sys/resource.h>  // RLIMIT_FSIZE: a write that fails part way
#include <sys/stat.h>
#include <unistd.h>

namespace r = rknnop::detail::rknpu2;
namespace core = rknnop::detail;  // the recorder's setting and budget (invoke/record.hpp)

// --- the fake runtime: attributes per context, and the log ---------------------------------------
namespace {
struct fake_attr {
  r::tensor_type type;
  std::vector<unsigned char> bytes;
  std::uint32_t count;
};
std::map<std::string, fake_attr> g_attrs;  // the node's attributes
std::vector<std::string> g_lines;          // what the plugin logged

void capture(const char* line, void*) noexcept { g_lines.emplace_back(line); }

template <class T>
fake_attr attr_of(r::tensor_type type, std::initializer_list<T> values) {
  fake_attr a{type, std::vector<unsigned char>(values.size() * sizeof(T)), static_cast<std::uint32_t>(values.size())};
  std::memcpy(a.bytes.data(), values.begin(), a.bytes.size());  // (GCC 12 misreads a vector insert here)
  return a;
}
}  // namespace

extern "C" void rknn_custom_op_get_op_attr(r::op_context*, const char* name, r::op_attr* out) {
  std::memset(out, 0, sizeof *out);
  const auto it = g_attrs.find(name);
  if (it == g_attrs.end()) return;  // as librknnrt: n_elems 0, data NULL
  std::strncpy(out->name, name, sizeof out->name - 1);
  out->dtype = it->second.type;
  out->n_elems = it->second.count;
  out->data = it->second.bytes.data();
}

// --- test ops ---------------------------------------------------------------------------------------
struct Dual {  // Rockchip's demo op
  static constexpr std::string_view rknpu2_type = "cstDualResidual";
  using operand = rknnop::tensor<float, rknnop::float16>;
  struct inputs {
    operand x, y;
  };
  struct outputs {
    operand out0, out1;
  };
  struct params {
    float alpha;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    out.out0.set_dims(in.x.dims());
    out.out1.set_dims(in.x.dims());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    if (p.alpha > 100.f) return rknnop::error("alpha {} is too large", p.alpha);
    for (std::size_t i = 0; i < in.x.size(); ++i) {
      out.out0[i] = in.x[i] * p.alpha - in.y[i];
      out.out1[i] = in.y[i] * p.alpha - in.x[i];
    }
    return rknnop::ok;
  };
};

// NHWC kernel: out[n][h][w2][c] = in[n][h][w2/2][c] + 1000 * c + 100 * h (width doubled): any layout slip shows.
struct Widen {
  using image = rknnop::tensor<rknnop::layout::nhwc, float>;
  struct inputs {
    image in;
  };
  struct outputs {
    image out;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, rknnop::no_params) {
    std::uint32_t dims[4] = {in.in.dim(0), in.in.dim(1) * 2, in.in.dim(2), in.in.dim(3)};  // C, W, H, N
    out.out.set_dims(dims, 4);
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, rknnop::no_params) {
    const std::uint32_t C = in.in.dim(0), W = in.in.dim(1), H = in.in.dim(2), N = in.in.dim(3);
    for (std::uint32_t n = 0; n < N; ++n)
      for (std::uint32_t h = 0; h < H; ++h)
        for (std::uint32_t w = 0; w < 2 * W; ++w)
          for (std::uint32_t c = 0; c < C; ++c)
            out.out[((n * H + h) * 2 * W + w) * C + c] =
                in.in[((n * H + h) * W + w / 2) * C + c] + 1000.f * float(c) + 100.f * float(h);
    return rknnop::ok;
  };
};

// NHWC kernel, same shape: out = 2 * in + (8n + h/4 + w/32 + c/2) for position (n, h, w, c): a value
// slipped to another position, or converted twice, shows. Mark computes in float on float32 or
// float16 tensors; Mark16 has float16 elements in the kernel, so FLOAT16 NCHW tensors reach it through
// a permute that moves 2-byte elements and converts nothing (it rounds its float result once, as the
// conversion of Mark's output does).
template <class Element>
struct MarkOf {
  static constexpr std::string_view name = std::is_same_v<Element, float> ? "Mark" : "Mark16";
  using image =
      std::conditional_t<std::is_same_v<Element, float>, rknnop::tensor<rknnop::layout::nhwc, float, rknnop::float16>,
                         rknnop::tensor<rknnop::layout::nhwc, rknnop::float16>>;
  struct inputs {
    image in;
  };
  struct outputs {
    image out;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, rknnop::no_params) {
    out.out.set_dims(in.in.dims());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, rknnop::no_params) {
    const std::uint32_t C = in.in.dim(0), W = in.in.dim(1), H = in.in.dim(2), N = in.in.dim(3);
    for (std::uint32_t n = 0; n < N; ++n)
      for (std::uint32_t h = 0; h < H; ++h)
        for (std::uint32_t w = 0; w < W; ++w)
          for (std::uint32_t c = 0; c < C; ++c) {
            const std::size_t i = ((std::size_t(n) * H + h) * W + w) * C + c;
            out.out[i] = Element(float(in.in[i]) * 2.f +
                                 (8.f * float(n) + 0.25f * float(h) + 0.03125f * float(w) + 0.5f * float(c)));
          }
    return rknnop::ok;
  };
};
using Mark = MarkOf<float>;
using Mark16 = MarkOf<rknnop::float16>;

enum class mode { constant = 0, reflect = 3 };
template <>
struct rknnop::customize::enum_names<mode> {
  static constexpr rknnop::enum_name<mode> table[] = {{mode::constant, "CONSTANT"}, {mode::reflect, "REFLECT"}};
};

struct Params {  // every param kind; the kernel writes the decoded values out
  using operand = rknnop::tensor<float>;
  struct inputs {
    operand x;
  };
  struct outputs {
    operand y;
  };
  struct params {
    std::int8_t small = 1;
    std::uint16_t unsigned_value = 2;
    bool flag = false;
    float scale = 1.5f;
    double precise = 0.25;
    rknnop::float16 half = rknnop::float16(2.0f);
    mode m = mode::constant;
    std::array<std::int32_t, 2> pair = {7, 8};
    rknnop::int_array<4> list = {};
    std::int64_t required;  // no default
  };
  static constexpr auto infer = [](const inputs&, outputs& out, const params&) {
    const std::uint32_t dims[1] = {12};
    out.y.set_dims(dims, 1);
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs&, outputs& out, const params& p) {
    const float v[12] = {float(p.small),
                         float(p.unsigned_value),
                         p.flag ? 1.f : 0.f,
                         p.scale,
                         float(p.precise),
                         float(p.half),
                         float(int(p.m)),
                         float(p.pair[0]),
                         float(p.pair[1]),
                         float(p.list.size()),
                         p.list.size() ? float(p.list[0]) : -1.f,
                         float(p.required)};
    for (int i = 0; i < 12; ++i) out.y[i] = v[i];
    return rknnop::ok;
  };
};

// --- helpers ----------------------------------------------------------------------------------------
namespace {
struct tensor_buffer {
  r::op_tensor t{};
  std::vector<unsigned char> data;
  tensor_buffer(r::tensor_type type, std::initializer_list<std::uint32_t> dims, r::tensor_format fmt = r::format_nchw) {
    t.attr.n_dims = static_cast<std::uint32_t>(dims.size());
    std::size_t n = 1, k = 0;
    for (std::uint32_t d : dims) {
      t.attr.dims[k++] = d;
      n *= d;
    }
    const std::size_t size = type == r::type_float16 ? 2 : 4;
    t.attr.n_elems = static_cast<std::uint32_t>(n);
    t.attr.size = static_cast<std::uint32_t>(n * size);
    t.attr.type = type;
    t.attr.fmt = fmt;
    data.assign(n * size, 0);
    t.mem.virt_addr = data.data();
    t.mem.size = static_cast<std::uint32_t>(data.size());
  }
  float* f32() { return reinterpret_cast<float*>(data.data()); }
  std::uint16_t* f16() { return reinterpret_cast<std::uint16_t*>(data.data()); }
};

// As librknnrt 1.6.0 calls a plugin (observed under qemu): init, compute and destroy each get a
// context of their own sharing internal_ctx; priv_data set by a successful init reaches compute and
// destroy, a failed init's does not, and compute is called whatever init returned.
template <class Op>
int run_node(std::vector<r::op_tensor>& in, std::vector<r::op_tensor>& out) {
  r::op_context init_ctx{};
  init_ctx.target = r::target_cpu;
  init_ctx.internal_ctx = 0x400244ec;
  const int init_rc =
      r::init<Op>(&init_ctx, in.data(), std::uint32_t(in.size()), out.data(), std::uint32_t(out.size()));
  r::op_context run_ctx = init_ctx;
  if (init_rc != 0) run_ctx.priv_data = nullptr;
  const int rc = r::compute<Op>(&run_ctx, in.data(), std::uint32_t(in.size()), out.data(), std::uint32_t(out.size()));
  if (init_rc != 0) {
    EXPECT_EQ(rc, -1);
  }
  r::op_context end_ctx = run_ctx;
  EXPECT_EQ(r::destroy<Op>(&end_ctx), 0);
  EXPECT_EQ(end_ctx.priv_data, nullptr);
  return init_rc != 0 ? init_rc : rc;
}

class Rknpu2Plugin : public ::testing::Test {
protected:
  void SetUp() override {
    g_attrs.clear();
    g_lines.clear();
    rknnop::set_log_sink(&capture);
  }
  void TearDown() override { rknnop::set_log_sink(&rknnop::detail::stderr_sink); }
  std::string only_line() {
    EXPECT_EQ(g_lines.size(), 1u);
    return g_lines.empty() ? "" : g_lines.front();
  }
};
}  // namespace

TEST_F(Rknpu2Plugin, CustomOpStructNamesTheOpTypeAndCallbacks) {
  const r::custom_op& op = r::the_custom_op<Dual>;
  EXPECT_STREQ(op.op_type, "cstDualResidual");
  EXPECT_EQ(op.version, 1u);
  EXPECT_EQ(op.target, r::target_cpu);
  EXPECT_NE(op.init, nullptr);
  EXPECT_NE(op.compute, nullptr);
  EXPECT_NE(op.destroy, nullptr);
  EXPECT_EQ(op.compute_native, nullptr);
  EXPECT_EQ(rknnop::rknpu2_op_type<Dual>, "cstDualResidual");
  EXPECT_EQ(rknnop::rknpu2_op_type<Widen>, "Widen");  // no rknpu2_type: the op's name
}

TEST_F(Rknpu2Plugin, DualResidualFloat32IsExactAndFloat16Converts) {
  g_attrs["alpha"] = attr_of<float>(r::type_float32, {0.5f});
  tensor_buffer x(r::type_float32, {1, 3, 10, 10}), y(r::type_float32, {1, 3, 10, 10});
  tensor_buffer o0(r::type_float32, {1, 3, 10, 10}), o1(r::type_float32, {1, 3, 10, 10});
  for (int i = 0; i < 300; ++i) {
    x.f32()[i] = std::sin(float(i)) * 3.f;
    y.f32()[i] = std::cos(float(i) * 0.7f) * 2.f;
  }
  std::vector<r::op_tensor> in{x.t, y.t}, out{o0.t, o1.t};
  ASSERT_EQ(run_node<Dual>(in, out), 0) << (g_lines.empty() ? "" : g_lines[0]);
  for (int i = 0; i < 300; ++i) {
    const float a = x.f32()[i], b = y.f32()[i];
    ASSERT_EQ(o0.f32()[i], a * 0.5f - b) << i;
    ASSERT_EQ(o1.f32()[i], b * 0.5f - a) << i;
  }
  // FLOAT16 tensors: converted exactly in, rounded once out.
  tensor_buffer hx(r::type_float16, {2, 3}), hy(r::type_float16, {2, 3}), h0(r::type_float16, {2, 3}),
      h1(r::type_float16, {2, 3});
  for (int i = 0; i < 6; ++i) {
    hx.f16()[i] = rknnop::float16(float(i) + 0.5f).bits();
    hy.f16()[i] = rknnop::float16(float(i) * -0.25f).bits();
  }
  in = {hx.t, hy.t};
  out = {h0.t, h1.t};
  ASSERT_EQ(run_node<Dual>(in, out), 0);
  for (int i = 0; i < 6; ++i) {
    const float a = float(i) + 0.5f, b = float(i) * -0.25f;
    EXPECT_EQ(h0.f16()[i], rknnop::float16(a * 0.5f - b).bits()) << i;
    EXPECT_EQ(h1.f16()[i], rknnop::float16(b * 0.5f - a).bits()) << i;
  }
}

// init settles the node for its tensors; a compute handed tensors whose shape differs from init's in
// any one dim (rank 4: the key's two 8-byte compares; rank 3: the loop) takes the full path, on its
// own tensors' shapes: every element of the larger tensors is computed.
TEST_F(Rknpu2Plugin, ComputeOnTensorsDifferingFromInitsInAnyDimUsesItsOwnShapes) {
  g_attrs["alpha"] = attr_of<float>(r::type_float32, {0.5f});
  for (const std::vector<std::uint32_t>& settled : {std::vector<std::uint32_t>{1, 1, 1, 1}, {1, 1, 1}}) {
    const auto make = [](const std::vector<std::uint32_t>& d) {
      return d.size() == 4 ? tensor_buffer(r::type_float32, {d[0], d[1], d[2], d[3]})
                           : tensor_buffer(r::type_float32, {d[0], d[1], d[2]});
    };
    tensor_buffer x0 = make(settled), y0 = make(settled), a0 = make(settled), b0 = make(settled);
    std::vector<r::op_tensor> init_in{x0.t, y0.t}, init_out{a0.t, b0.t};
    r::op_context ctx{};
    ctx.target = r::target_cpu;
    ctx.internal_ctx = 0x400244ec;
    ASSERT_EQ(r::init<Dual>(&ctx, init_in.data(), 2, init_out.data(), 2), 0);
    for (std::size_t d = 0; d <= settled.size(); ++d) {  // d == size: init's own shape
      std::vector<std::uint32_t> dims = settled;
      if (d < dims.size()) dims[d] = 3;
      tensor_buffer x = make(dims), y = make(dims), o0 = make(dims), o1 = make(dims);
      const std::size_t n = x.data.size() / 4;
      for (std::size_t i = 0; i < n; ++i) {
        x.f32()[i] = float(i) + 1.f;
        y.f32()[i] = float(i) * 0.25f;
      }
      std::vector<r::op_tensor> in{x.t, y.t}, out{o0.t, o1.t};
      r::op_context run = ctx;
      ASSERT_EQ(r::compute<Dual>(&run, in.data(), 2, out.data(), 2), 0) << (g_lines.empty() ? "" : g_lines[0]);
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(o0.f32()[i], x.f32()[i] * 0.5f - y.f32()[i])
            << "rank " << settled.size() << ", dim " << d << ": " << i;
        ASSERT_EQ(o1.f32()[i], y.f32()[i] * 0.5f - x.f32()[i])
            << "rank " << settled.size() << ", dim " << d << ": " << i;
      }
    }
    EXPECT_EQ(r::destroy<Dual>(&ctx), 0);
  }
}

TEST_F(Rknpu2Plugin, NhwcOpOnNchwTensorsIsConvertedAtTheBoundary) {
  // The runtime hands NCHW [1, 3, 2, 4] (C=3, H=2, W=4); the kernel sees NHWC and doubles W.
  tensor_buffer in_t(r::type_float32, {1, 3, 2, 4}), out_t(r::type_float32, {1, 3, 2, 8});
  for (int i = 0; i < 24; ++i) in_t.f32()[i] = float(i);
  std::vector<r::op_tensor> in{in_t.t}, out{out_t.t};
  ASSERT_EQ(run_node<Widen>(in, out), 0) << (g_lines.empty() ? "" : g_lines[0]);
  for (int c = 0; c < 3; ++c)
    for (int h = 0; h < 2; ++h)
      for (int w = 0; w < 8; ++w)
        ASSERT_EQ(out_t.f32()[(c * 2 + h) * 8 + w],
                  float((c * 2 + h) * 4 + w / 2) + 1000.f * float(c) + 100.f * float(h))
            << c << "," << h << "," << w;
  // NHWC tensors pass through unconverted.
  tensor_buffer nin(r::type_float32, {1, 2, 4, 3}, r::format_nhwc), nout(r::type_float32, {1, 2, 8, 3}, r::format_nhwc);
  for (int i = 0; i < 24; ++i) nin.f32()[i] = float(i);
  in = {nin.t};
  out = {nout.t};
  ASSERT_EQ(run_node<Widen>(in, out), 0);
  for (int h = 0; h < 2; ++h)
    for (int w = 0; w < 8; ++w)
      for (int c = 0; c < 3; ++c)
        ASSERT_EQ(nout.f32()[(h * 8 + w) * 3 + c],
                  float((h * 4 + w / 2) * 3 + c) + 1000.f * float(c) + 100.f * float(h));
}

// Layout and dtype change in one pass at the boundary (detail::rknpu2::convert_permute4): FLOAT16 and
// FLOAT32 NCHW tensors, long W rows (the pass goes along W, in stretches of 64) and many channels with
// a short W (it goes along C), N > 1. Expected values from the NCHW index, rounded once to float16.
// FLOAT16 tensors also reach Mark16's float16 kernel: the layouts change and the bytes do not (per
// image a transpose along the longer side, C or H*W).
TEST_F(Rknpu2Plugin, NchwTensorsConvertAndPermuteInOnePass) {
  struct shape {
    std::uint32_t n, c, h, w;
  };
  // (3 or 4 on the short side, channels or pixels, have their own transpose loop: {2, 3, 5, 70} and
  // the four after {1, 130, 1, 67}, square ones too)
  for (const shape s : {shape{2, 3, 5, 70}, shape{1, 80, 2, 3}, shape{3, 1, 1, 1}, shape{1, 130, 1, 67},
                        shape{2, 4, 3, 5}, shape{2, 7, 1, 3}, shape{1, 9, 2, 2}, shape{2, 3, 1, 3}, shape{1, 4, 2, 2},
                        shape{2, 1, 3, 5}, shape{2, 4, 1, 1}})  // the last two: the same bytes in both layouts
    for (const int variant : {0, 1, 2}) {                       // FLOAT16 tensors, Mark; FLOAT32, Mark; FLOAT16, Mark16
      const r::tensor_type type = variant == 1 ? r::type_float32 : r::type_float16;
      tensor_buffer in_t(type, {s.n, s.c, s.h, s.w}), out_t(type, {s.n, s.c, s.h, s.w});
      const std::size_t count = std::size_t(s.n) * s.c * s.h * s.w;
      const auto input = [](std::size_t i) { return float(int(i % 97) - 48) * 0.25f; };
      for (std::size_t i = 0; i < count; ++i) {
        if (type == r::type_float16)
          in_t.f16()[i] = rknnop::float16(input(i)).bits();
        else
          in_t.f32()[i] = input(i);
      }
      std::vector<r::op_tensor> in{in_t.t}, out{out_t.t};
      ASSERT_EQ(variant == 2 ? run_node<Mark16>(in, out) : run_node<Mark>(in, out), 0)
          << (g_lines.empty() ? "" : g_lines[0]);
      std::size_t i = 0;
      for (std::uint32_t n = 0; n < s.n; ++n)
        for (std::uint32_t c = 0; c < s.c; ++c)
          for (std::uint32_t h = 0; h < s.h; ++h)
            for (std::uint32_t w = 0; w < s.w; ++w, ++i) {
              const float expected =
                  input(i) * 2.f + (8.f * float(n) + 0.25f * float(h) + 0.03125f * float(w) + 0.5f * float(c));
              if (type == r::type_float16)
                ASSERT_EQ(out_t.f16()[i], rknnop::float16(expected).bits())
                    << variant << ": " << n << "," << c << "," << h << "," << w;
              else
                ASSERT_EQ(out_t.f32()[i], expected) << n << "," << c << "," << h << "," << w;
            }
    }
}

// The layout rule's plan (detail/invoke/layout.hpp): an NCHW tensor of an NHWC field changes layout
// (permute), and its bytes move only when both C and H*W exceed 1; with C = 1 or H*W = 1 the two
// layouts are the same bytes and nothing is copied (the values: NchwTensorsConvertAndPermuteInOnePass).
TEST_F(Rknpu2Plugin, ALayoutChangeMovesBytesOnlyWhenTheyDiffer) {
  constexpr rknnop::field_desc f = rknnop::detail::op_model<Mark>::fields[0];
  struct plan_case {
    std::uint32_t dims[4];  // NCHW, outermost first
    bool permute, moves;
  };
  for (const plan_case& k :
       {plan_case{{2, 3, 1, 5}, true, true}, plan_case{{1, 3, 4, 4}, true, true}, plan_case{{2, 1, 3, 5}, true, false},
        plan_case{{2, 4, 1, 1}, true, false}, plan_case{{1, 1, 1, 1}, false, false}}) {
    rknnop::detail::tensor_info info;
    rknnop::detail::layout_plan plan;
    rknnop::detail::plan_layout(f, rknnop::detail::tensor_layout::nchw, k.dims, 4, info, plan);
    EXPECT_EQ(plan.permute, k.permute) << k.dims[0] << "," << k.dims[1] << "," << k.dims[2] << "," << k.dims[3];
    EXPECT_EQ(plan.moves, k.moves) << k.dims[0] << "," << k.dims[1] << "," << k.dims[2] << "," << k.dims[3];
    EXPECT_EQ(info.dims[0], k.dims[1]) << "the kernel's innermost dim is C";
  }
}

// --- an element-wise op's one pass, in place (core's run_each_element through rknpu2_settled_io) ---
namespace {
// An each_element op with an NHWC field: NCHW tensors are laid out anew, so it takes the ordinary pipeline.
struct EachTwiceNhwc {
  using image = rknnop::tensor<rknnop::layout::nhwc, float>;
  struct inputs {
    image in;
  };
  struct outputs {
    image out;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, rknnop::no_params) {
    out.out.set_dims(in.in.dims());
  };
  static constexpr auto cpu = rknnop::each_element([](float x) { return 2.f * x + 1.f; });
};

std::size_t one_passes() { return __atomic_load_n(&rknnop::detail::each_element_passes, __ATOMIC_RELAXED); }

struct pool_threads {
  explicit pool_threads(unsigned n) { rknnop::detail::thread_pool::set_threads(n); }
  pool_threads(const pool_threads&) = delete;
  pool_threads& operator=(const pool_threads&) = delete;
  ~pool_threads() { rknnop::detail::thread_pool::set_threads(0); }
};

// x as the tensor of `type` holds it, and e^x of that in the output's type, as bits.
float held(r::tensor_type type, float v) { return type == r::type_float16 ? float(rknnop::float16(v)) : v; }
std::uint32_t exp_bits(r::tensor_type in, r::tensor_type out, float v) {
  const float e = std::exp(held(in, v));
  if (out == r::type_float16) return rknnop::float16(e).bits();
  std::uint32_t bits;
  std::memcpy(&bits, &e, 4);
  return bits;
}
void fill(tensor_buffer& t, r::tensor_type type, const std::vector<float>& x) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (type == r::type_float16)
      t.f16()[i] = rknnop::float16(x[i]).bits();
    else
      t.f32()[i] = x[i];
  }
}
std::uint32_t bits_at(tensor_buffer& t, r::tensor_type type, std::size_t i) {
  if (type == r::type_float16) return t.f16()[i];
  std::uint32_t bits;
  std::memcpy(&bits, t.f32() + i, 4);
  return bits;
}
std::vector<float> spread(std::size_t n, float lo, float hi) {
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = lo + (hi - lo) * float((i * 7919) % 1000) / 1000.f;
  return x;
}
// compute without init: the attributes read by the call, the shapes and `infer` per call (rknpu2_io),
// as rknnop_rknpu2_compute runs a plugin for RKNN-Toolkit2's class and the tools.
template <class Op>
int compute_alone(std::vector<r::op_tensor>& in, std::vector<r::op_tensor>& out) {
  r::op_context ctx{};
  ctx.target = r::target_cpu;
  ctx.internal_ctx = 0x400255ec;
  return r::compute<Op>(&ctx, in.data(), std::uint32_t(in.size()), out.data(), std::uint32_t(out.size()));
}
}  // namespace

// On librknnrt's tensors (host memory) the one pass reads the inputs and writes the output in place:
// every dtype pair, small and large tensors, 1..3 threads, after init (the settled adapter) and without
// (per call), e^x bit for bit as this test computes it.
TEST_F(Rknpu2Plugin, AnElementWiseOpRunsInOnePassOnTheRuntimesMemory) {
  struct shape {
    std::uint32_t n, c, h, w;
  };
  for (const shape s : {shape{1, 3, 4, 5}, shape{1, 3, 120, 160}, shape{2, 1, 1, 70001}})
    for (const r::tensor_type in_type : {r::type_float32, r::type_float16})
      for (const r::tensor_type out_type : {r::type_float32, r::type_float16})
        for (const unsigned threads : {1u, 2u, 3u}) {
          const pool_threads set(threads);
          tensor_buffer in_t(in_type, {s.n, s.c, s.h, s.w}), out_t(out_type, {s.n, s.c, s.h, s.w});
          const std::size_t n = std::size_t(s.n) * s.c * s.h * s.w;
          const std::vector<float> x = spread(n, -6.f, 6.f);
          fill(in_t, in_type, x);
          std::vector<r::op_tensor> in{in_t.t}, out{out_t.t};
          const std::size_t before = one_passes();
          const bool with_init = threads != 2;  // 2 threads: compute alone
          ASSERT_EQ(with_init ? run_node<Exp>(in, out) : compute_alone<Exp>(in, out), 0)
              << (g_lines.empty() ? "" : g_lines[0]);
          EXPECT_EQ(one_passes(), before + 1) << "the one pass ran once";
          for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(bits_at(out_t, out_type, i), exp_bits(in_type, out_type, x[i]))
                << i << " of " << n << ", " << threads << " threads, types " << in_type << " -> " << out_type;
        }
}

// Tensors the one pass must not take, each then run by the ordinary pipeline with the same values: an
// NHWC field on NCHW tensors (laid out anew), and an input that is the output's own memory.
TEST_F(Rknpu2Plugin, AnElementWiseOpTakesTheOrdinaryPipelineWhereTheOnePassCannot) {
  {  // NHWC field, NCHW tensors: moved both ways
    tensor_buffer in_t(r::type_float32, {1, 3, 4, 5}), out_t(r::type_float32, {1, 3, 4, 5});
    for (int i = 0; i < 60; ++i) in_t.f32()[i] = float(i);
    std::vector<r::op_tensor> in{in_t.t}, out{out_t.t};
    const std::size_t before = one_passes();
    ASSERT_EQ(run_node<EachTwiceNhwc>(in, out), 0) << (g_lines.empty() ? "" : g_lines[0]);
    EXPECT_EQ(one_passes(), before);
    for (int i = 0; i < 60; ++i) ASSERT_EQ(out_t.f32()[i], 2.f * float(i) + 1.f) << i;
  }
  for (const r::tensor_type type : {r::type_float32, r::type_float16}) {  // the output is the input's memory
    tensor_buffer t(type, {1, 3, 40, 50});
    const std::vector<float> x = spread(6000, -3.f, 3.f);
    fill(t, type, x);
    std::vector<r::op_tensor> in{t.t}, out{t.t};
    const std::size_t before = one_passes();
    ASSERT_EQ(run_node<Exp>(in, out), 0) << (g_lines.empty() ? "" : g_lines[0]);
    EXPECT_EQ(one_passes(), before);
    for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(bits_at(t, type, i), exp_bits(type, type, x[i])) << i;
  }
}

// The precision rule (checking builds: the PC's plugins): e^12 overflows float16. The one pass refuses
// the call with the ordinary pipeline's line, naming the first such element; the ordinary pipeline runs
// on the same call with the FLOAT16 output written over the FLOAT32 input's memory (it reads every
// input before it writes). A board's plugin converts without the rule (docs/architecture.md §1): inf
// there, on both paths.
TEST_F(Rknpu2Plugin, AnElementWiseOpsLossyOutputIsTheOrdinaryPipelinesLine) {
  const std::size_t n = 3 * 120 * 160, at = n / 2 + 1;
  std::vector<float> x = spread(n, -4.f, 4.f);
  x[at] = 12.f;
  x[n - 1] = 12.f;  // a later one: the line names the first
  std::string lines[2];
  for (const bool one_pass : {true, false}) {
    tensor_buffer in_t(r::type_float32, {1, 3, 120, 160}), out_t(r::type_float16, {1, 3, 120, 160});
    fill(in_t, r::type_float32, x);
    if (!one_pass) out_t.t.mem.virt_addr = in_t.data.data();  // the output over the input's bytes
    std::vector<r::op_tensor> in{in_t.t}, out{out_t.t};
    g_lines.clear();
    const std::size_t before = one_passes();
    const int rc = run_node<Exp>(in, out);
    EXPECT_EQ(one_passes(), before + (one_pass ? 1 : 0));
    const auto* written = static_cast<const std::uint16_t*>(out_t.t.mem.virt_addr);
    if constexpr (!rknnop::detail::check_every_element) {
      ASSERT_EQ(rc, 0) << (g_lines.empty() ? "" : g_lines[0]);
      EXPECT_EQ(written[at], 0x7C00u) << "inf";
      EXPECT_EQ(written[n - 1], 0x7C00u) << "inf";
      continue;
    }
    EXPECT_EQ(rc, -1);
    lines[one_pass] = only_line();
    EXPECT_NE(lines[one_pass].find("rknnop: Exp: output 'y': element " + std::to_string(at) + " (index ["),
              std::string::npos)
        << lines[one_pass];
    EXPECT_NE(lines[one_pass].find("]) = 162755 becomes inf (overflow)"), std::string::npos) << lines[one_pass];
  }
  EXPECT_EQ(lines[1], lines[0]);
}

TEST_F(Rknpu2Plugin, AnInferThatDisagreesWithTheModelsOutputIsOneLine) {
  tensor_buffer in_t(r::type_float32, {1, 3, 2, 4}), out_t(r::type_float32, {1, 3, 2, 4});  // W should be 8
  std::vector<r::op_tensor> in{in_t.t}, out{out_t.t};
  EXPECT_EQ(run_node<Widen>(in, out), -1);
  EXPECT_EQ(only_line(),
            "rknnop: Widen: output 'out': shape inference gives NumPy shape (1, 2, 8, 3), the output tensor has "
            "(1, 2, 4, 3) (dims innermost first [3,8,2,1] and [3,4,2,1])");
}

TEST_F(Rknpu2Plugin, AttributesConvertByTheRules) {
  g_attrs["small"] = attr_of<std::int64_t>(r::type_int64, {-7});
  g_attrs["unsigned_value"] = attr_of<std::int32_t>(r::type_int32, {65535});
  g_attrs["flag"] = attr_of<std::uint8_t>(r::type_uint8, {1});
  g_attrs["scale"] = attr_of<std::int64_t>(r::type_int64, {3});  // an integer a float holds exactly
  g_attrs["half"] = attr_of<std::uint16_t>(r::type_float16, {rknnop::float16(-1.5f).bits()});
  g_attrs["m"] = attr_of<std::int64_t>(r::type_int64, {3});
  g_attrs["list"] = attr_of<std::int64_t>(r::type_int64, {4, 5, 6});
  g_attrs["required"] = attr_of<std::int64_t>(r::type_int64, {-9000000000LL});
  tensor_buffer x(r::type_float32, {1}), y(r::type_float32, {12});
  std::vector<r::op_tensor> in{x.t}, out{y.t};
  ASSERT_EQ(run_node<Params>(in, out), 0) << (g_lines.empty() ? "" : g_lines[0]);
  const float expected[12] = {-7, 65535, 1, 3, 0.25f /* default */, -1.5f, 3, 7, 8 /* default */, 3, 4, -9e9f};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(y.f32()[i], expected[i]) << i;
}

TEST_F(Rknpu2Plugin, EachBadAttributeIsOneLineNamingParamExpectedAndGot) {
  struct bad_case {
    const char* name;
    fake_attr attr;
    const char* line;
  };
  const bad_case cases[] = {
      // The core's rules (detail/invoke/attrs.hpp, MindSpore Lite's too): a float is finite, as
      // rknnop-run --param alpha=nan refuses it.
      {"scale", attr_of<float>(r::type_float32, {std::nanf("")}),
       "rknnop: Params: param 'scale': nan is not a finite number"},
      {"precise", attr_of<float>(r::type_float32, {-HUGE_VALF}),
       "rknnop: Params: param 'precise': -inf is not a finite number"},
      {"small", attr_of<std::int64_t>(r::type_int64, {300}),
       "rknnop: Params: param 'small': item 0 of the node's attribute is 300, expected a value the param's type "
       "holds"},
      {"unsigned_value", attr_of<std::int32_t>(r::type_int32, {-1}),
       "rknnop: Params: param 'unsigned_value': item 0 of the node's attribute is -1, expected a value the param's "
       "type holds"},
      {"flag", attr_of<std::int64_t>(r::type_int64, {2}),
       "rknnop: Params: param 'flag': 2 is not a bool value, expected 0 or 1"},
      {"scale", attr_of<float>(r::type_float32, {1.f, 2.f}),
       "rknnop: Params: param 'scale': the node's attribute 'scale' is FLOAT32 with 2 items, expected one float "
       "(FLOAT32, FLOAT16, or an exact integer)"},
      {"small", attr_of<float>(r::type_float32, {0.5f}),
       "rknnop: Params: param 'small': the node's attribute 'small' is FLOAT32 with 1 item, expected one integer "
       "(INT64, INT32, INT16, INT8, UINT32, UINT16, UINT8 or BOOL)"},
      {"half", attr_of<float>(r::type_float32, {0.1f}),
       "rknnop: Params: param 'half': item 0 of the node's attribute is 0.1, expected a value float16 holds exactly"},
      {"m", attr_of<std::int64_t>(r::type_int64, {1}),
       "rknnop: Params: param 'm': 1 is not the value of one of the enum's names (CONSTANT = 0, REFLECT = 3)"},
      {"pair", attr_of<std::int64_t>(r::type_int64, {1, 2, 3}),
       "rknnop: Params: param 'pair': the node's attribute 'pair' is INT64 with 3 items, expected an integer array "
       "(INT64, INT32, INT16, INT8, UINT32, UINT16, UINT8 or BOOL) of exactly 2 items"},
      {"list", attr_of<std::int64_t>(r::type_int64, {1, 2, 3, 4, 5}),
       "rknnop: Params: param 'list': the node's attribute 'list' is INT64 with 5 items, expected an integer array "
       "(INT64, INT32, INT16, INT8, UINT32, UINT16, UINT8 or BOOL) of at most 4 items"},
      {"list", attr_of<std::int64_t>(r::type_int64, {1, 1LL << 40}),
       "rknnop: Params: param 'list': item 1 of the node's attribute is 1099511627776, expected a value the param's "
       "type holds"},
  };
  for (const bad_case& c : cases) {
    SetUp();
    g_attrs["required"] = attr_of<std::int64_t>(r::type_int64, {1});
    g_attrs[c.name] = c.attr;
    tensor_buffer x(r::type_float32, {1}), y(r::type_float32, {12});
    std::vector<r::op_tensor> in{x.t}, out{y.t};
    EXPECT_EQ(run_node<Params>(in, out), -1) << c.name;
    EXPECT_EQ(only_line(), c.line);
  }
  // An attribute the model lacks, for a param without a default.
  SetUp();
  tensor_buffer x(r::type_float32, {1}), y(r::type_float32, {12});
  std::vector<r::op_tensor> in{x.t}, out{y.t};
  EXPECT_EQ(run_node<Params>(in, out), -1);
  EXPECT_EQ(only_line(),
            "rknnop: Params: param 'required': the node has no attribute 'required' and the param has no default "
            "(give the node the attribute, or the field a default member initializer)");
}

TEST_F(Rknpu2Plugin, TensorsTheOpCannotTakeAreOneLine) {
  g_attrs["alpha"] = attr_of<float>(r::type_float32, {0.5f});
  tensor_buffer x(r::type_float32, {4}), y(r::type_float32, {4}), o0(r::type_float32, {4}), o1(r::type_float32, {4});
  x.t.attr.type = r::type_int64;
  std::vector<r::op_tensor> in{x.t, y.t}, out{o0.t, o1.t};
  EXPECT_EQ(run_node<Dual>(in, out), -1);
  EXPECT_EQ(
      only_line(),
      "rknnop: Dual (cstDualResidual): input 'x': rknnop has no element type for this dtype (the runtime's tensor: "
      "INT64 NCHW [4])");
}

TEST_F(Rknpu2Plugin, ShortBuffersKernelErrorsAndWrongCountsAreOneLineEach) {
  g_attrs["alpha"] = attr_of<float>(r::type_float32, {0.5f});
  tensor_buffer x(r::type_float32, {4}), y(r::type_float32, {4}), o0(r::type_float32, {4}), o1(r::type_float32, {4});
  y.t.mem.size = 12;  // one element short
  std::vector<r::op_tensor> in{x.t, y.t}, out{o0.t, o1.t};
  EXPECT_EQ(run_node<Dual>(in, out), -1);
  EXPECT_EQ(
      only_line(),
      "rknnop: Dual (cstDualResidual): input 'y': 16 bytes at offset 0 of a 12-byte buffer (the runtime's tensor: "
      "FLOAT32 NCHW [4])");
  SetUp();
  g_attrs["alpha"] = attr_of<float>(r::type_float32, {500.f});
  in = {x.t, x.t};
  EXPECT_EQ(run_node<Dual>(in, out), -1);
  EXPECT_EQ(only_line(), "rknnop: Dual (cstDualResidual): the CPU kernel failed: alpha 500 is too large");
  SetUp();
  g_attrs["alpha"] = attr_of<float>(r::type_float32, {0.5f});
  in = {x.t};
  EXPECT_EQ(run_node<Dual>(in, out), -1);
  EXPECT_EQ(only_line(), "rknnop: Dual (cstDualResidual): the node has 1 input, the op declares 2");
}

TEST_F(Rknpu2Plugin, InferAndComputeEntriesTakeAttributesFromTheCaller) {
  r::op_attr alpha{};
  std::strcpy(alpha.name, "alpha");
  float value = 2.f;
  alpha.dtype = r::type_float32;
  alpha.n_elems = 1;
  alpha.data = &value;
  tensor_buffer x(r::type_float32, {2, 2}), y(r::type_float32, {2, 2}), o0(r::type_float32, {2, 2}),
      o1(r::type_float32, {2, 2});
  r::tensor_attr shapes[2] = {x.t.attr, y.t.attr}, outs[2] = {};
  char line[256] = {};
  ASSERT_EQ(r::infer_entry<Dual>(&alpha, 1, shapes, 2, outs, 2, line, sizeof line), 0) << line;
  EXPECT_EQ(outs[1].n_dims, 2u);
  EXPECT_EQ(outs[1].dims[0], 2u);
  EXPECT_EQ(outs[1].n_elems, 4u);
  EXPECT_EQ(outs[1].size, 16u);
  EXPECT_EQ(outs[1].type, r::type_float32);
  for (int i = 0; i < 4; ++i) x.f32()[i] = y.f32()[i] = float(i);
  r::op_tensor in[2] = {x.t, y.t}, out[2] = {o0.t, o1.t};
  ASSERT_EQ(r::compute_entry<Dual>(&alpha, 1, in, 2, out, 2, line, sizeof line), 0) << line;
  for (int i = 0; i < 4; ++i) EXPECT_EQ(o0.f32()[i], float(i) * 2.f - float(i));
  ASSERT_EQ(r::compute_entry<Dual>(nullptr, 0, in, 2, out, 2, line, sizeof line), -1);
  EXPECT_STREQ(
      line,
      "rknnop: Dual (cstDualResidual): param 'alpha': the node has no attribute 'alpha' and the param has no default "
      "(give the node the attribute, or the field a default member initializer)");
  EXPECT_TRUE(g_lines.empty());  // into the caller's buffer, not the log
}

// The core's one `infer` check (detail/invoke/pipeline.hpp) in compute and in the infer export: the
// same lines as RKNN v1's validator and MindSpore Lite (tests/core/test_validator.cpp).
TEST_F(Rknpu2Plugin, AZeroDimAndAnInt8ForAFloatOutputAreRefusedByComputeAndTheInferExport) {
  using rknnop::test::Int8Infer;
  using rknnop::test::ZeroDimInfer;
  for (const r::tensor_type type : {r::type_float32, r::type_float16}) {
    SetUp();
    tensor_buffer x(r::type_float32, {3}), y(type, {3, 1});
    std::vector<r::op_tensor> in{x.t}, out{y.t};
    EXPECT_EQ(run_node<ZeroDimInfer>(in, out), -1);
    EXPECT_EQ(only_line(), std::string("rknnop: ZeroDimInfer: ") + rknnop::test::zero_dim_line);
    SetUp();
    tensor_buffer y2(type, {3});
    out = {y2.t};
    EXPECT_EQ(run_node<Int8Infer>(in, out), -1);
    EXPECT_EQ(only_line(), std::string("rknnop: Int8Infer: ") + rknnop::test::int8_line);
  }
  r::tensor_attr shapes[1] = {tensor_buffer(r::type_float32, {3}).t.attr}, outs[1] = {};
  char line[256] = {};
  EXPECT_EQ(r::infer_entry<ZeroDimInfer>(nullptr, 0, shapes, 1, outs, 1, line, sizeof line), -1);
  EXPECT_EQ(std::string(line), std::string("rknnop: ZeroDimInfer: ") + rknnop::test::zero_dim_line);
  EXPECT_EQ(r::infer_entry<Int8Infer>(nullptr, 0, shapes, 1, outs, 1, line, sizeof line), -1);
  EXPECT_EQ(std::string(line), std::string("rknnop: Int8Infer: ") + rknnop::test::int8_line);
}

// An attribute given with no items is not an absent one (the entries for callers without librknnrt
// tell the two apart; librknnrt answers both with no items and no data): a scalar refuses it, an
// exact array refuses it, a bounded array is the empty list.
TEST_F(Rknpu2Plugin, AnAttributeWithNoItemsIsNotAnAbsentOne) {
  std::int64_t required = 5;
  const auto attr = [](const char* name, r::tensor_type type, void* data, std::uint32_t n) {
    r::op_attr a{};
    std::strcpy(a.name, name);
    a.dtype = type;
    a.n_elems = n;
    a.data = data;
    return a;
  };
  tensor_buffer x(r::type_float32, {1}), y(r::type_float32, {12});
  r::op_tensor in[1] = {x.t}, out[1] = {y.t};
  char line[256] = {};
  r::op_attr attrs[2] = {attr("required", r::type_int64, &required, 1), attr("small", r::type_int64, nullptr, 0)};
  EXPECT_EQ(r::compute_entry<Params>(attrs, 2, in, 1, out, 1, line, sizeof line), -1);
  EXPECT_STREQ(line,
               "rknnop: Params: param 'small': the node's attribute 'small' is INT64 with 0 items, expected one "
               "integer (INT64, INT32, INT16, INT8, UINT32, UINT16, UINT8 or BOOL)");
  attrs[1] = attr("pair", r::type_int64, nullptr, 0);
  EXPECT_EQ(r::compute_entry<Params>(attrs, 2, in, 1, out, 1, line, sizeof line), -1);
  EXPECT_STREQ(line,
               "rknnop: Params: param 'pair': the node's attribute 'pair' is INT64 with 0 items, expected an integer "
               "array (INT64, INT32, INT16, INT8, UINT32, UINT16, UINT8 or BOOL) of exactly 2 items");
  std::int64_t items[1] = {9};
  r::op_attr three[3] = {attrs[0], attr("list", r::type_int64, items, 1), attr("list", r::type_int64, nullptr, 0)};
  ASSERT_EQ(r::compute_entry<Params>(three, 2, in, 1, out, 1, line, sizeof line), 0) << line;
  EXPECT_EQ(y.f32()[9], 1.f);  // list.size()
  three[1] = three[2];         // the empty list: size 0, not absent
  ASSERT_EQ(r::compute_entry<Params>(three, 2, in, 1, out, 1, line, sizeof line), 0) << line;
  EXPECT_EQ(y.f32()[9], 0.f);
  EXPECT_EQ(y.f32()[10], -1.f);
}

// --- RKNNOP_RECORD (detail/rknpu2/record.hpp): the recorder's bounds, as a board run meets them --------
namespace {
// A fresh folder, and the recorder set up as the plugin's constructor sets it from the environment.
struct record_fixture {
  std::string dir;
  explicit record_fixture(const char* max) {
    char pattern[] = "/tmp/rknnop-record-test.XXXXXX";
    dir = ::mkdtemp(pattern) ? pattern : "";
    core::record_state = core::record_settings{};
    core::record_enabled = false;
    ::setenv("RKNNOP_RECORD", (dir + "/record").c_str(), 1);
    if (max) {
      ::setenv("RKNNOP_RECORD_MAX", max, 1);
    } else {
      ::unsetenv("RKNNOP_RECORD_MAX");
    }
    core::read_record_setting();
  }
  ~record_fixture() {
    core::record_enabled = false;
    core::record_state = core::record_settings{};
    ::unsetenv("RKNNOP_RECORD");
    ::unsetenv("RKNNOP_RECORD_MAX");
    const std::string command = "rm -rf '" + dir + "'";
    if (!dir.empty()) {
      EXPECT_EQ(std::system(command.c_str()), 0);
    }
  }
  [[nodiscard]] std::vector<std::string> files() const {
    std::vector<std::string> names;
    // readdir64: a 32-bit readdir fails with EOVERFLOW (an empty list) on a 64-bit host's folders
    // under qemu-arm, whose inode numbers and offsets need 64 bits.
    if (DIR* d = ::opendir((dir + "/record").c_str())) {
      while (const dirent64* e = ::readdir64(d))
        if (e->d_name[0] != '.') names.emplace_back(e->d_name);
      ::closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
  }
  [[nodiscard]] std::string read(const std::string& name) const {
    std::string text;
    if (FILE* f = std::fopen((dir + "/record/" + name).c_str(), "rb")) {
      char chunk[4096];
      for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0;) text.append(chunk, n);
      std::fclose(f);
    }
    return text;
  }
};

// DualResidual on 300 floats per tensor (1200 bytes each), alpha 0.5: compute's status, its stderr.
int dual_call(std::string& said) {
  g_attrs["alpha"] = attr_of<float>(r::type_float32, {0.5f});
  tensor_buffer x(r::type_float32, {1, 3, 10, 10}), y(r::type_float32, {1, 3, 10, 10});
  tensor_buffer o0(r::type_float32, {1, 3, 10, 10}), o1(r::type_float32, {1, 3, 10, 10});
  for (int i = 0; i < 300; ++i) {
    x.f32()[i] = float(i) * 0.25f;
    y.f32()[i] = float(i) * -0.125f;
  }
  std::vector<r::op_tensor> in{x.t, y.t}, out{o0.t, o1.t};
  testing::internal::CaptureStderr();
  const int rc = run_node<Dual>(in, out);
  said += testing::internal::GetCapturedStderr();
  for (int i = 0; i < 300; ++i)
    if (o0.f32()[i] != float(i) * 0.25f * 0.5f + float(i) * 0.125f) return 99;  // recording changed the result
  return rc;
}

std::size_t count_of(const std::string& text, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_F(Rknpu2Plugin, RecordWritesEachCallUpToTheCallBoundWithOneLineEach) {
  record_fixture rec("2");
  ASSERT_TRUE(core::record_enabled);
  std::string said;
  for (int call = 0; call < 3; ++call) ASSERT_EQ(dual_call(said), 0) << said;
  const std::vector<std::string> expected = {
      "rknnop-cstDualResidual-000000.in0.npy",  "rknnop-cstDualResidual-000000.in1.npy",
      "rknnop-cstDualResidual-000000.manifest", "rknnop-cstDualResidual-000000.out0.npy",
      "rknnop-cstDualResidual-000000.out1.npy", "rknnop-cstDualResidual-000001.in0.npy",
      "rknnop-cstDualResidual-000001.in1.npy",  "rknnop-cstDualResidual-000001.manifest",
      "rknnop-cstDualResidual-000001.out0.npy", "rknnop-cstDualResidual-000001.out1.npy"};
  EXPECT_EQ(rec.files(), expected);
  EXPECT_EQ(count_of(said, "rknnop: recording cstDualResidual calls to " + rec.dir + "/record\n"), 1u) << said;
  EXPECT_EQ(count_of(said, "rknnop: cstDualResidual: recording stopped: RKNNOP_RECORD_MAX's 2 calls are recorded\n"),
            1u)
      << said;
  EXPECT_EQ(count_of(said, "\n"), 2u) << said;
  // The manifest: the op, the call, the tensors as handed, alpha's bytes (0.5f: 0x3f000000, little-endian).
  const std::string m = rec.read("rknnop-cstDualResidual-000001.manifest");
  for (const char* line :
       {"rknnop_record=1\n", "op_type=cstDualResidual\n", "op=Dual\n", "call=1\n", "status=ok\n", "input.0.name=x\n",
        "input.1.dtype=FLOAT32\n", "input.0.layout=NCHW\n", "output.1.shape=1,3,10,10\n", "attr.0.name=alpha\n",
        "attr.0.dtype=FLOAT32\n", "attr.0.count=1\n", "attr.0.data=0000003f\n", "\nend\n"})
    EXPECT_NE(m.find(line), std::string::npos) << line << " not in\n" << m;
  // The .npy: NumPy's header, then the 300 floats as handed.
  const std::string npy = rec.read("rknnop-cstDualResidual-000000.in1.npy");
  ASSERT_EQ(npy.size(), 128u + 1200u);
  EXPECT_EQ(npy.substr(0, 6), "\x93NUMPY");
  EXPECT_NE(npy.find("'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 10, 10), }"), std::string::npos);
  float v = 0;
  std::memcpy(&v, npy.data() + 128 + 4 * 7, 4);
  EXPECT_EQ(v, 7 * -0.125f);
}

TEST_F(Rknpu2Plugin, RecordNeverOverwritesAndAFailedWriteNeverFailsCompute) {
  record_fixture rec(nullptr);
  ASSERT_EQ(::mkdir((rec.dir + "/record").c_str(), 0755), 0);
  FILE* f = std::fopen((rec.dir + "/record/rknnop-cstDualResidual-000000.in1.npy").c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fputs("mine", f);
  std::fclose(f);
  std::string said;
  ASSERT_EQ(dual_call(said), 0) << said;
  ASSERT_EQ(dual_call(said), 0) << said;
  EXPECT_EQ(rec.read("rknnop-cstDualResidual-000000.in1.npy"), "mine");
  EXPECT_EQ(count_of(said, "rknnop: cstDualResidual: recording stopped: " + rec.dir +
                               "/record/rknnop-cstDualResidual-000000.in1.npy: the file exists (a record is never "
                               "overwritten)\n"),
            1u)
      << said;
  EXPECT_EQ(count_of(said, "\n"), 2u) << said;  // the first write's line, the stop
  // No manifest: nothing names an incomplete call.
  for (const std::string& name : rec.files()) EXPECT_EQ(name.find(".manifest"), std::string::npos) << name;
}

TEST_F(Rknpu2Plugin, RecordWriteThatFailsPartWayLeavesNoPartialFile) {
  record_fixture rec(nullptr);
  // Files of at most 1000 bytes: the first input's (a header's 128 and 1200 bytes) is cut short (EFBIG).
  rlimit before{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &before), 0);
  rlimit small = before;
  small.rlim_cur = 1000;
  const auto handler = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string said;
  const int rc = dual_call(said);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &before), 0);
  std::signal(SIGXFSZ, handler);
  ASSERT_EQ(rc, 0) << said;
  EXPECT_EQ(count_of(said, "rknnop: cstDualResidual: recording stopped: " + rec.dir +
                               "/record/rknnop-cstDualResidual-000000.in0.npy: File too large\n"),
            1u)
      << said;
  EXPECT_EQ(rec.files(), std::vector<std::string>{});  // the cut file removed, nothing after it
}

TEST_F(Rknpu2Plugin, RecordStopsBeforeACallPassesTheByteBound) {
  record_fixture rec("10,8K");
  std::string said;
  ASSERT_EQ(dual_call(said), 0) << said;  // 4 x (1200 + a header's 128) and the manifest's 4096: 9408 bytes > 8 KiB
  EXPECT_TRUE(rec.files().empty());
  EXPECT_EQ(said,
            "rknnop: cstDualResidual: recording stopped: the next call's 9408 bytes would pass RKNNOP_RECORD_MAX's "
            "8192 bytes\n");
}

TEST_F(Rknpu2Plugin, RecordOfATensorTheRuntimeClaimsHugeDoesNotPassTheByteBound) {
  record_fixture rec(nullptr);
  // 2^62 - 1 floats (2147483647 x 2147483649): 2^64 - 4 bytes, with no buffer size to check them against;
  // its .npy header's 128 bytes added, the call's size would wrap to a few bytes and pass the bound.
  float data[4] = {};
  r::op_tensor huge{};
  huge.attr.type = r::type_float32;
  huge.attr.fmt = r::format_nchw;
  huge.attr.n_dims = 2;
  huge.attr.dims[0] = 2147483647u;
  huge.attr.dims[1] = 2147483649u;
  huge.mem.virt_addr = data;
  r::record_call c;
  c.type = "cstDualResidual";
  c.name = "Dual";
  c.inputs = &huge;
  c.n_inputs = 1;
  testing::internal::CaptureStderr();
  EXPECT_FALSE(r::record_before(c));
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(said, "");  // not recorded: no call reserved, no file opened
  EXPECT_EQ(core::record_state.calls, 0u);
  EXPECT_EQ(core::record_state.bytes, 0u);
  EXPECT_EQ(rec.files(), std::vector<std::string>{});
}

TEST_F(Rknpu2Plugin, RecordToAFolderThatCannotBeMadeStopsWithOneLine) {
  record_fixture rec(nullptr);
  FILE* f = std::fopen((rec.dir + "/record").c_str(), "wb");  // a file where the folder should be
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  std::string said;
  ASSERT_EQ(dual_call(said), 0) << said;
  ASSERT_EQ(dual_call(said), 0) << said;
  EXPECT_EQ(count_of(said, "recording stopped: "), 1u) << said;
  EXPECT_NE(said.find(rec.dir + "/record/rknnop-cstDualResidual-000000.in0.npy: Not a directory\n"), std::string::npos)
      << said;
}

TEST_F(Rknpu2Plugin, RecordMaxThatIsNotABoundTurnsRecordingOffWithOneLine) {
  for (const char* bad : {"many", "10,", "10,5T", "-1", "99999999999999999999"}) {
    testing::internal::CaptureStderr();
    record_fixture rec(bad);
    const std::string said = testing::internal::GetCapturedStderr();
    EXPECT_FALSE(core::record_enabled) << bad;
    EXPECT_EQ(said, std::string("rknnop: RKNNOP_RECORD_MAX='") + bad +
                        "': expected CALLS or CALLS,BYTES (BYTES with K, M or G, e.g. 32,64M): not recording\n");
  }
  ::unsetenv("RKNNOP_RECORD");
  core::read_record_setting();  // unset: off, nothing said
  EXPECT_FALSE(core::record_enabled);
}
