// SPDX-License-Identifier: MIT
// Graphs: verification (parameter checks, execution order, validators and meta formats, virtual
// tensor shapes, initializers), processing, and deinitialization on release.
#include "api.hpp"

#include "objects/local_data.hpp"
#include "objects/objects.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>

namespace rknnop::runtime {

node::node(context* owner_context, graph* parent_graph, kernel* k)
    : reference(VX_TYPE_NODE, owner_context), parent(parent_graph), kern(k), params(k->params.size(), nullptr) {}

void node::drop_holds() noexcept {
  release_local_data();  // while the kernel (its name) is still held
  for (vx_reference& p : params) {
    if (p != nullptr) unhold(from_handle(p));
    p = nullptr;
  }
  unhold(kern);
}

void graph::drop_holds() noexcept {
  deinitialize_nodes();  // unverified first, then the deinitializers, then the nodes go
  for (node* n : nodes) {
    n->parent = nullptr;
    unhold(n);
  }
  nodes.clear();
  order.clear();
}

void node::release_local_data() noexcept {
  void* const p = local_data_ptr;
  local_data_ptr = nullptr;
  local_data_size = 0;
  if (p == nullptr) return;
  if (!free_driver_block(p)) {
    // Logged and echoed: on a board this is heap corruption, whatever RKNNOP_VX_LOG says.
    std::fprintf(stderr,
                 "[rknnop openvx] kernel '%s': node destroyed with local data pointer %p that the runtime did not "
                 "allocate; the board's driver would free it with its own allocator and corrupt the heap (not freed "
                 "here)\n",
                 kern->name.c_str(), p);
    log_to(this, VX_ERROR_INVALID_VALUE,
           "kernel '%s': node destroyed with a local data pointer the runtime did not allocate (the board's driver "
           "would free it with its own allocator)",
           kern->name.c_str());
  }
}

void graph::deinitialize_nodes() noexcept {
  std::lock_guard lock(mutex);
  verified = false;  // the driver clears it first: local data can be set by the deinitializers
  for (node* n : nodes) {
    {
      std::lock_guard node_lock(n->mutex);
      if (!n->initialized) continue;  // a failed initializer's local data stays, as on the board
      n->initialized = false;
      n->local_data_writable = !n->local_data_runtime_owned;
    }
    if (n->kern->deinitialize != nullptr) {
      const auto status = run_step(*n, RKNNOP_HOST_STEP_DEINITIALIZE, [n] {
        return n->kern->deinitialize(to_handle<vx_node>(n), n->params.data(), static_cast<vx_uint32>(n->params.size()));
      });
      if (status != VX_SUCCESS)
        log_to(n, status, "kernel '%s': deinitializer failed with %d", n->kern->name.c_str(), static_cast<int>(status));
    }
    std::lock_guard node_lock(n->mutex);
    n->local_data_writable = false;
    n->local_data_runtime_owned = false;  // as the driver does after a deinitializer; the block stays
  }
}

std::string dims_text(vx_uint32 ndims, const vx_uint32* dims) {
  std::string text = "[";
  for (vx_uint32 i = 0; i < ndims; ++i) {
    if (i != 0) text += ", ";
    text += std::to_string(dims[i]);
  }
  return text + "]";
}

namespace {

bool is_output(const vx_param_description_t& p) noexcept {
  return p.direction == VX_OUTPUT || p.direction == VX_BIDIRECTIONAL;
}

tensor* as_tensor(reference* r) noexcept {
  return r != nullptr && r->type == VX_TYPE_TENSOR ? static_cast<tensor*>(r) : nullptr;
}

// Makes an output tensor agree with what the validator put into its meta format: a virtual
// tensor of unknown shape/type takes it, anything else must already match.
vx_status apply_meta(node& n, vx_uint32 index, tensor& t, const meta_format& meta) {
  const char* kernel_name = n.kern->name.c_str();
  if (meta.has_num_dims || meta.has_dims) {
    const vx_uint32 ndims = meta.has_num_dims ? meta.num_dims : meta.dims_count;
    if (!meta.has_dims || meta.dims_count < ndims || ndims == 0) {
      log_to(&n, VX_ERROR_INVALID_DIMENSION,
             "kernel '%s' output %u: the validator set %u dims but %u sizes (set both "
             "VX_TENSOR_NUMBER_OF_DIMS and VX_TENSOR_DIMS)",
             kernel_name, index, ndims, meta.has_dims ? meta.dims_count : 0U);
      return VX_ERROR_INVALID_DIMENSION;
    }
    if (!t.has_shape()) {
      const vx_status status = t.set_shape(ndims, meta.dims.data());
      if (status != VX_SUCCESS) {
        log_to(&n, status, "kernel '%s' output %u: invalid shape %s from the validator", kernel_name, index,
               dims_text(ndims, meta.dims.data()).c_str());
        return status;
      }
    } else if (t.num_dims != ndims || !std::equal(meta.dims.begin(), meta.dims.begin() + ndims, t.dims.begin())) {
      log_to(&n, VX_ERROR_INVALID_DIMENSION,
             "kernel '%s' output %u: the validator expects dims %s but the tensor has %s", kernel_name, index,
             dims_text(ndims, meta.dims.data()).c_str(), dims_text(t.num_dims, t.dims.data()).c_str());
      return VX_ERROR_INVALID_DIMENSION;
    }
  }
  if (meta.has_data_type) {
    if (t.data_type == VX_TYPE_INVALID && t.is_virtual) {
      t.data_type = meta.data_type;
    } else if (t.data_type != meta.data_type) {
      log_to(&n, VX_ERROR_INVALID_FORMAT,
             "kernel '%s' output %u: the validator expects data type %s (%#x) but the tensor is "
             "%s (%#x)",
             kernel_name, index, type_name(meta.data_type), static_cast<unsigned>(meta.data_type),
             type_name(t.data_type), static_cast<unsigned>(t.data_type));
      return VX_ERROR_INVALID_FORMAT;
    }
  }
  if (meta.has_fixed_point_position && t.is_virtual && !t.allocated())
    t.fixed_point_position = meta.fixed_point_position;
  return VX_SUCCESS;
}

// Owns the meta formats handed to one validator call.
struct meta_set {
  std::vector<vx_meta_format> metas;
  ~meta_set() {
    for (vx_meta_format m : metas) unhold(from_handle(m));
  }
};

vx_status validate_node(node& n) {
  kernel& k = *n.kern;
  const auto count = static_cast<vx_uint32>(n.params.size());
  const vx_reference* params = n.params.data();
  if (k.validate != nullptr) {
    meta_set set;
    set.metas.reserve(count);
    for (vx_uint32 i = 0; i < count; ++i) {
      // A meta format describes its parameter's object: the value's type, else the table's.
      const reference* value = n.param(i);
      auto* m = make<meta_format>(n.owner, value != nullptr ? value->type : k.params[i].data_type);
      m->external.store(0);  // the runtime's, not the application's: vxRelease* refuses it
      set.metas.push_back(to_handle<vx_meta_format>(m));
    }
    const vx_status status = run_step(n, RKNNOP_HOST_STEP_VALIDATE, [&] {
      return k.validate(to_handle<vx_node>(&n), params, count, set.metas.data());
    });
    if (status != VX_SUCCESS) {
      log_to(&n, status, "kernel '%s': validator failed with %d", k.name.c_str(), static_cast<int>(status));
      return status;
    }
    for (vx_uint32 i = 0; i < count; ++i) {
      tensor* t = as_tensor(n.param(i));
      if (t == nullptr || !is_output(k.params[i])) continue;
      const auto& meta = *static_cast<const meta_format*>(from_handle(set.metas[i]));
      const vx_status applied = apply_meta(n, i, *t, meta);
      if (applied != VX_SUCCESS) return applied;
    }
  }
  for (vx_uint32 i = 0; i < count; ++i) {
    tensor* t = as_tensor(n.param(i));
    if (t == nullptr) continue;
    if (!t->has_shape() || t->data_type == VX_TYPE_INVALID) {
      log_to(&n, VX_ERROR_INVALID_DIMENSION,
             "kernel '%s' parameter %u: virtual tensor of unknown shape or type (its producer's "
             "validator must set them in the meta format)",
             k.name.c_str(), i);
      return VX_ERROR_INVALID_DIMENSION;
    }
    if (const vx_status allocated = t->allocate(); allocated != VX_SUCCESS) {
      log_to(&n, allocated, "kernel '%s' parameter %u: cannot allocate %s", k.name.c_str(), i,
             t->allocation_text().c_str());
      return allocated;
    }
  }
  return VX_SUCCESS;
}

}  // namespace

// Long by design: the VSI driver's verification order (parameters, producers, cycles, validate, initialize).
// The driver's lifecycle (docs/runtime.md §9): a verified graph is not verified again; the deinitializer
// pass runs first only when a parameter changed since the last verification; every verification, failed
// or not, clears that mark.
vx_status graph::verify() {
  if (verified) return VX_SUCCESS;
  if (parameters_changed) deinitialize_nodes();
  parameters_changed = false;
  order.clear();

  // Every required parameter set.
  for (node* n : nodes) {
    for (std::size_t i = 0; i < n->params.size(); ++i) {
      if (n->params[i] == nullptr && n->kern->params[i].state == VX_PARAMETER_STATE_REQUIRED) {
        log_to(n, VX_ERROR_NOT_SUFFICIENT, "kernel '%s': required parameter %zu is not set", n->kern->name.c_str(), i);
        return VX_ERROR_NOT_SUFFICIENT;
      }
    }
  }

  // Execution order: a node runs after the producers of its inputs (Kahn's algorithm).
  std::unordered_map<const reference*, node*> producer;
  for (node* n : nodes) {
    for (std::size_t i = 0; i < n->params.size(); ++i) {
      if (n->params[i] == nullptr || !is_output(n->kern->params[i])) continue;
      auto [it, inserted] = producer.emplace(n->param(i), n);
      if (!inserted && it->second != n) {
        log_to(this, VX_ERROR_INVALID_GRAPH, "graph: an object is an output of two nodes ('%s', '%s')",
               it->second->kern->name.c_str(), n->kern->name.c_str());
        return VX_ERROR_INVALID_GRAPH;
      }
    }
  }
  std::unordered_map<node*, std::vector<node*>> consumers;
  std::unordered_map<node*, std::size_t> pending;
  for (node* n : nodes) {
    pending[n] = 0;
    for (std::size_t i = 0; i < n->params.size(); ++i) {
      reference* p = n->param(i);
      if (p == nullptr || is_output(n->kern->params[i])) continue;
      auto it = producer.find(p);
      if (it != producer.end() && it->second != n) {
        consumers[it->second].push_back(n);
        ++pending[n];
      } else if (tensor* t = as_tensor(p); t != nullptr && t->is_virtual) {
        log_to(n, VX_ERROR_INVALID_GRAPH, "kernel '%s' input %zu: virtual tensor that no node of the graph produces",
               n->kern->name.c_str(), i);
        return VX_ERROR_INVALID_GRAPH;
      }
    }
  }
  std::vector<node*> ready;
  for (node* n : nodes)
    if (pending[n] == 0) ready.push_back(n);
  for (std::size_t next = 0; next < ready.size(); ++next) {
    order.push_back(ready[next]);
    for (node* c : consumers[ready[next]])
      if (--pending[c] == 0) ready.push_back(c);
  }
  if (order.size() != nodes.size()) {
    log_to(this, VX_ERROR_INVALID_GRAPH, "graph: the nodes form a cycle");
    order.clear();
    return VX_ERROR_INVALID_GRAPH;
  }

  for (node* n : order) {
    const vx_status status = validate_node(*n);
    if (status != VX_SUCCESS) {
      order.clear();
      return status;
    }
  }
  // Initializers in the node table's order (creation order), not the execution order, as the driver.
  for (node* n : nodes) {
    if (n->kern->initialize != nullptr) {
      {
        std::lock_guard node_lock(n->mutex);
        n->local_data_writable = n->local_data_size == 0;  // once set, local data stays for the node's life
      }
      const vx_status status = run_step(*n, RKNNOP_HOST_STEP_INITIALIZE, [n] {
        return n->kern->initialize(to_handle<vx_node>(n), n->params.data(), static_cast<vx_uint32>(n->params.size()));
      });
      {
        std::lock_guard node_lock(n->mutex);
        n->local_data_writable = false;
      }
      if (status != VX_SUCCESS) {
        // The driver leaves at once: the nodes already initialized stay so (no deinitializer runs).
        log_to(n, status, "kernel '%s': initializer failed with %d", n->kern->name.c_str(), static_cast<int>(status));
        order.clear();
        return status;
      }
    }
    std::size_t missing = 0;  // local data the runtime failed to allocate
    {
      std::lock_guard node_lock(n->mutex);
      n->initialized = true;
      if (n->local_data_size > 0 && n->local_data_ptr == nullptr) {
        n->local_data_ptr = allocate_driver_block(n->local_data_size);
        n->local_data_runtime_owned = n->local_data_ptr != nullptr;
        if (n->local_data_ptr == nullptr) missing = n->local_data_size;
      }
    }
    if (missing != 0) {
      log_to(n, VX_ERROR_NO_MEMORY, "kernel '%s': cannot allocate %zu bytes of local data", n->kern->name.c_str(),
             missing);
      order.clear();
      return VX_ERROR_NO_MEMORY;
    }
  }
  verified = true;
  return VX_SUCCESS;
}

namespace {

// Enables copies of the node's tensors (virtual ones included) for the length of its kernel call.
class tensor_access {
public:
  explicit tensor_access(const node& n) noexcept : n_(n) { add(1); }
  ~tensor_access() { add(-1); }
  tensor_access(const tensor_access&) = delete;
  tensor_access& operator=(const tensor_access&) = delete;

private:
  void add(int delta) const noexcept {
    for (std::size_t i = 0; i < n_.params.size(); ++i)
      if (tensor* t = as_tensor(n_.param(i))) t->access.fetch_add(delta);
  }
  const node& n_;
};

vx_status run_shader_kernel(node& n, const vx_reference* params, vx_uint32 count) {
  context& ctx = *n.owner;
  rknnop_host_shader_execute_f execute = nullptr;
  void* user = nullptr;
  {
    std::lock_guard lock(ctx.mutex);
    execute = ctx.shader_execute;
    user = ctx.shader_user;
  }
  if (execute == nullptr) {
    log_to(&n, VX_ERROR_NOT_SUPPORTED, "kernel '%s' is a shader kernel and no shader executor is set",
           n.kern->name.c_str());
    return VX_ERROR_NOT_SUPPORTED;
  }
  vx_kernel_execution_parameters_t exec{};
  bool has_exec = false;
  {
    std::lock_guard lock(n.mutex);
    exec = n.execution_parameters;
    has_exec = n.has_execution_parameters;
  }
  const rknnop_host_kernel_info info{n.kern->name.c_str(), n.kern->enumeration,
                                     static_cast<vx_uint32>(n.kern->params.size()), n.kern->params.data(),
                                     has_exec ? &exec : nullptr};
  return execute(user, to_handle<vx_node>(&n), &info, params, count);
}

}  // namespace

vx_status graph::process() {
  if (!verified) {
    const vx_status status = verify();
    if (status != VX_SUCCESS) return status;
  }
  for (node* n : order) {
    const vx_reference* params = n->params.data();
    const auto count = static_cast<vx_uint32>(n->params.size());
    const tensor_access access(*n);
    const vx_status status = run_step(*n, RKNNOP_HOST_STEP_KERNEL, [&] {
      return n->kern->function != nullptr ? n->kern->function(to_handle<vx_node>(n), params, count)
                                          : run_shader_kernel(*n, params, count);
    });
    {
      std::lock_guard lock(n->mutex);
      n->status = status;
    }
    if (status != VX_SUCCESS) {
      log_to(n, status, "kernel '%s' failed with %d", n->kern->name.c_str(), static_cast<int>(status));
      return status;
    }
  }
  return VX_SUCCESS;
}

}  // namespace rknnop::runtime
