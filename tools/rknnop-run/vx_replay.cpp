// SPDX-License-Identifier: MIT
// rknnop-run --replay DIR OP.rknnop|libop.so: the calls an instrumented RKNN v1 kernel library
// recorded on the board (RKNNOP_RECORD=<dir>, detail/openvx/record.hpp), run again on the PC through
// the host runtime and compared bit for bit (docs/running.md §3).

#include "vx_replay.hpp"

#include "cli.hpp"  // tools/common: terminal_text, usage_error, exit_failure
#include "record_manifest.hpp"

#include <rknnop/host/error.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/npy.hpp>
#include <rknnop/host/param_value.hpp>
#include <rknnop/float16.hpp>
#include <rknnop/host/session.hpp>
#include <rknnop/vx_type.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace rknnop_run {
namespace {

using namespace rknnop::host;
using rknnop::tools::terminal_text;

// The build-ids of the op's libraries this build made: the file given, and the libraries beside a
// container or under its build folder (<out>/<arch>/lib<op>.so, <out>/<arch>/instrumented/lib<op>.so).
std::vector<std::pair<std::string, std::string>> known_builds(const std::filesystem::path& op,
                                                              const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  std::vector<std::filesystem::path> candidates{op};
  std::filesystem::path out = op.parent_path();
  if (op.extension() == ".so" && op.parent_path().has_parent_path()) {
    const std::string arch = op.parent_path().filename().string();
    out = arch == "instrumented" ? op.parent_path().parent_path().parent_path() : op.parent_path().parent_path();
  }
  for (const char* arch : {"aarch64", "armhf", "x86_64"}) {
    candidates.push_back(out / arch / fmt::format("lib{}.so", lower));
    candidates.push_back(out / arch / "instrumented" / fmt::format("lib{}.so", lower));
  }
  return build_ids_of(candidates);
}

// A tensor of the record (the .npy beside the manifest, named by the recorder's pattern), checked
// against the manifest's VX type and shape.
npy_array record_array(const manifest& m, const std::string& stem, const std::string& role, std::size_t k,
                       rknnop::vx_type& type) {
  const std::string prefix = fmt::format("{}.{}.", role, k);
  const std::optional<rknnop::vx_type> t = rknnop::vx_type_from_name(m.get(prefix + "dtype"));
  if (!t || rknnop::vx_type_npy_descr(static_cast<std::int32_t>(*t)).empty())
    throw m.bad(prefix + "dtype", "a VX tensor type (VX_TYPE_FLOAT16, VX_TYPE_FLOAT32, VX_TYPE_INT8, ...)");
  type = *t;
  npy_array array = read_record_npy(m, stem, role, k, static_cast<npy_dtype>(*t),
                                    rknnop::vx_type_name(static_cast<std::int32_t>(type)));
  if (fmt::format("{}", fmt::join(array.shape, ",")) != m.get(prefix + "shape"))
    throw error(fmt::format("--replay: {}: shape ({}), but {}shape in {} says ({})",
                            record_npy_path(m, stem, role, k).string(), fmt::join(array.shape, ", "), prefix,
                            m.path.filename().string(), terminal_text(m.get(prefix + "shape").substr(0, 80))));
  return array;
}

// A param of the record: param.<k>.name, .dtype, .count and .data (its bytes in hex, as the kernel
// decoded it: an array's INT32 items, a bool or an enum as INT32).
void set_record_param(session& s, const manifest& m, std::size_t k) {
  const std::string prefix = fmt::format("param.{}.", k);
  const std::string& name = m.get(prefix + "name");
  const std::string& type_text = m.get(prefix + "dtype");
  const std::optional<rknnop::vx_type> type = rknnop::vx_type_from_name(type_text);
  const std::int32_t t = type ? static_cast<std::int32_t>(*type) : 0;
  const bool array = t == static_cast<std::int32_t>(rknnop::vx_type::array);
  const std::size_t item = array ? 4 : rknnop::vx_scalar_size(t);
  if (!type || item == 0 || item > 8) throw m.bad(prefix + "dtype", "a VX scalar type or VX_TYPE_ARRAY");
  const std::uint64_t count = m.number(prefix + "count", array ? 4096 : 1);
  if (!array && count != 1) throw m.bad(prefix + "count", "1");  // a scalar is one item
  const std::vector<std::uint8_t> bytes = m.hex(prefix + "data", count, item);
  if (array) {
    std::vector<std::int32_t> items(count);
    if (count) std::memcpy(items.data(), bytes.data(), bytes.size());
    s.set_param(name, make_param_value(name, t, std::span<const std::int32_t>(items), std::nullopt));
    return;
  }
  using rknnop::vx_type;
  const auto load = [&bytes]<class T>(T) {
    T v{};
    std::memcpy(&v, bytes.data(), sizeof v);
    return v;
  };
  // The scalar's bytes as the one table reads them (visit_scalar_type: BOOL a 4-byte vx_bool); any other
  // type (ENUM) as an int32.
  const auto set = [&]<class T>(std::type_identity<T>) {
    const T v = load(T{});
    if constexpr (std::is_same_v<T, rknnop::float16>)
      s.set_param(name, make_param_value(name, t, double(static_cast<float>(v))));
    else if constexpr (std::is_floating_point_v<T>)
      s.set_param(name, make_param_value(name, t, double(v)));
    else if (*type == vx_type::bool_)
      s.set_param(name, make_param_value(name, t, v != 0));
    else if constexpr (std::is_signed_v<T>)
      s.set_param(name, make_param_value(name, t, std::int64_t(v)));
    else
      s.set_param(name, make_param_value(name, t, std::uint64_t(v)));
  };
  if (!rknnop::visit_scalar_type(static_cast<std::int32_t>(*type), set)) set(std::type_identity<std::int32_t>{});
}

}  // namespace

