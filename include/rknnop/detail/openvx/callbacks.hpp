// SPDX-License-Identifier: MIT
#pragma once

// Layer 11 of detail/ (docs/architecture.md §1): callbacks, the RKNN v1 (OpenVX) adapter. The C
// callbacks OpenVX calls, generated per op: named noexcept trampolines that decode the parameters,
// run the core's pipeline (detail/invoke/pipeline.hpp) through VX tensor I/O and turn every failure
// (or exception) into a vx_status and one log line. Nothing thrown crosses into C.

#include <rknnop/detail/decode.hpp>
#include <rknnop/detail/openvx/io.hpp>
#include <rknnop/detail/invoke/pipeline.hpp>
#include <rknnop/detail/log.hpp>
#include <rknnop/detail/model.hpp>
#include <rknnop/detail/scratch.hpp>
#include <rknnop/detail/threads.hpp>
#include <rknnop/detail/vx_api.hpp>
#include <rknnop/status.hpp>

#include <cstddef>  // std::size_t
#include <cstdlib>  // std::malloc, std::free (node facts)
#include <cstring>  // std::memcpy
#include <new>      // std::bad_alloc (exception builds)

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported
RKNNOP_DETAIL_BEGIN_GLUE    // see config.hpp: compiled for size

namespace rknnop::detail {
// `types`: param_types::check in the validator, trust_validator after it (see param_types).
template <class Op>
outcome decode_params(const vx_reference* refs, invocation<Op>& call, param_types types) noexcept {
  using model = op_model<Op>;
  outcome result;
  for_each_field_index<typename model::params>([&](auto i) {
    if (!result.ok()) return;
    constexpr const field_desc& f = model::fields[model::input_count + model::output_count + i];
    auto& value = field<i>(call.par);
    using F = std::remove_cvref_t<decltype(value)>;
    if constexpr (int32_array_type<F>) {
      std::size_t count = 0;
      if constexpr (array_traits<F>::exact) {
        result = read_array(refs[f.param_index], f, value.data(), count, types);
      } else {
        result = read_array(refs[f.param_index], f, value.storage(), count, types);
        value.resize(count);
      }
    } else {
      alignas(8) unsigned char storage[8] = {};
      result = read_scalar(refs[f.param_index], f, storage, types);
      if (!result.ok()) return;
      if constexpr (std::is_same_v<F, bool>) {
        vx_int32 b = 0;  // vx_bool: a 4-byte enum, 0 or 1 (read_scalar refused any other value)
        std::memcpy(&b, storage, sizeof b);
        value = b == 1;
      } else if constexpr (std::is_enum_v<F>) {
        vx_int32 v = 0;  // an enum param travels as VX_TYPE_INT32
        std::memcpy(&v, storage, sizeof v);
        result = decode_enum(f, v, value);  // the core's one enum rule
      } else {
        std::memcpy(&value, storage, sizeof value);
      }
    }
  });
  return result;
}

// Queries every tensor (or takes what `known` holds: the node's facts, see node_facts); with `data`,
// also copies inputs in (the core's pipeline allocates the outputs). `data` is not a template
// parameter: the validator's and the kernel's binds are one function (compile time).
template <class Op>
outcome bind_tensors(const vx_reference* refs, invocation<Op>& call, buffer_list& buffers, bool allow_unshaped_outputs,
                     const tensor_info* known, bool data) noexcept {
  using model = op_model<Op>;
  outcome result;
  for_each_field_index<typename model::inputs>([&](auto i) {
    if (!result.ok()) return;
    constexpr const field_desc& f = model::fields[i];
    tensor_info& info = call.info[i];
    if (known)
      info = known[i];
    else
      result = query_tensor(refs[i], f, info);
    if (data && result.ok()) result = read_tensor(refs[i], f, info, buffers, call.data[i]);
    if (!result.ok()) return;
    bind_view<i>(call.in, info, call.data[i]);
  });
  for_each_field_index<typename model::outputs>([&](auto i) {
    if (!result.ok()) return;
    constexpr std::size_t k = model::input_count + i;
    constexpr const field_desc& f = model::fields[k];
    tensor_info& info = call.info[k];
    if (known)
      info = known[k];
    else
      result = query_tensor(refs[k], f, info, allow_unshaped_outputs);
    if (!result.ok()) return;
    bind_view<i>(call.out, info, nullptr);  // with `data`, invoke binds it to its buffer next
  });
  return result;
}

template <class Op>
vx_status finish(vx_node node, const outcome& result) noexcept {
  if (!result.ok()) report(op_model<Op>::name, node, to_vx(result.code()), result.message().message());
  return to_vx(result.code());
}

// What the CPU kernel learnt about a node's tensors: rank, dims and dtype, which are fixed when a
// tensor is created. Kept as the node's local data, so that the kernel asks the driver one question
// per call instead of three or four per tensor (docs/runtime.md §4). The block is the driver's: the
// initializer sets only VX_NODE_LOCAL_DATA_SIZE, the driver allocates (zeroed) and frees it, and the
// SDK never puts a pointer of its own there (the board's driver frees any pointer still set at node
// destruction with its own allocator, and refuses to clear one in most places: docs/runtime.md §9).
// The first kernel call after a verification fills the block from its own queries; the
// deinitializer marks it stale. A block is used only if this op filled it for the very tensors the
// kernel receives; otherwise, and on drivers without local data, the kernel queries as before.
template <class Op>
struct node_facts {
  static constexpr std::size_t tensors = op_model<Op>::input_count + op_model<Op>::output_count;
  const void* owner;  // &tag: this op filled the block; nullptr: not filled, or stale
  // 0 (as the driver hands the block over): the node is in thread_hooks' count. The block exists from
  // the node's first successful initializer on, which counted it; a deinitializer takes it out once.
  int uncounted;
  vx_reference refs[tensors];
  tensor_info info[tensors];

