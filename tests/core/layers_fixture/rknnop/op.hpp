// SPDX-License-Identifier: MIT
#pragma once
// A fixture of tests/core/check_layers.cmake: the entry point pulls in the emitter under a macro.
#include <rknnop/detail/low.hpp>
#ifdef RKNNOP_EMITTER
#include <rknnop/emit/program.hpp>
#endif
