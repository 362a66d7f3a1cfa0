// SPDX-License-Identifier: MIT
// RKNPU2 CPU custom ops: the plugins <rknnop/rknpu2.hpp> generates from examples/resize_area and
// examples/exp against the same ops written by hand in the style of Rockchip's C demos
// (rknpu2_resize_area.c, rknpu2_exp.c), both driven as librknnrt drives a plugin: init once with the
// node's attributes, then compute on FLOAT32 NCHW tensors (what the runtime hands a CPU op; the
// generated ResizeArea moves them to the op's NHWC and back; Exp, an rknnop::each_element op, runs in
// one pass on the runtime's memory). Cases: ResizeArea tiny 1x3x4x4 -> 2x2, 1x3x480x640 -> 240x320 (2x)
// and -> 206x274 (7:3); Exp 1x3x8x8 and 1x3x480x640. Ratio = SDK / C (goal <= 1). The outputs are
// bit-identical (--digest; the program exits 1 at start if they are not).
#define RKNNOP_RKNPU2_EMBED 1
#include <rknnop/rknpu2.hpp>

#include "exp/exp.cpp"
#include "resize_area/resize_area.cpp"
#include "side_by_side.hpp"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace r = rknnop::detail::rknpu2;

// The hand-written plugin (rknpu2_resize_area.c); rknnop's declarations of librknnrt's types are
// layout-identical to rknn_custom_op.h's (tests/rknpu2 abi_layout checks them).
extern "C" {
int init_custom_resize_area(r::op_context*, r::op_tensor*, std::uint32_t, r::op_tensor*, std::uint32_t);
int compute_custom_resize_area_float32(r::op_context*, r::op_tensor*, std::uint32_t, r::op_tensor*, std::uint32_t);
int destroy_custom_resize_area(r::op_context*);
int init_custom_exp(r::op_context*, r::op_tensor*, std::uint32_t, r::op_tensor*, std::uint32_t);
int compute_custom_exp_float32(r::op_context*, r::op_tensor*, std::uint32_t, r::op_tensor*, std::uint32_t);
int destroy_custom_exp(r::op_context*);
}

namespace {
std::int32_t g_size[2] = {};  // the node's attributes, as librknnrt would hand them over
std::uint8_t g_align = 0;
}  // namespace

// What librknnrt's attribute reader does, for both plugins' init.
extern "C" void rknn_custom_op_get_op_attr(r::op_context*, const char* name, r::op_attr* out) {
  std::memset(out, 0, sizeof *out);
  std::strncpy(out->name, name, sizeof out->name - 1);
  if (!std::strcmp(name, "size")) {
    out->dtype = r::type_int32;
    out->n_elems = 2;
    out->data = g_size;
  } else if (!std::strcmp(name, "align_corners")) {
    out->dtype = r::type_bool;
    out->n_elems = 1;
    out->data = &g_align;
  }
}

