// SPDX-License-Identifier: MIT
#pragma once

// Layer 6 of emit/ (docs/architecture.md §1): everything of the emitter, in one include.
// Host-side generation from an op struct: the toolkit's op.yml, its Python op class
// (rknn_op_<lower>.py) and the .rknnop container, all from op_model<Op>, so that none of them
// can drift from the kernel library. Never part of a kernel library (it uses {fmt} and the heap).
//
//   std::string yml = rknnop::emit_op_yml<ResizeArea>({.target_platform = "RV1126"});
//   std::string py  = rknnop::emit_python<ResizeArea>();
//
// The Python class needs two things C++ cannot give it; an op struct may provide them as Python
// source text (both optional):
//
//   // Python expression over `inputs_shape` (list of NHWC shape lists) and `params` (dict):
//   // the list of output shapes. Without it every output has input 0's shape.
//   static constexpr std::string_view python_output_shape = "[[...]]";
//   // Python expression over `inputs_tensor`, `params` and `tf`: the list of output tensors
//   // (used by the toolkit for quantization). Without it compute_output_tensor raises.
//   static constexpr std::string_view python_compute = "[tf.image.resize_area(inputs_tensor[0], **params)]";
//
// The command line of the generator program rknnop_add_op builds (its main, generated from
// cmake/rknnopEmitterMain.cpp.in, includes <rknnop/emit/program.hpp> and calls run_emitter with
// rknnop_schema_<Name>(), which RKNNOP_EXPORT_OP defines when RKNNOP_EMITTER is set):
//
//   --describe                  print the op's parameter table
//   --yml FILE  --py FILE       write op.yml / rknn_op_<lower>.py
//   --target-platform P         RK1806 RK1808 (default) RK3399Pro RV1109 RV1126
//   --kernel-index N            0 = CPU kernel (default), 1 = VX kernel (needs `vx` and --shader)
//   --pack FILE.rknnop          write the container; its op.yml and .py are generated with the
//                               options above, unless --py-file gives the .py
//     --shader F --x86 F --aarch64 F --armhf F   section contents; an omitted one is empty
//     --toolkit-rknnop F        instead of --shader: the shader section of F, a .rknnop the toolkit built
//     --version 2|1  --py-file F
//
// Files are written through a temporary file and a rename. Every failure is one line
// "rknnop: <Name>: ..." on stderr and a non-zero exit status (2 for a usage error).
//
// Its parts (layers 1-4 of emit/, on the schema of detail/schema.hpp; docs/architecture.md §1):

#include <rknnop/detail/schema.hpp>  // op_schema, schema_of<Op>
#include <rknnop/emit/op_yml.hpp>    // emit_op_yml
#include <rknnop/emit/options.hpp>   // emit_options, file names, check_options
#include <rknnop/emit/program.hpp>   // emit_description, run_emitter, emit_main<Op>
#include <rknnop/emit/python.hpp>    // emit_python
#include <rknnop/emit/toolkit2.hpp>  // emit_toolkit2_python
