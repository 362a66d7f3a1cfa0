// SPDX-License-Identifier: MIT
// TensorFlow's LeakyRelu: y = x for x >= 0, alpha * x otherwise (docs/first-op.md).
#include <rknnop/op.hpp>

struct LeakyRelu {  // the struct's name is the op's name: TensorFlow's, and vx_kernel_LeakyRelu_list
  struct inputs {
    rknnop::tensor<float, rknnop::float16> features;  // the kernel sees float; float16 converts exactly
  };
  struct outputs {
    rknnop::tensor<float, rknnop::float16> activations;
  };
  struct params {
    float alpha = 0.2f;  // TensorFlow's default: used when the graph's node has no `alpha`
  };

  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    out.activations.set_dims(in.features.dims());    // same shape
    out.activations.set_dtype(in.features.dtype());  // and dtype
    return rknnop::ok;
  };

  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    if (!(p.alpha >= 0.0f)) return rknnop::error("alpha must be >= 0, got {}", p.alpha);
    for (std::size_t i = 0; i < in.features.size(); ++i) {
      const float x = in.features[i];
      out.activations[i] = x >= 0.0f ? x : p.alpha * x;
    }
    return rknnop::ok;
  };

  static constexpr std::string_view python_compute = "[tf.nn.leaky_relu(inputs_tensor[0], alpha=params['alpha'])]";
};

RKNNOP_EXPORT_OP(LeakyRelu);
