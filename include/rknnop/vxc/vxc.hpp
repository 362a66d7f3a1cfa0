// SPDX-License-Identifier: MIT
#pragma once
// rknnop::vxc — VX shader (.vx) kernels on the host (component rknnop::vxc, library rknnop_vxc).
//
// Three layers, usable independently:
//  1. parse_shader / check_signature: find `__kernel void <name>(...)` in a .vx source and compare
//     its arguments with the op's parameter table (no OpenCL needed; rknnop-vxcheck uses this).
//  2. translate_shader: rewrite a .vx into standard OpenCL C 1.2 on top of rknnop's VXC
//     compatibility prelude (tensors become __global buffers; see compat_prelude()).
//  3. executor: compile the translation with the first OpenCL platform (POCL), run it with VX
//     execution parameters and write the output tensors back to host memory.
//  4. shader_bridge / attach: installs an executor as the shader executor of a context of rknnop's host
//     OpenVX runtime, so that nodes of shader kernels (kernel_index != 0) run their .vx on POCL.
// The API speaks plain structs and spans, never OpenVX or OpenCL types, so the host runtime and the
// parity harness can call it without either header (a vx_context is passed as void*).
//
// What the emulation does (design: tensors are __global buffers, not CL images):
//  - Every image2d_array_t / image2d_t kernel argument becomes (__global uchar* data, int8 shape) and
//    is rebuilt as `rknnop_image_t` at the top of the body; x = dims[0], y = dims[1], z = dims[2]
//    (missing dims are 1; a rank-4 tensor needs dims[3] == 1, anything else is an error).
//  - VXC_ReadImage2DArray(dst, img, coord, offset, info): register lanes start..end receive the
//    elements at x + offset.x + source + i (i = 0..end-start), row y + offset.y, layer z clamped to
//    [0, depth-1]; elements outside the row/column range read as 0 (the NPU's border value is not
//    documented). VXC_WriteImage2DArray(img, coord, val, info): elements x + start .. x + end
//    receive lanes source, source+1, ...; outside x/y nothing is written. start/end name the
//    destination bins and source the first source bin, as the guide defines them; with start =
//    source = 0 (what shaders use) both readings agree. VXC_ReadImage/VXC_WriteImage: z = 0.
//    The register's lane size must equal the tensor's element size and one access moves at most
//    128 bits; violations stop with an rknnop: error naming the shader line.
//  - read_imagef/i/ui and write_imagef/i/ui with int2/int4 coordinates (no sampler) on tensors as
//    single-channel images: FLOAT16/FLOAT32 via the f variants, signed/unsigned ints via i/ui.
//  - get_global_id(d) = globalWorkOffset[d] + globalWorkScale[d] * i for i in [0, globalWorkSize[d]);
//    get_global_offset(d) = globalWorkOffset[d]. get_global_size / get_local_* are OpenCL's own
//    (they count work-items).
//  - vx_array_int arrives as {size, item}; bool kernel arguments as int (BOOL is 32-bit), half
//    kernel arguments as 16-bit patterns converted to float; access qualifiers on non-image
//    arguments and #include "cl_viv_vx_ext.h" / cl_viv pragmas are dropped. vxc_half2/4/8 are
//    structs of 16-bit patterns: they can be read, written and _viv_asm(COPY)'d; arithmetic on
//    them does not compile (there is no half arithmetic in OpenCL C 1.2 without cl_khr_fp16).
//  - Refused before compilation, with file:line: VXC_DP* and every other VXC_* instruction except
//    the ones above, _viv_uniform and other _viv_* built-ins, _viv_asm operations other than COPY,
//    unknown vxc_* types, vx_array_* other than vx_array_int, samplers (sampler_t, CLK_*), image
//    types other than image2d_array_t/image2d_t, and #include of anything but cl_viv_vx_ext.h.
//  - Kernels are renamed in the translation (`exp` would clash with the built-in); the shader's own
//    line numbers survive through #line, so compiler errors point at the .vx.

#include <rknnop/vx_type.hpp>  // rknnop::vx_type and the one table's queries

#include <array>       // execution_parameters' per-dimension arrays
#include <cstddef>     // std::byte, std::size_t
#include <cstdint>     // fixed-width dims, items, VX enum values
#include <cstring>     // std::memcpy in scalar_arg::of
#include <filesystem>  // check_signature_file, shader_file
#include <functional>  // shader_source_provider
#include <memory>      // executor's pimpl
#include <optional>    // vx_type_from_name, validate_execution_parameters
#include <span>        // argument views
#include <string>
#include <string_view>
#include <type_traits>  // scalar_arg::of constraints
#include <variant>      // kernel_argument
#include <vector>

