// SPDX-License-Identifier: MIT
// A fixture of tests/core/check_backend_walk.cmake: an op source that, compiled for RKNPU2, still reads
// the OpenVX declarations, so the check is seen to fail.
#include <rknnop/detail/vx_api.hpp>
#include <rknnop/op.hpp>
