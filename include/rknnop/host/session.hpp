// SPDX-License-Identifier: MIT
#pragma once

// Runs one custom op on the PC through rknnop's host OpenVX runtime, the way the RKNN v1 runtime
// runs it on a board: load the op (op_library), set inputs and params, run, read outputs.
//
//   auto s = rknnop::host::session::load("ResizeArea.rknnop");
//   s.set_input("images", rknnop::host::read_npy_file("in.npy"));
//   s.set_param("size", "64,64");
//   s.set_param("align_corners", false);
//   s.run();
//   rknnop::host::write_npy_file(s.output_npy("output"), "out.npy");
//
// Inputs become float16 tensors unless another VX tensor type is requested; outputs are virtual
// tensors whose shape and type the op's validator sets, unless an output shape is given. Every
// failure throws rknnop::host::error naming the op, the step and the kernel's own log message.

#include <rknnop/host/engine.hpp>  // step_report, run_report
#include <rknnop/host/loader.hpp>
#include <rknnop/host/npy.hpp>
#include <rknnop/host/param_value.hpp>
#include <rknnop/vx_type.hpp>  // rknnop::vx_type

#include <concepts>     // std::integral, std::floating_point
#include <cstdint>      // std::int32_t, std::uint32_t
#include <filesystem>   // std::filesystem::path
#include <functional>   // std::function
#include <map>          // std::map
#include <optional>     // std::optional
#include <span>         // std::span
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace rknnop::host {

/// An output read back after run().
struct tensor_result {
  std::vector<float> values;        ///< every element as float
  std::vector<std::size_t> shape;   ///< NumPy order (outermost first)
  std::vector<std::uint32_t> dims;  ///< OpenVX order (innermost first)
  rknnop::vx_type vx_type{};        ///< tensor data type (vx_type::float16, ...)
  npy_array array;                  ///< the raw data with its own dtype
};

/// set_input's default tensor type: float16, as the board hands a custom op its inputs.
inline constexpr vx_type default_input_type = vx_type::float16;
/// set_input's tensor_type for "the .npy's own dtype" (rknnop-run --tensor-type npy): no VX type given.
inline constexpr std::nullopt_t tensor_type_of_data = std::nullopt;

class session {
public:
  /// The one door (loader.hpp): the op's bytes with the label its messages name it by.
  [[nodiscard]] static session load(op_source op, const load_options& options = {});
  /// load(op_source::read(op), options).
  [[nodiscard]] static session load(const std::filesystem::path& op, const load_options& options = {});

  session(session&&) noexcept;
  session& operator=(session&&) noexcept;
  ~session();

  [[nodiscard]] const op_yml& op() const noexcept;
  [[nodiscard]] const kernel_descriptor_info& kernel() const noexcept;
  /// Inputs, outputs and params with their op.yml types and the descriptor's table, one per line.
  [[nodiscard]] std::string describe() const;

  /// `tensor_type`: the VX tensor type to create (default_input_type, as on the board;
  /// tensor_type_of_data, i.e. std::nullopt: the array's own dtype); data converts to FLOAT16/FLOAT32, integer types
  /// need the same npy dtype. A conversion that overflows to inf, gives NaN or flushes a nonzero value to zero throws
  /// naming the first such element, unless allow_lossy(true); rounding adds a note.
  void set_input(std::string_view name, const npy_array& data, std::optional<vx_type> tensor_type = default_input_type);
  void set_input(std::string_view name, const std::filesystem::path& npy_file,
                 std::optional<vx_type> tensor_type = default_input_type);
  void set_input(std::string_view name, std::span<const float> values, std::vector<std::size_t> shape,
                 std::optional<vx_type> tensor_type = default_input_type);

  /// Makes the output a real (non-virtual) tensor of this NumPy-order shape and type.
  void set_output_shape(std::string_view name, std::vector<std::size_t> shape, vx_type tensor_type = vx_type::float16);

  void set_param(std::string_view name, const param_value& value);
  /// Parsed with op.yml's type for the param ("64,64", "true", "0.5"); an enum param by name only
  /// ("REFLECT"). A param never set takes its default from op.yml's rknnop-field comment, if any.
  void set_param(std::string_view name, std::string_view text);
  void set_param(std::string_view name, const char* text) { set_param(name, std::string_view(text)); }
  void set_param(std::string_view name, bool value);
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  void set_param(std::string_view name, T value) {
    if constexpr (std::is_signed_v<T>)
      set_param_integer(name, static_cast<std::int64_t>(value));
    else
      set_param_unsigned(name, static_cast<std::uint64_t>(value));
  }
  template <std::floating_point T>
  void set_param(std::string_view name, T value) {
    set_param_float(name, static_cast<double>(value));
  }
  void set_param(std::string_view name, std::span<const std::int32_t> items);
  void set_param(std::string_view name, std::initializer_list<std::int32_t> items) {
    set_param(name, std::span<const std::int32_t>(items.begin(), items.size()));
  }

  /// Accept inputs whose conversion loses values (see set_input); default false.
  void allow_lossy(bool allow) noexcept;
  /// One line per converted input that changed values: how many and the largest relative change.
  [[nodiscard]] const std::vector<std::string>& conversion_notes() const noexcept;

  /// Called with the vx_context of each run after the kernel is registered, e.g. to install a
  /// shader executor (rknnopHostSetShaderExecutor) for kernel_index != 0.
  void on_context(std::function<void(void* vx_context)> hook);
  /// A shader kernel's .vx (kernel_index != 0) for a session loaded with node_execution::child: it
  /// travels with each run's request and the runner's shader executor runs it (isolation.hpp). A
  /// session in this process ignores it: its on_context hook attaches an executor with its own source.
  void set_shader(node_shader shader);

  /// Validate -> initialize -> kernel -> deinitialize. Throws on the first failing step.
  run_report run();

  [[nodiscard]] const tensor_result& output(std::string_view name) const;
  [[nodiscard]] const npy_array& output_npy(std::string_view name) const { return output(name).array; }

private:
  void set_param_integer(std::string_view name, std::int64_t value);
  void set_param_unsigned(std::string_view name, std::uint64_t value);
  void set_param_float(std::string_view name, double value);

  struct state;
  explicit session(std::unique_ptr<state> s) noexcept;
  std::unique_ptr<state> state_;
};

}  // namespace rknnop::host
