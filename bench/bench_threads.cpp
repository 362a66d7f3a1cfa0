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
    in_ = in;
    out_ = out;
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

  vx_reference input() const { return reinterpret_cast<vx_reference>(in_); }
  vx_reference output() const { return reinterpret_cast<vx_reference>(out_); }

private:
  vx_context context_;
  vx_graph graph_ = nullptr;
  vx_tensor in_ = nullptr, out_ = nullptr;
  std::size_t in_bytes_ = 0, out_bytes_ = 0;
  std::vector<unsigned char> copy_in_, copy_out_, from_in_, from_out_;
};

// The ResizeArea node's phases, each alone, one thread, on the node's own tensors, through the very
// functions the node's kernel call runs (detail/openvx/io.hpp, detail/decode.hpp): what the node's time
// is made of (issue 49: the measured reason for a node / memcpy goal missed). `read`: the input copied
// out of the runtime's tensor and widened to float32 (read_tensor: slabs copied and converted while in
// the cache); `copy_in`: only its copy (vxCopyTensorPatch of the float16 bytes), so the widening is
// read - copy_in; `allocate`: the output buffer and its markers (allocate_output); `kernel`: the op's
// CPU kernel on those float32 buffers; `write`: the output checked (unwritten elements, the precision
// rule), narrowed to float16 and copied into the tensor (write_tensor); `copy_out`: only its copy. What
// the node takes beyond their sum is the runtime's graph call, the params' reads, the views, the guard
// checks and the dispatches. (The node with 1 thread runs the same ranges inline.)
class node_phases {
public:
  explicit node_phases(vx_node_graph& g) : in_ref_(g.input()), out_ref_(g.output()) {
    if (!rknnop::detail::query_tensor(in_ref_, fields[0], in_info_).ok() ||
        !rknnop::detail::query_tensor(out_ref_, fields[1], out_info_).ok())
      std::abort();
    raw_in_.resize(in_info_.elements);
    raw_out_.resize(out_info_.elements);
    wide_in_.resize(in_info_.elements);
    wide_out_.resize(out_info_.elements);
    rknnop::detail::buffer_list buffers;
    void* data = nullptr;
    if (!rknnop::detail::read_tensor(in_ref_, fields[0], in_info_, buffers, data).ok()) std::abort();
    std::memcpy(wide_in_.data(), data, wide_in_.size() * sizeof(float));
    in_.images.bind(wide_in_.data(), in_info_.dims, in_info_.rank, VX_TYPE_FLOAT32);
    out_.output.bind(wide_out_.data(), out_info_.dims, out_info_.rank, VX_TYPE_FLOAT32);
    p_.size = {std::int32_t(out_info_.dims[2]), std::int32_t(out_info_.dims[1])};
    // The phases in a row give the node's output, byte for byte (else the breakdown is not the node's).
    g.process(1);
    const std::vector<unsigned char> by_node = output_bytes();
    kernel();
    write();
    if (output_bytes() != by_node) {
      std::fprintf(stderr, "bench_threads: the ResizeArea node's phases differ from the node\n");
      std::exit(1);
    }
  }
  void read() {
    rknnop::detail::buffer_list buffers;
    void* data = nullptr;
    if (!rknnop::detail::read_tensor(in_ref_, fields[0], in_info_, buffers, data).ok()) std::abort();
    bench::keep(data);
  }
  void copy_in() {
    if (rknnop::detail::copy_tensor(in_ref_, in_info_, raw_in_.data(), VX_READ_ONLY) != VX_SUCCESS) std::abort();
    bench::keep(raw_in_.data());
  }
  void allocate() {
    rknnop::detail::buffer_list buffers;
    void* data = nullptr;
    if (!rknnop::detail::allocate_output(fields[1], out_info_, buffers, data).ok()) std::abort();
    bench::keep(data);
  }
  void kernel() {
    if (!ResizeArea::cpu(in_, out_, p_).ok()) std::abort();
    bench::keep(wide_out_.data());
  }
  void write() {
    rknnop::detail::buffer_list buffers;
    if (!rknnop::detail::write_tensor(out_ref_, fields[1], out_info_, buffers, wide_out_.data()).ok()) std::abort();
  }
  std::vector<unsigned char> output_bytes() const {
    rknnop_host_tensor_buffer b{};
    if (rknnopHostGetTensorBuffer(reinterpret_cast<vx_tensor>(out_ref_), VX_READ_ONLY, &b) != VX_SUCCESS) std::abort();
    const auto* p = static_cast<const unsigned char*>(b.data);
    return {p, p + b.size_in_bytes};
  }
  void copy_out() {
    if (rknnop::detail::copy_tensor(out_ref_, out_info_, raw_out_.data(), VX_WRITE_ONLY) != VX_SUCCESS) std::abort();
  }

private:
  static constexpr const auto& fields = rknnop::detail::op_model<ResizeArea>::fields;
  vx_reference in_ref_, out_ref_;
  rknnop::detail::tensor_info in_info_, out_info_;
  std::vector<std::uint16_t> raw_in_, raw_out_;
  std::vector<float> wide_in_, wide_out_;
  ResizeArea::inputs in_;
  ResizeArea::outputs out_;
  ResizeArea::params p_{};
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
  // The ResizeArea nodes' phases (diagnostic: what the node's ratios are made of), each against the
  // same memcpy with one thread, and the ones the node runs on the pool with 2 threads / 1 (node -
  // their sum is the rest).
  std::vector<std::unique_ptr<node_phases>> phases;
  for (auto [node, tag, repeat] :
       {std::tuple{node_2x.get(), std::string("2x"), 4}, std::tuple{node_1080p.get(), std::string("1080p_2x"), 1}}) {
    phases.push_back(std::make_unique<node_phases>(*node));
    node_phases* ph = phases.back().get();
    using step = void (node_phases::*)();
    for (auto [what, fn, pooled] : {std::tuple<const char*, step, bool>{"read", &node_phases::read, true},
                                    std::tuple<const char*, step, bool>{"copy_in", &node_phases::copy_in, false},
                                    std::tuple<const char*, step, bool>{"allocate", &node_phases::allocate, true},
                                    std::tuple<const char*, step, bool>{"kernel", &node_phases::kernel, true},
                                    std::tuple<const char*, step, bool>{"write", &node_phases::write, true},
                                    std::tuple<const char*, step, bool>{"copy_out", &node_phases::copy_out, false}}) {
      const std::string name = "phase_resize_" + tag + "_" + what;
      for (unsigned threads : {1u, 2u}) {
        if (threads == 2 && !pooled) continue;
        contenders.push_back({name + "_" + std::to_string(threads) + "t",
                              [ph, fn, threads] {
                                pool::set_threads(threads);
                                (ph->*fn)();
                              },
                              repeat});
      }
      ratios.push_back({"phase resize " + tag + " " + what + " 1t/memcpy", name + "_1t", "memcpy_resize_" + tag});
      if (pooled) ratios.push_back({"phase resize " + tag + " " + what + " 2 threads/1", name + "_2t", name + "_1t"});
    }
  }
  return bench::run(argc, argv, "bench_threads (float32 NHWC kernels; the tiny node on float16)", contenders, ratios,
                    true);
}
