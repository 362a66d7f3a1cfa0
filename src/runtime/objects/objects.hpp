// SPDX-License-Identifier: MIT
// The data objects (tensor, scalar, array), kernels, graphs, nodes and meta formats.
#pragma once

#include "objects/reference.hpp"

#include <rknnop/vx_type.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace rknnop::runtime {

inline constexpr auto max_tensor_dims = static_cast<vx_uint32>(vx_max_tensor_rank);  // <rknnop/vx_type.hpp>

// The VX type facts come from the one table (<rknnop/vx_type.hpp>).
// Element size of a tensor data type; 0 if tensors of that type are not supported.
inline vx_size tensor_element_size(vx_enum data_type) noexcept { return vx_tensor_element_size(data_type); }
// Size of a scalar type; 0 if scalars of that type cannot be created (as on the board).
inline vx_size scalar_type_size(vx_enum data_type) noexcept { return vx_creatable_scalar_size(data_type); }
// Size of an array item type; 0 if unsupported.
inline vx_size array_item_size(vx_enum item_type) noexcept { return vx_scalar_size(item_type); }
// "FLOAT16" ("unknown" for VX_TYPE_INVALID, "unsupported" for a type no tensor holds), for log messages.
inline const char* type_name(vx_enum type) noexcept {
  if (type == VX_TYPE_INVALID) return "unknown";
  // The table's names are NUL-terminated: the part after "VX_TYPE_" is a C string.
  return vx_tensor_element_size(type) != 0 ? vx_type_table_name(type).substr(8).data() : "unsupported";
}
// "[3, 64, 64, 1]", for the runtime's log messages.
std::string dims_text(vx_uint32 ndims, const vx_uint32* dims);

// Frees a buffer of allocate_bytes: operator delete[], or munmap of its guarded mapping.
struct aligned_free {
  void* mapping = nullptr;  // the guarded mapping holding the buffer (guard pages on), else null
  std::size_t mapping_size = 0;
  void operator()(std::byte* p) const noexcept;
};
using byte_buffer = std::unique_ptr<std::byte[], aligned_free>;
// Zeroed, 64-byte aligned (what an executor or SIMD code wants); throws std::bad_alloc. With guard
// pages on (rknnopHostSetGuardPages, guarded_memory.cpp) it ends at an inaccessible page instead.
byte_buffer allocate_bytes(vx_size bytes);
// guarded_memory.cpp: whether guard pages are on, and a buffer between two of them (null when the
// mapping fails).
bool guard_pages_enabled() noexcept;
byte_buffer allocate_guarded_bytes(vx_size bytes) noexcept;
void release_guarded(void* mapping, std::size_t size) noexcept;

class tensor final : public reference {
public:
  static constexpr vx_enum object_type = VX_TYPE_TENSOR;
  explicit tensor(context* ctx) : reference(VX_TYPE_TENSOR, ctx) {}
  tensor(const tensor&) = delete;
  tensor& operator=(const tensor&) = delete;
  ~tensor() override;  // gives its bytes back to the context's count

  // A virtual tensor created with rank 0 or with sizes of 0 ("to be inferred") has none yet.
  bool has_shape() const noexcept {
    return num_dims != 0 && std::all_of(dims.begin(), dims.begin() + num_dims, [](vx_uint32 d) { return d != 0; });
  }
  bool allocated() const noexcept { return data != nullptr; }
  // Sets the shape, checking the byte size for overflow; does not allocate.
  vx_status set_shape(vx_uint32 ndims, const vx_uint32* sizes) noexcept;
  // No-op if allocated; needs a shape and a data type. VX_ERROR_NO_MEMORY when the memory is not
  // there or the context's tensor memory limit (rknnopHostSetTensorMemoryLimit) would be passed
  // (allocation_text() then says which).
  vx_status allocate() noexcept;
  // "<bytes> bytes for dims [3, 64, 64, 1] of FLOAT16" (and the limit when it refused), for
  // allocation failures.
  std::string allocation_text() const;
  vx_size element_size() const noexcept { return tensor_element_size(data_type); }
  vx_size dense_stride(vx_uint32 dim) const noexcept;

