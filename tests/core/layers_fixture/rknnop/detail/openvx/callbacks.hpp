// SPDX-License-Identifier: MIT
#pragma once
// Layer 3 of detail/: a fixture of tests/core/check_layers.cmake, a header of the RKNN v1 (OpenVX) backend.
