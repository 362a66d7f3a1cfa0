// SPDX-License-Identifier: MIT
// The ResizeArea example compiled in a build variant chosen on the command line (-fno-exceptions,
// or vendor headers with Khronos dims). Its list is walked from variant_test.cpp through C types.
#include "resize_area/resize_area.cpp"

#if defined(RKNNOP_USE_VENDOR_OPENVX) && defined(RKNNOP_OWN_OPENVX_DECLARATIONS) && \
    !defined(RKNNOP_TEST_VENDOR_HEADER_USED)
#error "rknnop did not include the vendor header"
#endif
#if defined(RKNNOP_TEST_KHRONOS_HEADERS) && (!defined(VX_VERSION_1_3) || defined(RKNNOP_OWN_OPENVX_DECLARATIONS))
#error "RKNNOP_KHRONOS_OPENVX_INCLUDE must hold Khronos' OpenVX 1.3 headers (VX/vx.h, VX/vx_helper.h)"
#endif
#if defined(RKNNOP_TEST_VSI_STYLE_HEADERS) && defined(VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS)
#error "VSI's headers declare VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS as an enum value: rknnop must not define it"
#endif
#if defined(RKNNOP_TEST_VSI_STYLE_HEADERS) && !defined(_VX_EXT_PROGRAM_H_)
#error "the VSI-style <VX/vx_ext_program.h> was not included"
#endif
#if defined(__cpp_exceptions) && defined(RKNNOP_TEST_EXPECT_NO_EXCEPTIONS)
#error "this variant must be compiled with -fno-exceptions"
#endif

extern "C" vx_kernel_description_t** rknnop_test_variant_list() { return vx_kernel_ResizeArea_list.entries; }
