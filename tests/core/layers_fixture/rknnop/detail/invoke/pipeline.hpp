// SPDX-License-Identifier: MIT
#pragma once
// Layer 5 of detail/: a fixture of tests/core/check_layers.cmake that breaks the rooms rule (the
// backend-neutral core reaches a backend through another header).
#include <rknnop/detail/high.hpp>
#include <rknnop/detail/rknpu2/plugin.hpp>
