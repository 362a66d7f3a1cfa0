// SPDX-License-Identifier: MIT
#pragma once

// A custom-op node of a `.rknn` model on the PC (docs/rknn-model.md §4): its op's embedded library for
// this host loaded through the loader (op_library, session) with the op.yml the model's op description
// gives, its params and tensor dims taken from the model, and the pre-deployment check of
// `rknnop-run model.rknn --check`.

#include <rknnop/host/rknn_model.hpp>
#include <rknnop/host/session.hpp>

#include <cstdint>      // std::uint32_t
#include <optional>     // std::optional
#include <string>       // std::string
#include <string_view>  // std::string_view

namespace rknnop::host {

/// The blob holding the library this process can load (x86-64, aarch64 or armhf); nullopt elsewhere.
[[nodiscard]] std::optional<model_blob_kind> host_library_blob() noexcept;

/// Loads `op`'s library for this host from the model, checking its kernel list, descriptor and
/// parameter table against the op description (count, order, types) as the loader does for a
/// .rknnop. `kernel_index` overrides the description's; `node_name` names the node in the one line of a
/// crash in the child process (isolation.hpp). Throws naming the model and the op.
[[nodiscard]] session load_model_op(const model& m, const model_op& op,
                                    std::optional<std::uint32_t> kernel_index = std::nullopt,
                                    std::string_view node_name = {});

/// Gives a session loaded for `node` the node's params (decode_node_params) and makes each output a
/// tensor of the model's dims and type; returns the VX tensor type of each input in port order.
/// Throws when a port's tensor is not in the model (a virtual tensor between nodes) or quantized.
std::vector<std::int32_t> prepare_model_node(session& s, const model& m, const model_node& node);

struct model_node_check {
  bool passed = false;
  std::string line;  ///< "node 'x' (Op): OK ..." or "node 'x' (Op): FAILED: <what, expected, found>"
};

/// The check of `rknnop-run --check` for one custom-op node: the library for this host loads and its
/// table matches the op description, the params decode, the validator accepts the model's input
/// tensors (zeros) and the op's shape inference gives the model's output dims exactly (rank included).
[[nodiscard]] model_node_check check_model_node(const model& m, const model_node& node);

}  // namespace rknnop::host