int vx_replay(const std::string& dir, const std::string& op, const load_options& load) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw rknnop::tools::usage_error(
        fmt::format("--replay {}: not a folder (RKNNOP_RECORD's folder, copied from the board)", dir));
  const std::vector<std::filesystem::path> manifests = record_manifests(dir);
  session s = session::load(std::filesystem::path(op), load);
  const op_yml& yml = s.op();
  std::vector<npy_array> expected;  // the call's recorded outputs, compared after `run` returns
  replay_target t;
  t.dir = dir;
  t.op_type = yml.name;
  t.given = op;
  t.whose = "this op's";
  t.build_of = "the op's library";
  t.builds = "libraries";
  t.none_found = "none found beside " + op;
  t.known = known_builds(op, yml.name);
  const auto check = [&dir](const manifest& m) {
    const std::string* backend = m.find("backend");
    if (backend == nullptr || *backend != "rknn_v1")
      throw error(
          fmt::format("--replay: {}: a record of an RKNPU2 plugin (no backend=rknn_v1): replay it with the "
                      "plugin (rknnop-run --replay {} librkcst_<op>.so)",
                      m.path.string(), dir));
  };
  const auto run = [&](const manifest& m, const std::string& stem, bool board_ok) {
    const std::uint64_t n_inputs = m.number("inputs", 256), n_outputs = m.number("outputs", 256);
    const std::uint64_t n_params = m.number("params", 256);
    if (n_inputs != yml.inputs.size()) throw m.bad("inputs", fmt::format("{} (the op's inputs)", yml.inputs.size()));
    // Every param, every call: the session keeps a param set by an earlier call.
    if (n_params != yml.params.size()) throw m.bad("params", fmt::format("{} (the op's params)", yml.params.size()));
    if (board_ok && n_outputs != yml.outputs.size())
      throw m.bad("outputs", fmt::format("{} (the op's outputs)", yml.outputs.size()));
    for (std::size_t k = 0; k < n_inputs; ++k) {
      rknnop::vx_type type{};
      npy_array array = record_array(m, stem, "input", k, type);
      const std::string& name = m.get(fmt::format("input.{}.name", k));
      s.set_input(name, array, type);
    }
    for (std::size_t k = 0; k < n_params; ++k) set_record_param(s, m, k);
    expected.clear();
    std::vector<std::string> names;
    for (std::size_t k = 0; k < n_outputs; ++k) {
      rknnop::vx_type type{};
      expected.push_back(record_array(m, stem, "output", k, type));
      names.push_back(m.get(fmt::format("output.{}.name", k)));
      s.set_output_shape(names.back(), expected.back().shape, type);
    }
    replayed_call c;
    c.label = "call " + m.get("call");  // digits: checked by replay_calls
    try {
      (void)s.run();
    } catch (const error& e) {
      c.failure = e.detail();
      return c;
    }
    const auto output = [](const npy_array& a) {
      return replay_output{std::string(npy_descr(a.dtype)), a.dtype, a.shape, &a.data};
    };
    for (std::size_t k = 0; k < n_outputs; ++k) {
      c.names.push_back(terminal_text(names[k]));
      c.recorded.push_back(output(expected[k]));
      c.pc.push_back(output(s.output(names[k]).array));
    }
    return c;
  };
  return replay_calls(t, manifests, check, run);
}

}  // namespace rknnop_run
