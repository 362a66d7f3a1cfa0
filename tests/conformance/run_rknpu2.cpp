// SPDX-License-Identifier: MIT
// Conformance driver (c): the RKNPU2 plugin as librknnrt 1.6.0 calls it (tests/rknpu2/test_plugin.cpp):
// the op's rknn_custom_op (its get_rknn_custom_op's answer) init, compute and destroy with the node's
// tensors (shapes outermost first, the model's output shapes, NHWC tensors for ops that declare NHWC,
// NCHW otherwise) and the node's attributes read back through rknn_custom_op_get_op_attr (defined here
// as the runtime defines it: integers INT64, floats FLOAT32). Prints one result line per row (cases.hpp).
// With --toolkit2: the plugin's other two exports as the generated RKNN-Toolkit2 class calls them
// (docs/rknpu2-toolkit2.md §4): rknnop_rknpu2_infer for the outputs' shapes and dtypes, then
// rknnop_rknpu2_compute on outputs of those shapes (the model's when the row fixes them), NCHW tensors
// of the arrays' own dtypes, the attributes handed in; errors come back in the caller's buffer. With
// --toolkit2-shape-infer: rknnop_rknpu2_infer alone, as the class's shape_infer calls it. With
// --librknnrt DIR: the librknnrt column's lines (run_librknnrt.sh ran the plugin inside librknnrt): for
// its rows "<Op>.in_librknnrt" the outputs the plugin returned there (DIR/<row>.out<k>.npy, recorded).
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

#include <algorithm>
#include <map>
#include <string_view>

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

r::tensor_type rknn_type(element e) {
  switch (e) {
    case element::float32: return r::type_float32;
    case element::float16: return r::type_float16;
    case element::int32: return r::type_int32;
    case element::int8: return r::type_int8;
    case element::uint8: return r::type_uint8;
    case element::int16: return r::type_int16;
    case element::uint16: return r::type_uint16;
  }
  return r::type_float32;
}

// A rank-4 tensor's bytes from NHWC to NCHW order (to_nchw) or back, for the toolkit2 class's NCHW arrays.
std::vector<std::uint8_t> permute4(const std::vector<std::uint8_t>& bytes, const std::vector<std::uint32_t>& nhwc,
                                   std::size_t size, bool to_nchw) {
  const std::size_t n = nhwc[0], h = nhwc[1], w = nhwc[2], c = nhwc[3];
  std::vector<std::uint8_t> out(bytes.size());
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t y = 0; y < h; ++y)
      for (std::size_t x = 0; x < w; ++x)
        for (std::size_t k = 0; k < c; ++k) {
          const std::size_t i_nhwc = ((a * h + y) * w + x) * c + k, i_nchw = ((a * c + k) * h + y) * w + x;
          const std::size_t from = to_nchw ? i_nhwc : i_nchw, to = to_nchw ? i_nchw : i_nhwc;
          std::memcpy(out.data() + to * size, bytes.data() + from * size, size);
        }
  return out;
}
std::vector<std::uint32_t> nchw_of(const std::vector<std::uint32_t>& s) { return {s[0], s[3], s[1], s[2]}; }

buffer make_buffer(element type, const std::vector<std::uint32_t>& shape, bool nhwc,
                   const std::vector<std::uint8_t>* bytes) {
  buffer b;
  b.t.attr.n_dims = std::uint32_t(shape.size());
  for (std::size_t k = 0; k < shape.size() && k < r::max_dims; ++k) b.t.attr.dims[k] = shape[k];
  const std::size_t n = count_of(shape);
  b.t.attr.n_elems = std::uint32_t(n);
  b.t.attr.size = std::uint32_t(n * element_size(type));
  b.t.attr.type = rknn_type(type);
  b.t.attr.fmt = nhwc ? r::format_nhwc : r::format_nchw;
  b.data = bytes ? *bytes : std::vector<std::uint8_t>(n * element_size(type));
  b.t.mem.virt_addr = b.data.data();
  b.t.mem.size = std::uint32_t(b.data.size());
  return b;
}

// The node's attributes: integers INT64, floats FLOAT32 (as librknnrt and the toolkit2 class hand them).
void set_attrs(const row& rw) {
  g_attrs.clear();
  for (const param_case& p : rw.params) {
    if (!p.given) continue;
    node_attr a{p.kind == param_kind::f32 ? r::type_float32 : r::type_int64, {}, {}};
    for (double v : p.values) {
      if (a.type == r::type_float32)
        a.floats.push_back(float(v));
      else
        a.ints.push_back(param_integer<std::int64_t>(v));
    }
    g_attrs[p.name] = a;
  }
}