namespace rknnop::vxc {

// The VX type is rknnop::vx_type (<rknnop/vx_type.hpp>); the queries below are vxc's views of its table.
// "VX_TYPE_BOOL" etc.; "VX_TYPE_<0x..>" for values outside the enum.
[[nodiscard]] std::string vx_type_name(vx_type type);
// Parses "VX_TYPE_FLOAT32" (also accepts the lower-case suffix "float32").
[[nodiscard]] std::optional<vx_type> vx_type_from_name(std::string_view name);
// Bytes of a scalar of this type as the runtime copies it (BOOL: 4); 0 for types that cannot reach a
// shader (no OpenCL spelling: objects, ENUM, SIZE, BOOL8).
[[nodiscard]] std::size_t vx_type_size(vx_type type) noexcept;
// Bytes per element of a tensor of this dtype; 0 for types a tensor cannot hold.
[[nodiscard]] std::size_t tensor_element_size(vx_type type) noexcept;
// OpenCL C type(s) a shader declares for a scalar of this type, preferred first ("int", "bool" for
// BOOL); empty for non-scalar types.
[[nodiscard]] std::vector<std::string_view> opencl_scalar_types(vx_type type);

// ---------------------------------------------------------------------------------------------
// The op's parameter table, as op.yml declares it.
struct op_param {
  std::string name;
  vx_type type = vx_type::invalid;  // vx_type::array or a scalar type
};

// The part of op.yml a shader check needs (names in table order, param types). rknnop::vxc does not
// depend on rknnop::host (no YAML, no fmt), so callers build it from rknnop::host::op_yml.
struct op_signature {
  std::string name;  // op name as in op.yml, e.g. "ResizeArea"
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::vector<op_param> params;

  // The VX descriptor name the shader's __kernel must carry: the lower-case op name.
  [[nodiscard]] std::string kernel_name() const;
};

// One problem. message starts with "rknnop: "; to_string() adds "file:line: " (or "file: ").
struct diagnostic {
  std::string file;
  std::uint32_t line = 0;  // 0 = the whole file
  std::string message;

  [[nodiscard]] std::string to_string() const;
};

/// The most a `.vx` source may hold (check_signature_file, rknnop-vxcheck): a shader is text of a
/// few kilobytes, and a larger file is refused before it is read.
inline constexpr std::size_t max_shader_size = std::size_t(16) << 20;

// ---------------------------------------------------------------------------------------------
// Parsed kernels of a .vx source.
struct shader_argument {
  std::string declaration;              // as written, whitespace normalised: "__read_only image2d_array_t input"
  std::string name;                     // "input"
  std::string type;                     // base type, normalised: "image2d_array_t", "uint", "vx_array_int"
  std::vector<std::string> qualifiers;  // "__read_only", "const", "__global", ... as written
  bool pointer = false;
  std::uint32_t line = 0;

  [[nodiscard]] bool is_image() const;
  [[nodiscard]] bool is_write_only() const;  // image with write_only / __write_only
  [[nodiscard]] bool is_read_write() const;
};

struct shader_kernel {
  std::string name;
  std::uint32_t line = 0;
  std::vector<shader_argument> arguments;
};

struct parsed_shader {
  std::vector<shader_kernel> kernels;  // definitions only (prototypes are skipped)
  std::vector<diagnostic> errors;      // lexical / structural problems; kernels may be partial then
};

[[nodiscard]] parsed_shader parse_shader(std::string_view source, std::string_view file_name);

// Compares the kernel `kernel_name` (default: sig.kernel_name()) with the parameter table: count,
// order and kind of every argument. Returns one diagnostic per problem; empty = match.
[[nodiscard]] std::vector<diagnostic> check_signature(const op_signature& sig, std::string_view source,
                                                      std::string_view file_name, std::string_view kernel_name = {});
// Reads the file first; a missing or unreadable file is one diagnostic.
[[nodiscard]] std::vector<diagnostic> check_signature_file(const op_signature& sig,
                                                           const std::filesystem::path& vx_file,
                                                           std::string_view kernel_name = {});

// ---------------------------------------------------------------------------------------------
// VXC bit packing, mirrored for host code and tests (same values as the shader macros).
enum class rounding : std::uint32_t { toward_zero = 0, toward_inf = 1, to_nearest_even = 2 };

[[nodiscard]] constexpr std::uint32_t modifier(std::uint32_t start, std::uint32_t end, std::uint32_t source,
                                               rounding round, std::uint32_t clamp) noexcept {
  return ((clamp & 0x1u) << 22) | ((start & 0xFu) << 12) | ((end & 0xFu) << 8) | ((source & 0xFu) << 4) |
         ((static_cast<std::uint32_t>(round) & 0x3u) << 2);
}
[[nodiscard]] constexpr std::uint32_t offset_xy(std::int32_t x, std::int32_t y) noexcept {
  return ((static_cast<std::uint32_t>(y) & 0x1Fu) << 5) | (static_cast<std::uint32_t>(x) & 0x1Fu);
}

// The OpenCL C compatibility prelude (VXC types, macros, image built-ins over buffers).
[[nodiscard]] std::string_view compat_prelude() noexcept;

// ---------------------------------------------------------------------------------------------
// Execution parameters, field for field vx_kernel_execution_parameters_t.
struct execution_parameters {
  std::uint32_t work_dim = 0;
  std::array<std::size_t, 3> global_work_offset{};
  std::array<std::size_t, 3> global_work_scale{1, 1, 1};
  std::array<std::size_t, 3> local_work_size{};
  std::array<std::size_t, 3> global_work_size{};

