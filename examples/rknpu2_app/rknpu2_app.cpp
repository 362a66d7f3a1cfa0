// SPDX-License-Identifier: MIT
// A board application that registers rknnop plugins itself (docs/rknpu2.md §4): loads a model,
// registers every op of the plugins named on the command line in one rknn_register_custom_ops call,
// runs the model once on a ramp input and prints each output's first values.
//   rknpu2_app MODEL.rknn librkcst_dualresidual.so [more plugins...]
// Build (board or cross compiler): g++ -std=c++20 -I<rknnop>/include -I<rknpu2 sdk>/include
//   rknpu2_app.cpp -lrknnrt -ldl
#include "rknn_api.h"
#include "rknn_custom_op.h"

#include <rknnop/rknpu2_register.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s MODEL.rknn PLUGIN.so [PLUGIN.so...]\n", argv[0]);
    return 2;
  }
  std::FILE* file = std::fopen(argv[1], "rb");
  if (!file) return std::fprintf(stderr, "rknpu2_app: cannot open %s\n", argv[1]), 1;
  std::vector<unsigned char> model(std::size_t(64) << 20);  // models up to 64 MiB here
  model.resize(std::fread(model.data(), 1, model.size(), file));
  std::fclose(file);

  rknn_context ctx = 0;
  if (int rc = rknn_init(&ctx, model.data(), static_cast<uint32_t>(model.size()), 0, nullptr); rc != RKNN_SUCC)
    return std::fprintf(stderr, "rknpu2_app: rknn_init failed (%d)\n", rc), 1;

  rknnop::rknpu2::plugins ops;  // outlives rknn_destroy below: the runtime calls into the plugins until then
  for (int i = 2; i < argc; ++i)
    if (ops.load({argv[i]}) != 0) return std::fprintf(stderr, "%s\n", ops.error()), 1;
  if (ops.register_with(ctx) != 0) return std::fprintf(stderr, "%s\n", ops.error()), 1;
  std::printf("rknpu2_app: registered %u custom op(s):", unsigned(ops.size()));
  for (uint32_t i = 0; i < ops.size(); ++i) std::printf(" %s", ops.ops()[i].op_type);
  std::printf("\n");

  rknn_input_output_num io{};
  if (rknn_query(ctx, RKNN_QUERY_IN_OUT_NUM, &io, sizeof io) != RKNN_SUCC) return 1;
  std::vector<rknn_input> inputs(io.n_input);
  std::vector<std::vector<float>> data(io.n_input);
  for (uint32_t i = 0; i < io.n_input; ++i) {
    rknn_tensor_attr attr{};
    attr.index = i;
    if (rknn_query(ctx, RKNN_QUERY_INPUT_ATTR, &attr, sizeof attr) != RKNN_SUCC) return 1;
    data[i].resize(attr.n_elems);
    for (uint32_t k = 0; k < attr.n_elems; ++k) data[i][k] = float(k % 17) * 0.125f - float(i);
    inputs[i] = rknn_input{};
    inputs[i].index = i;
    inputs[i].buf = data[i].data();
    inputs[i].size = static_cast<uint32_t>(data[i].size() * sizeof(float));
    inputs[i].type = RKNN_TENSOR_FLOAT32;
    inputs[i].fmt = attr.fmt;
  }
  if (int rc = rknn_inputs_set(ctx, io.n_input, inputs.data()); rc != RKNN_SUCC)
    return std::fprintf(stderr, "rknpu2_app: rknn_inputs_set failed (%d)\n", rc), 1;
  if (int rc = rknn_run(ctx, nullptr); rc != RKNN_SUCC)
    return std::fprintf(stderr, "rknpu2_app: rknn_run failed (%d)\n", rc), 1;
  std::vector<rknn_output> outputs(io.n_output);
  for (uint32_t i = 0; i < io.n_output; ++i) {
    outputs[i] = rknn_output{};
    outputs[i].want_float = 1;
  }
  if (int rc = rknn_outputs_get(ctx, io.n_output, outputs.data(), nullptr); rc != RKNN_SUCC)
    return std::fprintf(stderr, "rknpu2_app: rknn_outputs_get failed (%d)\n", rc), 1;
  for (uint32_t i = 0; i < io.n_output; ++i) {
    const auto* values = static_cast<const float*>(outputs[i].buf);
    std::printf("rknpu2_app: output %u: %u floats:", i, unsigned(outputs[i].size / sizeof(float)));
    for (uint32_t k = 0; k < 4 && k < outputs[i].size / sizeof(float); ++k) std::printf(" %g", double(values[k]));
    std::printf("\n");
  }
  rknn_outputs_release(ctx, io.n_output, outputs.data());
  rknn_destroy(ctx);
  return 0;
}
