// SPDX-License-Identifier: MIT
// The C API of graphs, nodes and meta formats.
#include "api.hpp"

#include "objects/objects.hpp"

#include <cstdint>
#include <cstring>

using namespace rknnop::runtime;

namespace {

bool matches_param_type(const vx_param_description_t& p, reference& value) noexcept {
  if (p.data_type == VX_TYPE_REFERENCE) return true;
  if (p.data_type == value.type) return true;
  // A scalar value type in the table means a scalar of exactly that type.
  return value.type == VX_TYPE_SCALAR && static_cast<scalar&>(value).data_type == p.data_type;
}

vx_status check_execution_parameters(node& n, const vx_kernel_execution_parameters_t& p) {
  const char* name = n.kern->name.c_str();
  if (p.workDim < 1 || p.workDim > VX_MAX_WORK_ITEM_DIMENSIONS) {
    log_to(&n, VX_ERROR_INVALID_PARAMETERS, "kernel '%s': execution parameters: workDim %u must be 1..3", name,
           p.workDim);
    return VX_ERROR_INVALID_PARAMETERS;
  }
  for (vx_uint32 d = 0; d < p.workDim; ++d) {
    if (p.globalWorkSize[d] == 0) {
      log_to(&n, VX_ERROR_INVALID_PARAMETERS, "kernel '%s': execution parameters: globalWorkSize[%u] is 0", name, d);
      return VX_ERROR_INVALID_PARAMETERS;
    }
    if (p.localWorkSize[d] != 0 && p.globalWorkSize[d] % p.localWorkSize[d] != 0) {
      log_to(&n, VX_ERROR_INVALID_PARAMETERS,
             "kernel '%s': execution parameters: globalWorkSize[%u] = %zu is not a multiple of "
             "localWorkSize[%u] = %zu",
             name, d, static_cast<std::size_t>(p.globalWorkSize[d]), d, static_cast<std::size_t>(p.localWorkSize[d]));
      return VX_ERROR_INVALID_PARAMETERS;
    }
  }
  return VX_SUCCESS;
}

// vxSetParameterByIndex's body: checks, holds the value, marks the graph unverified with its
// parameters changed (the driver's vxoNode_SetParameter, docs/runtime.md §9).
vx_status set_node_parameter(node* n, vx_uint32 index, vx_reference value) {
  if (index >= n->params.size()) {
    log_to(n, VX_ERROR_INVALID_PARAMETERS, "vxSetParameterByIndex: kernel '%s' has %zu parameters, index %u",
           n->kern->name.c_str(), n->params.size(), index);
    return VX_ERROR_INVALID_PARAMETERS;
  }
  reference* v = find(value, VX_TYPE_REFERENCE);
  if (v == nullptr) return VX_ERROR_INVALID_REFERENCE;
  const vx_param_description_t& p = n->kern->params[index];
  if (!matches_param_type(p, *v)) {
    log_to(n, VX_ERROR_INVALID_TYPE, "vxSetParameterByIndex: kernel '%s' parameter %u expects type %#x, got %#x",
           n->kern->name.c_str(), index, static_cast<unsigned>(p.data_type), static_cast<unsigned>(v->type));
    return VX_ERROR_INVALID_TYPE;
  }
  if (v->owner != n->owner) return VX_ERROR_INVALID_REFERENCE;
  graph* g = n->parent;
  if (v->type == VX_TYPE_TENSOR) {
    auto& t = static_cast<tensor&>(*v);
    if (t.is_virtual && (g == nullptr || t.graph_id != g->id)) {
      log_to(n, VX_ERROR_INVALID_GRAPH, "vxSetParameterByIndex: parameter %u is a virtual tensor of another graph",
             index);
      return VX_ERROR_INVALID_GRAPH;
    }
  }
  if (g == nullptr) return VX_ERROR_INVALID_NODE;
  std::lock_guard lock(g->mutex);
  hold(v);
  if (reference* old = n->param(index); old != nullptr) unhold(old);
  n->params[index] = to_handle<vx_reference>(v);
  g->verified = false;
  g->parameters_changed = true;
  return VX_SUCCESS;
}

}  // namespace

namespace rknnop::runtime {
void parameter::drop_holds() noexcept { unhold(owner_node); }
}  // namespace rknnop::runtime

