// SPDX-License-Identifier: MIT
#pragma once
// A fixture of tests/core/check_layers.cmake that breaks the rooms rule: the RKNPU2 backend's public
// header reaches the OpenVX declarations through a shared layer.
#include <rknnop/detail/log.hpp>
