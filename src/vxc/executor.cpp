// SPDX-License-Identifier: MIT
// Runs translated .vx shaders on the first OpenCL device (POCL on the host).
#include <rknnop/vxc/vxc.hpp>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>  // the only file of rknnop::vxc that sees OpenCL

#include <algorithm>  // std::any_of
#include <array>
#include <map>  // program cache
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace rknnop::vxc {

// ------------------------------------------------------------------------------------------------
std::optional<std::string> validate_execution_parameters(const execution_parameters& p, std::string_view kernel_name) {
  const std::string where = "rknnop: kernel '" + std::string(kernel_name) + "': execution parameters: ";
  if (p.work_dim < 1 || p.work_dim > 3) {
    return where + "workDim is " + std::to_string(p.work_dim) + ", expected 1, 2 or 3";
  }
  bool any_local = false;
  bool all_local = true;
  for (std::uint32_t d = 0; d < p.work_dim; ++d) {
    const std::string dim = "[" + std::to_string(d) + "]";
    if (p.global_work_size[d] == 0) {
      return where + "globalWorkSize" + dim + " is 0, expected at least 1 work-item in each of the " +
             std::to_string(p.work_dim) + " dimension(s) of workDim";
    }
    if (p.global_work_scale[d] == 0) {
      return where + "globalWorkScale" + dim + " is 0, expected at least 1 (get_global_id(" + std::to_string(d) +
             ") steps by it)";
    }
    if (p.local_work_size[d] != 0) {
      any_local = true;
      if (p.global_work_size[d] % p.local_work_size[d] != 0) {
        return where + "globalWorkSize" + dim + " = " + std::to_string(p.global_work_size[d]) +
               " is not a multiple of localWorkSize" + dim + " = " + std::to_string(p.local_work_size[d]);
      }
    } else {
      all_local = false;
    }
  }
  if (any_local && !all_local) {
    std::string sizes;
    for (std::uint32_t d = 0; d < p.work_dim; ++d) {
      if (d != 0) sizes += ", ";
      sizes += std::to_string(p.local_work_size[d]);
    }
    return where + "localWorkSize is {" + sizes +
           "}: give every used dimension a local size, or none (all 0 lets the driver choose)";
  }
  return std::nullopt;
}

namespace {

// librknn_runtime hands a VX_TYPE_BOOL param over as a 1-byte VX_TYPE_UINT8 scalar (docs/board-emulation.md
// §8); a shader declares the param as it declares a vx_bool, `int` (or `uint`): the byte reaches it
// zero-extended.
bool widened_board_bool(const scalar_arg& s, std::string_view declared) noexcept {
  return s.type == vx_type::uint8 && s.size == 1 && (declared == "int" || declared == "uint");
}

// RAII for OpenCL handles.
template <class Handle, cl_int (*Release)(Handle)>
class cl_handle {
public:
  cl_handle() = default;
  explicit cl_handle(Handle h) noexcept : h_(h) {}
  cl_handle(cl_handle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  cl_handle& operator=(cl_handle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  cl_handle(const cl_handle&) = delete;
  cl_handle& operator=(const cl_handle&) = delete;
  ~cl_handle() { reset(); }
  void reset() noexcept {
    if (h_ != nullptr) Release(h_);
    h_ = nullptr;
  }
  [[nodiscard]] Handle get() const noexcept { return h_; }
  explicit operator bool() const noexcept { return h_ != nullptr; }

private:
  Handle h_ = nullptr;
};

using context_handle = cl_handle<cl_context, clReleaseContext>;
using queue_handle = cl_handle<cl_command_queue, clReleaseCommandQueue>;
using program_handle = cl_handle<cl_program, clReleaseProgram>;
using kernel_handle = cl_handle<cl_kernel, clReleaseKernel>;
using buffer_handle = cl_handle<cl_mem, clReleaseMemObject>;

std::string cl_error_name(cl_int e) {
  switch (e) {
    case CL_SUCCESS: return "CL_SUCCESS";
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_ARG_INDEX: return "CL_INVALID_ARG_INDEX";
    case CL_INVALID_ARG_VALUE: return "CL_INVALID_ARG_VALUE";
    case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_DIMENSION: return "CL_INVALID_WORK_DIMENSION";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
    case CL_INVALID_GLOBAL_OFFSET: return "CL_INVALID_GLOBAL_OFFSET";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "OpenCL error " + std::to_string(e);
  }
}

std::string device_string(cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  if (clGetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  if (clGetDeviceInfo(device, what, size, s.data(), nullptr) != CL_SUCCESS) return {};
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

// "error: file.vx:3:5: message" (POCL's clang) -> "file.vx:3:5: error: message".
std::string tidy_build_log(const std::string& log) {
  std::istringstream in(log);
  std::string line;
  std::string out;
  while (std::getline(in, line)) {
    for (std::string_view severity : {"error: ", "warning: ", "note: "}) {
      if (line.rfind(severity, 0) == 0) {
        const std::string rest = line.substr(severity.size());
        const auto colon = rest.find(": ");
        if (colon != std::string::npos && rest.find(':') < colon) {
          line = rest.substr(0, colon) + ": " + std::string(severity) + rest.substr(colon + 2);
        }
        break;
      }
    }
    out += "  " + line + "\n";
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

const char* op_name(int op) {
  switch (op) {
    case 1: return "VXC_ReadImage2DArray";
    case 2: return "VXC_WriteImage2DArray";
    case 3: return "VXC_ReadImage";
    case 4: return "VXC_WriteImage";
    case 5: return "read_imagef";
    case 6: return "read_imagei";
    case 7: return "read_imageui";
    case 8: return "write_imagef";
    case 9: return "write_imagei";
    case 10: return "write_imageui";
    default: return "an image access";
  }
}

// The status block the prelude fills (see vxc_prelude.cl).
constexpr std::size_t status_words = 8;

}  // namespace

// ------------------------------------------------------------------------------------------------
struct executor::impl {
  bool available = false;
  std::string status;
  cl_device_id device = nullptr;
  context_handle context;
  queue_handle queue;
  std::map<std::string, program_handle> programs;

  impl() {
    cl_uint count = 0;
    cl_int err = clGetPlatformIDs(0, nullptr, &count);
    if (err != CL_SUCCESS || count == 0) {
      status = "rknnop: no OpenCL platform found (clGetPlatformIDs: " +
               (err != CL_SUCCESS ? cl_error_name(err) : std::string("0 platforms")) +
               "); install an OpenCL ICD such as pocl-opencl-icd to run VX shaders on the host";
      return;
    }
    std::vector<cl_platform_id> platforms(count);
    clGetPlatformIDs(count, platforms.data(), nullptr);
    for (cl_platform_id platform : platforms) {
      cl_uint ndev = 0;
      if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, &ndev) == CL_SUCCESS && ndev > 0) break;
      device = nullptr;
    }
    if (device == nullptr) {
      status = "rknnop: OpenCL platforms found, but none has a device; VX shaders cannot run on the host";
      return;
    }
    context = context_handle(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err));
    if (!context) {
      status = "rknnop: clCreateContext failed: " + cl_error_name(err);
      return;
    }
    queue = queue_handle(clCreateCommandQueue(context.get(), device, 0, &err));
    if (!queue) {
      status = "rknnop: clCreateCommandQueue failed: " + cl_error_name(err);
      return;
    }
    available = true;
    status = device_string(device, CL_DEVICE_NAME) + " (" + device_string(device, CL_DEVICE_VERSION) + ")";
  }

  // Returns the program, or sets message.
  cl_program build(const std::string& source, std::string_view kernel_name, std::string_view file_name,
                   std::string& message) {
    if (auto it = programs.find(source); it != programs.end()) return it->second.get();
    cl_int err = CL_SUCCESS;
    const char* text = source.c_str();
    const std::size_t length = source.size();
    program_handle program(clCreateProgramWithSource(context.get(), 1, &text, &length, &err));
    if (!program) {
      message =
          "rknnop: kernel '" + std::string(kernel_name) + "': clCreateProgramWithSource failed: " + cl_error_name(err);
      return nullptr;
    }
    err = clBuildProgram(program.get(), 1, &device, "-cl-std=CL1.2", nullptr, nullptr);
    if (err != CL_SUCCESS) {
      std::size_t size = 0;
      clGetProgramBuildInfo(program.get(), device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
      std::string log(size, '\0');
      if (size != 0) clGetProgramBuildInfo(program.get(), device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
      while (!log.empty() && log.back() == '\0') log.pop_back();
      message = "rknnop: kernel '" + std::string(kernel_name) + "': the OpenCL C compiler rejected the shader '" +
                std::string(file_name) + "' (" + cl_error_name(err) + "):\n" + tidy_build_log(log);
      return nullptr;
    }
    cl_program raw = program.get();
    programs.emplace(source, std::move(program));
    return raw;
  }
};

executor::executor() : impl_(std::make_unique<impl>()) {}
executor::~executor() = default;
executor::executor(executor&&) noexcept = default;
executor& executor::operator=(executor&&) noexcept = default;

bool executor::available() const noexcept { return impl_->available; }
const std::string& executor::status() const noexcept { return impl_->status; }

// Long by design: one linear pass (check arguments, build, bind, enqueue, read back), each step with its own
// diagnostic.
run_result executor::run(std::string_view source, std::string_view file_name, std::string_view kernel_name,
                         const execution_parameters& params, std::span<const kernel_argument> args) {
  const auto fail = [](std::string message) { return run_result{run_status::error, std::move(message)}; };
  const std::string kname(kernel_name);
  const std::string where = "rknnop: kernel '" + kname + "': ";
  if (!impl_->available) return run_result{run_status::no_opencl, impl_->status};
  if (auto bad = validate_execution_parameters(params, kernel_name)) return fail(*bad);

  translation tr = translate_shader(source, file_name, params);
  if (!tr.errors.empty()) {
    std::string msg;
    for (const auto& d : tr.errors) msg += (msg.empty() ? "" : "\n") + d.to_string();
    return fail(std::move(msg));
  }
  const translated_kernel* tk = nullptr;
  std::string names;
  for (const auto& k : tr.kernels) {
    if (k.name == kname) tk = &k;
    names += (names.empty() ? "" : ", ") + k.name;
  }
  if (tk == nullptr) {
    return fail(where + "the shader '" + std::string(file_name) +
                "' has no such __kernel (kernels found: " + (names.empty() ? std::string("none") : names) + ")");
  }
  if (tk->arguments.size() != args.size()) {
    return fail(where + "the shader declares " + std::to_string(tk->arguments.size()) + " argument(s), " +
                std::to_string(args.size()) + " were given");
  }

  // Check every argument against its declaration before touching OpenCL.
  for (std::size_t a = 0; a < args.size(); ++a) {
    const shader_argument& decl = tk->arguments[a];
    const std::string arg_where = where + "argument " + std::to_string(a) + " ('" + decl.name + "'): ";
    const translated_arg_kind kind = tk->kinds[a];
    if (kind == translated_arg_kind::image) {
      const auto* t = std::get_if<tensor_arg>(&args[a]);
      if (t == nullptr)
        return fail(arg_where + "the shader declares '" + decl.declaration + "', which needs a tensor_arg");
      const std::size_t esize = tensor_element_size(t->dtype);
      if (esize == 0) {
        return fail(arg_where + "tensor element type " + vx_type_name(t->dtype) +
                    " is not emulated (FLOAT16, FLOAT32, INT8, UINT8, INT16, UINT16, INT32, UINT32 are)");
      }
      if (t->dims.empty() || t->dims.size() > 4) {
        return fail(arg_where + "the tensor has " + std::to_string(t->dims.size()) + " dims, expected 1 to 4");
      }
      std::size_t count = 1;
      for (std::size_t d = 0; d < t->dims.size(); ++d) {
        if (t->dims[d] == 0) return fail(arg_where + "dims[" + std::to_string(d) + "] is 0");
        count *= t->dims[d];
      }
      if (t->dims.size() == 4 && t->dims[3] != 1) {
        return fail(arg_where + "dims[3] (batch) is " + std::to_string(t->dims[3]) +
                    "; the emulator maps x, y, z to dims[0], dims[1], dims[2] and needs dims[3] == 1");
      }
      if (t->data.size() != count * esize) {
        return fail(arg_where + "the host buffer has " + std::to_string(t->data.size()) + " bytes, the tensor needs " +
                    std::to_string(count * esize) + " (" + std::to_string(count) + " x " + vx_type_name(t->dtype) +
                    ")");
      }
    } else if (kind == translated_arg_kind::array) {
      if (!std::holds_alternative<array_arg>(args[a])) {
        return fail(arg_where + "the shader declares '" + decl.declaration + "', which needs an array_arg");
      }
    } else {
      const auto* s = std::get_if<scalar_arg>(&args[a]);
      if (s == nullptr || decl.pointer) {
        return fail(arg_where + "the shader declares '" + decl.declaration +
                    "'; VX kernels take tensors as image2d_array_t, arrays as vx_array_int and scalars by value" +
                    (decl.pointer ? std::string() : std::string(", so this needs a scalar_arg")));
      }
      const auto accepted = opencl_scalar_types(s->type);
      if (std::find(accepted.begin(), accepted.end(), std::string_view(decl.type)) == accepted.end() &&
          !widened_board_bool(*s, decl.type)) {
        return fail(arg_where + "a " + vx_type_name(s->type) + " scalar was given, the shader declares '" +
                    decl.declaration + "'");
      }
      if (s->size != vx_type_size(s->type)) {
        return fail(arg_where + "a " + vx_type_name(s->type) + " scalar has " + std::to_string(vx_type_size(s->type)) +
                    " bytes, " + std::to_string(s->size) + " were given");
      }
    }
  }

  std::string message;
  cl_program program = impl_->build(tr.source, kernel_name, file_name, message);
  if (program == nullptr) return fail(std::move(message));
  cl_int err = CL_SUCCESS;
  kernel_handle kernel(clCreateKernel(program, tk->cl_name.c_str(), &err));
  if (!kernel) return fail(where + "clCreateKernel failed: " + cl_error_name(err));

  cl_context ctx = impl_->context.get();
  std::vector<buffer_handle> buffers;
  buffers.reserve(args.size() + 1);
  cl_uint index = 0;
  const auto set_arg = [&](std::size_t size, const void* value) {
    const cl_int e = clSetKernelArg(kernel.get(), index, size, value);
    ++index;
    return e;
  };
  const auto make_buffer = [&](std::size_t bytes, const void* init) -> cl_mem {
    std::size_t size = bytes == 0 ? 4 : bytes;
    cl_mem_flags flags = CL_MEM_READ_WRITE | (init != nullptr && bytes != 0 ? CL_MEM_COPY_HOST_PTR : 0);
    cl_mem mem = clCreateBuffer(ctx, flags, size, bytes != 0 ? const_cast<void*>(init) : nullptr, &err);
    if (mem != nullptr) buffers.emplace_back(mem);
    return mem;
  };

  std::vector<std::pair<std::size_t, cl_mem>> outputs;  // argument index, buffer
  for (std::size_t a = 0; a < args.size(); ++a) {
    const std::string arg_where = where + "argument " + std::to_string(a) + " ('" + tk->arguments[a].name + "'): ";
    cl_int e = CL_SUCCESS;
    switch (tk->kinds[a]) {
      case translated_arg_kind::image: {
        const auto& t = std::get<tensor_arg>(args[a]);
        cl_mem mem = make_buffer(t.data.size(), t.data.data());
        if (mem == nullptr) return fail(arg_where + "clCreateBuffer failed: " + cl_error_name(err));
        std::array<cl_int, 8> shape{};
        for (std::size_t d = 0; d < 3; ++d) shape[d] = d < t.dims.size() ? static_cast<cl_int>(t.dims[d]) : 1;
        shape[3] = static_cast<cl_int>(tensor_element_size(t.dtype));
        shape[4] = static_cast<cl_int>(t.dtype);
        e = set_arg(sizeof mem, &mem);
        if (e == CL_SUCCESS) e = set_arg(sizeof shape, shape.data());
        if (tk->arguments[a].is_write_only() || tk->arguments[a].is_read_write()) outputs.emplace_back(a, mem);
        break;
      }
      case translated_arg_kind::array: {
        const auto& arr = std::get<array_arg>(args[a]);
        cl_mem mem = make_buffer(arr.items.size_bytes(), arr.items.data());
        if (mem == nullptr) return fail(arg_where + "clCreateBuffer failed: " + cl_error_name(err));
        const auto size = static_cast<cl_uint>(arr.items.size());
        e = set_arg(sizeof mem, &mem);
        if (e == CL_SUCCESS) e = set_arg(sizeof size, &size);
        break;
      }
      case translated_arg_kind::bool_scalar: {
        const auto& s = std::get<scalar_arg>(args[a]);
        cl_int value = 0;
        std::memcpy(&value, s.bytes.data(), sizeof value);
        value = value != 0 ? 1 : 0;
        e = set_arg(sizeof value, &value);
        break;
      }
      case translated_arg_kind::half_scalar:
      case translated_arg_kind::scalar: {
        const auto& s = std::get<scalar_arg>(args[a]);
        if (widened_board_bool(s, tk->arguments[a].type)) {
          const cl_int value = static_cast<cl_int>(std::to_integer<unsigned>(s.bytes[0]));
          e = set_arg(sizeof value, &value);
        } else {
          e = set_arg(s.size, s.bytes.data());
        }
        break;
      }
    }
    if (e != CL_SUCCESS) return fail(arg_where + "clSetKernelArg failed: " + cl_error_name(e));
  }
  std::array<cl_int, status_words> status{};
  cl_mem status_mem = make_buffer(sizeof status, status.data());
  if (status_mem == nullptr) return fail(where + "clCreateBuffer failed: " + cl_error_name(err));
  if (cl_int e = set_arg(sizeof status_mem, &status_mem); e != CL_SUCCESS) {
    return fail(where + "clSetKernelArg failed: " + cl_error_name(e));
  }

  std::array<std::size_t, 3> global{};
  std::array<std::size_t, 3> local{};
  bool has_local = false;
  for (std::uint32_t d = 0; d < params.work_dim; ++d) {
    global[d] = params.global_work_size[d];
    local[d] = params.local_work_size[d];
    has_local = has_local || local[d] != 0;
  }
  err = clEnqueueNDRangeKernel(impl_->queue.get(), kernel.get(), params.work_dim, nullptr, global.data(),
                               has_local ? local.data() : nullptr, 0, nullptr, nullptr);
  if (err != CL_SUCCESS) {
    std::string hint;
    if (err == CL_INVALID_WORK_GROUP_SIZE || err == CL_INVALID_WORK_ITEM_SIZE) {
      std::size_t max_group = 0;
      clGetDeviceInfo(impl_->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_group, &max_group, nullptr);
      hint = " (the device allows at most " + std::to_string(max_group) + " work-items per work-group)";
    }
    return fail(where + "clEnqueueNDRangeKernel failed: " + cl_error_name(err) + hint);
  }
  err = clEnqueueReadBuffer(impl_->queue.get(), status_mem, CL_TRUE, 0, sizeof status, status.data(), 0, nullptr,
                            nullptr);
  if (err != CL_SUCCESS) return fail(where + "running the kernel failed: " + cl_error_name(err));

  if (status[0] != 0) {
    const int code = status[0];
    const auto arg = static_cast<std::size_t>(status[1]);
    const std::string arg_name = arg < tk->arguments.size() ? tk->arguments[arg].name : "?";
    std::string msg = std::string(file_name) + ":" + std::to_string(status[4]) + ": " + where + op_name(status[5]) +
                      " on argument " + std::to_string(arg) + " ('" + arg_name + "'): ";
    switch (code) {
      case 1:
        msg += "the register has " + std::to_string(status[2]) + "-byte lanes, the tensor's elements have " +
               std::to_string(status[3]) + " bytes";
        break;
      case 2:
        msg += "modifier bins start=" + std::to_string(status[2] >> 8) + " end=" + std::to_string(status[2] & 0xFF) +
               " do not fit a register of " + std::to_string(status[3]) + " lanes";
        break;
      case 3:
        msg += "one access moves " + std::to_string(status[2]) + " bytes, at most 16 (128 bits) are allowed";
        break;
      case 4:
        msg += "source bin " + std::to_string(status[2] >> 8) + " + " + std::to_string(status[2] & 0xFF) +
               " lanes does not fit a register of " + std::to_string(status[3]) + " lanes";
        break;
      case 5:
        msg += "tensor type " + vx_type_name(static_cast<vx_type>(status[2])) +
               " cannot be accessed this way (read_imagef/write_imagef: FLOAT16, FLOAT32; read_imagei/write_imagei: "
               "INT8, INT16, INT32; read_imageui/write_imageui: UINT8, UINT16, UINT32)";
        break;
      default: msg += "error code " + std::to_string(code); break;
    }
    return fail(std::move(msg));
  }

  for (const auto& [a, mem] : outputs) {
    const auto& t = std::get<tensor_arg>(args[a]);
    err = clEnqueueReadBuffer(impl_->queue.get(), mem, CL_TRUE, 0, t.data.size(), t.data.data(), 0, nullptr, nullptr);
    if (err != CL_SUCCESS) {
      return fail(where + "reading output argument " + std::to_string(a) + " back failed: " + cl_error_name(err));
    }
  }
  return run_result{run_status::ok, {}};
}

}  // namespace rknnop::vxc
