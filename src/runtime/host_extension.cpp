// SPDX-License-Identifier: MIT
// The rknnopHost* extension API (see include/rknnop/host/openvx_host.h).
#include "api.hpp"

#include "objects/objects.hpp"

#include <algorithm>
#include <cstring>
#include <string>

using namespace rknnop::runtime;

namespace {

// Copies text into a caller's buffer, truncated and always NUL-terminated.
void copy_text(const std::string& text, vx_char* buffer, vx_size size) noexcept {
  if (buffer == nullptr || size == 0) return;
  const std::size_t n = std::min<std::size_t>(text.size(), size - 1);
  std::memcpy(buffer, text.data(), n);
  buffer[n] = '\0';
}

}  // namespace

extern "C" {

vx_status rknnopHostSetKhronosMode(vx_context context_handle, vx_bool enabled) {
  auto* ctx = find_as<context>(context_handle);
  if (ctx == nullptr) return VX_ERROR_INVALID_REFERENCE;
  ctx->khronos_mode.store(enabled != vx_false_e);
  return VX_SUCCESS;
}

vx_status rknnopHostGetKhronosMode(vx_context context_handle, vx_bool* enabled) {
  auto* ctx = find_as<context>(context_handle);
  if (ctx == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (enabled == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  *enabled = ctx->khronos_mode.load() ? vx_true_e : vx_false_e;
  return VX_SUCCESS;
}

vx_status rknnopHostGetExecutionParameters(vx_node node_handle, vx_kernel_execution_parameters_t* params,
                                           vx_bool* was_set) {
  auto* n = find_as<node>(node_handle);
  if (n == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (params == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  std::lock_guard lock(n->mutex);
  *params = n->execution_parameters;
  if (was_set != nullptr) *was_set = n->has_execution_parameters ? vx_true_e : vx_false_e;
  return VX_SUCCESS;
}

vx_status rknnopHostGetNodeUniformCount(vx_node node_handle, vx_uint32* count) {
  auto* n = find_as<node>(node_handle);
  if (n == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (count == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  std::lock_guard lock(n->mutex);
  *count = static_cast<vx_uint32>(n->uniforms.size());
  return VX_SUCCESS;
}

vx_status rknnopHostGetNodeUniform(vx_node node_handle, vx_uint32 index, const vx_char** name, const void** data,
                                   vx_size* size_in_bytes) {
  auto* n = find_as<node>(node_handle);
  if (n == nullptr) return VX_ERROR_INVALID_REFERENCE;
  std::lock_guard lock(n->mutex);
  if (index >= n->uniforms.size()) return VX_ERROR_INVALID_PARAMETERS;
  const uniform& u = n->uniforms[index];
  if (name != nullptr) *name = u.name.c_str();
  if (data != nullptr) *data = u.bytes.data();
  if (size_in_bytes != nullptr) *size_in_bytes = u.bytes.size();
  return VX_SUCCESS;
}

namespace {
const node::step_record* step_of(node* n, vx_enum step) noexcept {
  if (step < RKNNOP_HOST_STEP_VALIDATE || step > RKNNOP_HOST_STEP_DEINITIALIZE) return nullptr;
  return &n->steps[static_cast<std::size_t>(step)];
}
}  // namespace

vx_status rknnopHostGetNodeStep(vx_node node_handle, vx_enum step, vx_bool* called, vx_status* status) {
  auto* n = find_as<node>(node_handle);
  if (n == nullptr) return VX_ERROR_INVALID_REFERENCE;
  std::lock_guard lock(n->mutex);
  const node::step_record* record = step_of(n, step);
  if (record == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  if (called != nullptr) *called = record->called ? vx_true_e : vx_false_e;
  if (status != nullptr) *status = record->status;
  return VX_SUCCESS;
}

vx_status rknnopHostGetNodeStepLog(vx_node node_handle, vx_enum step, vx_char* buffer, vx_size size,
                                   vx_size* required_size) {
  auto* n = find_as<node>(node_handle);
  if (n == nullptr) return VX_ERROR_INVALID_REFERENCE;
  std::lock_guard lock(n->mutex);
  const node::step_record* record = step_of(n, step);
  if (record == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  if (required_size != nullptr) *required_size = record->log.size() + 1;
  copy_text(record->log, buffer, size);
  return VX_SUCCESS;
}

vx_status rknnopHostGetLastLogEntry(vx_reference ref, vx_status* status, vx_char* message, vx_size message_size) {
  reference* obj = find(ref, VX_TYPE_REFERENCE);
  if (obj == nullptr) return VX_ERROR_INVALID_REFERENCE;
  context* ctx = context_of(obj);
  const bool whole_context = obj->type == VX_TYPE_CONTEXT;
  return guarded([&] {
    std::lock_guard lock(ctx->mutex);
    for (auto it = ctx->log.rbegin(); it != ctx->log.rend(); ++it) {
      if (!whole_context && it->ref_id != obj->id) continue;
      if (status != nullptr) *status = it->status;
      copy_text(it->message, message, message_size);
      return VX_SUCCESS;
    }
    return VX_FAILURE;
  });
}

vx_status rknnopHostGetLog(vx_context context_handle, vx_char* buffer, vx_size size, vx_size* required_size) {
  auto* ctx = find_as<context>(context_handle);
  if (ctx == nullptr) return VX_ERROR_INVALID_REFERENCE;
  return guarded([&] {
    std::string text;
    {
      std::lock_guard lock(ctx->mutex);
      // Appended piece by piece: `"[" + std::string` trips GCC 12's -O3 -Wrestrict false positive.
      for (const log_entry& e : ctx->log) {
        text += '[';
        text += std::to_string(e.status);
        text += "] ";
        text += e.message;
        text += '\n';
      }
    }
    if (required_size != nullptr) *required_size = text.size() + 1;
    copy_text(text, buffer, size);
    return VX_SUCCESS;
  });
}

vx_status rknnopHostGetLogEntryCount(vx_context context_handle, vx_uint32* count) {
  auto* ctx = find_as<context>(context_handle);
  if (ctx == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (count == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  std::lock_guard lock(ctx->mutex);
  *count = static_cast<vx_uint32>(ctx->log.size());
  return VX_SUCCESS;
}

vx_status rknnopHostClearLog(vx_context context_handle) {
  auto* ctx = find_as<context>(context_handle);
  if (ctx == nullptr) return VX_ERROR_INVALID_REFERENCE;
  std::lock_guard lock(ctx->mutex);
  ctx->log.clear();
  return VX_SUCCESS;
}

vx_status rknnopHostTensorWasWritten(vx_tensor tensor_handle, vx_bool* written) {
  auto* t = find_as<tensor>(tensor_handle);
  if (t == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (written == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  *written = t->written.load() ? vx_true_e : vx_false_e;
  return VX_SUCCESS;
}

vx_status rknnopHostResetTensorWritten(vx_tensor tensor_handle) {
  auto* t = find_as<tensor>(tensor_handle);
  if (t == nullptr) return VX_ERROR_INVALID_REFERENCE;
  t->written.store(false);
  return VX_SUCCESS;
}

vx_status rknnopHostGetTensorBuffer(vx_tensor tensor_handle, vx_enum usage, rknnop_host_tensor_buffer* buffer) {
  auto* t = find_as<tensor>(tensor_handle);
  if (t == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (buffer == nullptr || (usage != VX_READ_ONLY && usage != VX_WRITE_ONLY && usage != VX_READ_AND_WRITE))
    return VX_ERROR_INVALID_PARAMETERS;
  if (!t->allocated()) return VX_ERROR_NOT_ALLOCATED;
  rknnop_host_tensor_buffer out{};
  out.data = t->data.get();
  out.size_in_bytes = t->byte_size;
  out.num_dims = t->num_dims;
  for (vx_uint32 i = 0; i < t->num_dims; ++i) {
    out.dims[i] = t->dims[i];
    out.strides[i] = t->dense_stride(i);
  }
  out.data_type = t->data_type;
  out.fixed_point_position = t->fixed_point_position;
  *buffer = out;
  if (usage != VX_READ_ONLY) t->written.store(true);
  return VX_SUCCESS;
}

vx_status rknnopHostSetTensorMemoryLimit(vx_context context_handle, vx_size bytes) {
  auto* ctx = find_as<context>(context_handle);
  if (ctx == nullptr) return VX_ERROR_INVALID_REFERENCE;
  ctx->tensor_memory_limit.store(bytes);
  return VX_SUCCESS;
}

vx_status rknnopHostGetTensorMemory(vx_context context_handle, vx_size* in_use, vx_size* limit) {
  auto* ctx = find_as<context>(context_handle);
  if (ctx == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (in_use != nullptr) *in_use = ctx->tensor_bytes.load();
  if (limit != nullptr) *limit = ctx->tensor_memory_limit.load();
  return VX_SUCCESS;
}

vx_status rknnopHostSetShaderExecutor(vx_context context_handle, rknnop_host_shader_execute_f execute,
                                      rknnop_host_uniform_size_f uniform_size, void* user) {
  auto* ctx = find_as<context>(context_handle);
  if (ctx == nullptr) return VX_ERROR_INVALID_REFERENCE;
  std::lock_guard lock(ctx->mutex);
  ctx->shader_execute = execute;
  ctx->uniform_size = execute != nullptr ? uniform_size : nullptr;
  ctx->shader_user = execute != nullptr ? user : nullptr;
  return VX_SUCCESS;
}

}  // extern "C"