namespace {

using init_fn = int (*)(r::op_context*, r::op_tensor*, std::uint32_t, r::op_tensor*, std::uint32_t);
using compute_fn = init_fn;
using destroy_fn = int (*)(r::op_context*);
struct plugin {
  init_fn init;
  compute_fn compute;
  destroy_fn destroy;
};

r::op_tensor nchw_float32(std::uint32_t n, std::uint32_t c, std::uint32_t h, std::uint32_t w, float* data) {
  r::op_tensor t{};
  t.attr.n_dims = 4;
  t.attr.dims[0] = n;
  t.attr.dims[1] = c;
  t.attr.dims[2] = h;
  t.attr.dims[3] = w;
  t.attr.n_elems = n * c * h * w;
  t.attr.size = t.attr.n_elems * 4;
  t.attr.fmt = r::format_nchw;
  t.attr.type = r::type_float32;
  t.mem.virt_addr = data;
  t.mem.size = t.attr.size;
  return t;
}

// One node: its tensors (input values as bench_node_cost's) and the plugin's context after init.
class one_node {
public:
  one_node(plugin p, std::uint32_t c, std::uint32_t in_h, std::uint32_t in_w, std::uint32_t out_h, std::uint32_t out_w)
      : plugin_(p), in_(std::size_t(c) * in_h * in_w), out_(std::size_t(c) * out_h * out_w) {
    for (std::size_t i = 0; i < in_.size(); ++i) in_[i] = -4.f + 8.f * float(i % 1000) / 1000.f;
    input_ = nchw_float32(1, c, in_h, in_w, in_.data());
    output_ = nchw_float32(1, c, out_h, out_w, out_.data());
    g_size[0] = std::int32_t(out_h);
    g_size[1] = std::int32_t(out_w);
    if (plugin_.init(&ctx_, &input_, 1, &output_, 1) != 0) {
      std::fprintf(stderr, "bench_rknpu2: init failed\n");
      std::abort();
    }
  }
  one_node(const one_node&) = delete;
  one_node& operator=(const one_node&) = delete;
  ~one_node() { plugin_.destroy(&ctx_); }
  void compute() {
    if (plugin_.compute(&ctx_, &input_, 1, &output_, 1) != 0) std::abort();
  }
  std::pair<const void*, std::size_t> output() const { return {out_.data(), out_.size() * sizeof(float)}; }

private:
  plugin plugin_;
  std::vector<float> in_, out_;
  r::op_tensor input_{}, output_{};
  r::op_context ctx_{};
};

}  // namespace

int main(int argc, char** argv) {
  rknnop::detail::thread_pool::set_threads(1);  // one thread, as bench_node_cost
  struct node_case {
    const char* name;
    std::uint32_t in_h, in_w, out_h, out_w;
    int repeat;
  };
  const node_case cases[] = {{"resize_tiny", 4, 4, 2, 2, 200},
                             {"resize_2x", 480, 640, 240, 320, 1},
                             {"resize_7:3", 480, 640, 206, 274, 1},
                             {"exp_1x3x8x8", 8, 8, 8, 8, 200},
                             {"exp_1x3x480x640", 480, 640, 480, 640, 1}};
  std::vector<std::unique_ptr<one_node>> nodes;
  std::vector<bench::contender> contenders;
  std::vector<bench::ratio> ratios;
  for (const node_case& c : cases) {
    const bool exp = std::strncmp(c.name, "exp", 3) == 0;
    const plugin generated = exp ? plugin{&r::init<Exp>, &r::compute<Exp>, &r::destroy<Exp>}
                                 : plugin{&r::init<ResizeArea>, &r::compute<ResizeArea>, &r::destroy<ResizeArea>};
    const plugin by_hand =
        exp ? plugin{&init_custom_exp, &compute_custom_exp_float32, &destroy_custom_exp}
            : plugin{&init_custom_resize_area, &compute_custom_resize_area_float32, &destroy_custom_resize_area};
    one_node* sdk =
        nodes.emplace_back(std::make_unique<one_node>(generated, 3, c.in_h, c.in_w, c.out_h, c.out_w)).get();
    one_node* hand = nodes.emplace_back(std::make_unique<one_node>(by_hand, 3, c.in_h, c.in_w, c.out_h, c.out_w)).get();
    // The baseline must compute the same thing: equal bytes, or no figure at all.
    sdk->compute();
    hand->compute();
    if (std::memcmp(sdk->output().first, hand->output().first, sdk->output().second) != 0) {
      std::fprintf(stderr, "bench_rknpu2: %s: the generated and the hand-written plugin differ\n", c.name);
      return 1;
    }
    for (auto [node, who] : {std::pair{sdk, "sdk_"}, std::pair{hand, "c_"}})
      contenders.push_back(
          {who + std::string(c.name), [node] { node->compute(); }, c.repeat, false, [node] { return node->output(); }});
    ratios.push_back({std::string("rknpu2 sdk/c ") + c.name, std::string("sdk_") + c.name, std::string("c_") + c.name});
  }
  return bench::run(argc, argv, "bench_rknpu2 (plugin compute, FLOAT32 NCHW tensors)", contenders, ratios);
}
