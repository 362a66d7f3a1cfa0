// SPDX-License-Identifier: MIT
#pragma once

// The same op struct as an RKNPU2 custom operator (librknnrt 1.6.0 and later: RK3562, RK3566/RK3568,
// RK3576, RK3588), a CPU op with init / compute / destroy callbacks.
//
//   #include <rknnop/rknpu2.hpp>
//   struct DualResidual { ... static constexpr std::string_view rknpu2_type = "cstDualResidual"; };
//   RKNNOP_RKNPU2_EXPORT_OP(DualResidual);   // get_rknn_custom_op(), the plugin's entry
//
// rknnop_add_op builds <out>/rknpu2/<arch>/librkcst_<lower>.so from the op's own source: this header
// is force-included with RKNNOP_RKNPU2_BACKEND defined, which turns the op's RKNNOP_EXPORT_OP(Name)
// into RKNNOP_RKNPU2_EXPORT_OP(Name). The plugin exports, with C linkage:
//   rknn_custom_op* get_rknn_custom_op(void)               what rknn_server and applications load
//   const rknn_custom_op* rknnop_rknpu2_ops(uint32_t* n)   every op of the library (one), for
//                                                          rknn_register_custom_ops (<rknnop/rknpu2_register.hpp>)
//   int rknnop_rknpu2_infer(...), int rknnop_rknpu2_compute(...)   the op without librknnrt: attributes
//                                                          passed in (the toolkit2 Python class, ctypes)
//   const char* rknnop_rknpu2_describe(void)               the op, its tensors and attributes (rknnop-run --describe)
// The op type is rknnop::rknpu2_op_type<Op>: the struct's `rknpu2_type` when it declares one (the
// ONNX node's op type, e.g. "cstDualResidual"), else its name. Inputs and outputs by position, params
// by field name from the node's attributes (docs/rknpu2.md: the types each param takes), the struct's
// default where an attribute is absent. Tensors as librknnrt hands them (FLOAT32 NCHW on the
// non-native path); a layout-tagged field (layout::nhwc) gets its own layout, converted here.
// Every callback is noexcept: a failure returns -1 with one line "rknnop: <Op>: ..." on the log sink
// (stderr by default).

#include <rknnop/config.hpp>
#include <rknnop/detail/decode.hpp>
#include <rknnop/detail/invoke/attrs.hpp>     // the core: params from named attributes
#include <rknnop/detail/invoke/pipeline.hpp>  // the core: invocation, infer_outputs, invoke
#include <rknnop/detail/invoke/profile.hpp>   // the core: RKNNOP_PROFILE=1
#include <rknnop/detail/model.hpp>
#include <rknnop/detail/rknpu2/abi.hpp>
#include <rknnop/detail/rknpu2/describe.hpp>  // rknnop_rknpu2_describe
#include <rknnop/detail/rknpu2/record.hpp>    // RKNNOP_RECORD=<dir>
#include <rknnop/detail/rknpu2/tensor.hpp>
#include <rknnop/detail/schema.hpp>  // has_default_member_initializer (compile time only)
#include <rknnop/detail/scratch.hpp>
#include <rknnop/detail/threads.hpp>
#include <rknnop/float16.hpp>
#include <rknnop/status.hpp>
#include <rknnop/tensor.hpp>
#include <rknnop/types.hpp>

