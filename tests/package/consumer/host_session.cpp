// SPDX-License-Identifier: MIT
// rknnop::host from an installed prefix (component host): runs the consumer's Tiny op through
// rknnop::host::session and the host runtime, and, given the model rknnop-pack wrapped, reads it with
// rknnop::host::model.
//   host_session Tiny.rknnop [tiny.rknn]
#include <rknnop/host/error.hpp>
#include <rknnop/host/session.hpp>
#if defined(RKNNOP_HOST_HAS_MODEL)
#include <rknnop/host/rknn_model.hpp>
#endif

#include <cstdio>
#include <exception>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: host_session Tiny.rknnop [tiny.rknn]\n");
    return 2;
  }
  try {
    auto s = rknnop::host::session::load(argv[1]);
    std::vector<float> x;
    for (int i = 0; i < 24; ++i) x.push_back(0.25f * static_cast<float>(i - 8));  // exact in float16
    s.set_input("x", x, {1, 2, 4, 3});
    s.set_param("scale", 2.0f);
    s.run();
    const auto& y = s.output("y");
    const std::vector<std::size_t> shape{1, 2, 4, 3};
    if (y.shape != shape || y.values.size() != x.size()) {
      std::fprintf(stderr, "host_session: output y has %zu values, expected %zu of shape (1, 2, 4, 3)\n",
                   y.values.size(), x.size());
      return 1;
    }
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (y.values[i] != 2.0f * x[i]) {
        std::fprintf(stderr, "host_session: y[%zu] = %g, expected %g\n", i, double(y.values[i]), 2.0 * x[i]);
        return 1;
      }
    }
    std::printf("host_session: Tiny ran through rknnop::host::session: y = 2 * x (%zu values)\n", y.values.size());
#if defined(RKNNOP_HOST_HAS_MODEL)
    if (argc > 2) {
      const auto m = rknnop::host::model::read(argv[2]);
      const auto custom = m.custom_nodes();
      if (custom.size() != 1 || m.nodes[custom[0]].op != "TINY") {
        std::fprintf(stderr, "host_session: %s: expected one custom node TINY, found %zu\n", argv[2], custom.size());
        return 1;
      }
      std::printf("host_session: %s: custom node %s read through rknnop::host::model\n", argv[2],
                  m.nodes[custom[0]].name.c_str());
    }
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "host_session: %s\n", e.what());
    return 1;
  }
  return 0;
}
