// SPDX-License-Identifier: MIT
#pragma once
// Shared by the example tests: the host-runtime harness of tests/core, plus running an example's
// .vx shader with the work size its `vx` function gave the runtime (through rknnop::vxc on POCL).
#include "vx_harness.hpp"  // tests/core

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#if RKNNOP_EXAMPLES_HAVE_VXC
#include <rknnop/vxc/vxc.hpp>
#endif

namespace rknnop::test {

inline std::vector<std::uint16_t> half_bits(const std::vector<float16>& v) {
  std::vector<std::uint16_t> out;
  for (float16 h : v) out.push_back(h.bits());
  return out;
}

// The execution parameters the op's VX initializer set on a verified node (nothing when unset).
inline bool execution_parameters_of(vx_node node, vx_kernel_execution_parameters_t& p) {
  vx_bool set = vx_false_e;
  return rknnopHostGetExecutionParameters(node, &p, &set) == VX_SUCCESS && set == vx_true_e;
}

#if RKNNOP_EXAMPLES_HAVE_VXC
inline vxc::executor& shader_executor() {
  static vxc::executor e;  // one OpenCL context and program cache per test program
  return e;
}
inline std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}
template <class T>
vxc::tensor_arg shader_tensor(std::vector<std::uint32_t> dims, rknnop::vx_type type, std::vector<T>& data) {
  return vxc::tensor_arg{std::move(dims), type, std::as_writable_bytes(std::span(data))};
}
// Runs examples/<file> (kernel `kernel`) with the parameters the runtime got from the op's `vx`.
inline vxc::run_result run_shader(const std::string& file, const std::string& kernel,
                                  const vx_kernel_execution_parameters_t& p,
                                  const std::vector<vxc::kernel_argument>& args) {
  const std::string path = std::string(RKNNOP_EXAMPLES_DIR) + "/" + file;
  return shader_executor().run(read_text(path), path, kernel, vxc::execution_parameters::from_vx(p), args);
}
#define RKNNOP_SKIP_WITHOUT_OPENCL() \
  if (!::rknnop::test::shader_executor().available()) GTEST_SKIP() << ::rknnop::test::shader_executor().status()
#else
#define RKNNOP_SKIP_WITHOUT_OPENCL() GTEST_SKIP() << "rknnop::vxc (OpenCL) not built"
#endif

}  // namespace rknnop::test
