// SPDX-License-Identifier: MIT
// rknnop::vxc::shader_bridge: runs the nodes of shader kernels of rknnop's host OpenVX runtime
// through the POCL executor.
#include <rknnop/vxc/vxc.hpp>
#include <rknnop/host/openvx_host.h>

#include "shader_parse.hpp"  // read_shader_text

#include <array>
#include <atomic>
#include <cstring>
#include <exception>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace rknnop::vxc {

namespace {

std::string read_text(const std::filesystem::path& path, std::string& error) {
  std::string text;
  error = read_shader_text(path, text);
  return text;
}

}  // namespace

shader_source_provider shader_text(std::string text, std::string file_name) {
  return [text = std::move(text), file_name = std::move(file_name)](std::string_view) {
    return shader_source{text, file_name, {}};
  };
}

shader_source_provider shader_file(std::filesystem::path path) {
  return [path = std::move(path)](std::string_view kernel_name) {
    shader_source s;
    s.file_name = path.filename().string();
    std::string error;
    s.text = read_text(path, error);
    if (!error.empty()) {
      s.error =
          "rknnop: kernel '" + std::string(kernel_name) + "': cannot read the shader '" + path.string() + "': " + error;
    }
    return s;
  };
}

namespace {
// The file names a kernel's shader may have, in the order they are tried (the second is the toolkit's).
std::array<std::string, 2> shader_file_names(const std::string& kernel) {
  return {kernel + ".vx", "rknn_kernel_" + kernel + ".vx"};
}
}  // namespace

shader_source_provider shader_directory(std::filesystem::path directory) {
  return [directory = std::move(directory)](std::string_view kernel_name) {
    const std::string name(kernel_name);
    shader_source s;
    for (const std::string& candidate : shader_file_names(name)) {
      const std::filesystem::path path = directory / candidate;
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path, ec)) continue;
      std::string error;
      s.text = read_text(path, error);
      s.file_name = candidate;
      if (!error.empty())
        s.error = "rknnop: kernel '" + name + "': cannot read the shader '" + path.string() + "': " + error;
      return s;
    }
    s.error = "rknnop: kernel '" + name + "': no shader in '" + directory.string() + "' (looked for " + name +
              ".vx and rknn_kernel_" + name + ".vx)";
    return s;
  };
}

shader_location find_op_shader(const std::filesystem::path& op, const std::filesystem::path& op_yml,
                               const std::optional<std::string>& vx_file, std::string_view kernel_name,
                               const std::filesystem::path& explicit_vx) {
  if (!explicit_vx.empty()) return {explicit_vx, {}};
  std::filesystem::path dir = (op_yml.empty() ? op : op_yml).parent_path();
  if (dir.empty()) dir = ".";
  if (vx_file) return {dir / *vx_file, {}};
  const std::string name(kernel_name);
  const std::array<std::string, 2> names = shader_file_names(name);
  for (const std::string& candidate : names) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(dir / candidate, ec)) return {dir / candidate, {}};
  }
  return {{},
          "rknnop: kernel '" + name + "': no .vx: op.yml names no vx_file and '" + dir.string() + "' holds neither " +
              names[0] + " nor " + names[1] + "; give --vx FILE"};
}

// ------------------------------------------------------------------------------------------------
struct shader_bridge::impl {
  shader_source_provider provider;
  std::mutex mutex;  // the executor is not thread-safe; graphs may be processed from several threads
  executor exec;
  run_result last;
  std::atomic<std::uint64_t> nodes{0};

  struct failure {
    vx_status status;
    std::string message;
    run_status kind = run_status::error;
  };

  static vx_status callback(void* user, vx_node node, const rknnop_host_kernel_info* info, const vx_reference* refs,
                            vx_uint32 num) noexcept {
    auto* self = static_cast<impl*>(user);
    if (self == nullptr) return VX_ERROR_INVALID_PARAMETERS;
    failure f{VX_FAILURE, {}};
    try {
      std::lock_guard lock(self->mutex);
      f = self->run_node(info, refs, num);
      self->last = run_result{f.status == VX_SUCCESS ? run_status::ok : f.kind, f.message};
    } catch (const std::exception& e) {
      f = failure{VX_ERROR_NO_MEMORY, std::string("rknnop: shader executor: ") + e.what()};
    } catch (...) {
      f = failure{VX_FAILURE, "rknnop: shader executor: unknown exception"};
    }
    if (f.status != VX_SUCCESS && f.kind == run_status::error) {
      try {
        std::lock_guard lock(self->mutex);
        self->last = run_result{run_status::error, f.message};
      } catch (...) {  // NOLINT(bugprone-empty-catch): the node's log entry still says why
      }
    }
    if (f.status == VX_SUCCESS) {
      self->nodes.fetch_add(1, std::memory_order_relaxed);
    } else {
      vxAddLogEntry(reinterpret_cast<vx_reference>(node), f.status, "%s", f.message.c_str());
    }
    return f.status;
  }

