// SPDX-License-Identifier: MIT
#pragma once

// The one entry point for writing an op: declare a struct, export it.
//
//   struct MyOp {                                                // the TensorFlow op name
//     struct inputs  { rknnop::tensor<float, rknnop::float16> x; };
//     struct outputs { rknnop::tensor<float, rknnop::float16> y; };
//     struct params  { float alpha; std::array<std::int32_t, 2> size; };   // optional
//     static constexpr auto infer = [](const inputs&, outputs&, const params&) -> rknnop::status;
//     static constexpr auto cpu   = [](const inputs&, outputs&, const params&) -> rknnop::status;
//     static constexpr auto vx    = [](const inputs&, const outputs&, const params&,
//                                      rknnop::work_size&) -> rknnop::status;        // optional
//   };
//   RKNNOP_EXPORT_OP(MyOp);  // defines vx_kernel_MyOp_list, the library's only exported symbol
//
// The op's name is the struct's (namespaces left out). A struct named otherwise (a template, an
// alias) declares it: `static constexpr std::string_view name = "TfOpName";`. Ops without `params`
// take `rknnop::no_params` where the functions above take `const params&`.

#include <rknnop/config.hpp>
#include <rknnop/detail/model.hpp>  // the op model and its public names: op_spec, op_name, rknpu2_op_type
#include <rknnop/detail/scratch.hpp>
#include <rknnop/float16.hpp>
#include <rknnop/status.hpp>
#include <rknnop/tensor.hpp>
#include <rknnop/types.hpp>

// RKNNOP_EXPORT_OP(Name) is the backend's: RKNN v1's (the exported descriptor list
// vx_kernel_<Name>_list, <rknnop/detail/openvx/export.hpp>) unless a backend header included first
// defined it (<rknnop/rknpu2.hpp> with RKNNOP_RKNPU2_BACKEND, <rknnop/mindspore.hpp> with
// RKNNOP_MINDSPORE_BACKEND: what rknnop_add_op's BACKENDS force-include).
#ifndef RKNNOP_EXPORT_OP
#include <rknnop/detail/openvx/export.hpp>
#endif

#include <array>        // std::array params, for users
#include <cstdint>      // std::int32_t, for users
#include <string_view>  // op names, for users
