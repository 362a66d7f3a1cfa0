// SPDX-License-Identifier: MIT
#pragma once

// The marker before an op struct's schema fingerprint (16 hex digits), written once. It follows
// each kernel name's terminator in the descriptors RKNNOP_EXPORT_OP exports ("rknnop-schema:<hex>",
// detail/openvx/export.hpp) and starts a comment line of the generated op.yml and Python op
// ("# rknnop-schema: <hex>", emit/); rknnop's loader and op.yml reader compare the two
// (docs/abi.md). Standard library only: kernel libraries include it.

#include <rknnop/config.hpp>

#include <string_view>  // the marker

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop {

inline constexpr std::string_view schema_marker = "rknnop-schema:";
/// The marker without its colon, as --describe prints it beside the fingerprint.
inline constexpr std::string_view schema_marker_name = schema_marker.substr(0, schema_marker.size() - 1);

}  // namespace rknnop

RKNNOP_DETAIL_END_HIDDEN
