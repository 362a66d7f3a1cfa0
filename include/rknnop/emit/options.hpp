// SPDX-License-Identifier: MIT
#pragma once

// Layer 1 of emit/ (docs/architecture.md §1): names and options. The op.yml keys that are not
// derived from the op struct, the file names the toolkit derives from the op name, and the check
// that the options fit the op. The one rknnop header that includes {fmt}.

#include <rknnop/config.hpp>
#include <rknnop/container_format.hpp>  // container_format::result
#include <rknnop/detail/model.hpp>      // to_lower
#include <rknnop/detail/schema.hpp>

#include <fmt/format.h>  // the one rknnop header that includes {fmt}

#include <array>        // the platform table
#include <cstdint>      // std::uint32_t
#include <string>       // generated text
#include <string_view>  // names

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop {
/// The keys of op.yml that are not derived from the op struct.
struct emit_options {
  std::string target_platform = "RK1808";  ///< RK1806, RK1808, RK3399Pro, RV1109 or RV1126
  std::uint32_t kernel_index = 0;          ///< 0: CPU kernel; 1: VX kernel (needs `vx`)
};

// --- names -----------------------------------------------------------------------------------

/// The op name lower-cased, as in the toolkit's file and kernel names.
inline std::string lower_name(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = detail::to_lower(c);
  return lower;
}
inline std::string container_file_name(std::string_view name) { return fmt::format("{}.rknnop", name); }
inline std::string python_file_name(std::string_view name) { return fmt::format("rknn_op_{}.py", lower_name(name)); }
inline std::string shader_file_name(std::string_view name) {
  return fmt::format("rknn_kernel_{}.vx", lower_name(name));
}

/// The platforms the toolkit's target_platform accepts (docs/op-yml.md §2).
inline constexpr std::array<std::string_view, 5> target_platforms{"RK1806", "RK1808", "RK3399Pro", "RV1109", "RV1126"};

/// Result of a check: ok, or one line without the "rknnop: <Name>: " prefix.
using emit_result = container_format::result;

/// Whether the options make sense for this op (a known platform; a kernel index the op has).
inline emit_result check_options(const op_schema& op, const emit_options& options) {
  bool known = false;
  for (std::string_view p : target_platforms) known = known || p == options.target_platform;
  if (!known)
    return {fmt::format("unknown target_platform '{}' (expected one of: {} {} {} {} {})", options.target_platform,
                        target_platforms[0], target_platforms[1], target_platforms[2], target_platforms[3],
                        target_platforms[4])};
  const std::uint32_t kernels = op.has_vx ? 2u : 1u;
  if (options.kernel_index >= kernels)
    return {op.has_vx ? fmt::format("kernel_index {} does not exist: 0 is the CPU kernel, 1 the VX kernel",
                                    options.kernel_index)
                      : fmt::format("kernel_index {} selects a VX kernel, but the op has no `vx` member; "
                                    "its only kernel is 0 (CPU)",
                                    options.kernel_index)};
  return {};
}

}  // namespace rknnop

RKNNOP_DETAIL_END_HIDDEN
