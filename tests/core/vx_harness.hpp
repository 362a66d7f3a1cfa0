// SPDX-License-Identifier: MIT
#pragma once
// Runs one kernel descriptor through the host OpenVX runtime's C API, the way the board runtime
// does: vxAddUserKernel with the descriptor's table, a graph with one node, verify, process.
#include <rknnop/host/openvx_host.h>
#include <rknnop/float16.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace rknnop::test {

/// An OpenVX object as the vx_reference a node's parameter list holds.
template <class T>
vx_reference ref(T* object) {
  return reinterpret_cast<vx_reference>(object);
}

class harness {
public:
  explicit harness(vx_kernel_description_t* d) : context_(vxCreateContext()) {
    kernel_ = vxAddUserKernel(context_, d->name, d->enumeration, d->function, d->numParams, d->validate, d->initialize,
                              d->deinitialize);
    for (vx_uint32 i = 0; kernel_ && i < d->numParams; ++i)
      vxAddParameterToKernel(kernel_, i, d->parameters[i].direction, d->parameters[i].data_type,
                             d->parameters[i].state);
    if (kernel_) vxFinalizeKernel(kernel_);
    graph_ = vxCreateGraph(context_);
    node_ = kernel_ ? vxCreateGenericNode(graph_, kernel_) : nullptr;
  }
  harness(const harness&) = delete;
  harness& operator=(const harness&) = delete;
  ~harness() { vxReleaseContext(&context_); }  // releases every object of the context

  vx_context context() const { return context_; }
  vx_node node() const { return node_; }
  vx_graph graph() const { return graph_; }

  template <class T>
  vx_tensor tensor(const std::vector<std::uint32_t>& dims, vx_enum dtype, const std::vector<T>& data = {}) {
    const std::vector<vx_size> sizes(dims.begin(), dims.end());
    vx_tensor t = vxCreateTensor(context_, sizes.size(), sizes.data(), dtype, 0);
    if (t && !data.empty()) write(t, data);
    return t;
  }
  vx_tensor virtual_tensor(vx_enum dtype) { return vxCreateVirtualTensor(graph_, 0, nullptr, dtype, 0); }
  vx_scalar scalar(vx_enum type, const void* value) { return vxCreateScalar(context_, type, value); }
  vx_array array(const std::vector<std::int32_t>& items, vx_enum type = VX_TYPE_INT32) {
    vx_array a = vxCreateArray(context_, type, items.size() + 1);
    if (!items.empty()) vxAddArrayItems(a, items.size(), items.data(), sizeof(std::int32_t));
    return a;
  }

  // Sets the parameters, verifies, and runs the graph as librknn_runtime's rknn_run does: scheduled on
  // the driver's graph thread, then waited for (docs/runtime.md §5); the first failing status.
  vx_status run(const std::vector<vx_reference>& params) {
    for (std::size_t i = 0; i < params.size(); ++i) {
      const vx_status s = vxSetParameterByIndex(node_, static_cast<vx_uint32>(i), params[i]);
      if (s != VX_SUCCESS) return s;
    }
    const vx_status v = vxVerifyGraph(graph_);
    if (v != VX_SUCCESS) return v;
    const vx_status scheduled = vxScheduleGraph(graph_);
    return scheduled != VX_SUCCESS ? scheduled : vxWaitGraph(graph_);
  }
  vx_status verify_only(const std::vector<vx_reference>& params) {
    for (std::size_t i = 0; i < params.size(); ++i) vxSetParameterByIndex(node_, static_cast<vx_uint32>(i), params[i]);
    return vxVerifyGraph(graph_);
  }

  // The last line rknnop's generated callbacks logged (the runtime adds its own summaries after it).
  std::string last_log() const {
    vx_size size = 0;
    rknnopHostGetLog(context_, nullptr, 0, &size);
    std::string log(size, '\0');
    if (size) rknnopHostGetLog(context_, log.data(), size, nullptr);
    const std::size_t at = log.rfind("rknnop: ");
    if (at == std::string::npos) return {};
    return log.substr(at, log.find('\n', at) - at);
  }

  template <class T>
  static void write(vx_tensor t, const std::vector<T>& data) {
    rknnop_host_tensor_buffer b{};
    if (rknnopHostGetTensorBuffer(t, VX_WRITE_ONLY, &b) != VX_SUCCESS) return;
    const std::size_t bytes = data.size() * sizeof(T);
    std::memcpy(b.data, data.data(), bytes < b.size_in_bytes ? bytes : b.size_in_bytes);
    rknnopHostResetTensorWritten(t);
  }
  template <class T>
  static std::vector<T> read(vx_tensor t) {
    rknnop_host_tensor_buffer b{};
    if (rknnopHostGetTensorBuffer(t, VX_READ_ONLY, &b) != VX_SUCCESS) return {};
    std::vector<T> out(b.size_in_bytes / sizeof(T));
    std::memcpy(out.data(), b.data, b.size_in_bytes);
    return out;
  }
  static std::vector<std::uint32_t> dims(vx_tensor t) {
    rknnop_host_tensor_buffer b{};
    if (rknnopHostGetTensorBuffer(t, VX_READ_ONLY, &b) != VX_SUCCESS) return {};
    return {b.dims, b.dims + b.num_dims};
  }

private:
  vx_context context_ = nullptr;
  vx_kernel kernel_ = nullptr;
  vx_graph graph_ = nullptr;
  vx_node node_ = nullptr;
};

inline std::vector<float16> to_half(const std::vector<float>& v) {
  std::vector<float16> out;
  for (float f : v) out.emplace_back(f);
  return out;
}
inline std::vector<float> to_float(const std::vector<float16>& v) {
  std::vector<float> out;
  for (float16 h : v) out.push_back(static_cast<float>(h));
  return out;
}

}  // namespace rknnop::test