  static inline constinit char tag = 0;  // its address names the op (in this library)
  // Set once an initializer of this op had a block reserved: until then, the kernel does not ask.
  static inline constinit bool reserved = false;

  // The node's block (filled or not), or nullptr.
  static node_facts* block(vx_node node) noexcept {
    if (!__atomic_load_n(&reserved, __ATOMIC_RELAXED)) return nullptr;
    void* p = nullptr;
    if (vxQueryNode(node, VX_NODE_LOCAL_DATA_PTR, &p, sizeof p) != VX_SUCCESS || !p) return nullptr;
    return static_cast<node_facts*>(p);
  }
  // The facts of a filled block for the tensors in `refs`, or nullptr.
  static const tensor_info* known(const node_facts* facts, const vx_reference* refs) noexcept {
    if (!facts || facts->owner != &tag) return nullptr;
    for (std::size_t i = 0; i < tensors; ++i)
      if (facts->refs[i] != refs[i]) return nullptr;
    return facts->info;
  }
  // Fills the node's block after the kernel queried its tensors itself; only a block of this size.
  static void fill(vx_node node, node_facts* facts, const vx_reference* refs, const tensor_info* info) noexcept {
    vx_size size = 0;
    if (vxQueryNode(node, VX_NODE_LOCAL_DATA_SIZE, &size, sizeof size) != VX_SUCCESS || size != sizeof(node_facts))
      return;
    facts->owner = &tag;
    for (std::size_t i = 0; i < tensors; ++i) {
      facts->refs[i] = refs[i];
      facts->info[i] = info[i];
    }
  }
};

// --- the callbacks ------------------------------------------------------------------------------
// The validator, the initializers and the deinitializer run once per verification, not per call:
// cold (compiled for size: the board libraries have a size budget, docs/performance.md §1).

// The OpenVX adapter of the core's pipeline (invoke): VX tensors in and out, the node's facts.
// `infer` ran in the validator, which the driver runs on these very tensors before any call.
template <class Op>
struct vx_io {
  static constexpr bool infer_per_call = false;
  // An element-wise op's one pass (run_each_element): where the copies run on the pool's threads.
  static constexpr bool element_ranges = copies_on_the_pool;
  vx_node node;
  const vx_reference* refs;

