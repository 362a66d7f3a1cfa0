// SPDX-License-Identifier: MIT
#pragma once

// Layer 9 of detail/ (docs/architecture.md §1), in the RKNPU2 backend's room.
// RKNNOP_PROFILE=1 for an RKNPU2 plugin: one line per compute call on stderr (detail/invoke/profile.hpp,
// the core's, shared with the instrumented RKNN v1 library): the time spent in the inputs'
// conversion and layout (librknnrt's tensors to the kernel's type and layout), in the kernel (with
// the op's infer and the output buffers), in the outputs' conversion and layout back into the
// runtime's memory, and the threads the call ran on (1 unless it ran a parallel_for on the workers).
// The setting is read once, by the plugin's constructor (RKNNOP_RKNPU2_EXPORT_OP): unset, a compute
// call costs one load of a flag. What it cannot see: librknnrt's own work around the op (its
// conversions of the NPU layers' outputs to FLOAT32 NCHW and back), outside the plugin
// (docs/rknpu2-deploy.md §3).

#include <rknnop/detail/invoke/profile.hpp>

#include <string_view>

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::detail::rknpu2 {

using ::rknnop::detail::profile_enabled;
using ::rknnop::detail::profile_marks;
using ::rknnop::detail::profile_now;
using ::rknnop::detail::profile_start;
using ::rknnop::detail::read_profile_setting;  // the plugin's constructor (RKNNOP_RKNPU2_EXPORT_OP)

// The call's line: librknnrt's compute call.
inline void print_profile(std::string_view op, const profile_marks& m, bool ok) noexcept {
  ::rknnop::detail::print_profile(op, m, ok, "compute call");
}

}  // namespace rknnop::detail::rknpu2

RKNNOP_DETAIL_END_HIDDEN
