// SPDX-License-Identifier: MIT
// Per-node cost through the host OpenVX runtime (vxProcessGraph on a verified one-node graph, float16
// tensors as on the board): SDK-generated nodes against the same ops hand-written in the toolkit's
// generated C style, on the same tensors. Exp (examples/exp vs toolkit_exp.c, 1x3x8x8 and 1x3x480x640)
// and ResizeArea (examples/resize_area vs toolkit_resize_area.c, which calls the same kernel, so only
// the glue differs: tiny 1x4x4x3 -> 2x2, 480x640x3 -> 240x320 and -> 206x274). Ratio = SDK / C (goal <= 1).
// Small and large cases alternate in every round, as a model's nodes do.
#include "exp/exp.cpp"
#include "resize_area/resize_area.cpp"
#include "side_by_side.hpp"

#include <rknnop/host/openvx_host.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

extern "C" vx_kernel_description_t* vx_kernel_ToolkitExp_list[];
extern "C" vx_kernel_description_t* vx_kernel_ToolkitResizeArea_list[];

// The example's kernel for toolkit_resize_area.c (dims innermost first: {C, W, H, N}).
extern "C" void rknnop_bench_resize_area_f32(const float* in, const std::uint32_t in_dims[4], float* out,
                                             const std::uint32_t out_dims[4], int align_corners) {
  ResizeArea::inputs i;
  ResizeArea::outputs o;
  i.images.bind(const_cast<float*>(in), in_dims, 4, VX_TYPE_FLOAT32);
  o.output.bind(out, out_dims, 4, VX_TYPE_FLOAT32);
  const ResizeArea::params p{{std::int32_t(out_dims[2]), std::int32_t(out_dims[1])}, align_corners != 0};
  if (!ResizeArea::cpu(i, o, p).ok()) std::abort();
}

namespace {

// One context, one graph, one node of the descriptor's kernel on float16 tensors; verified.
class one_node_graph {
public:
  one_node_graph(vx_kernel_description_t* d, const std::vector<std::uint32_t>& in_dims,
                 const std::vector<std::uint32_t>& out_dims, const std::vector<std::int32_t>& size = {})
      : context_(vxCreateContext()) {
    vx_kernel k = vxAddUserKernel(context_, d->name, d->enumeration, d->function, d->numParams, d->validate,
                                  d->initialize, d->deinitialize);
    for (vx_uint32 i = 0; i < d->numParams; ++i)
      vxAddParameterToKernel(k, i, d->parameters[i].direction, d->parameters[i].data_type, d->parameters[i].state);
    vxFinalizeKernel(k);
    graph_ = vxCreateGraph(context_);
    vx_node node = vxCreateGenericNode(graph_, k);
    vx_tensor in = vxCreateTensor(context_, in_dims.size(), std::vector<vx_size>(in_dims.begin(), in_dims.end()).data(),
                                  VX_TYPE_FLOAT16, 0);
    vx_tensor out = vxCreateTensor(context_, out_dims.size(),
                                   std::vector<vx_size>(out_dims.begin(), out_dims.end()).data(), VX_TYPE_FLOAT16, 0);
    out_ = out;
    rknnop_host_tensor_buffer b{};
    rknnopHostGetTensorBuffer(in, VX_WRITE_ONLY, &b);
    auto* h = static_cast<std::uint16_t*>(b.data);
    for (std::size_t i = 0; i < b.size_in_bytes / 2; ++i)
      h[i] = rknnop::float16(-4.f + 8.f * float(i % 1000) / 1000.f).bits();
    vxSetParameterByIndex(node, 0, reinterpret_cast<vx_reference>(in));
    vxSetParameterByIndex(node, 1, reinterpret_cast<vx_reference>(out));
    if (!size.empty()) {  // ResizeArea's size and align_corners
      vx_array a = vxCreateArray(context_, VX_TYPE_INT32, size.size());
      vxAddArrayItems(a, size.size(), size.data(), sizeof(std::int32_t));
      const vx_bool align = vx_false_e;
      vxSetParameterByIndex(node, 2, reinterpret_cast<vx_reference>(a));
      vxSetParameterByIndex(node, 3, reinterpret_cast<vx_reference>(vxCreateScalar(context_, VX_TYPE_BOOL, &align)));
    }
    if (vxVerifyGraph(graph_) != VX_SUCCESS) {
      std::fprintf(stderr, "bench_node_cost: vxVerifyGraph failed for %s\n", d->name);
      std::abort();
    }
  }
  one_node_graph(const one_node_graph&) = delete;
  one_node_graph& operator=(const one_node_graph&) = delete;
  ~one_node_graph() { vxReleaseContext(&context_); }
  void process() {
    if (vxProcessGraph(graph_) != VX_SUCCESS) std::abort();
  }
  std::pair<const void*, std::size_t> output() const {  // the float16 output tensor's bytes
    rknnop_host_tensor_buffer b{};
    if (rknnopHostGetTensorBuffer(out_, VX_READ_ONLY, &b) != VX_SUCCESS) std::abort();
    return {b.data, b.size_in_bytes};
  }

private:
  vx_context context_;
  vx_graph graph_ = nullptr;
  vx_tensor out_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  rknnop::detail::thread_pool::set_threads(1);  // one thread: bench_threads compares thread counts
  using dims = std::vector<std::uint32_t>;
  struct node_case {
    const char* name;
    vx_kernel_description_t *sdk, *c;
    dims in, out;
    std::vector<std::int32_t> size;
    int repeat;
  };
  const node_case cases[] = {
      {"exp_1x3x8x8", vx_kernel_Exp_list.entries[0], vx_kernel_ToolkitExp_list[0], {8, 8, 3, 1}, {8, 8, 3, 1}, {}, 200},
      {"exp_1x3x480x640",
       vx_kernel_Exp_list.entries[0],
       vx_kernel_ToolkitExp_list[0],
       {640, 480, 3, 1},
       {640, 480, 3, 1},
       {},
       1},
      {"resize_tiny",
       vx_kernel_ResizeArea_list.entries[0],
       vx_kernel_ToolkitResizeArea_list[0],
       {3, 4, 4, 1},
       {3, 2, 2, 1},
       {2, 2},
       200},
      {"resize_2x",
       vx_kernel_ResizeArea_list.entries[0],
       vx_kernel_ToolkitResizeArea_list[0],
       {3, 640, 480, 1},
       {3, 320, 240, 1},
       {240, 320},
       1},
      {"resize_7:3",
       vx_kernel_ResizeArea_list.entries[0],
       vx_kernel_ToolkitResizeArea_list[0],
       {3, 640, 480, 1},
       {3, 274, 206, 1},
       {206, 274},
       1},
  };
  std::vector<std::unique_ptr<one_node_graph>> graphs;
  std::vector<bench::contender> contenders;
  std::vector<bench::ratio> ratios;
  for (const node_case& c : cases) {
    for (auto [d, who] : {std::pair{c.sdk, "sdk_"}, std::pair{c.c, "c_"}}) {
      graphs.push_back(std::make_unique<one_node_graph>(d, c.in, c.out, c.size));
      one_node_graph* g = graphs.back().get();
      contenders.push_back(
          {who + std::string(c.name), [g] { g->process(); }, c.repeat, false, [g] { return g->output(); }});
    }
    ratios.push_back({std::string("sdk/c ") + c.name, std::string("sdk_") + c.name, std::string("c_") + c.name});
  }
  return bench::run(argc, argv, "bench_node_cost (vxProcessGraph, float16 tensors)", contenders, ratios);
}
