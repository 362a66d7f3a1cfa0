// SPDX-License-Identifier: MIT
#pragma once

// A `.rknn` model's custom op as a `.rknnop` container (docs/rknn-model.md §4): what
// `rknnop-pack extract` writes and what a model's op is loaded from on the PC (load_model_op).

#include <rknnop/host/container.hpp>
#include <rknnop/host/rknn_model.hpp>

namespace rknnop::host {

/// A version-2 container holding `op`'s shader and library blobs from the model and the op.yml its
/// op description gives (model_op::op_yml_text). Its .py section is empty: a model carries no .py.
[[nodiscard]] container model_op_container(const model& m, const model_op& op);

}  // namespace rknnop::host