  vx_uint32 num_dims = 0;  // 0: unknown until the graph's verify (virtual tensors)
  std::array<vx_uint32, max_tensor_dims> dims{};
  vx_enum data_type = VX_TYPE_INVALID;  // INVALID: unknown (virtual tensors only)
  vx_int8 fixed_point_position = 0;
  bool is_virtual = false;
  std::uint64_t graph_id = 0;  // the graph a virtual tensor belongs to
  vx_size byte_size = 0;
  byte_buffer data;
  vx_size counted_bytes = 0;      // what this tensor adds to its context's tensor_bytes
  bool refused_by_limit = false;  // the last allocate() failed on the context's limit
  std::atomic<bool> written{false};
  // Kernel function calls under way that have this tensor as a parameter: a virtual tensor can be
  // copied only then (docs/runtime.md §9).
  std::atomic<int> access{0};
};

class scalar final : public reference {
public:
  static constexpr vx_enum object_type = VX_TYPE_SCALAR;
  scalar(context* ctx, vx_enum value_type) : reference(VX_TYPE_SCALAR, ctx), data_type(value_type) {}

  const vx_enum data_type;
  std::mutex mutex;
  std::array<std::byte, 8> value{};
};

class array final : public reference {
public:
  static constexpr vx_enum object_type = VX_TYPE_ARRAY;
  array(context* ctx, vx_enum element_type, vx_size size, vx_size cap)
      : reference(VX_TYPE_ARRAY, ctx), item_type(element_type), item_size(size), capacity(cap) {}

  const vx_enum item_type;
  const vx_size item_size;
  const vx_size capacity;
  std::mutex mutex;  // guards items and writes of num_items
  // Read without the mutex by vxQueryArray(NUMITEMS), which every kernel call of an op with an array
  // param makes (the count can change after verification): a lock-free load, not a lock pair.
  std::atomic<vx_size> num_items{0};
  std::vector<std::byte> items;  // capacity * item_size bytes
};

class kernel final : public reference {
public:
  static constexpr vx_enum object_type = VX_TYPE_KERNEL;
  explicit kernel(context* ctx) : reference(VX_TYPE_KERNEL, ctx) {}

  std::string name;
  vx_enum enumeration = 0;
  vx_kernel_f function = nullptr;  // nullptr: a shader kernel, run by the shader executor
  vx_kernel_validate_f validate = nullptr;
  vx_kernel_initialize_f initialize = nullptr;
  vx_kernel_deinitialize_f deinitialize = nullptr;
  // Immutable once finalized, so nodes of two graphs can read it from two threads.
  std::vector<vx_param_description_t> params;
  std::vector<bool> param_added;
  std::atomic<bool> finalized{false};
};

struct uniform {
  std::string name;
  std::vector<std::byte> bytes;
};

class graph;

class node final : public reference {
public:
  static constexpr vx_enum object_type = VX_TYPE_NODE;
  node(context* owner, graph* parent_graph, kernel* k);
  void drop_holds() noexcept override;

  graph* parent;  // not a hold (the graph holds its nodes); cleared when the graph goes away
  kernel* const kern;
  // Held; nullptr = not set. Stored as handles: kernels receive this array as vx_reference[].
  std::vector<vx_reference> params;
  reference* param(std::size_t i) const noexcept { return from_handle(params[i]); }

  std::mutex mutex;               // guards the members below (set from initializers, read by executors)
  vx_status status = VX_FAILURE;  // not run yet
  bool initialized = false;
  bool has_execution_parameters = false;
  vx_kernel_execution_parameters_t execution_parameters{};
  std::vector<uniform> uniforms;
  // Local data (VX_NODE_LOCAL_DATA_SIZE / _PTR) by the board driver's rules (docs/runtime.md §9):
  // settable while the initializer runs if the size was 0 when it started, and while the deinitializer
  // runs unless the runtime owns the block; a size set without a pointer gets a zeroed block of the
  // runtime's allocator after the initializer; it survives re-verification, and the node's destruction
  // frees whatever pointer is still set with that allocator (a foreign one is reported, not freed).
  vx_size local_data_size = 0;
  void* local_data_ptr = nullptr;
  bool local_data_writable = false;
  bool local_data_runtime_owned = false;  // the block was allocated by the runtime for a size alone
  // The node's destruction (drop_holds, or the context's teardown before anything is deleted).
  void release_local_data() noexcept;
  // What each callback step did the last time it ran (rknnopHostGetNodeStep*), by rknnop_host_step_e.
  struct step_record {
    bool called = false;
    vx_status status = VX_SUCCESS;
    std::string log;  // messages logged while the callback ran, one per line
  };
  std::array<step_record, 4> steps{};
};

