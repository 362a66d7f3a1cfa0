// SPDX-License-Identifier: MIT
#pragma once

// op.yml, the toolkit's description of one custom op (docs/op-yml.md §2, §3). Inputs, outputs
// and params keep the order of the file: it is the order of the kernel's parameter table.

#include <rknnop/host/container.hpp>  // container_op

#include <cstddef>      // std::size_t
#include <cstdint>      // std::int32_t, std::uint32_t
#include <filesystem>   // std::filesystem::path
#include <optional>     // std::optional
#include <span>         // std::span
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace rknnop::host {

/// One name of an enum param and the int32 value the kernel receives for it.
struct op_yml_enumerator {
  std::string name;
  std::int32_t value = 0;

  friend bool operator==(const op_yml_enumerator&, const op_yml_enumerator&) = default;
};

struct op_yml_entry {
  std::string name;
  std::int32_t type = 0;  ///< vx_type_e value: VX_TYPE_TENSOR for ports, VX_TYPE_ARRAY or a scalar type for params
  // What the toolkit's op.yml has no key for, from rknnop's `# rknnop-field:` comment lines
  // (docs/op-yml.md §6); empty when the file has none (a hand-written op.yml).
  // (Each initialised, so that `op_yml_entry{name, type}` stays quiet under -Wmissing-field-initializers.)
  std::vector<std::string> dtypes = {};             ///< tensors: the accepted dtypes ("float16", ...)
  std::string layout = {};                          ///< tensors: "NHWC"/"NCHW" or empty
  std::optional<std::size_t> items = {};            ///< arrays: the item count (exact) or maximum
  bool items_exact = false;                         ///< arrays: `items` is exact
  std::vector<op_yml_enumerator> enumerators = {};  ///< enum params: the names the value is given by
  std::optional<std::string> default_text = {};     ///< params: the default, as --param would spell it

  friend bool operator==(const op_yml_entry&, const op_yml_entry&) = default;
};

struct op_yml {
  std::string name;  ///< op name, also in `vx_kernel_<name>_list`
  std::optional<std::string> framework;
  std::optional<std::string> target_platform;  ///< absent = RK1808
  std::vector<op_yml_entry> inputs;
  std::vector<op_yml_entry> outputs;
  std::vector<op_yml_entry> params;
  // Keys `custom_op --action create` adds:
  std::optional<std::int64_t> op_version;
  std::optional<std::string> out_binary;
  std::optional<std::string> op_py_file;
  std::optional<std::string> vx_file;
  std::optional<std::uint32_t> kernel_index;
  /// rknnop's schema fingerprint (16 hex digits) from the comment `# rknnop-schema: ...` that
  /// rknnop_add_op writes; the loader checks it against the one the library carries.
  std::optional<std::string> schema_fingerprint;
  /// Where the order of inputs and outputs (the kernel's parameter order) came from: "op.yml", or
  /// the .py section's def_input/def_output (apply_python_port_order). Not part of the file.
  std::string port_order_source = "op.yml";
  /// Set by apply_python_port_order when op.yml listed the ports in another order than the .py.
  std::optional<std::string> port_order_warning;

  /// inputs + outputs + params: what the kernel descriptor's numParams must be.
  [[nodiscard]] std::size_t parameter_count() const noexcept { return inputs.size() + outputs.size() + params.size(); }
  /// The op name lower-cased, as in the toolkit's file names (`rknn_op_<lower>.py`).
  [[nodiscard]] std::string lower_name() const;
  /// The param with this name, or nullptr.
  [[nodiscard]] const op_yml_entry* find_param(std::string_view param_name) const noexcept;

  friend bool operator==(const op_yml&, const op_yml&) = default;
};

/// Parses op.yml text. Throws rknnop::host::error naming `source`, the line and the key on: YAML
/// syntax errors, missing keys (name, inputs, outputs, an entry's type), unknown keys, unknown or
/// misplaced VX type names, duplicate names (within and across inputs/outputs/params).
[[nodiscard]] op_yml parse_op_yml(std::string_view text, std::string_view source);
/// The largest op.yml file read_op_yml_file takes: an op description is text of a few kilobytes.
inline constexpr std::uint64_t max_op_yml_file_size = std::uint64_t{16} << 20;
/// Reads (at most max_op_yml_file_size bytes; a larger file is refused naming the file and the
/// bound) and parses an op.yml file.
[[nodiscard]] op_yml read_op_yml_file(const std::filesystem::path& path);

/// op.yml's `inputs:`/`outputs:` are YAML maps: RKNN-Toolkit v1.3.2+ writes their keys in any order
/// (its TruncateDiv lists input1 before input0), while the kernel's parameter table follows the op's
/// definition, which the .py section states (`def_input = [IoMap('in0', ...), IoMap('in1', ...)]`).
/// Reorders op.inputs/op.outputs by the .py's IoMap lists when every port can be matched to an op.yml
/// entry: by the field name rknnop writes as a comment after each IoMap, by the IoMap label, or by
/// the port number (IoMap k <-> the entry whose name ends in the number k, like input0/input1).
/// Sets port_order_source, and port_order_warning when op.yml's order differed; leaves op.yml's order
/// (with port_order_source saying why) when the .py has no such lists or they cannot be matched.
void apply_python_port_order(op_yml& op, std::string_view python_text, std::string_view source);

/// Throws unless the .py section is what Python 3 can import: UTF-8 text without NUL bytes.
void check_python_section(std::span<const std::uint8_t> py, std::string_view source);

/// The container's op.yml section parsed, its .py section checked (check_python_section) and the
/// port order taken from the .py's def_input/def_output. `source` names the container.
[[nodiscard]] op_yml container_op(const container& c, std::string_view source);

/// The RKNN v1 rule for an op's graph inputs and outputs (docs/rknn-model.md §8, docs/board-rules.md):
/// librknn_runtime takes and returns only rknn_api.h's tensor types (<rknnop/board_abi.hpp>:
/// float32, float16, int8, uint8, int16); an INT32 or UINT16 graph input or output fails on the board
/// ("Convert2RKNNTensorDataType: Unknow data type:6"). For each port whose accepted dtypes (op.yml's
/// rknnop-field comments) hold none of them, one line: "output 'indices' is int32 only:
/// rknn_outputs_get cannot return it on RKNN v1 boards; add rknnop::float16 to its dtypes". Empty for a
/// hand-written op.yml (no dtypes known). RKNPU2 has its own rules (the emitter's --rknpu2-support).
[[nodiscard]] std::vector<std::string> v1_graph_edge_problems(const op_yml& op);

/// A float16 scalar param, which librknn_runtime creates from no RKNN v1 model (rknn_init -6): one line
/// each, "param 'h' is a VX_TYPE_FLOAT16 scalar: ... make it float". Model runs and --check refuse such
/// a node; wrap and --describe warn.
[[nodiscard]] std::vector<std::string> v1_param_problems(const op_yml& op);

/// Whether an RKNN v1 model's graph input or output may have this VSI/VX type name
/// ("VSI_NN_TYPE_FLOAT16" or "VX_TYPE_FLOAT16"): float32, float16, int8, uint8, int16.
[[nodiscard]] bool v1_graph_edge_type(std::string_view type_name) noexcept;

// rknnop writes op.yml in one place: the generator (<rknnop/emit/op_yml.hpp>), from the op struct.

/// Which of op.yml's lists a name is looked up in.
enum class op_entry_kind { input, output, param };

/// op.yml's entry called `name` among the op's inputs, outputs or params: the name check of the session
/// and of the tools (names given on the command line). Throws error "op 'X' has no input 'foo'
/// (inputs: a, b)", with "; 'foo' is a param" when it names an entry of another kind.
[[nodiscard]] const op_yml_entry& find_op_entry(const op_yml& op, op_entry_kind kind, std::string_view name);

}  // namespace rknnop::host