extern "C" {

vx_graph vxCreateGraph(vx_context context_handle) {
  return guarded_value<vx_graph>(nullptr, [&]() -> vx_graph {
    auto* ctx = find_as<context>(context_handle);
    if (ctx == nullptr) return nullptr;
    return to_handle<vx_graph>(make<graph>(ctx));
  });
}

vx_status vxVerifyGraph(vx_graph graph_handle) {
  auto* g = find_as<graph>(graph_handle);
  if (g == nullptr) return VX_ERROR_INVALID_REFERENCE;
  return guarded([&] {
    std::lock_guard lock(g->mutex);
    return g->verify();
  });
}

vx_status vxProcessGraph(vx_graph graph_handle) {
  auto* g = find_as<graph>(graph_handle);
  if (g == nullptr) return VX_ERROR_INVALID_REFERENCE;
  return guarded([&] {
    std::lock_guard lock(g->mutex);
    return g->process();
  });
}

vx_status vxReleaseGraph(vx_graph* graph_handle) { return release_handle(graph_handle, VX_TYPE_GRAPH); }

vx_node vxCreateGenericNode(vx_graph graph_handle, vx_kernel kernel_handle) {
  return guarded_value<vx_node>(nullptr, [&]() -> vx_node {
    auto* g = find_as<graph>(graph_handle);
    if (g == nullptr) return nullptr;
    auto* k = find_as<kernel>(kernel_handle);
    if (k == nullptr || k->owner != g->owner) {
      log_to(g, VX_ERROR_INVALID_REFERENCE, "vxCreateGenericNode: invalid kernel");
      return nullptr;
    }
    if (!k->finalized) {
      log_to(g, VX_ERROR_INVALID_NODE, "vxCreateGenericNode: kernel '%s' is not finalized", k->name.c_str());
      return nullptr;
    }
    std::lock_guard lock(g->mutex);
    g->nodes.reserve(g->nodes.size() + 1);  // so that push_back below cannot throw
    auto* n = make<node>(g->owner, g, k);
    hold(k);  // released by node::drop_holds
    hold(n);
    g->nodes.push_back(n);
    g->verified = false;
    return to_handle<vx_node>(n);
  });
}

vx_status vxSetParameterByIndex(vx_node node_handle, vx_uint32 index, vx_reference value) {
  auto* n = find_as<node>(node_handle);
  if (n == nullptr) return VX_ERROR_INVALID_REFERENCE;
  return guarded([&] { return set_node_parameter(n, index, value); });
}

vx_parameter vxGetParameterByIndex(vx_node node_handle, vx_uint32 index) {
  return guarded_value<vx_parameter>(nullptr, [&]() -> vx_parameter {
    auto* n = find_as<node>(node_handle);
    if (n == nullptr) return nullptr;
    if (index >= n->params.size()) {
      log_to(n, VX_ERROR_INVALID_PARAMETERS, "vxGetParameterByIndex: kernel '%s' has %zu parameters, index %u",
             n->kern->name.c_str(), n->params.size(), index);
      return nullptr;
    }
    auto* p = make<parameter>(n->owner, n, index);
    hold(n);  // released by parameter::drop_holds
    return to_handle<vx_parameter>(p);
  });
}

vx_status vxReleaseParameter(vx_parameter* parameter_handle) {
  return release_handle(parameter_handle, VX_TYPE_PARAMETER);
}

vx_status vxAddParameterToGraph(vx_graph graph_handle, vx_parameter parameter_handle) {
  auto* g = find_as<graph>(graph_handle);
  if (g == nullptr) return VX_ERROR_INVALID_REFERENCE;
  auto* p = find_as<parameter>(parameter_handle);
  if (p == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (p->owner_node->parent != g) {
    log_to(g, VX_ERROR_INVALID_PARAMETERS, "vxAddParameterToGraph: the parameter's node is not in this graph");
    return VX_ERROR_INVALID_PARAMETERS;
  }
  return guarded([&] {
    std::lock_guard lock(g->mutex);
    g->parameters.push_back(graph::graph_parameter{p->owner_node, p->index});
    return VX_SUCCESS;
  });
}

// The driver's vxoGraph_SetParameter: the node's parameter is set, then the "parameters changed" mark
// is cleared, so the next verification runs the initializers without a deinitializer pass first.
vx_status vxSetGraphParameterByIndex(vx_graph graph_handle, vx_uint32 index, vx_reference value) {
  auto* g = find_as<graph>(graph_handle);
  if (g == nullptr) return VX_ERROR_INVALID_REFERENCE;
  return guarded([&] {
    std::lock_guard lock(g->mutex);
    if (index >= g->parameters.size()) {
      log_to(g, VX_ERROR_INVALID_PARAMETERS, "vxSetGraphParameterByIndex: the graph has %zu parameters, index %u",
             g->parameters.size(), index);
      return VX_ERROR_INVALID_PARAMETERS;
    }
    const graph::graph_parameter gp = g->parameters[index];
    const vx_status status = set_node_parameter(gp.owner, gp.index, value);
    if (status == VX_SUCCESS) g->parameters_changed = false;
    return status;
  });
}

vx_status vxQueryNode(vx_node node_handle, vx_enum attribute, void* ptr, vx_size size) {
  auto* n = find_as<node>(node_handle);
  if (n == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (ptr == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  std::lock_guard lock(n->mutex);
  switch (attribute) {
    case VX_NODE_STATUS:
      if (size != sizeof(vx_status)) return VX_ERROR_INVALID_PARAMETERS;
      *static_cast<vx_status*>(ptr) = n->status;
      return VX_SUCCESS;
    case VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS:
      if (size != sizeof(vx_kernel_execution_parameters_t)) return VX_ERROR_INVALID_PARAMETERS;
      std::memcpy(ptr, &n->execution_parameters, sizeof n->execution_parameters);
      return VX_SUCCESS;
    case VX_NODE_LOCAL_DATA_SIZE:
      if (size != sizeof(vx_size)) return VX_ERROR_INVALID_PARAMETERS;
      std::memcpy(ptr, &n->local_data_size, sizeof(vx_size));
      return VX_SUCCESS;
    case VX_NODE_LOCAL_DATA_PTR:
      if (size != sizeof(void*)) return VX_ERROR_INVALID_PARAMETERS;
      std::memcpy(ptr, &n->local_data_ptr, sizeof(void*));
      return VX_SUCCESS;
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

namespace {

// VX_NODE_LOCAL_DATA_SIZE / _PTR by the board driver's rules (docs/runtime.md §9): settable only from
// the node's initializer (if the size was 0 when it started) or deinitializer (unless the runtime owns
// the block), else -3 (as on a verified graph: vxSetNodeAttribute); that window is checked first, then
// the value: a vx_size / pointer (8 bytes on aarch64, 4 on armhf) at a 4-byte aligned address, else -10.
vx_status set_local_data(node& n, vx_enum attribute, const void* ptr, vx_size size) {
  const bool is_size = attribute == VX_NODE_LOCAL_DATA_SIZE;
  const char* what = is_size ? "VX_NODE_LOCAL_DATA_SIZE" : "VX_NODE_LOCAL_DATA_PTR";
  const std::size_t expected = is_size ? sizeof(vx_size) : sizeof(void*);
  const bool value_ok = size == expected && reinterpret_cast<std::uintptr_t>(ptr) % 4 == 0;
  {
    std::lock_guard lock(n.mutex);
    if (n.local_data_writable && value_ok) {
      if (is_size)
        std::memcpy(&n.local_data_size, ptr, sizeof(vx_size));
      else
        std::memcpy(&n.local_data_ptr, ptr, sizeof(void*));
      n.local_data_runtime_owned = false;  // as the driver does: the kernel has taken the block over
      return VX_SUCCESS;
    }
    if (!n.local_data_writable) {
      log_to(&n, VX_ERROR_NOT_SUPPORTED,
             "vxSetNodeAttribute(%s): local data can be set only while the node's initializer runs and its size "
             "is still 0, or while its deinitializer runs and the block is not the runtime's",
             what);
      return VX_ERROR_NOT_SUPPORTED;
    }
  }
  log_to(&n, VX_ERROR_INVALID_PARAMETERS,
         "vxSetNodeAttribute(%s): a value of %zu bytes at %p; the driver takes exactly %zu bytes (sizeof(%s)) at a "
         "4-byte aligned address",
         what, static_cast<std::size_t>(size), ptr, expected, is_size ? "vx_size" : "void*");
  return VX_ERROR_INVALID_PARAMETERS;
}

}  // namespace

vx_status vxSetNodeAttribute(vx_node node_handle, vx_enum attribute, const void* ptr, vx_size size) {
  auto* n = find_as<node>(node_handle);
  if (n == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (ptr == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  // The board driver refuses every node attribute once the graph is verified (docs/runtime.md §9):
  // kernels set theirs from the initializer, which runs before that.
  if (const graph* g = n->parent; g != nullptr && g->verified.load()) {
    log_to(n, VX_ERROR_NOT_SUPPORTED, "vxSetNodeAttribute(0x%x): the node's graph is verified",
           static_cast<unsigned>(attribute));
    return VX_ERROR_NOT_SUPPORTED;
  }
  if (attribute == VX_NODE_LOCAL_DATA_SIZE || attribute == VX_NODE_LOCAL_DATA_PTR)
    return set_local_data(*n, attribute, ptr, size);
  if (attribute != VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS) return VX_ERROR_NOT_SUPPORTED;
  if (size != sizeof(vx_kernel_execution_parameters_t)) {
    log_to(n, VX_ERROR_INVALID_PARAMETERS, "vxSetNodeAttribute: execution parameters of size %zu, expected %zu",
           static_cast<std::size_t>(size), sizeof(vx_kernel_execution_parameters_t));
    return VX_ERROR_INVALID_PARAMETERS;
  }
  vx_kernel_execution_parameters_t p;
  std::memcpy(&p, ptr, sizeof p);
  const vx_status status = check_execution_parameters(*n, p);
  if (status != VX_SUCCESS) return status;
  std::lock_guard lock(n->mutex);
  n->execution_parameters = p;
  n->has_execution_parameters = true;
  return VX_SUCCESS;
}

vx_status vxReleaseNode(vx_node* node_handle) { return release_handle(node_handle, VX_TYPE_NODE); }

vx_status vxSetNodeUniform(vx_node node_handle, const vx_char* name, vx_size count, void* value) {
  auto* n = find_as<node>(node_handle);
  if (n == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (name == nullptr || name[0] == '\0' || count == 0 || value == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  return guarded([&] {
    context& ctx = *n->owner;
    rknnop_host_uniform_size_f size_of = nullptr;
    void* user = nullptr;
    {
      std::lock_guard lock(ctx.mutex);
      size_of = ctx.uniform_size;
      user = ctx.shader_user;
    }
    vx_size bytes = size_of != nullptr ? size_of(user, node_handle, n->kern->name.c_str(), name, count) : 0;
    if (bytes == 0) {
      if (count > SIZE_MAX / 4) return VX_ERROR_INVALID_PARAMETERS;
      bytes = count * 4;
    }
    const auto* src = static_cast<const std::byte*>(value);
    uniform u{name, std::vector<std::byte>(src, src + bytes)};
    std::lock_guard lock(n->mutex);
    for (uniform& existing : n->uniforms) {
      if (existing.name == u.name) {
        existing.bytes.swap(u.bytes);
        return VX_SUCCESS;
      }
    }
    n->uniforms.push_back(std::move(u));
    return VX_SUCCESS;
  });
}

vx_status vxSetMetaFormatAttribute(vx_meta_format meta_handle, vx_enum attribute, const void* ptr, vx_size size) {
  auto* m = find_as<meta_format>(meta_handle);
  if (m == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (ptr == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  // The driver compares the attribute's object type (bits 8..19) with the meta format's: -17 (§9).
  if (const auto object = static_cast<vx_enum>((static_cast<vx_uint32>(attribute) >> 8) & 0xFFFU);
      object != m->described_type) {
    log_to(m, VX_ERROR_INVALID_TYPE,
           "vxSetMetaFormatAttribute(%#x): an attribute of object type %#x on the meta format of a parameter of type "
           "%#x",
           static_cast<unsigned>(attribute), static_cast<unsigned>(object), static_cast<unsigned>(m->described_type));
    return VX_ERROR_INVALID_TYPE;
  }
  const bool khronos = m->owner->khronos_mode.load();
  const vx_size dim_size = khronos ? sizeof(vx_size) : sizeof(vx_uint32);
  switch (attribute) {
    case VX_TENSOR_NUMBER_OF_DIMS: {
      if (size != dim_size) return VX_ERROR_INVALID_PARAMETERS;
      vx_size ndims = 0;
      if (khronos) {
        std::memcpy(&ndims, ptr, sizeof ndims);
      } else {
        vx_uint32 value = 0;
        std::memcpy(&value, ptr, sizeof value);
        ndims = value;
      }
      if (ndims == 0 || ndims > max_tensor_dims) return VX_ERROR_INVALID_DIMENSION;
      m->num_dims = static_cast<vx_uint32>(ndims);
      m->has_num_dims = true;
      return VX_SUCCESS;
    }
    case VX_TENSOR_DIMS: {
      // The board driver reads size / sizeof(vx_size) values of vx_size here in both modes (its
      // vxQueryTensor answers uint32, this does not): refuse what it would garble (docs/runtime.md §9).
      const auto bytes = static_cast<std::size_t>(size);
      if (size == 0 || size % sizeof(vx_size) != 0) {
        log_to(m, VX_ERROR_INVALID_PARAMETERS,
               "vxSetMetaFormatAttribute(VX_TENSOR_DIMS, size %zu): the driver reads size / %zu values of vx_size "
               "(not vx_uint32); pass rank * sizeof(vx_size) bytes",
               bytes, sizeof(vx_size));
        return VX_ERROR_INVALID_PARAMETERS;
      }
      if (size / sizeof(vx_size) > max_tensor_dims || reinterpret_cast<std::uintptr_t>(ptr) % 4 != 0) {
        log_to(m, VX_ERROR_INVALID_PARAMETERS,
               "vxSetMetaFormatAttribute(VX_TENSOR_DIMS, size %zu): more than %u dims, or a pointer not 4-byte aligned "
               "(the driver refuses both with -10)",
               bytes, max_tensor_dims);
        return VX_ERROR_INVALID_PARAMETERS;
      }
      const auto count = static_cast<vx_uint32>(size / sizeof(vx_size));
      if (m->has_num_dims && count != m->num_dims) {
        log_to(m, VX_ERROR_INVALID_DIMENSION,
               "vxSetMetaFormatAttribute(VX_TENSOR_DIMS, size %zu): %u vx_size values but VX_TENSOR_NUMBER_OF_DIMS is "
               "%u (vx_uint32 dims where the driver reads vx_size?)",
               bytes, count, m->num_dims);
        return VX_ERROR_INVALID_DIMENSION;
      }
      std::array<vx_uint32, max_tensor_dims> dims{};
      for (vx_uint32 i = 0; i < count; ++i) {
        vx_size value = 0;
        std::memcpy(&value, static_cast<const std::byte*>(ptr) + i * sizeof(vx_size), sizeof value);
        if (value == 0 || value > UINT32_MAX) {
          log_to(m, VX_ERROR_INVALID_DIMENSION,
                 "vxSetMetaFormatAttribute(VX_TENSOR_DIMS, size %zu): dim %u is %llu, which the driver would keep as "
                 "%u (two vx_uint32 dims in one vx_size?)",
                 bytes, i, static_cast<unsigned long long>(value), static_cast<vx_uint32>(value));
          return VX_ERROR_INVALID_DIMENSION;
        }
        dims[i] = static_cast<vx_uint32>(value);
      }
      m->dims = dims;
      m->dims_count = count;
      m->has_dims = true;
      return VX_SUCCESS;
    }
    case VX_TENSOR_DATA_TYPE: {
      if (size != sizeof(vx_enum)) return VX_ERROR_INVALID_PARAMETERS;
      vx_enum type = 0;
      std::memcpy(&type, ptr, sizeof type);
      if (tensor_element_size(type) == 0) return VX_ERROR_INVALID_TYPE;
      m->data_type = type;
      m->has_data_type = true;
      return VX_SUCCESS;
    }
    case VX_TENSOR_FIXED_POINT_POSITION:
      if (size != sizeof(vx_int8)) return VX_ERROR_INVALID_PARAMETERS;
      std::memcpy(&m->fixed_point_position, ptr, sizeof(vx_int8));
      m->has_fixed_point_position = true;
      return VX_SUCCESS;
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

}  // extern "C"
