// SPDX-License-Identifier: MIT
#pragma once

#include <rknnop/version.hpp>

// Configuration macros (define them before including any rknnop header, or on the command line):
//
//   RKNNOP_USE_VENDOR_OPENVX  use the OpenVX headers on the include path (VeriSilicon's or Khronos')
//                             instead of rknnop's own declarations in <rknnop/openvx.h>.
//   RKNNOP_VX_KHRONOS_DIMS    1: tensors report dims as vx_size (Khronos OpenVX 1.2/1.3);
//                             0 (default): as vx_uint32, as the VSI driver on RKNN boards does.
//   RKNNOP_NO_EXCEPTIONS      force the exception-free build (detected from -fno-exceptions anyway).
//   RKNNOP_GUARD_BUFFERS      1: put guard bytes around every tensor buffer a kernel gets and fail the
//                             node naming the tensor when the kernel wrote into them (docs/first-op.md
//                             §7). Default 1 on x86 (the PC library rknnop-run loads), 0 on the boards.

#ifndef RKNNOP_VX_KHRONOS_DIMS
#define RKNNOP_VX_KHRONOS_DIMS 0
#endif

// 1 in x86 builds: the PC library, which only rknnop's own runtime (src/runtime) loads; 0 in the
// boards' libraries, which Rockchip's drivers load.
#if defined(__x86_64__) || defined(__i386__)
#define RKNNOP_DETAIL_PC_LIBRARY 1
#else
#define RKNNOP_DETAIL_PC_LIBRARY 0
#endif

#ifndef RKNNOP_GUARD_BUFFERS
#define RKNNOP_GUARD_BUFFERS RKNNOP_DETAIL_PC_LIBRARY
#endif

#if defined(__cpp_exceptions) && !defined(RKNNOP_NO_EXCEPTIONS)
#define RKNNOP_HAS_EXCEPTIONS 1
#else
#define RKNNOP_HAS_EXCEPTIONS 0
#endif

#if defined(__GNUC__) || defined(__clang__)
#define RKNNOP_EXPORT __attribute__((visibility("default")))
#define RKNNOP_DETAIL_HIDDEN __attribute__((visibility("hidden")))
// Error paths: kept out of line and optimised for size (they run once, when something is wrong).
#define RKNNOP_DETAIL_COLD __attribute__((cold, noinline))
#else
#define RKNNOP_DETAIL_COLD
#define RKNNOP_EXPORT
#define RKNNOP_DETAIL_HIDDEN
#endif

// Every SDK header wraps its declarations (after its #includes) in these, so that a kernel library
// exports only vx_kernel_<Name>_list (RKNNOP_EXPORT) whatever builds it: a plain `g++ -shared`
// without -fvisibility=hidden or a version script must not export rknnop's inline functions and
// their statics (the scratch cache, the log sink), which would then be shared by every op library
// loaded in the process.
// The types users put in their own structs (tensor, float16, int_array, ...) keep default visibility
// (RKNNOP_DETAIL_USER_TYPE): a user struct with a hidden field type draws GCC's -Wattributes
// warning. They hold no state; what does (scratch cache, log sink) stays hidden.
// The glue around a kernel (decoding params, binding and checking tensors, the callbacks, status
// messages) runs once per call and is in every op library. With RKNNOP_COMPACT_GLUE=1, which
// rknnop_add_op sets for the board libraries, GCC compiles it for size (docs/performance.md §3); the
// kernels' building blocks (rows.hpp, convert.hpp, float16.hpp) and users' kernels keep the build's
// -O2, and GCC does not inline a kernel body into the glue across the mismatch. Off by default: across
// the pragma GCC does not inline libstdc++'s inline functions either, and a plain `g++ -shared` build
// (no -fvisibility-inlines-hidden, no version script) would export their out-of-line copies.
// RKNNOP_INSTRUMENTED=1: the instrumented RKNN v1 board library (rknnop_add_op's
// <out>/<arch>/instrumented/lib<op>.so): RKNNOP_PROFILE and RKNNOP_RECORD around the CPU kernel
// (detail/openvx/record.hpp). 0 (the release libraries): none of it is compiled.
#ifndef RKNNOP_INSTRUMENTED
#define RKNNOP_INSTRUMENTED 0
#endif
#ifndef RKNNOP_COMPACT_GLUE
#define RKNNOP_COMPACT_GLUE 0
#endif
#if RKNNOP_COMPACT_GLUE && defined(__GNUC__) && !defined(__clang__)
#define RKNNOP_DETAIL_BEGIN_GLUE _Pragma("GCC push_options") _Pragma("GCC optimize(\"Os\")")
#define RKNNOP_DETAIL_END_GLUE _Pragma("GCC pop_options")
#else
#define RKNNOP_DETAIL_BEGIN_GLUE
#define RKNNOP_DETAIL_END_GLUE
#endif

#if defined(__GNUC__) || defined(__clang__)
#define RKNNOP_DETAIL_BEGIN_HIDDEN _Pragma("GCC visibility push(hidden)")
#define RKNNOP_DETAIL_END_HIDDEN _Pragma("GCC visibility pop")
#define RKNNOP_DETAIL_USER_TYPE __attribute__((visibility("default")))
#else
#define RKNNOP_DETAIL_BEGIN_HIDDEN
#define RKNNOP_DETAIL_END_HIDDEN
#define RKNNOP_DETAIL_USER_TYPE
#endif
