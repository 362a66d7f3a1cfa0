// SPDX-License-Identifier: MIT
#pragma once
// rknnop::parity — does an op's VX kernel compute what its CPU kernel computes? (component
// rknnop::parity, library rknnop_parity)
//
// A checker runs descriptor 0 (the CPU kernel) and descriptor 1 (the VX kernel, whose .vx runs on
// POCL through rknnop::vxc::shader_bridge) of one op through rknnop's host OpenVX runtime, each in
// its own context, exactly as the board runtime would (vxAddUserKernel with the descriptor's table,
// one node, virtual outputs shaped by the validator, verify, process), on the same inputs and params,
// and reports per output the largest absolute and relative difference against a tolerance.
//
//   auto op = rknnop::parity::op_info_of<ResizeArea>();       // names, param types, dtypes, tolerance
//   rknnop::parity::checker check(op, vx_kernel_ResizeArea_list.entries,
//                                 rknnop::vxc::shader_file("resize_area.vx"));
//   if (!check.opencl_available()) skip(check.opencl_status());
//   rknnop::parity::parity_case c;
//   c.inputs.push_back(rknnop::parity::random_tensor({3, 9, 7, 1}, vx_type::float16, rng));
//   c.params = {rknnop::parity::param_data::array("size", {4, 5}),
//               rknnop::parity::param_data::scalar("align_corners", vx_type::bool_, 0)};
//   rknnop::parity::case_report r = check.run(c);             // r.result == outcome::pass?
//
// Tolerance: an element passes when |vx - cpu| <= abs + rel * |cpu| (both NaN, or equal infinities,
// count as equal). The default suits float16 outputs (half an ulp is 2^-11 relative): abs 1e-3,
// rel 2e-3. An op declares its own with `static constexpr float parity_tolerance = x;` (used as both
// abs and rel), read by tolerance_of<Op>().

#include <rknnop/schema.hpp>   // op_info_of<Op>: the op's reflected field table
#include <rknnop/vxc/vxc.hpp>  // vx_type, op_signature, scalar_arg, shader_source_provider
#include <rknnop/openvx.h>     // vx_kernel_description_t

#include <concepts>    // std::floating_point, std::integral in tolerance_of / scalar
#include <cstddef>     // std::byte, std::size_t
#include <cstdint>     // dims, int32 items, seeds
#include <functional>  // checker::cpu_runner
#include <memory>      // checker's pimpl
#include <random>      // random_tensor's generator
#include <span>        // from_floats
#include <string>
#include <type_traits>  // std::is_arithmetic_v
#include <variant>      // param_data
#include <vector>

namespace rknnop::parity {

struct tolerance {
  double abs = 1e-3;
  double rel = 2e-3;
};

// The contents of one tensor: dims innermost first (OpenVX order; NHWC 1x7x9x3 is {3, 9, 7, 1}),
// dense, in its own element type.
struct tensor_data {
  std::vector<std::uint32_t> dims;
  vx_type dtype = vx_type::float16;
  std::vector<std::byte> bytes;

  [[nodiscard]] std::size_t element_count() const noexcept;
  // Rounds each value to dtype (float16: to nearest even; integers: nearest, saturated).
  [[nodiscard]] static tensor_data from_floats(std::vector<std::uint32_t> dims, vx_type dtype,
                                               std::span<const float> values);
  [[nodiscard]] std::vector<float> to_floats() const;
};

// Bytes per element of a tensor type the harness handles (FLOAT16/32, INT8/16/32, UINT8/16/32),
// 0 otherwise.
[[nodiscard]] std::size_t element_size(vx_type dtype) noexcept;

// Uniform values in [low, high] (integer types: whole numbers), rounded to dtype.
[[nodiscard]] tensor_data random_tensor(std::vector<std::uint32_t> dims, vx_type dtype, std::mt19937_64& rng,
                                        float low = -4.0f, float high = 4.0f);

// One param value, named as in the op's table.
struct param_data {
  std::string name;
  std::variant<std::vector<std::int32_t>, vxc::scalar_arg> value;

  [[nodiscard]] static param_data array(std::string name, std::vector<std::int32_t> items) {
    return param_data{std::move(name), std::move(items)};
  }
  // The value as the runtime stores a scalar of `type` (BOOL: a 4-byte 0/1, whatever T is).
  template <class T>
    requires std::is_arithmetic_v<T>
  [[nodiscard]] static param_data scalar(std::string name, vx_type type, T value) {
    return param_data{std::move(name), make_scalar(type, static_cast<double>(value))};
  }
  [[nodiscard]] std::string to_string() const;  // "size=[4, 5]", "align_corners=1"

private:
  static vxc::scalar_arg make_scalar(vx_type type, double value);
};

// One comparison: the op's inputs (signature order) and params (signature order, names checked).
struct parity_case {
  std::string label;  // empty: made from the shapes and params
  std::vector<tensor_data> inputs;
  std::vector<param_data> params;
};

struct output_diff {
  std::string name;
  std::vector<std::uint32_t> dims;  // the CPU kernel's output dims
  vx_type dtype = vx_type::invalid;
  std::size_t elements = 0;
  double max_abs = 0.0;
  // max over elements of |vx - cpu| / max(|cpu|, tolerance.abs): relative to values that matter.
  double max_rel = 0.0;
  std::size_t mismatches = 0;  // elements outside the tolerance
  std::size_t worst = 0;       // flat index of the element furthest outside (or closest to) tolerance
  float worst_cpu = 0.0f;
  float worst_vx = 0.0f;
  bool within = true;
};

enum class outcome {
  pass,       // every output within tolerance
  fail,       // an output differs beyond tolerance, or in shape or type
  no_opencl,  // no OpenCL device: the VX kernel could not run (tests must skip, never pass)
  error,      // a kernel failed, or the case does not fit the op; message says which and why
};
[[nodiscard]] std::string_view outcome_name(outcome o) noexcept;  // "PASS", "FAIL", "NO-OPENCL", "ERROR"

struct case_report {
  std::string label;
  outcome result = outcome::error;
  std::string message;  // fail: which output and why; error / no_opencl: the reason
  tolerance tol;
  std::vector<output_diff> outputs;

