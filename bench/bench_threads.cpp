// SPDX-License-Identifier: MIT
// rknnop::parallel_for in the examples, side by side in one process, wall time: each kernel with 1
// thread and with 2 (the pool's thread count set between calls), ResizeArea against OpenCV's
// cv::resize(INTER_AREA) with cv::setNumThreads(2), and ResizeArea nodes on float16 tensors through
// the host runtime: 480x640 -> 240x320 and 1080x1920 -> 540x960 (copies, conversions and kernel, all
// split), and a tiny one (where parallel_for must cost nothing: the work is below its threshold).
// Ratios: 2 threads / 1 thread (goal <= 0.60; tiny node <= 1.05), 2 threads / OpenCV 2 threads
// (goal <= 1.0), and each node (1 thread) against a memcpy of its input and output bytes, with an
// identity op's node on float16 (issue 49: ResizeArea <= 3 at 1080x1920, <= 4 at 480x640; identity <= 2).
// On a machine with fewer than 2 free cores the 2-thread figures are pessimistic.
#include "exp/exp.cpp"
#include "resize_area/resize_area.cpp"
#include "side_by_side.hpp"

#include <rknnop/each_element.hpp>
#include <rknnop/host/openvx_host.h>

#if RKNNOP_BENCH_HAVE_OPENCV
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#endif

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using pool = rknnop::detail::thread_pool;

struct resize_images {
  std::uint32_t h, w, out_h, out_w;
  std::vector<float> src, dst;
  ResizeArea::inputs in;
  ResizeArea::outputs out;
  ResizeArea::params p{};
  resize_images(std::uint32_t in_h, std::uint32_t in_w, std::uint32_t oh, std::uint32_t ow)
      : h(in_h), w(in_w), out_h(oh), out_w(ow), src(std::size_t(in_h) * in_w * 3), dst(std::size_t(oh) * ow * 3) {
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = float((i * 2654435761u) % 256);
    const std::uint32_t in_dims[4] = {3, in_w, in_h, 1}, out_dims[4] = {3, ow, oh, 1};
    in.images.bind(src.data(), in_dims, 4, VX_TYPE_FLOAT32);
    out.output.bind(dst.data(), out_dims, 4, VX_TYPE_FLOAT32);
    p.size = {std::int32_t(oh), std::int32_t(ow)};
  }
  void kernel(unsigned threads) {
    pool::set_threads(threads);
    if (!ResizeArea::cpu(in, out, p).ok()) std::abort();
    bench::keep(dst.data());
  }
#if RKNNOP_BENCH_HAVE_OPENCV
  void opencv() {
    const cv::Mat s(int(h), int(w), CV_32FC3, src.data());
    cv::Mat d(int(out_h), int(out_w), CV_32FC3, dst.data());
    cv::resize(s, d, d.size(), 0, 0, cv::INTER_AREA);
    bench::keep(dst.data());
  }
#endif
};

struct exp_tensor {
  std::vector<float> x, y;
  Exp::inputs in;
  Exp::outputs out;
  explicit exp_tensor(std::uint32_t n) : x(n), y(n) {
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = -4.f + 8.f * float(i % 1000) / 1000.f;
    const std::uint32_t dims[4] = {640, 480, 3, 1};
    in.x.bind(x.data(), dims, 4, VX_TYPE_FLOAT32);
    out.y.bind(y.data(), dims, 4, VX_TYPE_FLOAT32);
  }
  void kernel(unsigned threads) {
    pool::set_threads(threads);
    Exp::cpu(in, out, rknnop::no_params{});
    bench::keep(y.data());
  }
};

}  // namespace

// The identity op on float16 tensors (the kernel sees float16 and copies): what a node costs around
// the cheapest kernel there is, for node / memcpy. Identity is element-wise (rknnop::each_element: on
// the PC one pass with the node's copies); IdentityKernel is the same op as a kernel of its own, which
// copies with parallel_for (the ordinary pipeline: inputs read whole, output buffer filled, kernel,
// every element checked, output copied out).
struct Identity {
  struct inputs {
    rknnop::tensor<rknnop::float16> x;
  };
  struct outputs {
    rknnop::tensor<rknnop::float16> y;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const rknnop::no_params&) {
    out.y.set_dims(in.x.dims());
    out.y.set_dtype(in.x.dtype());
    return rknnop::ok;
  };
  static constexpr auto cpu = rknnop::each_element([](rknnop::float16 x) { return x; });
};
RKNNOP_EXPORT_OP(Identity);

