// SPDX-License-Identifier: MIT
// The four example ops, unchanged, compiled as the MindSpore Lite backend compiles them
// (RKNNOP_MINDSPORE_BACKEND=1 with <rknnop/mindspore.hpp> force-included by CMake): each
// RKNNOP_EXPORT_OP registers its op with MindSpore Lite's registry when the test program loads.
#include "exp/exp.cpp"
#include "quantized_max_pool/quantized_max_pool.cpp"
#include "resize_area/resize_area.cpp"
#include "truncate_div/truncate_div.cpp"

// A second registration of one op under another provider and arch (the overridable arguments).
RKNNOP_MINDSPORE_REGISTER_OP(Exp, "rknnop_test_provider", "RKNNOP_TEST_ARCH");

// The two ops whose `infer` every backend refuses alike (tests/core/bad_infer_ops.hpp).
#include "bad_infer_ops.hpp"  // tests/core
using rknnop::test::Int8Infer;
using rknnop::test::ZeroDimInfer;
RKNNOP_MINDSPORE_REGISTER_OP(ZeroDimInfer);
RKNNOP_MINDSPORE_REGISTER_OP(Int8Infer);
