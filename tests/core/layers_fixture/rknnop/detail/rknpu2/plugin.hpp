// SPDX-License-Identifier: MIT
#pragma once
// Layer 4 of detail/: a fixture of tests/core/check_layers.cmake that breaks the rooms rule (the RKNPU2
// backend includes a header of the RKNN v1 backend).
#include <rknnop/detail/openvx/callbacks.hpp>