  // The params and the tensors' facts; with Data, the inputs read too.
  template <bool Data = true>
  outcome bind(invocation<Op>& call, buffer_list& buffers) noexcept {
    outcome result = decode_params(refs, call, param_types::trust_validator);
    node_facts<Op>* const facts = node_facts<Op>::block(node);
    const tensor_info* const known = node_facts<Op>::known(facts, refs);
    if (result.ok()) result = bind_tensors(refs, call, buffers, false, known, Data);
    if (result.ok() && facts && !known) node_facts<Op>::fill(node, facts, refs, call.info);
    return result;
  }

  // --- element ranges (the PC's library) --------------------------------------------------------
  outcome bind_shapes(invocation<Op>& call, buffer_list& buffers) noexcept { return bind<false>(call, buffers); }
  outcome read_inputs(invocation<Op>& call, buffer_list& buffers) noexcept {
    outcome result;
    for_each_field_index<typename op_model<Op>::inputs>([&](auto i) {
      if (result.ok()) result = read_tensor(refs[i], op_model<Op>::fields[i], call.info[i], buffers, call.data[i]);
      if (result.ok()) bind_view<i>(call.in, call.info[i], call.data[i]);
    });
    return result;
  }
  // The output's slabs: the copies' own (split_copies), when the tensor is large enough to split.
  bool element_slabs(const invocation<Op>& call, slabs& s) const noexcept {
    return split_copies(call.info[op_model<Op>::input_count], s);
  }
  // Slabs [a, b) of input k into `at`: 0, or the driver's failure code.
  int copy_in(std::size_t k, const tensor_info& info, const slabs& s, std::size_t a, std::size_t b,
              char* at) const noexcept {
    return copy_slabs(refs[k], info, s, a, b, at, VX_READ_ONLY);
  }
  outcome copy_in_failed(std::size_t k, int code) const noexcept {
    return call_failed(code, op_model<Op>::fields[k], "vxCopyTensorPatch(VX_READ_ONLY)");
  }
  outcome copy_out(std::size_t k, const tensor_info& info, void* raw) const noexcept {
    return copy_out_tensor(refs[k], op_model<Op>::fields[k], info, raw);
  }
  template <class I>
  outcome settled(invocation<Op>&, I) noexcept {
    return {};
  }
  template <class I>  // I: the output's index, a std::integral_constant
  outcome write(invocation<Op>& call, I, buffer_list& buffers) noexcept {
    constexpr std::size_t k = op_model<Op>::input_count + I::value;
    return write_tensor(refs[k], op_model<Op>::fields[k], call.info[k], buffers, call.data[k]);
  }
};

template <class Op>
RKNNOP_DETAIL_HIDDEN vx_status VX_CALLBACK cpu_kernel_callback(vx_node node, const vx_reference* refs,
                                                               vx_uint32 num) noexcept {
  outcome result = check_call(num, op_model<Op>::table_size, refs);
  if (!result.ok()) return finish<Op>(node, result);
  buffer_list buffers;
  invocation<Op> call;
  vx_io<Op> io{node, refs};
  return finish<Op>(node, invoke(io, call, buffers));
}

// The CPU kernel's initializer: only an optimisation. It asks the driver for a local data block of
// node_facts' size (settable only while the size is still 0: on a re-verification the block is
// already there, and it asks nothing) and succeeds whatever the answer; it never allocates, so no
// path leaves a block of the SDK's behind. The driver may verify again without a deinitializer first
// (after vxSetGraphParameterByIndex, or a failed verification: docs/runtime.md §9), so a block that is
// there already is marked stale (a tensor may have another shape now) and its node counts once.
template <class Op>
RKNNOP_DETAIL_COLD RKNNOP_DETAIL_HIDDEN vx_status VX_CALLBACK cpu_initialize_callback(vx_node node, const vx_reference*,
                                                                                      vx_uint32) noexcept {
  const vx_size size = sizeof(node_facts<Op>);
  vx_size current = 0;
  if (vxQueryNode(node, VX_NODE_LOCAL_DATA_SIZE, &current, sizeof current) != VX_SUCCESS) {
    thread_hooks::node_initialized();  // no local data on this driver: counted at each call
    return VX_SUCCESS;
  }
  if (current == size) {
    if (node_facts<Op>* const facts = node_facts<Op>::block(node)) {
      facts->owner = nullptr;
      if (facts->uncounted != 0) {
        facts->uncounted = 0;
        thread_hooks::node_initialized();
      }
      return VX_SUCCESS;
    }
  }
  thread_hooks::node_initialized();  // the last node's deinitializer joins parallel_for's workers
  if (current == size ||
      (current == 0 && vxSetNodeAttribute(node, VX_NODE_LOCAL_DATA_SIZE, &size, sizeof size) == VX_SUCCESS))
    __atomic_store_n(&node_facts<Op>::reserved, true, __ATOMIC_RELAXED);
  return VX_SUCCESS;
}

// Marks the node's facts stale (a re-verification may give its virtual tensors other shapes) and takes
// the node out of the count once; the block itself is the driver's. Called on re-verification and when
// the node goes (on the board at node destruction, also for a node that was never initialized: a node
// without a block on a driver that gives blocks was never counted).
template <class Op>
RKNNOP_DETAIL_COLD RKNNOP_DETAIL_HIDDEN vx_status VX_CALLBACK cpu_deinitialize_callback(vx_node node,
                                                                                        const vx_reference*,
                                                                                        vx_uint32) noexcept {
  node_facts<Op>* const facts = node_facts<Op>::block(node);
  if (facts == nullptr) {
    if (!__atomic_load_n(&node_facts<Op>::reserved, __ATOMIC_RELAXED)) thread_hooks::node_deinitialized();
    return VX_SUCCESS;
  }
  if (facts->owner == &node_facts<Op>::tag) facts->owner = nullptr;
  if (facts->uncounted == 0) {
    facts->uncounted = 1;
    thread_hooks::node_deinitialized();
  }
  return VX_SUCCESS;
}

// The validator's `infer`: params checked, tensors queried, then the core's infer_outputs (its
// defaults; the validator runs its one check, check_inferred, on each output).
template <class Op>
RKNNOP_DETAIL_COLD outcome vx_infer(const vx_reference* refs, invocation<Op>& call) noexcept {
  buffer_list no_buffers;
  outcome result = decode_params(refs, call, param_types::check);
  if (result.ok()) result = bind_tensors(refs, call, no_buffers, true, nullptr, false);
  if (!result.ok()) return result;
  return infer_outputs<Op, false>(call, nullptr);  // the validator checks each output first (below)
}

template <class Op>
RKNNOP_DETAIL_COLD RKNNOP_DETAIL_HIDDEN vx_status VX_CALLBACK
validate_callback(vx_node node, const vx_reference parameters[], vx_uint32 num, vx_meta_format metas[]) noexcept {
  using model = op_model<Op>;
  outcome result = check_call(num, model::table_size, parameters);
  if (!result.ok()) return finish<Op>(node, result);

  invocation<Op> call;
  result = vx_infer(parameters, call);
  for_each_field_index<typename model::outputs>([&](auto i) {
    if (!result.ok()) return;
    constexpr std::size_t k = model::input_count + i;
    constexpr const field_desc& f = model::fields[k];
    const auto& view = field<i>(call.out);
    const auto inferred_type = static_cast<vx_enum>(view.dtype());
    result = check_inferred(f, view.dims().data(), view.rank(), inferred_type);  // the core's one check
    if (!result.ok()) return;
    const tensor_info& actual = call.info[k];
    vx_enum meta_type = inferred_type;
    // The meta format describes the output tensor as it is (its own rank) when it has a shape, else
    // as shape inference gives it (a virtual output "to be inferred").
    const std::uint32_t* meta_dims = view.dims().data();
    std::uint32_t meta_rank = view.rank();
    if (actual.rank != 0) {  // a real output tensor: it must agree with shape inference
      if (!same_shape(f, actual.dims, actual.rank, view.dims().data(), view.rank())) {
        result = inferred_shape_mismatch(f, view.dims().data(), view.rank(), actual.dims, actual.tensor_rank);
        return;
      }
      if (actual.dtype != VX_TYPE_INVALID) meta_type = actual.dtype;
      meta_dims = actual.dims;
      meta_rank = actual.tensor_rank;
    }
    if (!metas || !metas[k]) return;
    // The rank as the driver reports it (vx_dim_t), the dims as vx_size on every driver: VSI's reads
    // size / sizeof(vx_size) values of vx_size here (docs/abi.md §8), though it reports uint32 dims.
    vx_dim_t rank = meta_rank;
    vx_size dims[max_tensor_rank] = {};
    for (std::uint32_t d = 0; d < meta_rank; ++d) dims[d] = meta_dims[d];
    vx_status st = vxSetMetaFormatAttribute(metas[k], VX_TENSOR_NUMBER_OF_DIMS, &rank, sizeof rank);
    if (st == VX_ERROR_NOT_SUPPORTED || st == VX_ERROR_NOT_IMPLEMENTED) return;  // runtime has no tensor metas
    if (st == VX_SUCCESS) st = vxSetMetaFormatAttribute(metas[k], VX_TENSOR_DIMS, dims, sizeof(vx_size) * meta_rank);
    if (st == VX_SUCCESS) st = vxSetMetaFormatAttribute(metas[k], VX_TENSOR_DATA_TYPE, &meta_type, sizeof meta_type);
    if (st == VX_SUCCESS) {  // plain values: an implementation's default (Q7.8 for INT16) would misdescribe them
      const vx_int8 position = 0;
      st = vxSetMetaFormatAttribute(metas[k], VX_TENSOR_FIXED_POINT_POSITION, &position, sizeof position);
      if (st == VX_ERROR_NOT_SUPPORTED || st == VX_ERROR_NOT_IMPLEMENTED) st = VX_SUCCESS;
    }
    if (st != VX_SUCCESS) result = call_failed(st, f, "vxSetMetaFormatAttribute");
  });
  return finish<Op>(node, result);
}

template <class Op>
RKNNOP_DETAIL_COLD RKNNOP_DETAIL_HIDDEN vx_status VX_CALLBACK vx_initialize_callback(vx_node node,
                                                                                     const vx_reference* refs,
                                                                                     vx_uint32 num) noexcept {
  using model = op_model<Op>;
  outcome result = check_call(num, model::table_size, refs);
  if (!result.ok()) return finish<Op>(node, result);

  buffer_list no_buffers;
  invocation<Op> call;
  work_size ws;
  result = decode_params(refs, call, param_types::trust_validator);
  if (result.ok()) result = bind_tensors(refs, call, no_buffers, false, nullptr, false);
  if (result.ok())
    result = call_user("the VX work-size function (vx)", [&] { return Op::vx(call.in, call.out, call.par, ws); });
  vx_kernel_execution_parameters_t params{};
  if (result.ok()) result = to_execution_parameters(ws, params);
  if (result.ok()) {
    const vx_status st =
        vxSetNodeAttribute(node, VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS, &params, sizeof params);
    if (st != VX_SUCCESS)
      result = outcome(from_vx(st), error("vxSetNodeAttribute(KERNEL_EXECUTION_PARAMETERS) failed: {} ({})", st,
                                          vx_status_name(st)));
  }
  return finish<Op>(node, result);
}

template <class Op>
RKNNOP_DETAIL_HIDDEN vx_status VX_CALLBACK vx_deinitialize_callback(vx_node, const vx_reference*, vx_uint32) noexcept {
  return VX_SUCCESS;  // the initializer acquires nothing
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_GLUE
RKNNOP_DETAIL_END_HIDDEN
