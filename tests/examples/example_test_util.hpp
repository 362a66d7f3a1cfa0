// SPDX-License-Identifier: MIT
#pragma once
// Shared by the example tests: the host-runtime harness of tests/core, plus running an example's
// .vx shader with the work size its `vx` function gave the runtime (through rknnop::vxc on POCL).
#include "vx_harness.hpp"  // tests/core

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <functional>
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

/// A run of an op whose input 0 and output 0 are float tensors of one type (float32, or float16 given
/// and read as float): the status, the output's dims (OpenVX order) and values, the log.
struct float_run {
  vx_status status = VX_FAILURE;
  std::vector<std::uint32_t> dims;
  std::vector<float> values;
  std::string log;
};

/// Runs `kernel` on `x` (of `dims`, `dtype`) into a virtual output of `dtype`, with `params(h)` after
/// them (the op's params, made in the harness).
inline float_run run_float_op(vx_kernel_description_t* kernel, const std::vector<std::uint32_t>& dims,
                              const std::vector<float>& x, vx_enum dtype,
                              const std::function<std::vector<vx_reference>(harness&)>& params) {
  harness h(kernel);
  vx_tensor y = h.virtual_tensor(dtype);
  vx_tensor in = dtype == VX_TYPE_FLOAT16 ? h.tensor(dims, dtype, to_half(x)) : h.tensor(dims, dtype, x);
  std::vector<vx_reference> refs{ref(in), ref(y)};
  for (vx_reference p : params(h)) refs.push_back(p);
  float_run r;
  r.status = h.run(refs);
  r.log = h.last_log();
  if (r.status != VX_SUCCESS) return r;
  r.dims = harness::dims(y);
  r.values = dtype == VX_TYPE_FLOAT16 ? to_float(harness::read<float16>(y)) : harness::read<float>(y);
  return r;
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
