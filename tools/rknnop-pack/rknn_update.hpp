// SPDX-License-Identifier: MIT
#pragma once
// rknnop-pack's .rknn model subcommands (docs/rknn-model.md §5):
//   update MODEL.rknn Op.rknnop -o NEW.rknn   replace an op's shader and libraries with a container's
//   extract MODEL.rknn [--op NAME] -o Op.rknnop   the op's embedded blobs as a .rknnop
//   wrap Op.rknnop --input-shape NAME=1,32,32,3 --param NAME=VALUE -o MODEL.rknn   a one-node model

#include <CLI/CLI.hpp>

#include <initializer_list>
#include <string>
#include <vector>

namespace rknnop_pack {

/// Throws when `out` is one of `inputs`: the same path, or another name of the same file (a hard
/// link): the output would replace an input before it is read. Empty inputs are skipped.
void check_output_is_not_input(const std::string& out, std::initializer_list<const std::string*> inputs);

class model_commands {
public:
  /// Adds the subcommands to `app`.
  explicit model_commands(CLI::App& app);
  /// True when one of them was given on the command line.
  [[nodiscard]] bool parsed() const;
  /// Runs it; throws rknnop::host::error on failure.
  [[nodiscard]] int run() const;

private:
  CLI::App* update_ = nullptr;
  CLI::App* extract_ = nullptr;
  CLI::App* wrap_ = nullptr;
  std::string model_, container_, output_, op_;
  std::vector<std::string> input_shapes_, output_shapes_, params_;
};

}  // namespace rknnop_pack
