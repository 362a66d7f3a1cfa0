// SPDX-License-Identifier: MIT
#pragma once
// The parent's side of a node run in a child process (isolation.hpp): session's isolated mode loads
// and runs through these.
#include "rknnop/host/engine.hpp"
#include "rknnop/host/loader.hpp"

#include <string>

namespace rknnop::host::child_io {

// A library inspected here (op_library::inspect), to be loaded in a child process.
struct child_library {
  std::string path;    ///< as the user gave it
  std::string origin;  ///< "M.rknn, x86-64 library section": where the op's code comes from, for messages
  std::vector<std::uint8_t> file;
  load_options options;  ///< op_yml resolved; execution ignored
  std::string op_name;
};

/// Loads the library in a child and returns its selected descriptor (open()'s steps 4-7 there).
kernel_descriptor_info load_in_child(const child_library& library);
/// Runs `spec` (its descriptor ignored, on_context refused) in a child that loads the library first.
node_result run_in_child(const child_library& library, const node_spec& spec);

}  // namespace rknnop::host::child_io
