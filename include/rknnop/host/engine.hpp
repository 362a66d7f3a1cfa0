// SPDX-License-Identifier: MIT
#pragma once

// The one engine that runs a node through rknnop's host OpenVX runtime, as the RKNN v1 board runtime
// does (docs/architecture.md §3): create a context, register the descriptor, create the
// graph, node, tensors, scalars and arrays, vxVerifyGraph (validate, initialize), vxProcessGraph
// (kernel function or shader executor), read the outputs back, release the graph (deinitialize).
// The runtime records each callback step's status and log on the node (rknnopHostGetNodeStep); the
// engine reads that record after each step. session, rknnop::parity and the tools all run through it.

#include <rknnop/host/param_value.hpp>

#include <cstddef>     // std::byte
#include <cstdint>     // std::int32_t, std::uint32_t
#include <functional>  // std::function
#include <optional>    // std::optional
#include <span>        // std::span
#include <string>      // std::string
#include <vector>      // std::vector

namespace rknnop::host {

/// One step of the node's life: validate, initialize, kernel, deinitialize.
struct step_report {
  std::string step;
  bool called = false;           ///< false when the descriptor has no such callback or it never ran
  std::int32_t status = 0;       ///< the callback's return value
  std::vector<std::string> log;  ///< log entries added while the step ran
};

struct run_report {
  std::vector<step_report> steps;
};

/// An input tensor: OpenVX dims (innermost first), a VX tensor type and dense bytes.
struct node_input {
  std::string name;
  std::int32_t type = 0;
  std::vector<std::uint32_t> dims;
  std::span<const std::byte> bytes;
};

/// An output: a virtual tensor (shape and type from the validator) unless dims are given.
struct node_output_request {
  std::string name;
  std::optional<std::vector<std::uint32_t>> dims;
  std::int32_t type = 0;
};

struct node_param {
  std::string name;
  param_value value;  ///< arrays become INT32 vx_arrays, as on the board
};

/// A shader kernel's .vx, for a node run in a child process (node_execution::child): the request carries
/// it and the runner's shader executor (rknnop::vxc on OpenCL) runs it there.
struct node_shader {
  std::string text;
  std::string file_name;  ///< for diagnostics ("resize_area.vx")
  std::string error;      ///< non-empty: no source; the node fails with this message ("rknnop: ...")
};

/// What to run: the descriptor and its parameters in descriptor order (inputs, outputs, params).
struct node_spec {
  const void* descriptor = nullptr;  ///< vx_kernel_description_t (void* keeps OpenVX out of this header)
  std::string label;                 ///< prefixes every error: "op 'X' (kernel 'x')"
  std::vector<node_input> inputs;
  std::vector<node_output_request> outputs;
  std::vector<node_param> params;
  /// Called with the vx_context after the kernel is registered (e.g. to attach a shader executor).
  std::function<void(void* vx_context)> on_context;
  /// A shader kernel's .vx for a node run in a child process; run_node (this process) ignores it: here
  /// on_context attaches the executor, with its own source.
  std::optional<node_shader> shader;
  /// Called before the kernel runs with each tensor's label ("output 'y'"), buffer and byte size (the
  /// node runner maps a fault address to the tensor it belongs to).
  std::function<void(const std::string& label, const void* data, std::size_t size)> on_buffer;
};

/// An output read back: dims innermost first, VX type, dense bytes.
struct node_output {
  std::string name;
  std::vector<std::uint32_t> dims;
  std::int32_t type = 0;
  std::vector<std::byte> bytes;
};

struct node_result {
  run_report report;
  std::vector<node_output> outputs;  ///< in spec order
};

/// Runs the node once in a fresh context. Throws rknnop::host::error naming the label, the failing
/// step, its status and the log entries of the kernel and the runtime (parameters named as in the spec).
[[nodiscard]] node_result run_node(const node_spec& spec);

}  // namespace rknnop::host
