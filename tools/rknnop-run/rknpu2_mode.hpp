// SPDX-License-Identifier: MIT
#pragma once
// rknnop-run on an RKNPU2 plugin (librkcst_<op>.so, docs/rknpu2-deploy.md): the op run as librknnrt
// runs a CPU custom op, in the node runner (rknnop/host/rknpu2_run.hpp), on .npy files with the
// node's attributes typed as ONNX types them:
//   rknnop-run librkcst_x.so -i x=a.npy -o y=o.npy [--attr NAME=[TYPE:]VALUE ...] [--tensor-type FLOAT16]
//   rknnop-run librkcst_x.so --describe

namespace rknnop_run {

/// The RKNPU2 plugin the command line names, if any: the first argument that is an ELF file exporting
/// get_rknn_custom_op (for any machine: another machine's plugin is then refused by name). Never throws.
[[nodiscard]] bool names_rknpu2_plugin(int argc, char** argv) noexcept;

/// The RKNPU2 mode's own command line and run: 0, 1 (the plugin refused the node: its own
/// "rknnop: <Op>: ..." line; or another failure: "rknnop-run: ...") or 2 (usage).
[[nodiscard]] int rknpu2_main(int argc, char** argv);

}  // namespace rknnop_run
