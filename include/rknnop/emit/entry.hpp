// SPDX-License-Identifier: MIT
#pragma once

// Layer 1 of emit/ (docs/architecture.md §1): the generator program's entry point, declared without
// the generator. rknnop_add_op compiles the generator (<rknnop/emit/program.hpp>, {fmt}) once per
// build into the static library rknnop_emitter_program (cmake/rknnopEmitterProgram.cpp); each op's
// generated main (cmake/rknnopEmitterMain.cpp.in) includes only this header and passes its schema.

#include <rknnop/config.hpp>

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop {
struct op_schema;

namespace detail {
/// run_emitter(schema(), argc, argv): 0, 1 on failure, 2 on a usage error.
int run_emitter_program(op_schema (*schema)() noexcept, int argc, char** argv);
}  // namespace detail
}  // namespace rknnop

RKNNOP_DETAIL_END_HIDDEN
