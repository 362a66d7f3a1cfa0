// SPDX-License-Identifier: MIT
// The generator program of rknnop_add_op, compiled once per build (target rknnop_emitter_program)
// and linked into every op's emitter: each op's generated main only passes its schema. The
// generator is the larger part of an emitter's compile time; compiled per op, it was most of it.
#include <rknnop/emit/entry.hpp>
#include <rknnop/emit/program.hpp>

int rknnop::detail::run_emitter_program(op_schema (*schema)() noexcept, int argc, char** argv) {
  return run_emitter(schema(), argc, argv);
}
