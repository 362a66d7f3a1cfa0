// SPDX-License-Identifier: MIT
#pragma once
// Layer 1 of detail/: a fixture of tests/core/check_layers.cmake, the OpenVX declarations (RKNN v1's).
