// SPDX-License-Identifier: MIT
#include "rknnop/host/rknn_container.hpp"

#include <string>
#include <vector>

namespace rknnop::host {

container model_op_container(const model& m, const model_op& op) {
  container c;
  c.version = 2;
  const auto copy = [&](model_blob_kind kind, std::vector<std::uint8_t>& to) {
    const auto bytes = m.blob(op, kind);
    to.assign(bytes.begin(), bytes.end());
  };
  copy(model_blob_kind::shader, c.shader);
  copy(model_blob_kind::lib_x86_64, c.lib_x86_64);
  copy(model_blob_kind::lib_aarch64, c.lib_aarch64);
  copy(model_blob_kind::lib_armhf, c.lib_armhf);
  const std::string yml = op.op_yml_text();
  c.op_yml.assign(yml.begin(), yml.end());
  return c;
}

}  // namespace rknnop::host