template <class Op>
void run_row(const row& rw, bool nhwc) {
  // librknnrt hands a CPU custom op float32 or float16 tensors only (docs/rknpu2.md).
  for (const tensor_case& t : rw.inputs)
    if (t.type != element::float32 && t.type != element::float16) return print_na(rw, "rknpu2-float-tensors");
  for (const output_case& o : rw.outputs)
    if (o.type != element::float32 && o.type != element::float16) return print_na(rw, "rknpu2-float-tensors");
  set_attrs(rw);
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

// The toolkit2 class's calls: infer for the outputs, then compute. NHWC ops get NCHW arrays (the class
// hands the ONNX graph's arrays), converted here from and back to the row's NHWC data.
// With shape_only: the class's shape_infer alone (what Toolkit2 calls while it converts a model), which
// computes nothing: only the bad cases found before a kernel runs apply to it.
template <class Op>
void run_toolkit2_row(const row& rw, bool nhwc, bool shape_only) {
  if (shape_only && !rw.expect_refused) return print_na(rw, "toolkit2-shapes-only");
  if (shape_only && rw.fixed_output_shapes) return print_na(rw, "toolkit2-no-model-shapes");
  if (shape_only && rw.found_by_kernel) return print_na(rw, "toolkit2-no-kernel");
  set_attrs(rw);
  std::vector<r::op_attr> attrs;
  for (auto& [name, a] : g_attrs) {
    r::op_attr at{};
    std::strncpy(at.name, name.c_str(), sizeof at.name - 1);
    at.dtype = a.type;
    at.n_elems = std::uint32_t(a.type == r::type_float32 ? a.floats.size() : a.ints.size());
    at.data = a.type == r::type_float32 ? static_cast<void*>(a.floats.data()) : static_cast<void*>(a.ints.data());
    attrs.push_back(at);
  }
  const auto permuted = [&](const std::vector<std::uint32_t>& shape) { return nhwc && shape.size() == 4; };
  std::vector<buffer> ins;
  for (const tensor_case& t : rw.inputs) {
    if (!permuted(t.shape)) {
      ins.push_back(make_buffer(t.type, t.shape, false, &t.bytes));
      continue;
    }
    const auto bytes = permute4(t.bytes, t.shape, element_size(t.type), true);
    ins.push_back(make_buffer(t.type, nchw_of(t.shape), false, &bytes));
  }
  std::vector<r::tensor_attr> in_attrs, out_attrs(rw.outputs.size());
  for (const buffer& b : ins) in_attrs.push_back(b.t.attr);
  char line[512] = {};
  log_lines().clear();
  const r::op_attr* attr_data = attrs.empty() ? nullptr : attrs.data();
  if (r::infer_entry<Op>(attr_data, std::uint32_t(attrs.size()), in_attrs.data(), std::uint32_t(in_attrs.size()),
                         out_attrs.data(), std::uint32_t(out_attrs.size()), line, sizeof line) != 0)
    return print_refused(rw, line);  // rknnop_rknpu2_infer refused
  if (shape_only) {                  // shape_infer's answer: the outputs' dtypes and shapes
    digest dg;
    for (const r::tensor_attr& a : out_attrs) dg.add(&a.type, sizeof a.type), dg.add(a.dims, a.n_dims * 4);
    return print_ok(rw, dg);
  }
  std::vector<buffer> outs;
  std::vector<element> out_types;
  for (std::size_t k = 0; k < rw.outputs.size(); ++k) {
    const r::tensor_attr& a = out_attrs[k];
    element type = element::float32;
    bool known = false;
    for (element e : {element::float32, element::float16, element::int32, element::int8, element::uint8})
      if (rknn_type(e) == a.type) type = e, known = true;
    if (!known)
      return print_refused(rw, "(no rknnop line) infer gave an output of RKNN type " + std::to_string(a.type));
    std::vector<std::uint32_t> shape(a.dims, a.dims + std::min<std::uint32_t>(a.n_dims, r::max_dims));
    if (rw.fixed_output_shapes)
      shape = permuted(rw.outputs[k].shape) ? nchw_of(rw.outputs[k].shape) : rw.outputs[k].shape;
    outs.push_back(make_buffer(type, shape, false, nullptr));
    out_types.push_back(type);
  }
  std::vector<r::op_tensor> in, out;
  for (buffer& b : ins) in.push_back(b.t);
  for (buffer& b : outs) out.push_back(b.t);
  if (r::compute_entry<Op>(attr_data, std::uint32_t(attrs.size()), in.data(), std::uint32_t(in.size()), out.data(),
                           std::uint32_t(out.size()), line, sizeof line) != 0)
    return print_refused(rw, line);  // rknnop_rknpu2_compute refused
  digest dg;
  for (std::size_t k = 0; k < outs.size(); ++k) {
    std::vector<std::uint32_t> shape(outs[k].t.attr.dims, outs[k].t.attr.dims + outs[k].t.attr.n_dims);
    std::vector<std::uint8_t> bytes = outs[k].data;
    if (permuted(shape)) {  // back to the row's NHWC
      shape = {shape[0], shape[2], shape[3], shape[1]};
      bytes = permute4(bytes, shape, element_size(out_types[k]), false);
    }
    dg.add_output(out_types[k], shape, bytes.data(), bytes.size());
  }
  print_ok(rw, dg);
}

// The librknnrt column: only Rockchip's model runs there, so only its recorded row has outputs.
void print_librknnrt_row(const row& rw, const std::string& dir) {
  if (rw.inputs_from != "librknnrt") return print_na(rw, "librknnrt-one-model");
  digest dg;
  try {
    for (std::size_t k = 0; k < rw.outputs.size(); ++k) {
      const std::string file = dir + "/" + rw.name + ".out" + std::to_string(k) + ".npy";
      const recorded_tensor a = read_npy(file);  // (float32 or float16, else it throws)
      dg.add_output(a.type, a.shape, a.data.data(), a.data.size());
    }
  } catch (const std::exception& e) {
    return print_refused(rw, std::string("(no rknnop line) ") + e.what());
  }
  print_ok(rw, dg);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view mode = argc > 1 && argv[1][0] == '-' ? argv[1] : "";
  const bool toolkit2 = mode == "--toolkit2" || mode == "--toolkit2-shape-infer";
  if (!mode.empty()) --argc, ++argv;
  std::string record;  // --librknnrt DIR
  if (mode == "--librknnrt") {
    if (argc < 2) return 2;
    record = argv[1];
    --argc, ++argv;
  }
  if (argc > 1 && !std::freopen(argv[1], "w", stdout)) return 2;  // the results file
  rknnop::set_log_sink(&capture_line);
  struct op_entry {
    void (*plugin)(const row&, bool);
    void (*toolkit2)(const row&, bool, bool);
    bool nhwc;  // the op's tensors declare NHWC
  };
#define RKNNOP_CONFORMANCE_OP(Op, nhwc)                         \
  {                                                             \
    #Op, op_entry { &run_row<Op>, &run_toolkit2_row<Op>, nhwc } \
  }
  const std::map<std::string, op_entry> ops = {
      RKNNOP_CONFORMANCE_OP(DualResidual, false),    RKNNOP_CONFORMANCE_OP(Exp, false),
      RKNNOP_CONFORMANCE_OP(LeakyRelu, false),       RKNNOP_CONFORMANCE_OP(MirrorPad, false),
      RKNNOP_CONFORMANCE_OP(QuantizedMaxPool, true), RKNNOP_CONFORMANCE_OP(ResizeArea, true),
      RKNNOP_CONFORMANCE_OP(TruncateDiv, false),     RKNNOP_CONFORMANCE_OP(ConfZeroDim, false),
      RKNNOP_CONFORMANCE_OP(ConfInt8Output, false),  RKNNOP_CONFORMANCE_OP(ConfUnwritten, false),
      RKNNOP_CONFORMANCE_OP(ConfRanged, false),
  };
#undef RKNNOP_CONFORMANCE_OP
  for (const row& rw : rows()) {
    if (answered_without_running(rw)) continue;
    const op_entry& e = ops.at(rw.op);
    if (!record.empty())
      print_librknnrt_row(rw, record);
    else if (toolkit2)
      e.toolkit2(rw, e.nhwc, mode == "--toolkit2-shape-infer");
    else
      e.plugin(rw, e.nhwc);
  }
  return 0;
}
