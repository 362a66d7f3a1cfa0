// SPDX-License-Identifier: MIT
#pragma once

// The op's parameter table as the shader signature check wants it, from the one op.yml reader.
// Header-only: rknnop::vxc does not link rknnop::host, the tools that use this link both.

#include <rknnop/host/op_yml.hpp>
#include <rknnop/vxc/vxc.hpp>

namespace rknnop::vxc {

[[nodiscard]] inline op_signature signature_of(const host::op_yml& op) {
  op_signature sig;
  sig.name = op.name;
  for (const auto& in : op.inputs) sig.inputs.push_back(in.name);
  for (const auto& out : op.outputs) sig.outputs.push_back(out.name);
  for (const auto& p : op.params) sig.params.push_back({p.name, static_cast<vx_type>(p.type)});
  return sig;
}

}  // namespace rknnop::vxc