  // From vx_kernel_execution_parameters_t (or anything with its field names), without this
  // header needing OpenVX.
  template <class VxParams>
  [[nodiscard]] static execution_parameters from_vx(const VxParams& p) {
    execution_parameters e;
    e.work_dim = static_cast<std::uint32_t>(p.workDim);
    for (std::size_t d = 0; d < 3; ++d) {
      e.global_work_offset[d] = static_cast<std::size_t>(p.globalWorkOffset[d]);
      e.global_work_scale[d] = static_cast<std::size_t>(p.globalWorkScale[d]);
      e.local_work_size[d] = static_cast<std::size_t>(p.localWorkSize[d]);
      e.global_work_size[d] = static_cast<std::size_t>(p.globalWorkSize[d]);
    }
    return e;
  }
};

// Rejects impossible work sizes: workDim outside 1..3, a zero global size or scale in a used
// dimension, global not a multiple of a nonzero local size, local sizes given for only some
// dimensions. Returns the rknnop: message, or nothing when the parameters are usable.
[[nodiscard]] std::optional<std::string> validate_execution_parameters(const execution_parameters& params,
                                                                       std::string_view kernel_name);

// Kernel arguments in parameter-table order.
struct tensor_arg {
  std::vector<std::uint32_t> dims;  // innermost first: x = dims[0], y = dims[1], z = dims[2]; dims[3] must be 1
  vx_type dtype = vx_type::float16;
  std::span<std::byte> data;  // dense, dims product * element size; only output tensors are written
};

struct array_arg {
  std::span<const std::int32_t> items;  // VX arrays of custom ops always hold int32
};

struct scalar_arg {
  vx_type type = vx_type::invalid;
  std::array<std::byte, 8> bytes{};  // the value as the runtime copies it (little-endian host bytes)
  std::size_t size = 0;

  template <class T>
    requires std::is_trivially_copyable_v<T> && (sizeof(T) <= 8)
  [[nodiscard]] static scalar_arg of(vx_type type, T value) noexcept {
    scalar_arg s;
    s.type = type;
    s.size = sizeof(T);
    std::memcpy(s.bytes.data(), &value, sizeof(T));
    return s;
  }
};

using kernel_argument = std::variant<tensor_arg, array_arg, scalar_arg>;

// ---------------------------------------------------------------------------------------------
// Translation of a .vx source into OpenCL C 1.2 (no OpenCL needed).
enum class translated_arg_kind { image, array, scalar, bool_scalar, half_scalar };

struct translated_kernel {
  std::string name;     // as in the .vx (the VX descriptor name)
  std::string cl_name;  // in the translation: renamed so that e.g. `exp` does not clash with the built-in
  std::vector<shader_argument> arguments;  // as declared in the .vx
  std::vector<translated_arg_kind> kinds;  // per argument
};

struct translation {
  std::string source;  // complete OpenCL C program (prelude + rewritten shader)
  std::vector<translated_kernel> kernels;
  std::vector<diagnostic> errors;  // non-empty: refused (unsupported VXC construct, syntax)
};

[[nodiscard]] translation translate_shader(std::string_view source, std::string_view file_name,
                                           const execution_parameters& params);

// ---------------------------------------------------------------------------------------------
enum class run_status {
  ok,
  no_opencl,  // no OpenCL platform or device: the caller should skip, not pass
  error,
};

struct run_result {
  run_status status = run_status::error;
  std::string message;  // rknnop: ... (multi-line for compiler logs); empty when ok

  [[nodiscard]] bool ok() const noexcept { return status == run_status::ok; }
};

// Compiles and runs shaders on the first OpenCL device found. Compiled programs are cached per
// translated source. Not thread-safe: use one executor per thread.
class executor {
public:
  executor();
  ~executor();
  executor(executor&&) noexcept;
  executor& operator=(executor&&) noexcept;
  executor(const executor&) = delete;
  executor& operator=(const executor&) = delete;

  // Whether an OpenCL device was found; otherwise status() says why.
  [[nodiscard]] bool available() const noexcept;
  // Device description when available, the reason when not.
  [[nodiscard]] const std::string& status() const noexcept;

