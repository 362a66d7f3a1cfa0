// SPDX-License-Identifier: MIT
#pragma once

// What a kernel library may need from the boards it runs on (docs/abi.md §1, §2), written once:
// the boards' images are Debian 10 era, glibc 2.28 and GCC 8's libstdc++. Read by rknnop-pack
// --verify and rknnop-run (src/host/load/validate.cpp), tests/board_abi, and by rknnop_add_op's check after
// every link (cmake/rknnopAddOp.cmake reads the three version lines below: keep their shape).
// Standard library only: nothing here reaches a kernel library.

#include <rknnop/config.hpp>

#include <array>        // the allowed DT_NEEDED list
#include <cstdint>      // VX type values
#include <string_view>  // versions and names

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::board_abi {

/// The newest symbol version of each family a kernel library may require.
inline constexpr std::string_view max_glibc = "GLIBC_2.28";
inline constexpr std::string_view max_glibcxx = "GLIBCXX_3.4.25";
inline constexpr std::string_view max_cxxabi = "CXXABI_1.3.11";

/// The shared libraries a kernel library may need (DT_NEEDED): the boards give it no others.
/// libpthread.so.0: rknnop::parallel_for's pthread_create/pthread_join, which glibc 2.28 has only there.
inline constexpr std::array<std::string_view, 4> allowed_needed{"libc.so.6", "libm.so.6", "libpthread.so.0",
                                                                "libOpenVX.so"};

/// The tensor types an RKNN v1 model's graph inputs and outputs may have: rknn_api.h's rknn_tensor_type
/// (driver 1.7.5). Convert2RKNNTensorDataType refuses any other ("Unknow data type:6" for INT32, ":5"
/// for UINT16: rknn_query, rknn_inputs_set and rknn_outputs_get fail; docs/board-rules.md), so a custom
/// op's port that is a graph input or output needs one of these. VX type values (<rknnop/vx_type.hpp>).
inline constexpr std::array<std::int32_t, 5> v1_graph_edge_types{
    0x00A /* FLOAT32 */, 0x00F /* FLOAT16 */, 0x002 /* INT8 */, 0x003 /* UINT8 */, 0x004 /* INT16 */};
[[nodiscard]] constexpr bool is_v1_graph_edge_type(std::int32_t vx_type) noexcept {
  for (const std::int32_t t : v1_graph_edge_types)
    if (t == vx_type) return true;
  return false;
}

/// The scalar param types librknn_runtime creates from an RKNN v1 model: every scalar type the board's
/// OpenVX creates except FLOAT16 (its model parser says "error parse param ..., type invalid" and
/// rknn_init returns -6; docs/board-rules.md). VX type values.
[[nodiscard]] constexpr bool is_v1_model_scalar_type(std::int32_t vx_type) noexcept {
  return vx_type != 0x00F /* FLOAT16 */;
}
}  // namespace rknnop::board_abi

RKNNOP_DETAIL_END_HIDDEN
