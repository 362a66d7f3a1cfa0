// SPDX-License-Identifier: MIT
// Conformance driver (c): the RKNPU2 plugin as librknnrt 1.6.0 calls it (tests/rknpu2/test_plugin.cpp):
// the op's rknn_custom_op (its get_rknn_custom_op's answer) init, compute and destroy with the node's
// tensors (shapes outermost first, the model's output shapes, NHWC tensors for ops that declare NHWC,
// NCHW otherwise) and the node's attributes read back through rknn_custom_op_get_op_attr (defined here
// as the runtime defines it: integers INT64, floats FLOAT32). Prints one result line per row (cases.hpp).
#define RKNNOP_RKNPU2_EMBED 1  // several ops in one program: their RKNNOP_EXPORT_OP keeps the checks only
#include <rknnop/rknpu2.hpp>

#include "dual_residual/dual_residual.cpp"
#include "exp/exp.cpp"
#include "leaky_relu/leaky_relu.cpp"
#include "mirror_pad/mirror_pad.cpp"
#include "quantized_max_pool/quantized_max_pool.cpp"
#include "resize_area/resize_area.cpp"
#include "truncate_div/truncate_div.cpp"

#include "cases.hpp"
#include "test_ops.hpp"

#include <map>

namespace r = rknnop::detail::rknpu2;

namespace {
struct node_attr {
  r::tensor_type type;
  std::vector<std::int64_t> ints;
  std::vector<float> floats;
};
std::map<std::string, node_attr> g_attrs;
}  // namespace

extern "C" void rknn_custom_op_get_op_attr(r::op_context*, const char* name, r::op_attr* out) {
  std::memset(out, 0, sizeof *out);
  const auto it = g_attrs.find(name);
  if (it == g_attrs.end()) return;  // as librknnrt: n_elems 0, data NULL
  std::strncpy(out->name, name, sizeof out->name - 1);
  out->dtype = it->second.type;
  if (it->second.type == r::type_float32) {
    out->n_elems = std::uint32_t(it->second.floats.size());
    out->data = it->second.floats.data();
  } else {
    out->n_elems = std::uint32_t(it->second.ints.size());
    out->data = it->second.ints.data();
  }
}

namespace {

using namespace conformance;

struct buffer {
  r::op_tensor t{};
  std::vector<std::uint8_t> data;
};

buffer make_buffer(element type, const std::vector<std::uint32_t>& shape, bool nhwc,
                   const std::vector<std::uint8_t>* bytes) {
  buffer b;
  b.t.attr.n_dims = std::uint32_t(shape.size());
  for (std::size_t k = 0; k < shape.size() && k < r::max_dims; ++k) b.t.attr.dims[k] = shape[k];
  const std::size_t n = count_of(shape);
  b.t.attr.n_elems = std::uint32_t(n);
  b.t.attr.size = std::uint32_t(n * element_size(type));
  b.t.attr.type = type == element::float32 ? r::type_float32 : r::type_float16;
  b.t.attr.fmt = nhwc ? r::format_nhwc : r::format_nchw;
  b.data = bytes ? *bytes : std::vector<std::uint8_t>(n * element_size(type));
  b.t.mem.virt_addr = b.data.data();
  b.t.mem.size = std::uint32_t(b.data.size());
  return b;
}

template <class Op>
void run_row(const row& rw, bool nhwc) {
  // librknnrt hands a CPU custom op float32 or float16 tensors only (docs/rknpu2.md).
  for (const tensor_case& t : rw.inputs)
    if (t.type != element::float32 && t.type != element::float16) return print_na(rw, "rknpu2-float-tensors");
  for (const output_case& o : rw.outputs)
    if (o.type != element::float32 && o.type != element::float16) return print_na(rw, "rknpu2-float-tensors");
  g_attrs.clear();
  for (const param_case& p : rw.params) {
    if (!p.given) continue;
    node_attr a{p.kind == param_kind::f32 ? r::type_float32 : r::type_int64, {}, {}};
    for (double v : p.values) {
      if (a.type == r::type_float32)
        a.floats.push_back(float(v));
      else
        a.ints.push_back(std::int64_t(v));
    }
    g_attrs[p.name] = a;
  }
  std::vector<buffer> ins, outs;
  for (const tensor_case& t : rw.inputs) ins.push_back(make_buffer(t.type, t.shape, nhwc, &t.bytes));
  for (const output_case& o : rw.outputs) outs.push_back(make_buffer(o.type, o.shape, nhwc, nullptr));
  std::vector<r::op_tensor> in, out;
  for (buffer& b : ins) in.push_back(b.t);
  for (buffer& b : outs) out.push_back(b.t);
  log_lines().clear();
  // As librknnrt 1.6.0 calls a plugin (tests/rknpu2/test_plugin.cpp): init, compute and destroy each
  // get a context of their own; a failed init's priv_data does not reach compute, which is called anyway.
  const r::custom_op& op = r::the_custom_op<Op>;
  r::op_context init_ctx{};
  init_ctx.target = r::target_cpu;
  init_ctx.internal_ctx = 0x400244ec;
  const int init_rc = op.init(&init_ctx, in.data(), std::uint32_t(in.size()), out.data(), std::uint32_t(out.size()));
  r::op_context run_ctx = init_ctx;
  if (init_rc != 0) run_ctx.priv_data = nullptr;
  const int rc = op.compute(&run_ctx, in.data(), std::uint32_t(in.size()), out.data(), std::uint32_t(out.size()));
  op.destroy(&run_ctx);
  if (init_rc != 0 || rc != 0)
    return print_refused(
        rw, first_line_or("(no rknnop line) init " + std::to_string(init_rc) + ", compute " + std::to_string(rc)));
  digest dg;
  for (std::size_t k = 0; k < outs.size(); ++k)
    dg.add_output(rw.outputs[k].type, rw.outputs[k].shape, outs[k].data.data(), outs[k].data.size());
  print_ok(rw, dg);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && !std::freopen(argv[1], "w", stdout)) return 2;  // the results file
  rknnop::set_log_sink(&capture_line);
  using runner = void (*)(const row&, bool);
  const std::map<std::string, std::pair<runner, bool>> ops = {
      // (the op's tensors declare NHWC)
      {"DualResidual", {&run_row<DualResidual>, false}},
      {"Exp", {&run_row<Exp>, false}},
      {"LeakyRelu", {&run_row<LeakyRelu>, false}},
      {"MirrorPad", {&run_row<MirrorPad>, false}},
      {"QuantizedMaxPool", {&run_row<QuantizedMaxPool>, true}},
      {"ResizeArea", {&run_row<ResizeArea>, true}},
      {"TruncateDiv", {&run_row<TruncateDiv>, false}},
      {"ConfZeroDim", {&run_row<ConfZeroDim>, false}},
      {"ConfInt8Output", {&run_row<ConfInt8Output>, false}},
      {"ConfUnwritten", {&run_row<ConfUnwritten>, false}},
      {"ConfRanged", {&run_row<ConfRanged>, false}},
  };
  for (const row& rw : rows()) {
    const auto& [run, nhwc] = ops.at(rw.op);
    run(rw, nhwc);
  }
  return 0;
}