  [[nodiscard]] run_result run(std::string_view source, std::string_view file_name, std::string_view kernel_name,
                               const execution_parameters& params, std::span<const kernel_argument> args);

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// ---------------------------------------------------------------------------------------------
// Bridge to rknnop's host OpenVX runtime (libOpenVX.so, rknnop::openvx); part of rknnop::vxc
// whenever the runtime is built (RKNNOP_VXC_HAS_BRIDGE is then defined for users).
//
// For each node of a shader kernel (a kernel added with a NULL function: descriptor index != 0)
// the runtime calls the bridge, which takes
//  - the kernel name (the shader's __kernel function), and the .vx source from the provider,
//  - the execution parameters the VX initializer set (none set: the node fails),
//  - the node's parameters in table order: tensors through rknnopHostGetTensorBuffer (dense
//    storage, dims innermost first), arrays through vxQueryArray/vxCopyArrayRange (INT32 items),
//    scalars through vxQueryScalar/vxCopyScalar (BOOL as its 4 bytes),
// runs the shader with the executor and copies the output tensors back, marking them written.
// Failures return a VX error from the node, with one rknnop: log entry on the node saying why:
// no OpenCL device -> VX_ERROR_NOT_SUPPORTED (last_result().status == run_status::no_opencl),
// no source / bad parameters / shader rejected -> VX_FAILURE or VX_ERROR_INVALID_PARAMETERS.

struct shader_source {
  std::string text;       // the .vx source
  std::string file_name;  // for diagnostics ("resize_area.vx")
  std::string error;      // non-empty: no source for this kernel (a message starting with "rknnop: ")
};
// Called with the kernel name of every shader node processed.
using shader_source_provider = std::function<shader_source(std::string_view kernel_name)>;

// The same source for every kernel.
[[nodiscard]] shader_source_provider shader_text(std::string text, std::string file_name);
// Reads the file each time a node runs (edits are picked up; a missing file fails the node).
[[nodiscard]] shader_source_provider shader_file(std::filesystem::path path);
// Looks in `directory` for <kernel>.vx, then rknn_kernel_<kernel>.vx (the toolkit's name).
[[nodiscard]] shader_source_provider shader_directory(std::filesystem::path directory);

// Where an op's .vx is: the one rule rknnop-run and rknnop-parity use (docs/runtime.md §8, "Finding an
// op's .vx"). In order: `explicit_vx` (--vx) when not empty; op.yml's `vx_file`, relative to the
// directory of `op_yml` (given with --op-yml) or else of `op` (a .so reads the op.yml beside it; a
// .rknnop carries its own); else <kernel>.vx, then rknn_kernel_<kernel>.vx, in that directory.
// Exactly one of `path` and `error` is set; files named by --vx or vx_file are not checked here
// (a missing one fails the node, naming the path).
struct shader_location {
  std::filesystem::path path;
  std::string error;  // "rknnop: kernel 'k': no .vx: ..."
};
[[nodiscard]] shader_location find_op_shader(const std::filesystem::path& op, const std::filesystem::path& op_yml,
                                             const std::optional<std::string>& vx_file, std::string_view kernel_name,
                                             const std::filesystem::path& explicit_vx = {});

class shader_bridge {
public:
  explicit shader_bridge(shader_source_provider provider);
  ~shader_bridge();
  // Its address is registered with contexts: neither copyable nor movable.
  shader_bridge(const shader_bridge&) = delete;
  shader_bridge& operator=(const shader_bridge&) = delete;

  // rknnopHostSetShaderExecutor(context, ...) with this bridge. The bridge must outlive every
  // vxProcessGraph on the context (or detach first). Returns the vx_status (0 = VX_SUCCESS).
  std::int32_t attach(void* vx_context);
  // Removes any shader executor from the context.
  static std::int32_t detach(void* vx_context);

  // Whether an OpenCL device was found; otherwise status() says why (tests: GTEST_SKIP with it).
  [[nodiscard]] bool available() const noexcept;
  [[nodiscard]] const std::string& status() const noexcept;
  // The outcome of the last shader node (status error + message also for failures before the
  // shader ran, e.g. a missing source); default-constructed before the first node.
  [[nodiscard]] run_result last_result() const;
  // Shader nodes run successfully so far.
  [[nodiscard]] std::uint64_t nodes_run() const noexcept;

  struct impl;  // public so that the C callback can reach it; defined in bridge.cpp only

private:
  std::unique_ptr<impl> impl_;
};

// One line for a loader or runner: a bridge attached to `vx_context`, e.g. in
// rknnop::host::session::on_context. Keep the returned bridge alive while the context runs
// graphs; a bridge can be attached to further contexts with attach().
[[nodiscard]] std::unique_ptr<shader_bridge> attach(void* vx_context, shader_source_provider provider);

}  // namespace rknnop::vxc