  [[nodiscard]] bool passed() const noexcept { return result == outcome::pass; }
  // "case '<label>': PASS" and one line per output with its differences.
  [[nodiscard]] std::string to_string() const;
};

// What the harness needs to know about the op: its table (as op.yml declares it), the dtypes each
// input accepts (random cases draw from these) and its tolerance.
struct op_info {
  vxc::op_signature signature;
  std::vector<std::vector<vx_type>> input_dtypes;  // per input; empty: float16 only
  tolerance tol;
};

// What one kernel produced through the runtime.
struct kernel_run {
  outcome result = outcome::error;  // pass = ran; no_opencl; error (message)
  std::string message;
  std::vector<tensor_data> outputs;  // signature order
};

// Runs one descriptor through the host runtime in a fresh context. Shader descriptors (function
// NULL) need a bridge, attached to that context for the run.
[[nodiscard]] kernel_run run_kernel(const vx_kernel_description_t& descriptor, const op_info& op, const parity_case& c,
                                    vxc::shader_bridge* bridge);

class checker {
public:
  // cpu: list index 0, vx: list index 1 of the op's descriptor list. The descriptors must stay
  // valid (their library loaded) while the checker runs.
  checker(op_info op, const vx_kernel_description_t* cpu, const vx_kernel_description_t* vx,
          vxc::shader_source_provider shader);
  // From the NULL-terminated list vx_kernel_<Name>_list (in-process: `vx_kernel_X_list.entries`).
  checker(op_info op, vx_kernel_description_t* const* list, vxc::shader_source_provider shader);
  // A kernel run elsewhere: it gives the kernel's outputs of a case (rknnop-parity runs both kernels in
  // the node runner, rknnop-node, so that a crash in either is one line: docs/isolation.md).
  using kernel_runner = std::function<kernel_run(const parity_case&)>;
  using cpu_runner = kernel_runner;
  // The CPU side elsewhere, the VX kernel here.
  checker(op_info op, cpu_runner cpu, const vx_kernel_description_t* vx, vxc::shader_source_provider shader);
  // Both sides elsewhere: `vx` runs the VX kernel with its shader itself. The checker keeps a shader
  // bridge only to tell whether OpenCL is here (opencl_available); without it a case is no_opencl.
  checker(op_info op, kernel_runner cpu, kernel_runner vx);
  ~checker();
  checker(checker&&) noexcept;
  checker& operator=(checker&&) noexcept;

  [[nodiscard]] const op_info& op() const noexcept;
  [[nodiscard]] bool opencl_available() const noexcept;
  [[nodiscard]] const std::string& opencl_status() const noexcept;

  [[nodiscard]] case_report run(const parity_case& c);

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// Compares two sets of outputs (signature order) under a tolerance; fills report.outputs, result
// and message. Exposed for tools that obtain the outputs elsewhere.
void compare_outputs(const op_info& op, const std::vector<tensor_data>& cpu, const std::vector<tensor_data>& vx,
                     case_report& report);

// --- op structs (compiled into the program) ----------------------------------------------------
template <class Op>
[[nodiscard]] constexpr tolerance tolerance_of() noexcept {
  if constexpr (requires { Op::parity_tolerance; }) {
    static_assert(std::is_arithmetic_v<std::remove_cvref_t<decltype(Op::parity_tolerance)>>,
                  "rknnop: `static constexpr float parity_tolerance` must be a number (used as both the absolute "
                  "and the relative tolerance of the parity check)");
    return tolerance{static_cast<double>(Op::parity_tolerance), static_cast<double>(Op::parity_tolerance)};
  } else {
    return tolerance{};
  }
}

template <class Op>
[[nodiscard]] op_info op_info_of() {
  const op_schema schema = schema_of<Op>();
  op_info info;
  info.signature.name = std::string(schema.name);
  info.tol = tolerance_of<Op>();
  for (const field_desc& f : schema.fields) {
    switch (f.kind) {
      case field_kind::input: {
        info.signature.inputs.emplace_back(f.name);
        std::vector<vx_type>& dtypes = info.input_dtypes.emplace_back();
        for (std::uint32_t i = 0; i < f.accepted_count; ++i) dtypes.push_back(static_cast<vx_type>(f.accepted[i]));
        break;
      }
      case field_kind::output: info.signature.outputs.emplace_back(f.name); break;
      case field_kind::array: info.signature.params.push_back({std::string(f.name), vx_type::array}); break;
      case field_kind::scalar:
        info.signature.params.push_back({std::string(f.name), static_cast<vx_type>(f.vx_type)});
        break;
    }
  }
  return info;
}

}  // namespace rknnop::parity