#include <cstdint>      // fixed-width types
#include <cstdlib>      // std::malloc, std::free, posix_memalign: the node's params and scratch
#include <cstring>      // std::memcpy
#include <new>          // placement new, std::bad_alloc
#include <string_view>  // names
#include <type_traits>  // field types

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::detail::rknpu2 {

// Where a failure's line goes: the log sink (a callback of librknnrt), or the caller's buffer
// (rknnop_rknpu2_infer / _compute).
struct line_target {
  char* buffer = nullptr;
  std::uint32_t size = 0;
};

// Runs `body` (returning an outcome); any failure or exception becomes one line. 0 / -1.
template <class Op, class Body>
int firewall(line_target target, Body&& body) noexcept {
  const outcome result = guarded(static_cast<Body&&>(body));
  if (result.ok()) return rknn_succ;
  // The op's name, and the model's op type beside it when the two differ.
  using model = op_model<Op>;
  const status line = model::rknpu2_type == model::name
                          ? error("rknnop: {}: {}", model::name, result.message().message())
                          : error("rknnop: {} ({}): {}", model::name, model::rknpu2_type, result.message().message());
  if (target.buffer && target.size) {
    const std::string_view text = line.message();
    const std::size_t n = text.size() < target.size - 1 ? text.size() : target.size - 1;
    std::memcpy(target.buffer, text.data(), n);
    target.buffer[n] = '\0';
  } else if (const log_state& cfg = log_config(); cfg.sink) {
    cfg.sink(line.message(), cfg.user);
  }
  return to_rknn(result.code());
}

RKNNOP_DETAIL_COLD inline outcome count_mismatch(const char* what, std::uint32_t got, std::size_t expected) noexcept {
  return outcome(status_code::invalid_parameters,
                 error("the node has {} {}{}, the op declares {}", got, what, got == 1 ? "" : "s", expected));
}

// What an integer attribute may be (read_attr_item reads every one of these types).
#define RKNNOP_DETAIL_RKNPU2_INTEGER_TYPES "INT64, INT32, INT16, INT8, UINT32, UINT16, UINT8 or BOOL"

// Reads one param from the attribute `a` (nullptr: absent, the struct's default stays). An
// attribute that is present with no items is not absent: it is refused (a scalar needs one item),
// or an empty list (an array param of variable length).
template <class F>
outcome decode_param(const field_desc& f, const op_attr* a, F& value, bool has_default) noexcept {
  if (!a) return has_default ? outcome{} : missing_attr_failure(f);
  attr_item v;
  if constexpr (int32_array_type<F>) {
    std::int32_t* items = nullptr;
    if constexpr (array_traits<F>::exact) {
      if (a->n_elems != f.capacity) {
        status expected =
            error("an integer array (" RKNNOP_DETAIL_RKNPU2_INTEGER_TYPES ") of exactly {} items", f.capacity);
        return attr_failure(f, *a, expected.message());
      }
      items = value.data();
    } else {
      if (a->n_elems > f.capacity) {
        status expected =
            error("an integer array (" RKNNOP_DETAIL_RKNPU2_INTEGER_TYPES ") of at most {} items", f.capacity);
        return attr_failure(f, *a, expected.message());
      }
      items = value.storage();
    }
    for (std::uint32_t k = 0; k < a->n_elems; ++k) {
      if (!a->data || !read_attr_item(*a, k, v) || !v.integer)
        return attr_failure(f, *a, "an integer array (" RKNNOP_DETAIL_RKNPU2_INTEGER_TYPES ")");
      if (outcome r = decode_array_item(f, v, k, items[k]); !r.ok()) return r;
    }
    if constexpr (!array_traits<F>::exact) value.resize(a->n_elems);
    return {};
  } else {
    constexpr bool is_float = std::is_floating_point_v<F> || std::is_same_v<F, float16>;
    constexpr const char* expected =
        std::is_same_v<F, bool> ? "one bool (an integer 0 or 1: " RKNNOP_DETAIL_RKNPU2_INTEGER_TYPES ")"
        : is_float              ? "one float (FLOAT32, FLOAT16, or an exact integer)"
        : std::is_enum_v<F>     ? "one integer naming an enumerator (" RKNNOP_DETAIL_RKNPU2_INTEGER_TYPES ")"
                                : "one integer (" RKNNOP_DETAIL_RKNPU2_INTEGER_TYPES ")";
    if (a->n_elems != 1 || !a->data || !read_attr_item(*a, 0, v)) return attr_failure(f, *a, expected);
    if (!is_float && !v.integer) return attr_failure(f, *a, expected);
    return decode_scalar_item(f, v, value);  // the core's rules: ranges, enums, exact finite floats
  }
}
#undef RKNNOP_DETAIL_RKNPU2_INTEGER_TYPES

// Every param from the attributes `lookup(name)` returns (a const op_attr*, nullptr when absent).
template <class Op, class Lookup>
outcome decode_attrs(const Lookup& lookup, typename op_model<Op>::params& params) noexcept {
  using model = op_model<Op>;
  outcome result;
  for_each_field_index<typename model::params>([&](auto i) {
    if (!result.ok()) return;
    constexpr field_desc f = model::fields[model::input_count + model::output_count + i];
    result = decode_param(f, lookup(f.name), field<i>(params),
                          has_default_member_initializer<typename model::params, decltype(i)::value>);
  });
  return result;
}

// The attribute `name` as librknnrt gives it; nullptr when the node has none.
struct runtime_attrs {
  op_context* ctx;
  mutable op_attr last{};
  const op_attr* operator()(std::string_view name) const noexcept {
    char key[max_name_len] = {};
    if (name.size() >= max_name_len) return nullptr;
    std::memcpy(key, name.data(), name.size());
    last = op_attr{};
    rknnop_detail_rknn_get_op_attr(ctx, key, &last);
    // librknnrt answers an attribute the node lacks ("op_attr x not found") with no items and no
    // data, and an undefined dtype: absent. Whatever has data is the node's attribute (an empty list
    // with data too; one without data cannot be told from an absent one through librknnrt).
    return last.n_elems != 0 || last.data ? &last : nullptr;
  }
};

// The attributes a caller passed in (rknnop_rknpu2_infer / _compute).
struct given_attrs {
  const op_attr* attrs;
  std::uint32_t count;
  const op_attr* operator()(std::string_view name) const noexcept {
    for (std::uint32_t i = 0; attrs && i < count; ++i)
      if (std::string_view(attrs[i].name, ::strnlen(attrs[i].name, max_name_len)) == name)
        return &attrs[i];  // present, even with no items (an empty list is not an absent attribute)
    return nullptr;
  }
};

// Inputs bound (shapes; with Data, their data too) and the op's `infer` run on them.
template <class Op, bool Data>
outcome bind_inputs(const op_tensor* inputs, std::uint32_t n_inputs, invocation<Op>& call, layout_plan* plans,
                    buffer_list& buffers) noexcept {
  using model = op_model<Op>;
  if (n_inputs != model::input_count) return count_mismatch("input", n_inputs, model::input_count);
  if (!inputs) return outcome(status_code::invalid_reference, error("the runtime handed no input tensors"));
  outcome result;
  for_each_field_index<typename model::inputs>([&](auto i) {
    if (!result.ok()) return;
    constexpr field_desc f = model::fields[i];
    tensor_info& info = call.info[i];
    result = read_attr_shape(inputs[i].attr, f, info, plans[i]);
    if (Data && result.ok()) result = read_input(inputs[i], f, info, plans[i], buffers, call.data[i]);
    if (!result.ok()) return;
    bind_view<i>(call.in, info, call.data[i]);
  });
  return result;
}

// The node's tensors bound (bind_inputs) and every output's shape and dtype as the runtime gives it
// (call.info): what compute binds for each call and init once for the node (settle_node).
template <class Op, bool Data>
outcome bind_tensors(const op_tensor* inputs, std::uint32_t n_inputs, const op_tensor* outputs, invocation<Op>& call,
                     layout_plan* plans, buffer_list& buffers) noexcept {
  using model = op_model<Op>;
  outcome result = bind_inputs<Op, Data>(inputs, n_inputs, call, plans, buffers);
  for_each_field_index<typename model::outputs>([&](auto i) {
    constexpr std::size_t k = model::input_count + i;
    if (result.ok()) result = read_attr_shape(outputs[i].attr, model::fields[k], call.info[k], plans[k]);
  });
  return result;
}

// What read_attr_shape reads of a runtime tensor: the same key, the same shape, layout plan and
// checks. A tensor of more dims than rknnop's rank limit has no key (it is refused on the full path).
struct shape_key {
  std::uint32_t n_dims = 0;
  std::uint32_t dims[max_tensor_rank] = {};
  tensor_format fmt = format_undefined;
  tensor_type type = type_float32;
  std::int32_t qnt_type = 0;

  [[nodiscard]] static bool fits(const tensor_attr& a) noexcept { return a.n_dims <= max_tensor_rank; }
  void set(const tensor_attr& a) noexcept {
    n_dims = a.n_dims;
    for (std::uint32_t d = 0; d < a.n_dims; ++d) dims[d] = a.dims[d];
    fmt = a.fmt;
    type = a.type;
    qnt_type = a.qnt_type;
  }
  [[nodiscard]] bool same(const tensor_attr& a) const noexcept {
    if (a.n_dims != n_dims || a.fmt != fmt || a.type != type || a.qnt_type != qnt_type) return false;
    if (n_dims == 4) {  // the usual rank (a compute call checks every tensor's key): two 8-byte compares
      std::uint64_t x[2], y[2];
      std::memcpy(x, a.dims, 16);
      std::memcpy(y, dims, 16);
      return ((x[0] ^ y[0]) | (x[1] ^ y[1])) == 0;
    }
    for (std::uint32_t d = 0; d < n_dims; ++d)
      if (a.dims[d] != dims[d]) return false;
    return true;
  }
};

// The callbacks' state for one node (librknnrt hands compute and destroy the priv_data init set, in
// contexts of its own): its params, decoded once in init, and, when init's tensors passed every
// shape rule, what the core settled for them once (docs/rknpu2.md: per node, not per call): each
// tensor's shape as the kernel sees it, its layout plan and the outputs' inferred and checked
// shapes. compute takes them when the tensors it is handed have the same keys, else runs `infer`
// and its checks again (the full path, which also gives the line of a tensor that breaks a rule).
// A settled node's call needs little scratch (a tiny image's copies): init allocates it once too, and
// a call takes it instead of blocks of the shared cache (release_node frees it).
template <class Op>
struct node_state {
  using model = op_model<Op>;
  static constexpr std::size_t tensors = model::input_count + model::output_count;
  typename model::params params{};
  std::uint32_t node = 0;  // this plugin's nodes counted from 1 by init (RKNNOP_RECORD's manifest)
  bool settled = false;
  shape_key keys[tensors];
  tensor_info info[tensors];
  layout_plan plans[tensors];
  void* scratch = nullptr;  // scratch_bytes, 16-byte aligned; nullptr: the calls use the cache
  std::size_t scratch_bytes = 0;
  bool scratch_busy = false;  // a call holds the scratch (scratch_claim)

  // Whether the tensors compute was handed are the ones init settled.
  [[nodiscard]] bool same_tensors(const op_tensor* inputs, std::uint32_t n_inputs, const op_tensor* outputs,
                                  std::uint32_t n_outputs) const noexcept {
    if (!settled || !inputs || !outputs || n_inputs != model::input_count || n_outputs != model::output_count)
      return false;
    for (std::size_t i = 0; i < model::input_count; ++i)
      if (!keys[i].same(inputs[i].attr)) return false;
    for (std::size_t i = 0; i < model::output_count; ++i)
      if (!keys[model::input_count + i].same(outputs[i].attr)) return false;
    return true;
  }
};

// The most scratch a node keeps for its calls: the tensors of a larger one move through the shared
// cache, whose blocks (taken and returned in a few atomic operations) are not held per node.
inline constexpr std::size_t node_scratch_limit = 64 * 1024;

// A node's scratch for one call, when no other call of the node holds it (librknnrt runs a node's
// compute on one thread at a time, but nothing promises it): else none, and the call uses the cache.
struct scratch_claim {
  bool* busy = nullptr;
  void* block = nullptr;
  std::size_t bytes = 0;
  template <class Op>
  explicit scratch_claim(node_state<Op>& state) noexcept {
    if (state.scratch && !__atomic_exchange_n(&state.scratch_busy, true, __ATOMIC_ACQUIRE)) {
      busy = &state.scratch_busy;
      block = state.scratch;
      bytes = state.scratch_bytes;
    }
  }
  scratch_claim(const scratch_claim&) = delete;
  scratch_claim& operator=(const scratch_claim&) = delete;
  ~scratch_claim() {
    if (busy) __atomic_store_n(busy, false, __ATOMIC_RELEASE);
  }
};

// Frees a node's state (priv_data) and its scratch; node_state is otherwise trivially destructible.
template <class Op>
void release_node(void* priv_data) noexcept {
  if (!priv_data) return;
  std::free(static_cast<node_state<Op>*>(priv_data)->scratch);
  std::free(priv_data);
}

// The nodes whose init refused them, by the runtime's internal context (the one field init, compute
// and destroy share). librknnrt 1.6.0 ignores what init returns and drops the priv_data of a failed
// init: compute is called all the same, and fails here without repeating init's line.
template <class Op>
struct refused_nodes {
  static constexpr std::size_t capacity = 64;
  static inline internal_context slots[capacity] = {};  // 0: free

  static bool add(internal_context node) noexcept {
    for (internal_context& slot : slots) {
      internal_context expected = 0;
      if (node && __atomic_compare_exchange_n(&slot, &expected, node, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return true;
    }
    return false;  // full: compute repeats the line
  }
  static bool contains(internal_context node) noexcept {
    for (internal_context& slot : slots)
      if (node && __atomic_load_n(&slot, __ATOMIC_ACQUIRE) == node) return true;
    return false;
  }
  static void remove(internal_context node) noexcept {
    for (internal_context& slot : slots) {
      internal_context expected = node;
      if (node)
        __atomic_compare_exchange_n(&slot, &expected, internal_context{0}, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
  }
};

// The shapes of init's tensors, as compute's full path binds and checks them (bind_tensors, then the
// core's infer_and_settle: `infer`, its one check and the inferred shapes against the runtime's), kept
// in the node's state. Anything refused leaves the node unsettled, silently: the full path in compute
// runs the same rules on compute's tensors and gives the line.
template <class Op>
void settle_node(node_state<Op>& state, const op_tensor* inputs, const op_tensor* outputs) noexcept {
  using model = op_model<Op>;
  state.settled = false;
  if (!inputs || !outputs) return;
  invocation<Op> call;
  call.par = state.params;
  buffer_list no_buffers;  // shapes only: nothing is allocated
  outcome result = bind_tensors<Op, false>(inputs, model::input_count, outputs, call, state.plans, no_buffers);
  if (result.ok()) result = infer_and_settle(call, [](auto) { return outcome{}; });  // noexcept: call_user catches
  if (!result.ok()) return;
  for (std::size_t i = 0; i < model::input_count; ++i) {
    if (!shape_key::fits(inputs[i].attr)) return;
    state.keys[i].set(inputs[i].attr);
  }
  for (std::size_t i = 0; i < model::output_count; ++i) {
    if (!shape_key::fits(outputs[i].attr)) return;
    state.keys[model::input_count + i].set(outputs[i].attr);
  }
  for (std::size_t k = 0; k < node_state<Op>::tensors; ++k) state.info[k] = call.info[k];
  state.settled = true;
  // The scratch of a call (read_input's and write_output's copies, allocate_output's buffers), when it
  // is within node_scratch_limit (a larger one takes the shared cache's blocks on every call).
  std::size_t bytes = 0;
  bool fits = true;
  const auto add = [&bytes, &fits](std::size_t more) {
    fits = fits && more <= node_scratch_limit - bytes;
    if (fits) bytes += more;
  };
  for (std::size_t i = 0; i < model::input_count; ++i)
    add(input_scratch(model::fields[i], state.info[i], state.plans[i]));
  for (std::size_t k = model::input_count; k < node_state<Op>::tensors; ++k)
    add(output_scratch(model::fields[k], state.info[k], state.plans[k]));
  void* block = nullptr;
  if (fits && bytes != 0 && posix_memalign(&block, 16, bytes) == 0) {
    state.scratch = block;
    state.scratch_bytes = bytes;
  }
}

// init: the node's attributes decoded and checked once. Its line is the node's only one: a refused
// node's compute fails silently (refused_nodes).
template <class Op>
int init(op_context* ctx, op_tensor* inputs, std::uint32_t n_inputs, op_tensor* outputs,
         std::uint32_t n_outputs) noexcept {
  const int rc = firewall<Op>({}, [&]() -> outcome {
    using model = op_model<Op>;
    if (!ctx) return outcome(status_code::invalid_reference, error("init got no op context"));
    if (!rknnop_detail_rknn_get_op_attr)
      return outcome(status_code::failure,
                     error("rknn_custom_op_get_op_attr is not in the process (no librknnrt loaded)"));
    if (n_inputs != model::input_count) return count_mismatch("input", n_inputs, model::input_count);
    if (n_outputs != model::output_count) return count_mismatch("output", n_outputs, model::output_count);
    void* memory = std::malloc(sizeof(node_state<Op>));
    if (!memory) return outcome(status_code::no_memory, error("cannot allocate the node's params"));
    auto* state = ::new (memory) node_state<Op>();
    static constinit std::uint32_t nodes = 0;
    state->node = __atomic_add_fetch(&nodes, 1, __ATOMIC_RELAXED);
    outcome result = decode_attrs<Op>(runtime_attrs{ctx}, state->params);
    if (!result.ok()) {
      std::free(memory);
      return result;
    }
    settle_node(*state, inputs, outputs);
    if (ctx->priv_data) {
      release_node<Op>(ctx->priv_data);
      thread_hooks::node_deinitialized();
    }
    ctx->priv_data = state;
    thread_hooks::node_initialized();
    return result;
  });
  if (rc != 0 && ctx) refused_nodes<Op>::add(ctx->internal_ctx);
  return rc;
}

template <class Op>
int destroy(op_context* ctx) noexcept {
  if (ctx) refused_nodes<Op>::remove(ctx->internal_ctx);
  return firewall<Op>({}, [&]() -> outcome {
    if (ctx && ctx->priv_data) {
      release_node<Op>(ctx->priv_data);
      ctx->priv_data = nullptr;
      thread_hooks::node_deinitialized();
    }
    return {};
  });
}

// An element-wise op's one pass in place (the core's run_each_element): librknnrt's tensors are host
// memory, so the pass reads the inputs and writes the output there, no copy of either, when no tensor
// is laid out anew (a layout-tagged field whose runtime layout differs takes the ordinary pipeline,
// which moves it) and no input shares a byte with the output (the ranges would overwrite what other
// ranges still read). Each tensor's data is taken here (tensor_data: its bytes within the runtime's
// buffer) into `data`, for the adapters' memory(k); the slabs are the elements one by one (the pool
// splits them).
template <class Op>
bool in_place_slabs(const op_tensor* inputs, const op_tensor* outputs, const layout_plan* plans,
                    const invocation<Op>& call, char** data, slabs& s) noexcept {
  using model = op_model<Op>;
  constexpr std::size_t out = model::input_count;
  for (std::size_t k = 0; k < model::input_count + model::output_count; ++k) {
    const op_tensor& t = k < out ? inputs[k] : outputs[k - out];
    if (plans[k].moves || !tensor_data(t, model::fields[k], call.info[k], data[k]).ok()) return false;
  }
  const std::size_t out_bytes = call.info[out].elements * dtype_size(call.info[out].dtype);
  for (std::size_t k = 0; k < out; ++k) {
    const std::size_t in_bytes = call.info[k].elements * dtype_size(call.info[k].dtype);
    if (data[k] < data[out] + out_bytes && data[out] < data[k] + in_bytes) return false;
  }
  s = slabs{};
  s.count = call.info[out].elements;
  return true;
}

// The inputs' data as the kernel's element type and layout (read_input), each bound to its view: the
// second half of binding, after the shapes (bind_tensors<Op, false>, or init's), for both adapters.
template <class Op>
outcome read_inputs(const op_tensor* inputs, const layout_plan* plans, invocation<Op>& call,
                    buffer_list& buffers) noexcept {
  using model = op_model<Op>;
  outcome result;
  for_each_field_index<typename model::inputs>([&](auto i) {
    if (result.ok()) result = read_input(inputs[i], model::fields[i], call.info[i], plans[i], buffers, call.data[i]);
    if (result.ok()) bind_view<i>(call.in, call.info[i], call.data[i]);
  });
  return result;
}

// The RKNPU2 adapter of the core's pipeline (invoke): librknnrt's tensors in and out, converted
// between the runtime's layout and the one the op declares (layout_plan).
template <class Op>
struct rknpu2_io {
  using model = op_model<Op>;
  static constexpr bool infer_per_call = true;
  op_tensor* inputs;
  std::uint32_t n_inputs;
  op_tensor* outputs;
  std::uint32_t n_outputs;
  layout_plan plans[model::input_count + model::output_count];
  profile_marks* marks = nullptr;  // RKNNOP_PROFILE=1 (invoke/profile.hpp)

  outcome bind(invocation<Op>& call, buffer_list& buffers) noexcept {
    if (n_outputs != model::output_count) return count_mismatch("output", n_outputs, model::output_count);
    if (!outputs) return outcome(status_code::invalid_reference, error("the runtime handed no output tensors"));
    const outcome result = bind_tensors<Op, true>(inputs, n_inputs, outputs, call, plans, buffers);
    if (marks) marks->inputs_done = profile_now();
    return result;
  }
  template <class I>
  outcome settled(invocation<Op>&, I) noexcept {
    return {};
  }
  template <class I>  // I: the output's index, a std::integral_constant
  outcome write(invocation<Op>& call, I, buffer_list& buffers) noexcept {
    constexpr std::size_t k = model::input_count + I::value;
    if (I::value == 0 && marks) marks->outputs_from = profile_now();
    return write_output(outputs[I::value], model::fields[k], call.info[k], plans[k], call.data[k], buffers);
  }

  // --- element ranges, in place (in_place_slabs): bind's two halves, `infer` between them (the core's
  // invoke runs it on the shapes alone, as init does for a settled node) --------------------------------
  static constexpr bool element_ranges = true;
  static constexpr bool in_place = true;
  outcome bind_shapes(invocation<Op>& call, buffer_list& buffers) noexcept {
    if (n_outputs != model::output_count) return count_mismatch("output", n_outputs, model::output_count);
    if (!outputs) return outcome(status_code::invalid_reference, error("the runtime handed no output tensors"));
    const outcome result = bind_tensors<Op, false>(inputs, n_inputs, outputs, call, plans, buffers);
    if (marks) marks->inputs_done = profile_now();  // the one pass: its time is the kernel's
    return result;
  }
  outcome read_inputs(invocation<Op>& call, buffer_list& buffers) noexcept {
    const outcome result = rknpu2::read_inputs<Op>(inputs, plans, call, buffers);
    if (marks) marks->inputs_done = profile_now();
    return result;
  }
  bool element_slabs(const invocation<Op>& call, slabs& s) noexcept {
    return in_place_slabs<Op>(inputs, outputs, plans, call, data, s);
  }
  char* memory(std::size_t k) const noexcept { return data[k]; }
  char* data[model::input_count + model::output_count] = {};
};

// The RKNPU2 adapter for a node whose shapes init settled (node_state): the same tensors in and out,
// with the shapes, plans and inferred outputs init kept (as RKNN v1's validator settles them before
// the kernel runs), so the core's pipeline runs no `infer` per call.
template <class Op>
struct rknpu2_settled_io {
  using model = op_model<Op>;
  static constexpr bool infer_per_call = false;
  const node_state<Op>& state;
  op_tensor* inputs;
  op_tensor* outputs;
  profile_marks* marks = nullptr;  // RKNNOP_PROFILE=1 (invoke/profile.hpp)

  outcome bind(invocation<Op>& call, buffer_list& buffers) noexcept {
    const outcome result = bind_shapes(call, buffers);
    return result.ok() ? read_inputs(call, buffers) : result;
  }
  template <class I>  // I: the output's index, a std::integral_constant
  outcome write(invocation<Op>& call, I, buffer_list& buffers) noexcept {
    constexpr std::size_t k = model::input_count + I::value;
    if (I::value == 0 && marks) marks->outputs_from = profile_now();
    return write_output(outputs[I::value], model::fields[k], call.info[k], state.plans[k], call.data[k], buffers);
  }

  // --- element ranges, in place (in_place_slabs) ---------------------------------------------------
  static constexpr bool element_ranges = true;
  static constexpr bool in_place = true;
  outcome bind_shapes(invocation<Op>& call, buffer_list&) noexcept {
    for (std::size_t k = 0; k < node_state<Op>::tensors; ++k) call.info[k] = state.info[k];
    if (marks) marks->inputs_done = profile_now();  // the one pass: its time is the kernel's
    return {};
  }
  outcome read_inputs(invocation<Op>& call, buffer_list& buffers) noexcept {
    const outcome result = rknpu2::read_inputs<Op>(inputs, state.plans, call, buffers);
    if (marks) marks->inputs_done = profile_now();
    return result;
  }
  bool element_slabs(const invocation<Op>& call, slabs& s) noexcept {
    return in_place_slabs<Op>(inputs, outputs, state.plans, call, data, s);
  }
  char* memory(std::size_t k) const noexcept { return data[k]; }
  char* data[node_state<Op>::tensors] = {};
};

// The core's pipeline through one of the adapters above, timed when RKNNOP_PROFILE=1 asked for it
// (invoke/profile.hpp): one stderr line per compute call, with the time in the inputs' conversion and
// layout (librknnrt's tensors to the kernel's type and layout), in the kernel (with the op's infer and
// the output buffers), in the outputs' conversion and layout back into the runtime's memory, and the
// threads the call ran on. The setting is read once, by the plugin's constructor
// (RKNNOP_RKNPU2_EXPORT_OP): unset, a compute call costs one load of a flag. What it cannot see:
// librknnrt's own work around the op (its conversions of the NPU layers' outputs to FLOAT32 NCHW and
// back), outside the plugin (docs/rknpu2-deploy.md §3).
template <class Op, class Io>
outcome invoke_profiled(Io& io, invocation<Op>& call, buffer_list& buffers) noexcept {
  if (!profile_enabled) return invoke(io, call, buffers);
  profile_marks marks = profile_start();
  io.marks = &marks;
  const outcome result = invoke(io, call, buffers);
  print_profile(op_model<Op>::name, marks, result.ok(), "compute call");
  return result;
}

// One call of the op: the core's pipeline through librknnrt's tensors.
template <class Op>
outcome run(const typename op_model<Op>::params& params, op_tensor* inputs, std::uint32_t n_inputs, op_tensor* outputs,
            std::uint32_t n_outputs) noexcept {
  buffer_list buffers;
  invocation<Op> call;
  call.par = params;
  rknpu2_io<Op> io{inputs, n_inputs, outputs, n_outputs, {}};
  return invoke_profiled(io, call, buffers);
}

template <class Op>
int compute_call(op_context* ctx, op_tensor* inputs, std::uint32_t n_inputs, op_tensor* outputs,
                 std::uint32_t n_outputs) noexcept {
  if (ctx && !ctx->priv_data && refused_nodes<Op>::contains(ctx->internal_ctx))
    return to_rknn(status_code::failure);  // init said why
  return firewall<Op>({}, [&]() -> outcome {
    if (!ctx) return outcome(status_code::invalid_reference, error("compute got no op context"));
    if (ctx->priv_data) {
      auto& state = *static_cast<node_state<Op>*>(ctx->priv_data);
      if (state.same_tensors(inputs, n_inputs, outputs, n_outputs)) {  // per node: init settled the shapes
        const scratch_claim scratch(state);
        buffer_list buffers(scratch.block, scratch.bytes);
        invocation<Op> call;
        call.par = state.params;
        rknpu2_settled_io<Op> io{state, inputs, outputs};
        return invoke_profiled(io, call, buffers);
      }
      return run<Op>(state.params, inputs, n_inputs, outputs, n_outputs);
    }
    // init was not called (or not for this context): the attributes are read now.
    if (!rknnop_detail_rknn_get_op_attr)
      return outcome(status_code::failure,
                     error("rknn_custom_op_get_op_attr is not in the process (no librknnrt loaded)"));
    typename op_model<Op>::params params{};
    outcome result = decode_attrs<Op>(runtime_attrs{ctx}, params);
    return result.ok() ? run<Op>(params, inputs, n_inputs, outputs, n_outputs) : result;
  });
}

// RKNNOP_RECORD=<dir> (record.hpp): the call's inputs written, the call made, its outputs, the node's
// attributes (as librknnrt answers them, by the params' names) and the manifest written. Recording
// never changes what compute returns.
template <class Op>
RKNNOP_DETAIL_COLD int compute_recorded(op_context* ctx, op_tensor* inputs, std::uint32_t n_inputs, op_tensor* outputs,
                                        std::uint32_t n_outputs) noexcept {
  using model = op_model<Op>;
  static constexpr auto names = [] {
    struct both {
      std::string_view in[model::input_count > 0 ? model::input_count : 1];
      std::string_view out[model::output_count > 0 ? model::output_count : 1];
    } b{};
    for (std::size_t i = 0; i < model::input_count; ++i) b.in[i] = model::fields[i].name;
    for (std::size_t i = 0; i < model::output_count; ++i) b.out[i] = model::fields[model::input_count + i].name;
    return b;
  }();
  record_call c;
  c.type = model::rknpu2_type;
  c.name = model::name;
  c.node = ctx && ctx->priv_data ? static_cast<const node_state<Op>*>(ctx->priv_data)->node : 0;
  c.inputs = inputs;
  c.outputs = outputs;
  c.n_inputs = n_inputs;
  c.n_outputs = n_outputs;
  c.input_names = names.in;
  c.output_names = names.out;
  c.input_fields = model::input_count;
  c.output_fields = model::output_count;
  const bool recording = record_before(c);
  const int rc = compute_call<Op>(ctx, inputs, n_inputs, outputs, n_outputs);
  if (recording) {
    op_attr attrs[model::param_count > 0 ? model::param_count : 1] = {};
    std::uint32_t n_attrs = 0;
    if (ctx && rknnop_detail_rknn_get_op_attr) {
      const runtime_attrs lookup{ctx};
      for (std::size_t i = 0; i < model::param_count; ++i)
        if (const op_attr* a = lookup(model::fields[model::input_count + model::output_count + i].name)) {
          attrs[n_attrs] = *a;
          const std::string_view name = model::fields[model::input_count + model::output_count + i].name;
          std::memset(attrs[n_attrs].name, 0, sizeof attrs[n_attrs].name);
          std::memcpy(attrs[n_attrs].name, name.data(), name.size() < max_name_len ? name.size() : max_name_len - 1);
          ++n_attrs;
        }
    }
    record_after(c, attrs, n_attrs, rc == 0);
  }
  return rc;
}

template <class Op>
int compute(op_context* ctx, op_tensor* inputs, std::uint32_t n_inputs, op_tensor* outputs,
            std::uint32_t n_outputs) noexcept {
  if (record_enabled) [[unlikely]]  // RKNNOP_RECORD, read once at load
    return compute_recorded<Op>(ctx, inputs, n_inputs, outputs, n_outputs);
  return compute_call<Op>(ctx, inputs, n_inputs, outputs, n_outputs);
}

// The exported entries for callers without librknnrt.
template <class Op>
int infer_entry(const op_attr* attrs, std::uint32_t n_attrs, const tensor_attr* inputs, std::uint32_t n_inputs,
                tensor_attr* outputs, std::uint32_t n_outputs, char* error_line, std::uint32_t error_size) noexcept {
  return firewall<Op>({error_line, error_size}, [&]() -> outcome {
    using model = op_model<Op>;
    if (n_outputs != model::output_count) return count_mismatch("output", n_outputs, model::output_count);
    if (!inputs || !outputs) return outcome(status_code::invalid_reference, error("no tensor attributes given"));
    invocation<Op> call;
    outcome result = decode_attrs<Op>(given_attrs{attrs, n_attrs}, call.par);
    op_tensor shapes[model::input_count > 0 ? model::input_count : 1] = {};
    for (std::uint32_t i = 0; i < n_inputs && i < model::input_count; ++i) shapes[i].attr = inputs[i];
    layout_plan plans[model::input_count + model::output_count];
    buffer_list buffers;
    if (result.ok()) result = bind_inputs<Op, false>(shapes, n_inputs, call, plans, buffers);
    if (result.ok()) result = infer_outputs(call, nullptr);  // the core's defaults and its one check
    for_each_field_index<typename model::outputs>([&](auto i) {
      if (!result.ok()) return;
      constexpr field_desc f = model::fields[model::input_count + i];
      const auto& view = field<i>(call.out);
      tensor_attr& out = outputs[i];
      const std::int32_t dtype = static_cast<std::int32_t>(view.dtype());
      out.type = rknn_of(dtype);
      out.fmt = inputs[0].fmt;
      out.qnt_type = 0;
      out.n_dims = view.rank();
      std::uint32_t outer_first[max_tensor_rank] = {};
      for (std::uint32_t d = 0; d < view.rank(); ++d) outer_first[d] = view.dims()[view.rank() - 1 - d];
      // A layout-tagged output of rank 4 goes back to the runtime's layout (the first input's).
      if (f.layout[0] != '\0' && view.rank() == 4 && plans[0].permute) {
        std::uint32_t runtime[4] = {};
        for (std::uint32_t d = 0; d < 4; ++d) runtime[plans[0].perm[d]] = outer_first[d];
        for (std::uint32_t d = 0; d < 4; ++d) outer_first[d] = runtime[d];
      }
      std::uint64_t elements = 1;
      for (std::uint32_t d = 0; d < max_dims; ++d) out.dims[d] = d < view.rank() ? outer_first[d] : 0;
      for (std::uint32_t d = 0; d < view.rank(); ++d) elements *= outer_first[d];
      if (elements * dtype_size(dtype) > 0xFFFFFFFFu) {
        result =
            fail(status_code::invalid_dimension, f, "{} elements do not fit an RKNN tensor's 32-bit size", elements);
        return;
      }
      out.n_elems = static_cast<std::uint32_t>(elements);
      out.size = static_cast<std::uint32_t>(elements * dtype_size(dtype));
    });
    return result;
  });
}

template <class Op>
int compute_entry(const op_attr* attrs, std::uint32_t n_attrs, op_tensor* inputs, std::uint32_t n_inputs,
                  op_tensor* outputs, std::uint32_t n_outputs, char* error_line, std::uint32_t error_size) noexcept {
  return firewall<Op>({error_line, error_size}, [&]() -> outcome {
    typename op_model<Op>::params params{};
    outcome result = decode_attrs<Op>(given_attrs{attrs, n_attrs}, params);
    return result.ok() ? run<Op>(params, inputs, n_inputs, outputs, n_outputs) : result;
  });
}

// Whether every tensor of the op can be fed by librknnrt (FLOAT32 or FLOAT16).
template <class Op>
consteval bool feedable() {
  for (std::size_t k = 0; k < op_model<Op>::input_count + op_model<Op>::output_count; ++k)
    if (!rknpu2_feedable(op_model<Op>::fields[k])) return false;
  return true;
}

// The op's rknn_custom_op, filled in once.
template <class Op>
constexpr custom_op make_custom_op() noexcept {
  custom_op op{};
  op.version = 1;
  op.target = target_cpu;
  constexpr std::string_view type = op_model<Op>::rknpu2_type;
  for (std::size_t i = 0; i < type.size(); ++i) op.op_type[i] = type[i];
  op.init = &init<Op>;
  op.compute = &compute<Op>;
  op.destroy = &destroy<Op>;
  return op;
}

template <class Op>
inline constinit custom_op the_custom_op = make_custom_op<Op>();

}  // namespace rknnop::detail::rknpu2

RKNNOP_DETAIL_END_HIDDEN

// Defines the plugin's exports for op struct Name (namespace scope, once per library).
#define RKNNOP_RKNPU2_EXPORT_OP(Name)                                                                                 \
  static_assert(::rknnop::detail::check_op<Name>(), "rknnop: " #Name " is not a valid op (see above)");               \
  static_assert(::rknnop::detail::rknpu2::feedable<Name>(),                                                           \
                "rknnop: " #Name                                                                                      \
                " has a tensor that accepts neither float32 nor float16: librknnrt hands a CPU "                      \
                "custom op float32 (or float16) tensors, so it cannot be an RKNPU2 plugin");                          \
  namespace {                                                                                                         \
  [[gnu::constructor]] void rknnop_detail_rknpu2_load_##Name() {                                                      \
    ::rknnop::detail::read_profile_setting(); /* RKNNOP_PROFILE, read once */                                         \
    ::rknnop::detail::read_record_setting();  /* RKNNOP_RECORD, read once */                                          \
  }                                                                                                                   \
  [[gnu::destructor]] void rknnop_detail_rknpu2_unload_##Name() {                                                     \
    ::rknnop::detail::unload_library(); /* workers joined, scratch cache drained */                                   \
  }                                                                                                                   \
  }                                                                                                                   \
  extern "C" {                                                                                                        \
  RKNNOP_EXPORT ::rknnop::detail::rknpu2::custom_op* get_rknn_custom_op() {                                           \
    return &::rknnop::detail::rknpu2::the_custom_op<Name>;                                                            \
  }                                                                                                                   \
  RKNNOP_EXPORT const ::rknnop::detail::rknpu2::custom_op* rknnop_rknpu2_ops(std::uint32_t* count) {                  \
    if (count) *count = 1;                                                                                            \
    return &::rknnop::detail::rknpu2::the_custom_op<Name>;                                                            \
  }                                                                                                                   \
  RKNNOP_EXPORT int rknnop_rknpu2_infer(const ::rknnop::detail::rknpu2::op_attr* attrs, std::uint32_t n_attrs,        \
                                        const ::rknnop::detail::rknpu2::tensor_attr* inputs, std::uint32_t n_inputs,  \
                                        ::rknnop::detail::rknpu2::tensor_attr* outputs, std::uint32_t n_outputs,      \
                                        char* error, std::uint32_t error_size) {                                      \
    return ::rknnop::detail::rknpu2::infer_entry<Name>(attrs, n_attrs, inputs, n_inputs, outputs, n_outputs, error,   \
                                                       error_size);                                                   \
  }                                                                                                                   \
  RKNNOP_EXPORT int rknnop_rknpu2_compute(const ::rknnop::detail::rknpu2::op_attr* attrs, std::uint32_t n_attrs,      \
                                          ::rknnop::detail::rknpu2::op_tensor* inputs, std::uint32_t n_inputs,        \
                                          ::rknnop::detail::rknpu2::op_tensor* outputs, std::uint32_t n_outputs,      \
                                          char* error, std::uint32_t error_size) {                                    \
    return ::rknnop::detail::rknpu2::compute_entry<Name>(attrs, n_attrs, inputs, n_inputs, outputs, n_outputs, error, \
                                                         error_size);                                                 \
  }                                                                                                                   \
  RKNNOP_EXPORT const char* rknnop_rknpu2_describe() { return ::rknnop::detail::rknpu2::describe_entry<Name>(); }     \
  }                                                                                                                   \
  static_assert(true, "RKNNOP_RKNPU2_EXPORT_OP(Name) takes a trailing semicolon")

// In librkcst_<lower>.so builds (rknnop_add_op), the op's own RKNNOP_EXPORT_OP(Name) defines the
// plugin's exports instead of the OpenVX list.
#if defined(RKNNOP_RKNPU2_BACKEND) && RKNNOP_RKNPU2_BACKEND
#undef RKNNOP_EXPORT_OP
#define RKNNOP_EXPORT_OP(Name) RKNNOP_RKNPU2_EXPORT_OP(Name)
#endif

// Op structs built into an application (<rknnop/rknpu2_register.hpp>: register_ops<Ops...>): the
// op's RKNNOP_EXPORT_OP(Name) keeps only its checks, so several ops share one program.
#if defined(RKNNOP_RKNPU2_EMBED)
#undef RKNNOP_EXPORT_OP
#define RKNNOP_EXPORT_OP(Name)                                                                          \
  static_assert(::rknnop::detail::check_op<Name>(), "rknnop: " #Name " is not a valid op (see above)"); \
  static_assert(::rknnop::detail::rknpu2::feedable<Name>(),                                             \
                "rknnop: " #Name                                                                        \
                " has a tensor that accepts neither float32 nor float16: librknnrt "                    \
                "hands a CPU custom op float32 (or float16) tensors, so it cannot be an RKNPU2 op")
#endif