  // Long by design: each node parameter kind (tensor, array, scalar) is staged in table order, then run.
  failure run_node(const rknnop_host_kernel_info* info, const vx_reference* refs, vx_uint32 num) {
    if (info == nullptr || info->name == nullptr || (num != 0 && refs == nullptr)) {
      return {VX_ERROR_INVALID_PARAMETERS, "rknnop: shader executor called without kernel information"};
    }
    const std::string name = info->name;
    const std::string where = "rknnop: kernel '" + name + "': ";
    if (num != info->num_params) {
      return {VX_ERROR_INVALID_PARAMETERS, where + "the node has " + std::to_string(num) + " parameters, the kernel " +
                                               std::to_string(info->num_params)};
    }
    if (!exec.available()) {
      return {VX_ERROR_NOT_SUPPORTED, where + "cannot run the VX shader on the host: " + exec.status(),
              run_status::no_opencl};
    }
    if (info->execution_parameters == nullptr) {
      return {VX_ERROR_INVALID_PARAMETERS,
              where +
                  "the VX initializer set no execution parameters (vxSetNodeAttribute("
                  "VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS)), so the shader has no work size"};
    }
    const execution_parameters params = execution_parameters::from_vx(*info->execution_parameters);

    shader_source source = provider ? provider(name) : shader_source{{}, {}, where + "no shader source provider"};
    if (!source.error.empty()) return {VX_FAILURE, std::move(source.error)};
    if (source.file_name.empty()) source.file_name = name + ".vx";

    // The node's parameters in table order; output tensors are staged and copied back on success.
    std::vector<kernel_argument> args;
    std::vector<std::vector<std::int32_t>> array_items;
    std::vector<std::vector<std::byte>> staging;
    std::vector<std::pair<vx_tensor, std::size_t>> outputs;  // tensor, staging index
    args.reserve(num);
    array_items.reserve(num);
    staging.reserve(num);
    for (vx_uint32 i = 0; i < num; ++i) {
      const vx_param_description_t& p = info->params[i];
      const std::string param = where + "parameter " + std::to_string(i) + ": ";
      if (refs[i] == nullptr) return {VX_ERROR_INVALID_PARAMETERS, param + "not set"};
      if (p.data_type == VX_TYPE_TENSOR) {
        auto* tensor = reinterpret_cast<vx_tensor>(refs[i]);
        rknnop_host_tensor_buffer b{};
        vx_status s = rknnopHostGetTensorBuffer(tensor, VX_READ_ONLY, &b);
        if (s != VX_SUCCESS) return {s, param + "rknnopHostGetTensorBuffer failed with " + std::to_string(s)};
        tensor_arg t;
        t.dims.assign(b.dims, b.dims + b.num_dims);
        t.dtype = static_cast<vx_type>(b.data_type);
        std::size_t count = 1;
        for (std::uint32_t d : t.dims) count *= d;
        const std::size_t element = count != 0 ? b.size_in_bytes / count : 0;
        for (vx_uint32 d = 0; d < b.num_dims; ++d) {
          const std::size_t dense = d == 0 ? element : b.strides[d - 1] * b.dims[d - 1];
          if (b.strides[d] != dense) {
            return {VX_ERROR_NOT_SUPPORTED, param + "the tensor is not dense (stride[" + std::to_string(d) +
                                                "] = " + std::to_string(b.strides[d]) + ", expected " +
                                                std::to_string(dense) + ")"};
          }
        }
        if (p.direction == VX_OUTPUT) {
          staging.emplace_back(b.size_in_bytes);
          t.data = staging.back();
          outputs.emplace_back(tensor, staging.size() - 1);
        } else {
          t.data = std::span<std::byte>(static_cast<std::byte*>(b.data), b.size_in_bytes);
        }
        args.emplace_back(std::move(t));
      } else if (p.data_type == VX_TYPE_ARRAY) {
        auto* array = reinterpret_cast<vx_array>(refs[i]);
        vx_enum item_type = 0;
        vx_size count = 0;
        vx_status s = vxQueryArray(array, VX_ARRAY_ITEMTYPE, &item_type, sizeof item_type);
        if (s == VX_SUCCESS) s = vxQueryArray(array, VX_ARRAY_NUMITEMS, &count, sizeof count);
        if (s != VX_SUCCESS) return {s, param + "vxQueryArray failed with " + std::to_string(s)};
        if (item_type != VX_TYPE_INT32) {
          return {VX_ERROR_INVALID_TYPE, param + "array items are " + vx_type_name(static_cast<vx_type>(item_type)) +
                                             "; vx_array_int (and the RKNN runtime) hold VX_TYPE_INT32"};
        }
        std::vector<std::int32_t>& items = array_items.emplace_back(count);
        if (count != 0) {
          s = vxCopyArrayRange(array, 0, count, sizeof(std::int32_t), items.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
          if (s != VX_SUCCESS) return {s, param + "vxCopyArrayRange failed with " + std::to_string(s)};
        }
        args.emplace_back(array_arg{items});
      } else if (p.data_type == VX_TYPE_SCALAR) {
        auto* scalar = reinterpret_cast<vx_scalar>(refs[i]);
        vx_enum type = 0;
        vx_status s = vxQueryScalar(scalar, VX_SCALAR_TYPE, &type, sizeof type);
        if (s != VX_SUCCESS) return {s, param + "vxQueryScalar failed with " + std::to_string(s)};
        scalar_arg value;
        value.type = static_cast<vx_type>(type);
        value.size = vx_type_size(value.type);
        if (value.size == 0 || value.size > value.bytes.size()) {
          return {VX_ERROR_NOT_SUPPORTED, param + "scalar type " + vx_type_name(value.type) + " cannot reach a shader"};
        }
        s = vxCopyScalar(scalar, value.bytes.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
        if (s != VX_SUCCESS) return {s, param + "vxCopyScalar failed with " + std::to_string(s)};
        args.emplace_back(value);
      } else {
        return {VX_ERROR_NOT_SUPPORTED, param + "the kernel table type " +
                                            vx_type_name(static_cast<vx_type>(p.data_type)) +
                                            " cannot reach a VX shader (tensors, arrays and scalars can)"};
      }
    }

    const run_result r = exec.run(source.text, source.file_name, name, params, args);
    if (!r.ok()) {
      return {r.status == run_status::no_opencl ? VX_ERROR_NOT_SUPPORTED : VX_FAILURE, r.message, r.status};
    }
    for (const auto& [tensor, index] : outputs) {
      rknnop_host_tensor_buffer b{};
      const vx_status s = rknnopHostGetTensorBuffer(tensor, VX_WRITE_ONLY, &b);  // marks the tensor written
      if (s != VX_SUCCESS || b.size_in_bytes != staging[index].size()) {
        return {s != VX_SUCCESS ? s : VX_FAILURE, where + "writing an output tensor back failed"};
      }
      std::memcpy(b.data, staging[index].data(), b.size_in_bytes);
    }
    return {VX_SUCCESS, {}};
  }
};

shader_bridge::shader_bridge(shader_source_provider provider) : impl_(std::make_unique<impl>()) {
  impl_->provider = std::move(provider);
}
shader_bridge::~shader_bridge() = default;

std::int32_t shader_bridge::attach(void* context) {
  return rknnopHostSetShaderExecutor(static_cast<vx_context>(context), &impl::callback, nullptr, impl_.get());
}
std::int32_t shader_bridge::detach(void* context) {
  return rknnopHostSetShaderExecutor(static_cast<vx_context>(context), nullptr, nullptr, nullptr);
}

bool shader_bridge::available() const noexcept { return impl_->exec.available(); }
const std::string& shader_bridge::status() const noexcept { return impl_->exec.status(); }
run_result shader_bridge::last_result() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->last;
}
std::uint64_t shader_bridge::nodes_run() const noexcept { return impl_->nodes.load(std::memory_order_relaxed); }

std::unique_ptr<shader_bridge> attach(void* context, shader_source_provider provider) {
  auto bridge = std::make_unique<shader_bridge>(std::move(provider));
  if (const std::int32_t status = bridge->attach(context); status != VX_SUCCESS) {
    throw std::runtime_error("rknnop: rknnopHostSetShaderExecutor failed with " + std::to_string(status) +
                             " (not a context of rknnop's host OpenVX runtime?)");
  }
  return bridge;
}

}  // namespace rknnop::vxc