// Runs one callback step of `n`, recording its status and the log entries it added in n.steps.
template <class Call>
vx_status run_step(node& n, rknnop_host_step_e step, Call&& call) {
  std::uint64_t first = 0;
  {
    std::lock_guard lock(n.owner->mutex);
    first = n.owner->logged;
  }
  const vx_status status = call();
  std::string log = n.owner->log_since(first);
  std::lock_guard lock(n.mutex);
  n.steps.at(step) = node::step_record{true, status, std::move(log)};
  return status;
}

class graph final : public reference {
public:
  static constexpr vx_enum object_type = VX_TYPE_GRAPH;
  explicit graph(context* ctx) : reference(VX_TYPE_GRAPH, ctx) {}
  void drop_holds() noexcept override;

  // Marks the graph unverified, then calls the deinitializer of every initialized node (local data
  // stays: it goes with the node).
  void deinitialize_nodes() noexcept;
  // The board driver's verification (docs/runtime.md §9): nothing on a verified graph; the
  // deinitializer pass first only after vxSetParameterByIndex; initializers in node-table order.
  vx_status verify();   // with `mutex` held
  vx_status process();  // with `mutex` held

  // Recursive: a kernel callback may create objects of, or query, its own graph.
  std::recursive_mutex mutex;
  std::vector<node*> nodes;  // held, in creation order
  std::vector<node*> order;  // execution order found by verify
  // Read by vxSetNodeAttribute from kernel callbacks (local data is not settable on a verified graph).
  std::atomic<bool> verified{false};
  // The driver's "parameters changed" word: set by vxSetParameterByIndex, cleared by
  // vxSetGraphParameterByIndex and by every verification, failed or not. Guarded by `mutex`.
  bool parameters_changed = false;
  // The graph's parameters (vxAddParameterToGraph): a node's parameter each, in the order added.
  struct graph_parameter {
    node* owner;  // one of `nodes` (held through them)
    vx_uint32 index;
  };
  std::vector<graph_parameter> parameters;  // guarded by `mutex`
  // vxScheduleGraph / vxWaitGraph (scheduler.hpp), guarded by the context's scheduler.
  bool scheduled = false;  // queued or running on the context's graph thread
  bool completed = false;  // ran since it was scheduled, and not waited for yet
  vx_status scheduled_status = VX_FAILURE;
};

// A node's parameter as an object (vxGetParameterByIndex), for vxAddParameterToGraph.
class parameter final : public reference {
public:
  static constexpr vx_enum object_type = VX_TYPE_PARAMETER;
  parameter(context* ctx, node* n, vx_uint32 i) : reference(VX_TYPE_PARAMETER, ctx), owner_node(n), index(i) {}
  void drop_holds() noexcept override;

  node* const owner_node;  // held
  const vx_uint32 index;
};

class meta_format final : public reference {
public:
  static constexpr vx_enum object_type = VX_TYPE_META_FORMAT;
  meta_format(context* ctx, vx_enum described) : reference(VX_TYPE_META_FORMAT, ctx), described_type(described) {}

  // The type of the parameter it describes (VX_TYPE_TENSOR, VX_TYPE_SCALAR, ...): the driver refuses an
  // attribute of another object type with -17 (docs/runtime.md §9).
  const vx_enum described_type;

  bool has_num_dims = false;
  bool has_dims = false;
  bool has_data_type = false;
  bool has_fixed_point_position = false;
  vx_uint32 num_dims = 0;
  vx_uint32 dims_count = 0;
  std::array<vx_uint32, max_tensor_dims> dims{};
  vx_enum data_type = VX_TYPE_INVALID;
  vx_int8 fixed_point_position = 0;
};

}  // namespace rknnop::runtime
