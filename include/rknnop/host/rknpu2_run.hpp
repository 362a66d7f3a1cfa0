// SPDX-License-Identifier: MIT
#pragma once
// An RKNPU2 plugin (librkcst_<op>.so, <rknnop/rknpu2_plugin.h>) run on the PC the way librknnrt runs a
// CPU custom op, in the node runner (rknnop-node, isolation.hpp) like every op the tools run: the
// runner's sandbox, limits and fault reports hold. In the runner the plugin is loaded, its
// rknnop_rknpu2_infer gives the outputs' attrs, then get_rknn_custom_op()'s init, compute and destroy
// are called with one context as librknnrt calls them, the node's attributes read through the
// runner's own rknn_custom_op_get_op_attr. The plugin's own "rknnop: <Op>: ..." line is what a
// failure says (rknnop-run plugin.so ..., docs/rknpu2-deploy.md).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace rknnop::host {

/// One node attribute as librknnrt hands it (rknn_custom_op_attr): an RKNN dtype, n_elems items.
struct rknpu2_attr {
  std::string name;
  std::int32_t dtype = 0;  ///< rknn_tensor_type: FLOAT32 (0) or INT64 (8) for ONNX's FLOAT(S), INT(S)
  std::uint32_t n_elems = 0;
  std::vector<std::uint8_t> data;  ///< n_elems items of dtype
};

/// Bytes of one element of an rknn_tensor_type (RKNNOP_RKNPU2_*): 4, 2, 1 or 8; 0 for a type of no
/// whole bytes (INT4) or an unknown one.
[[nodiscard]] std::uint32_t rknpu2_element_size(std::int32_t type) noexcept;

/// A tensor as librknnrt hands a CPU op: dims outermost first (NumPy's order), NCHW unless `fmt` says.
struct rknpu2_tensor {
  std::int32_t type = 0;  ///< rknn_tensor_type
  std::vector<std::uint32_t> dims;
  std::int32_t fmt = 0;  ///< rknn_tensor_format: NCHW (0), NHWC (1), UNDEFINED (3)
  std::vector<std::uint8_t> data;
};

/// What the plugin says of itself: get_rknn_custom_op()'s op type and rknnop_rknpu2_describe's text
/// (empty when the plugin lacks that export), and which of rknnop's exports it has.
struct rknpu2_plugin_description {
  std::string op_type;
  std::string text;
  bool has_infer = false;
};

/// A plugin file opened for runs in its own node runner (started at the first request, kept for the
/// next; stopped with this object). `label` names the plugin in messages (its path, as given).
class rknpu2_plugin_runner {
public:
  /// Reads the file and checks it before anything of it runs: an ELF shared object for this host's
  /// machine (another architecture's plugin is refused naming both) that exports get_rknn_custom_op.
  explicit rknpu2_plugin_runner(const std::filesystem::path& plugin);
  ~rknpu2_plugin_runner();
  rknpu2_plugin_runner(const rknpu2_plugin_runner&) = delete;
  rknpu2_plugin_runner& operator=(const rknpu2_plugin_runner&) = delete;

  [[nodiscard]] rknpu2_plugin_description describe();
  /// Runs the node once (infer, init, compute, destroy); its outputs, `output_count` of them (the op's),
  /// and what the plugin wrote on stderr meanwhile (RKNNOP_PROFILE=1's lines). A refusal throws
  /// rknnop::host::error with the plugin's own line. `given_outputs` (rknnop-run --replay: a record's):
  /// the outputs' types, dims and layouts as librknnrt handed them, instead of the plugin's infer.
  [[nodiscard]] std::vector<rknpu2_tensor> run(const std::vector<rknpu2_attr>& attrs,
                                               const std::vector<rknpu2_tensor>& inputs, std::uint32_t output_count,
                                               std::string* plugin_stderr = nullptr,
                                               const std::vector<rknpu2_tensor>* given_outputs = nullptr);

private:
  struct state;
  std::unique_ptr<state> state_;
};

/// The node runner's rknn_custom_op_get_op_attr (rknnop-node exports it under that C name for the
/// plugins it runs): the running node's attribute `name` into `attr` (an rknnop_rknpu2_op_attr), or,
/// as librknnrt answers an attribute the node lacks, no items, no data and an undefined dtype.
void rknpu2_runner_get_op_attr(const void* context, const char* name, void* attr) noexcept;

}  // namespace rknnop::host
