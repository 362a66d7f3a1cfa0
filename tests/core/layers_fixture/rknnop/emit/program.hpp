// SPDX-License-Identifier: MIT
#pragma once
// Layer 1 of emit/: a fixture of tests/core/check_layers.cmake.
