// SPDX-License-Identifier: MIT
#pragma once
// A fixture of tests/core/check_layers.cmake that breaks the rooms rule through a chain: the MindSpore
// Lite backend's public header reaches the RKNPU2 backend, and through it RKNN v1's.
#include <rknnop/detail/rknpu2/plugin.hpp>
