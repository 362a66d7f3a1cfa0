// SPDX-License-Identifier: MIT
#pragma once
// Layer 2 of detail/: a fixture of tests/core/check_layers.cmake that breaks the rooms rule (a shared
// layer reaches the OpenVX declarations, and with them every backend that includes it).
#include <rknnop/detail/vx_api.hpp>
