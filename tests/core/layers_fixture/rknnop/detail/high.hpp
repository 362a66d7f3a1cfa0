// SPDX-License-Identifier: MIT
#pragma once
// Layer 2 of detail/: a fixture of tests/core/check_layers.cmake.
