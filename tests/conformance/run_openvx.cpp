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
  if (const char* key = v1_not_expressible(r)) return print_na(r, key);
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
    const vx_param v = vx_param_of(p);
    refs.push_back(v.scalar_type == VX_TYPE_INVALID ? ref(h.array(v.items)) : ref(h.scalar(v.scalar_type, v.scalar)));
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
    const std::optional<element> type = element_of_vx(b.data_type);
    if (!type) return print_refused(r, "(no rknnop line) an output of VX type " + std::to_string(b.data_type));
    dg.add_output(*type, reversed({b.dims, b.dims + b.num_dims}), b.data, b.size_in_bytes);
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
    if (!answered_without_running(r)) run_row(r, ops.at(r.op));
  return 0;
}
