// SPDX-License-Identifier: MIT
// ResizeArea registered a second time, under provider "rknnop_custom_arch" and arch "RKNNOP": the
// float16 route through MindSpore Lite's full runtime on x86 (see test_full_runtime.cpp). Compiled as
// the MindSpore Lite backend is (<rknnop/mindspore.hpp> force-included, RKNNOP_MINDSPORE_BACKEND=1);
// the default registration (provider "rknnop", arch "CPU") comes from libresizearea_mslite.so, so
// this file's RKNNOP_EXPORT_OP registers nothing.
#include <rknnop/op.hpp>
#undef RKNNOP_EXPORT_OP
#define RKNNOP_EXPORT_OP(Name) static_assert(true, "")
#include "resize_area/resize_area.cpp"

RKNNOP_MINDSPORE_REGISTER_OP(ResizeArea, "rknnop_custom_arch", "RKNNOP");
