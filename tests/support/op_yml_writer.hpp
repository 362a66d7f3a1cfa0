// SPDX-License-Identifier: MIT
#pragma once

// A test oracle: writes a parsed op.yml back as text through yaml-cpp's emitter, in the toolkit's key
// order. parse_op_yml(yaml_op_yml(x)) == x for every x the parser accepts (tests/host, fuzz_op_yml).
// Not rknnop's op.yml writer: that is the generator's (<rknnop/emit/op_yml.hpp>).

#include <rknnop/host/op_yml.hpp>

#include <string>

namespace rknnop_test {

[[nodiscard]] std::string yaml_op_yml(const rknnop::host::op_yml& op);

}  // namespace rknnop_test