struct IdentityKernel {
  using inputs = Identity::inputs;
  using outputs = Identity::outputs;
  static constexpr auto infer = Identity::infer;
  static constexpr auto cpu = [](const inputs& in, outputs& out, const rknnop::no_params&) {
    const rknnop::float16* x = in.x.data();
    rknnop::float16* y = out.y.data();
    rknnop::parallel_for(in.x.size(), std::size_t(1) << 15,
                         [=](std::size_t a, std::size_t b) { std::memcpy(y + a, x + a, (b - a) * sizeof *x); });
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(IdentityKernel);

namespace {

// One verified node on float16 tensors in the host runtime: what rknnop-run and a session run, the
// SDK's glue (copies, float16 conversions, checks) included. ResizeArea (NHWC 1xHxWx3 -> 1xOHxOWx3,
// `size` its param) or Identity (no params).
class vx_node_graph {
public:
  vx_node_graph(vx_kernel_description_t* d, std::vector<vx_size> in_dims, std::vector<vx_size> out_dims,
                const std::vector<std::int32_t>& size = {})
      : context_(vxCreateContext()) {
    vx_kernel k = vxAddUserKernel(context_, d->name, d->enumeration, d->function, d->numParams, d->validate,
                                  d->initialize, d->deinitialize);
    for (vx_uint32 i = 0; i < d->numParams; ++i)
      vxAddParameterToKernel(k, i, d->parameters[i].direction, d->parameters[i].data_type, d->parameters[i].state);
    vxFinalizeKernel(k);
    graph_ = vxCreateGraph(context_);
    vx_node node = vxCreateGenericNode(graph_, k);
    vx_tensor in = vxCreateTensor(context_, in_dims.size(), in_dims.data(), VX_TYPE_FLOAT16, 0);
    vx_tensor out = vxCreateTensor(context_, out_dims.size(), out_dims.data(), VX_TYPE_FLOAT16, 0);
    rknnop_host_tensor_buffer b{};
    rknnopHostGetTensorBuffer(in, VX_WRITE_ONLY, &b);
    auto* halves = static_cast<std::uint16_t*>(b.data);
    for (std::size_t i = 0; i < b.size_in_bytes / 2; ++i) halves[i] = rknnop::float16(float(i % 256)).bits();
    in_bytes_ = b.size_in_bytes;
    rknnopHostGetTensorBuffer(out, VX_READ_ONLY, &b);
    out_bytes_ = b.size_in_bytes;
    vxSetParameterByIndex(node, 0, reinterpret_cast<vx_reference>(in));
    vxSetParameterByIndex(node, 1, reinterpret_cast<vx_reference>(out));
    if (!size.empty()) {  // ResizeArea's size and align_corners
      vx_array a = vxCreateArray(context_, VX_TYPE_INT32, size.size());
      vxAddArrayItems(a, size.size(), size.data(), sizeof(std::int32_t));
      const vx_bool align = vx_false_e;
      vxSetParameterByIndex(node, 2, reinterpret_cast<vx_reference>(a));
      vxSetParameterByIndex(node, 3, reinterpret_cast<vx_reference>(vxCreateScalar(context_, VX_TYPE_BOOL, &align)));
    }
    if (vxVerifyGraph(graph_) != VX_SUCCESS) std::abort();
    copy_in_.resize(in_bytes_);
    copy_out_.resize(out_bytes_);
    from_in_.resize(in_bytes_, 1);
    from_out_.resize(out_bytes_, 2);
  }
  vx_node_graph(const vx_node_graph&) = delete;
  vx_node_graph& operator=(const vx_node_graph&) = delete;
  ~vx_node_graph() { vxReleaseContext(&context_); }
  void process(unsigned threads) {
    pool::set_threads(threads);
    if (vxProcessGraph(graph_) != VX_SUCCESS) std::abort();
  }
  // The floor: a memcpy of the node's input bytes and of its output bytes (one thread).
  void memcpy_floor() {
    std::memcpy(copy_in_.data(), from_in_.data(), in_bytes_);
    std::memcpy(copy_out_.data(), from_out_.data(), out_bytes_);
    bench::keep(copy_in_.data());
    bench::keep(copy_out_.data());
  }

private:
  vx_context context_;
  vx_graph graph_ = nullptr;
  std::size_t in_bytes_ = 0, out_bytes_ = 0;
  std::vector<unsigned char> copy_in_, copy_out_, from_in_, from_out_;
};

vx_node_graph* resize_node(std::uint32_t h, std::uint32_t w, std::uint32_t oh, std::uint32_t ow) {
  return new vx_node_graph(vx_kernel_ResizeArea_list.entries[0], {3, w, h, 1}, {3, ow, oh, 1},
                           {std::int32_t(oh), std::int32_t(ow)});
}

}  // namespace

int main(int argc, char** argv) {
#if RKNNOP_BENCH_HAVE_OPENCV
  cv::setNumThreads(2);
#endif
  resize_images half(480, 640, 240, 320), seven_thirds(480, 640, 206, 274), full_hd(1080, 1920, 540, 960);
  exp_tensor exp(3 * 480 * 640);
  const std::unique_ptr<vx_node_graph> tiny(resize_node(4, 4, 2, 2)), node_2x(resize_node(480, 640, 240, 320)),
      node_1080p(resize_node(1080, 1920, 540, 960)),
      identity(new vx_node_graph(vx_kernel_Identity_list.entries[0], {3, 640, 480, 1}, {3, 640, 480, 1})),
      identity_kernel(new vx_node_graph(vx_kernel_IdentityKernel_list.entries[0], {3, 640, 480, 1}, {3, 640, 480, 1}));
  std::vector<bench::contender> contenders;
  std::vector<bench::ratio> ratios;
  // Warm caches, a few calls per measurement (the pool's workers stay awake between them, as they do
  // for a model's consecutive nodes).
  for (auto [im, tag, repeat] :
       {std::tuple{&half, std::string("2x"), 4}, std::tuple{&seven_thirds, std::string("7:3"), 4},
        std::tuple{&full_hd, std::string("1080p_2x"), 1}}) {
    const std::string one = "resize_" + tag + "_1t", two = "resize_" + tag + "_2t";
    contenders.push_back({one, [im] { im->kernel(1); }, repeat});
    contenders.push_back({two, [im] { im->kernel(2); }, repeat});
    ratios.push_back({"resize " + tag + " 2 threads/1", two, one});
#if RKNNOP_BENCH_HAVE_OPENCV
    const std::string cv = "opencv_" + tag + "_2t";
    contenders.push_back({cv, [im] { im->opencv(); }, repeat});
    ratios.push_back({"resize " + tag + " 2t/opencv 2t", two, cv});
#endif
  }
  contenders.push_back({"exp_1x3x480x640_1t", [&] { exp.kernel(1); }, 2});
  contenders.push_back({"exp_1x3x480x640_2t", [&] { exp.kernel(2); }, 2});
  ratios.push_back({"exp 1x3x480x640 2 threads/1", "exp_1x3x480x640_2t", "exp_1x3x480x640_1t"});
  contenders.push_back({"node_resize_tiny_1t", [&] { tiny->process(1); }, 200});
  contenders.push_back({"node_resize_tiny_2t", [&] { tiny->process(2); }, 200});
  ratios.push_back({"node resize tiny 2 threads/1", "node_resize_tiny_2t", "node_resize_tiny_1t"});
  // The whole node on float16 tensors: the runtime's copies, the glue's conversions and the kernel.
  // Against the floor: a memcpy of the node's input and output bytes, one thread (issue 49's goals).
  for (auto [node, op, tag, repeat] :
       {std::tuple{node_2x.get(), std::string("resize"), std::string("2x"), 4},
        std::tuple{node_1080p.get(), std::string("resize"), std::string("1080p_2x"), 1},
        std::tuple{identity.get(), std::string("identity"), std::string("480x640"), 4},
        std::tuple{identity_kernel.get(), std::string("identity_kernel"), std::string("480x640"), 4}}) {
    const std::string one = "node_" + op + "_" + tag + "_1t", two = "node_" + op + "_" + tag + "_2t",
                      copy = "memcpy_" + op + "_" + tag;
    contenders.push_back({one, [node] { node->process(1); }, repeat});
    contenders.push_back({two, [node] { node->process(2); }, repeat});
    contenders.push_back({copy, [node] { node->memcpy_floor(); }, repeat});
    ratios.push_back({"node " + op + " " + tag + " 2 threads/1", two, one});
    ratios.push_back({"node " + op + " " + tag + " 1t/memcpy", one, copy});
  }
  return bench::run(argc, argv, "bench_threads (float32 NHWC kernels; the tiny node on float16)", contenders, ratios,
                    true);
}
