// SPDX-License-Identifier: MIT
#pragma once

// A toolkit-built `.rknn` model (RKNN-Toolkit v1, docs/rknn-model.md): the sections of the file, the
// graph JSON, the custom-op descriptions with their embedded shader and libraries, and the custom-op
// nodes with their params and, per port, the tensor the model gives them. Every read is bounded and
// every length is checked against the bytes that remain; a bad file throws rknnop::host::error with
// one line naming the file, the section or JSON field, expected and found.
//
//   const auto m = rknnop::host::model::read("resize_area.rknn");
//   for (const auto& node : m.nodes) if (node.custom_op) ...
//
// The writer (model_file::serialize, replace_op_blobs) writes what the toolkit's own reader parses:
// sections back to back, no padding.

#include <rknnop/host/op_yml.hpp>       // op_yml_entry, op_yml
#include <rknnop/host/param_value.hpp>  // param_value

#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint8_t, std::uint32_t, std::uint64_t, std::int64_t
#include <filesystem>   // std::filesystem::path
#include <optional>     // std::optional
#include <span>         // std::span
#include <utility>      // std::pair
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace rknnop::host {

/// The first 8 bytes of a model; an encrypted model starts with "CYPTRKNN" instead.
inline constexpr std::string_view rknn_model_magic{"RKNN\0\0\0\0", 8};
inline constexpr std::string_view rknn_encrypted_magic{"CYPTRKNN", 8};
/// The largest model file rknnop reads (weights included).
inline constexpr std::uint64_t rknn_model_max_file_size = std::uint64_t{2} << 30;

/// True when the file is an encrypted model ("CYPTRKNN") or starts "RKNN\0\0\0\0" with a JSON
/// object as its second section (a .rknnop has the same 16-byte header but an ELF library there),
/// or starts so and is no container either (a shader or nothing first, an ELF library or nothing
/// second) and is not named *.rknnop: a damaged model, which model::read then describes. Reads at
/// most 40 bytes, seeking over the first section; false when the file cannot be read.
[[nodiscard]] bool is_rknn_model_file(const std::filesystem::path& path) noexcept;

/// The sections of a model file as they are stored, in file order.
struct model_file {
  std::uint64_t version = 2;                 ///< 1: no custom-op sections; 2: both custom-op sections
  std::vector<std::uint8_t> export_data;     ///< weights
  std::string config;                        ///< the graph, JSON text
  std::string custom_op_config;              ///< version 2: JSON array, one object per custom op
  std::vector<std::uint8_t> custom_op_data;  ///< version 2: the op blobs
  std::vector<std::uint8_t> trailing;        ///< bytes after the last section (the toolkit's reader ignores them)

  /// Splits a file image into its sections. Throws on wrong magic, an encrypted model, an unknown
  /// version, a truncated length field or a section running past the end.
  [[nodiscard]] static model_file parse(std::span<const std::uint8_t> bytes, std::string_view source);
  /// Byte-identical to the input of parse() for anything it accepted.
  [[nodiscard]] std::vector<std::uint8_t> serialize() const;
};

/// Reads a whole regular file of at most rknn_model_max_file_size bytes.
[[nodiscard]] std::vector<std::uint8_t> read_model_bytes(const std::filesystem::path& path);

/// The embedded blobs an op description can point at (`<key>_offset`/`<key>_len`).
enum class model_blob_kind { shader, lib_x86_64, lib_aarch64, lib_armhf };
inline constexpr model_blob_kind all_model_blob_kinds[] = {model_blob_kind::shader, model_blob_kind::lib_x86_64,
                                                           model_blob_kind::lib_aarch64, model_blob_kind::lib_armhf};
/// "vx_kernel_bin", "op_lib_x86", "op_lib_aarch64", "op_lib_armhf"
[[nodiscard]] std::string_view model_blob_key(model_blob_kind kind) noexcept;
/// rknnop's key beside an enum param's "type" in an op description: {"NAME": value, ...}.
inline constexpr std::string_view model_enum_key = "rknnop_enum";
/// "shader", "x86-64 library", ...
[[nodiscard]] std::string_view model_blob_description(model_blob_kind kind) noexcept;

struct model_blob {
  model_blob_kind kind = model_blob_kind::shader;
  std::uint64_t offset = 0;  ///< from the start of custom_op_data
  std::uint64_t size = 0;
};

/// One custom-op description (an object of custom_op_config).
struct model_op {
  std::string name;
  std::vector<op_yml_entry> inputs, outputs, params;  ///< JSON member order
  std::optional<std::uint32_t> kernel_index;
  std::vector<model_blob> blobs;  ///< the pairs present, in model_blob_kind order

  [[nodiscard]] const model_blob* find_blob(model_blob_kind kind) const noexcept;
  /// The op.yml the toolkit made this description from (ports and params in the JSON's order).
  [[nodiscard]] op_yml to_op_yml() const;
  /// The same as op.yml text (what `rknnop-pack extract` puts in the container it writes).
  [[nodiscard]] std::string op_yml_text() const;
};

/// A tensor of the graph (`norm_tensor`, `const_tensor` or `virtual_tensor` array).
struct model_tensor {
  std::string kind;                 ///< the array it is in: "norm_tensor", "const_tensor", "virtual_tensor"
  std::int64_t id = 0;              ///< its tensor_id field
  std::vector<std::uint32_t> dims;  ///< `size`, innermost first
  std::string vx_type;              ///< dtype.vx_type as given ("VSI_NN_TYPE_FLOAT16"), empty when absent
  std::string qnt_type;             ///< dtype.qnt_type as given ("VSI_NN_QNT_TYPE_NONE"), empty when absent
  std::string dtype_json;           ///< the whole dtype object (fl, scale, zero_point, ...) as JSON text

  /// NumPy order (outermost first).
  [[nodiscard]] std::vector<std::size_t> shape() const;
  /// The VX tensor type for vx_type (VSI_NN_TYPE_FLOAT16 -> VX_TYPE_FLOAT16), nullopt when unknown.
  [[nodiscard]] std::optional<std::int32_t> vx_tensor_type() const noexcept;
  /// True unless qnt_type is absent or VSI_NN_QNT_TYPE_NONE.
  [[nodiscard]] bool quantized() const noexcept;
};

/// What one port of a node is connected to (a `connection` entry).
struct model_port {
  std::uint64_t index = 0;                ///< left_tensor_id: the port number
  std::optional<model_tensor> tensor;     ///< right_tensor: the tensor, looked up by its tensor_id
  std::optional<std::int64_t> from_node;  ///< right_node.node_id (a virtual tensor between nodes)
  std::int64_t from_port = 0;             ///< right_node.tensor_id
};

struct model_param {
  std::string name;
  std::string json;  ///< the value as JSON text ("[64, 64]", "0")
};

struct model_node {
  std::size_t index = 0;  ///< position in `nodes` (what connection.node_id counts)
  std::string name, lid, op;
  std::optional<std::size_t> custom_op;     ///< index into model::ops when `op` is a custom op's name upper-cased
  std::vector<model_param> params;          ///< nn.<lower name>, JSON member order
  std::vector<model_port> inputs, outputs;  ///< by port number
};

class model {
public:
  std::string source;  ///< the file name used in diagnostics
  model_file file;
  std::string name;           ///< graph JSON `name`
  std::string graph_version;  ///< graph JSON `version` ("1.2.0" in toolkit 1.3.0, "1.3.0" later)
  std::vector<model_op> ops;
  std::vector<model_node> nodes;
  /// What the reader noticed and worked around (a count that disagrees with its array).
  std::vector<std::string> notes;

  /// Parses and checks a whole model: sections, both JSON texts, blob ranges, every custom-op
  /// node's params and connections.
  [[nodiscard]] static model parse(std::span<const std::uint8_t> bytes, std::string_view source);
  [[nodiscard]] static model read(const std::filesystem::path& path);

  [[nodiscard]] const model_op* find_op(std::string_view op_name) const noexcept;
  [[nodiscard]] const model_node* find_node(std::string_view node_name) const noexcept;
  /// Indices into `nodes` of the custom-op nodes.
  [[nodiscard]] std::vector<std::size_t> custom_nodes() const;
  /// The bytes of a blob of `op` (empty when the op has no such pair).
  [[nodiscard]] std::span<const std::uint8_t> blob(const model_op& op, model_blob_kind kind) const noexcept;
};

struct decoded_param {
  std::string name;
  param_value value;
};
/// The node's params (nn.<lower name>) decoded with its op's types, in the op description's order:
/// arrays as int32 items, BOOL from true/false or 0/1, integers range-checked. Throws naming the node,
/// the param, the expected type and what the model holds (a missing or unknown param included).
[[nodiscard]] std::vector<decoded_param> decode_node_params(const model& m, const model_node& node);

/// The model with op `op_name`'s blobs replaced by `blobs` (an empty vector drops that pair; a kind
/// the op did not have is appended). Blobs of other ops and every other byte are kept; the op's
/// description is rewritten with its new offsets, as the toolkit writes JSON (json.dumps style).
/// `named_params` (the container's op.yml params) adds the names of enum params' values to the op's
/// description (`"rknnop_enum": {"NAME": value, ...}` beside a param's "type"; librknn_runtime reads
/// only "type"), so that the model shows them.
[[nodiscard]] model_file replace_op_blobs(
    const model& m, std::string_view op_name,
    const std::vector<std::pair<model_blob_kind, std::vector<std::uint8_t>>>& blobs,
    std::span<const op_yml_entry> named_params = {});

/// Builds a model file from graph JSON, op descriptions and each op's blobs (the project's model
/// writer, used by the tests and the fuzz seeds). `ops_json` objects get their `<key>_offset/_len`
/// members from `blobs[i]` (op i), appended in model_blob_kind order.
struct model_op_blobs {
  std::vector<std::pair<model_blob_kind, std::vector<std::uint8_t>>> blobs;
};
[[nodiscard]] model_file build_model_file(std::string graph_json, std::string_view ops_json,
                                          const std::vector<model_op_blobs>& blobs, std::uint64_t version = 2);

/// A one-node model around an op (what `rknnop-pack wrap` writes; docs/rknn-model.md §5): `op`'s
/// description with `blobs` embedded as the toolkit embeds them, one node `<lower>_0` with `params`
/// (op.yml's order; bools as 0/1, as the toolkit writes them), and float16 tensors of the given dims
/// (innermost first) on its ports, in the toolkit demo model's layout.
[[nodiscard]] model_file wrap_op_as_model(
    const op_yml& op, const std::vector<std::pair<model_blob_kind, std::vector<std::uint8_t>>>& blobs,
    const std::vector<std::vector<std::uint32_t>>& input_dims,
    const std::vector<std::vector<std::uint32_t>>& output_dims, const std::vector<decoded_param>& params);

/// `value` as Python's json.dumps writes it (", " and ": " separators, ASCII only), member order kept.
/// Throws on invalid JSON.
[[nodiscard]] std::string to_python_json(std::string_view json_text, std::string_view source);

}  // namespace rknnop::host
