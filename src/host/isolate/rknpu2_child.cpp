// SPDX-License-Identifier: MIT
// The tool's side of an RKNPU2 plugin run (rknpu2_run.hpp): the plugin checked here before anything
// of it runs, then described and run in the node runner through the same requests, watch, limits and
// crash reports as every op (node_child.cpp's call_in_child; the runner's side is rknpu2_runner.cpp).
#include "rknnop/host/rknpu2_run.hpp"

#include "rknnop/host/elf.hpp"
#include "rknnop/host/error.hpp"
#include "rknnop/host/file_io.hpp"
#include "rknnop/host/memory_budget.hpp"

#include <limits>

#include <fmt/format.h>

#include "isolate/node_child.hpp"
#include "isolate/node_wire.hpp"
#include "isolate/rknpu2_runner.hpp"

namespace rknnop::host {

struct rknpu2_plugin_runner::state {
  child_io::child_library library;
  child_io::runner_slot runner;
};

rknpu2_plugin_runner::rknpu2_plugin_runner(const std::filesystem::path& plugin) : state_(std::make_unique<state>()) {
  const std::string label = plugin.string();
  std::vector<std::uint8_t> bytes = read_file(plugin);
  const elf_info info = inspect_elf(bytes, label);  // not an ELF: named here
  check_loadable_on_host(info, label);              // another machine's plugin: named here, never loaded
  if (!info.is_shared_object() || info.find_export("get_rknn_custom_op") == nullptr)
    throw error(fmt::format("{}: not an RKNPU2 plugin: it does not export get_rknn_custom_op", label));
  child_io::child_library& library = state_->library;
  library.label = label;
  library.op_name = plugin.filename().string();
  library.origin = fmt::format("RKNPU2 plugin {}", label);
  library.file = std::move(bytes);
}

rknpu2_plugin_runner::~rknpu2_plugin_runner() = default;

rknpu2_plugin_description rknpu2_plugin_runner::describe() {
  const std::vector<std::uint8_t> reply = child_io::call_in_child(
      state_->library, state_->runner, child_io::runner_command::rknpu2,
      [](child_io::wire_writer& w) { w.put(child_io::rknpu2_request::describe); }, 0, false);
  child_io::wire_reader r(reply);
  (void)r.get<std::uint32_t>();
  (void)r.get<std::uint8_t>();
  rknpu2_plugin_description d;
  d.op_type = r.get_string();
  d.text = r.get_string();
  d.has_infer = r.get<std::uint8_t>() != 0;
  // The runner's messages name the op by its type from now on (a plugin's line names it already).
  if (!d.op_type.empty()) state_->library.op_name = d.op_type;
  return d;
}

std::vector<rknpu2_tensor> rknpu2_plugin_runner::run(const std::vector<rknpu2_attr>& attrs,
                                                     const std::vector<rknpu2_tensor>& inputs,
                                                     std::uint32_t output_count, std::string* plugin_stderr,
                                                     const std::vector<rknpu2_tensor>* given_outputs) {
  if (given_outputs != nullptr && given_outputs->size() != output_count)
    throw error(fmt::format("{}: {} output attrs given for {} outputs", state_->library.label, given_outputs->size(),
                            output_count));
  std::uint64_t tensor_bytes = 0;
  for (const rknpu2_tensor& t : inputs) tensor_bytes += t.data.size();
  const std::vector<std::uint8_t> reply = child_io::call_in_child(
      state_->library, state_->runner, child_io::runner_command::rknpu2,
      [&](child_io::wire_writer& w) {
        w.put(child_io::rknpu2_request::run);
        w.put(static_cast<std::uint64_t>(attrs.size()));
        for (const rknpu2_attr& a : attrs) {
          w.put_string(a.name);
          w.put(a.dtype);
          w.put(a.n_elems);
          w.put_bytes(std::as_bytes(std::span(a.data)));
        }
        w.put(static_cast<std::uint64_t>(inputs.size()));
        for (const rknpu2_tensor& t : inputs) {
          w.put(t.type);
          w.put_vector(t.dims);
          w.put_bytes(std::as_bytes(std::span(t.data)));
          w.put(t.fmt);
        }
        w.put(output_count);
        w.put(static_cast<std::uint8_t>(given_outputs != nullptr ? 1 : 0));
        if (given_outputs != nullptr)
          for (const rknpu2_tensor& t : *given_outputs) {
            w.put(t.type);
            w.put_vector(t.dims);
            w.put(t.fmt);
          }
      },
      tensor_bytes, true);
  child_io::wire_reader r(reply);
  (void)r.get<std::uint32_t>();
  (void)r.get<std::uint8_t>();
  const auto count = r.get<std::uint64_t>();
  const std::string& op = state_->library.op_name;
  if (count != output_count)
    throw error(fmt::format("{} ({}): the node runner's reply is forged: {} output(s) for the {} requested", op,
                            state_->library.origin, count, output_count));
  std::vector<rknpu2_tensor> outputs;
  std::uint64_t total = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    rknpu2_tensor t;
    t.type = r.get<std::int32_t>();
    t.dims = r.get_vector<std::uint32_t>();
    const std::span<const std::uint8_t> data = r.get_bytes();
    total += data.size();
    if (total > memory_budget())
      throw error(fmt::format("{} ({}): the outputs hold more than the memory budget ({} bytes)", op,
                              state_->library.origin, memory_budget()));
    t.data.assign(data.begin(), data.end());
    outputs.push_back(std::move(t));
  }
  std::string said = r.get_string();
  if (plugin_stderr != nullptr) *plugin_stderr = std::move(said);
  return outputs;
}

}  // namespace rknnop::host
