// SPDX-License-Identifier: MIT
// Conformance driver (a): RKNN v1 through rknnop's host OpenVX runtime, as the board's runtime runs a
// kernel (tests/core/vx_harness.hpp): inputs as tensors (dims innermost first), outputs virtual tensors
// of the row's dtype (real ones of the row's shape when the row fixes them), params as scalars and
// INT32 arrays in the struct's order. Prints one result line per row (cases.hpp).
#include "dual_residual/dual_residual.cpp"
#include "exp/exp.cpp"
#include "leaky_relu/leaky_relu.cpp"
#include "mirror_pad/mirror_pad.cpp"
#include "quantized_max_pool/quantized_max_pool.cpp"
#include "resize_area/resize_area.cpp"
#include "truncate_div/truncate_div.cpp"

#include "cases.hpp"
#include "test_ops.hpp"
#include "vx_element.hpp"
#include "vx_harness.hpp"  // tests/core

#include <algorithm>
#include <map>

namespace {

using namespace conformance;
using rknnop::test::harness;
using rknnop::test::ref;

std::vector<std::uint32_t> reversed(std::vector<std::uint32_t> v) {
  std::reverse(v.begin(), v.end());
  return v;
}

void run_row(const row& r, vx_kernel_description_t* d) {
  // v1 params are positional: a model always hands the kernel every parameter of its table (a param
  // left out by the user is written with op.yml's default, the row's value), and a scalar carries the
  // param's own VX type, so a value that type cannot hold cannot be written.
  for (const param_case& p : r.params) {
    if (!p.given && r.expect_refused) return print_na(r, "v1-positional");
    if (p.kind == param_kind::i8 && (p.values[0] < -128 || p.values[0] > 127)) return print_na(r, "v1-typed-scalar");
  }
  log_lines().clear();
  harness h(d);
  std::vector<vx_reference> refs;
  for (const tensor_case& t : r.inputs) {
    vx_tensor in = h.tensor(reversed(t.shape), vx_type(t.type), t.bytes);
    if (!in && count_of(t.shape) == 0) return print_na(r, "v1-no-zero-dim");  // vxCreateTensor refused it
    refs.push_back(ref(in));
  }
  std::vector<vx_tensor> outs;
  for (const output_case& o : r.outputs) {
    outs.push_back(r.fixed_output_shapes ? h.tensor<std::uint8_t>(reversed(o.shape), vx_type(o.type))
                                         : h.virtual_tensor(vx_type(o.type)));
    refs.push_back(ref(outs.back()));
  }
  for (const param_case& p : r.params) {
    const double v = p.values.empty() ? 0 : p.values[0];
    switch (p.kind) {
      case param_kind::f32: {
        const float f = float(v);
        refs.push_back(ref(h.scalar(VX_TYPE_FLOAT32, &f)));
        break;
      }
      case param_kind::i32:
      case param_kind::enumeration: {
        const std::int32_t k = std::int32_t(v);
        refs.push_back(ref(h.scalar(VX_TYPE_INT32, &k)));
        break;
      }
      case param_kind::i8: {
        const std::int8_t k = std::int8_t(v);
        refs.push_back(ref(h.scalar(VX_TYPE_INT8, &k)));
        break;
      }
      case param_kind::boolean: {
        // As librknn_runtime hands a bool param over: a 1-byte UINT8 scalar (docs/board-emulation.md §8),
        // which holds any byte, so a model's 2 reaches the kernel.
        const std::uint8_t b = std::uint8_t(v);
        refs.push_back(ref(h.scalar(VX_TYPE_UINT8, &b)));
        break;
      }
      case param_kind::i32_array: {
        std::vector<std::int32_t> items;
        for (double x : p.values) items.push_back(std::int32_t(x));
        refs.push_back(ref(h.array(items)));
        break;
      }
    }
  }
  const vx_status s = h.run(refs);
  if (s != VX_SUCCESS)
    return print_refused(
        r, first_line_or("(no rknnop line) the runtime's status " + std::to_string(s) + ": " + h.last_log()));
  digest dg;
  for (vx_tensor t : outs) {
    rknnop_host_tensor_buffer b{};
    if (rknnopHostGetTensorBuffer(t, VX_READ_ONLY, &b) != VX_SUCCESS)
      return print_refused(r, "(no rknnop line) an output cannot be read");
    element type = element::float32;
    for (element e : {element::float32, element::float16, element::int32, element::int8, element::uint8})
      if (vx_type(e) == b.data_type) type = e;
    dg.add_output(type, reversed({b.dims, b.dims + b.num_dims}), b.data, b.size_in_bytes);
  }
  print_ok(r, dg);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && !std::freopen(argv[1], "w", stdout)) return 2;  // the results file
  rknnop::set_log_sink(&capture_line);
  const std::map<std::string, vx_kernel_description_t*> ops = {
      {"DualResidual", vx_kernel_DualResidual_list.entries[0]},
      {"Exp", vx_kernel_Exp_list.entries[0]},
      {"LeakyRelu", vx_kernel_LeakyRelu_list.entries[0]},
      {"MirrorPad", vx_kernel_MirrorPad_list.entries[0]},
      {"QuantizedMaxPool", vx_kernel_QuantizedMaxPool_list.entries[0]},
      {"ResizeArea", vx_kernel_ResizeArea_list.entries[0]},
      {"TruncateDiv", vx_kernel_TruncateDiv_list.entries[0]},
      {"ConfZeroDim", vx_kernel_ConfZeroDim_list.entries[0]},
      {"ConfInt8Output", vx_kernel_ConfInt8Output_list.entries[0]},
      {"ConfUnwritten", vx_kernel_ConfUnwritten_list.entries[0]},
      {"ConfRanged", vx_kernel_ConfRanged_list.entries[0]},
  };
  for (const row& r : rows())
    if (!not_for_this_build(r)) run_row(r, ops.at(r.op));
  return 0;
}
