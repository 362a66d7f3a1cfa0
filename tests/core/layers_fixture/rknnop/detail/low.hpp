// SPDX-License-Identifier: MIT
#pragma once
// Layer 1 of detail/: a fixture of tests/core/check_layers.cmake that breaks the rule (an upward include).
#include <rknnop/detail/high.hpp>
