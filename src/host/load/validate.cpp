// SPDX-License-Identifier: MIT
#include "rknnop/host/validate.hpp"

#include "rknnop/host/elf.hpp"
#include "rknnop/host/error.hpp"
#include <rknnop/vx_type.hpp>

#include <rknnop/board_abi.hpp>
#include <rknnop/container_format.hpp>
#include <rknnop/openvx.h>
#include <rknnop/schema_marker.hpp>

#include <fmt/format.h>

namespace rknnop::host {

namespace {

std::string_view text_of(std::span<const std::uint8_t> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

std::string direction_name(std::int32_t d) {
  return d == VX_INPUT ? "VX_INPUT" : d == VX_OUTPUT ? "VX_OUTPUT" : fmt::format("direction {}", d);
}

std::string type_text(std::int32_t t) {
  const std::string_view name = vx_type_name(t);
  return name.empty() ? fmt::format("type 0x{:x}", t) : std::string(name);
}

/// The first `class X(...)` line of the .py, trimmed; empty when none.
std::string python_class_line(std::string_view py) {
  std::size_t at = 0;
  while (at < py.size()) {
    auto end = py.find('\n', at);
    if (end == std::string_view::npos) end = py.size();
    std::string_view line = py.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.starts_with("class ")) return std::string(line);
    at = end + 1;
  }
  return {};
}

/// "ResizeArea" from "class ResizeArea(RKNNCustomOP):".
std::string python_class_name(std::string_view line) {
  line.remove_prefix(std::string_view("class ").size());
  const auto end = line.find_first_of("(: ");
  return std::string(line.substr(0, end));
}

struct library_slot {
  section_kind kind;
  std::uint16_t machine;
  int bits;
};

constexpr library_slot library_slots[] = {
    {section_kind::lib_x86_64, elf_machine::x86_64, 64},
    {section_kind::lib_aarch64, elf_machine::aarch64, 64},
    {section_kind::lib_armhf, elf_machine::arm, 32},
};

bool targets_armhf(const std::optional<op_yml>& op) {
  if (!op || !op->target_platform) return false;
  // The boards' userlands (docs/abi.md §1): RK1806's is 32-bit like RV1109/RV1126's.
  return *op->target_platform == "RK1806" || *op->target_platform == "RV1109" || *op->target_platform == "RV1126";
}

// An empty library section: a problem for x86-64 (the toolkit's simulator), a missing section for
// the board library the op's target_platform needs, nothing for the other.
void check_empty_library(const library_slot& slot, const std::optional<op_yml>& op, std::string_view source,
                         std::string_view what, std::vector<std::string>& problems, std::vector<std::string>& missing) {
  const bool needed = slot.kind == section_kind::lib_x86_64 ||
                      (slot.kind == section_kind::lib_aarch64 && !targets_armhf(op)) ||
                      (slot.kind == section_kind::lib_armhf && targets_armhf(op));
  if (needed)
    (slot.kind == section_kind::lib_x86_64 ? problems : missing)
        .push_back(fmt::format(
            "{}: {} is empty{}", source, what,
            slot.kind == section_kind::lib_x86_64
                ? " (the toolkit's PC simulator needs it)"
                : fmt::format(" but target_platform is {}",
                              op && op->target_platform ? *op->target_platform : std::string("RK1808 (default)"))));
}

// The kernel list of a library section checked against op.yml (check_library_for_op); without an
// op.yml, or without the list, the ELF structure only.
void check_library_section(std::span<const std::uint8_t> bytes, const elf_info& info, const std::optional<op_yml>& op,
                           std::string_view source, std::string_view what, std::string_view label,
                           std::vector<std::string>& problems) {
  if (op && !info.exports_kernel_list(op->name)) {
    // The structure first: a corrupt library (a symbol's name bytes among them) is that one problem,
    // not also a kernel list it lost to the corruption (one line per failure, as every tool).
    check_elf_structure(bytes, label);
    const std::string symbol = kernel_list_symbol(op->name);
    problems.push_back(fmt::format("{}: {} does not export {} (op.yml name is '{}'){}", source, what, symbol, op->name,
                                   info.find_export(symbol) ? "; it is not a data object" : ""));
  } else if (op) {
    check_library_for_op(bytes, *op, std::nullopt, label);
  } else {
    check_elf_structure(bytes, label);
  }
}

// One library section's checks in the order inspect prints them; returns its detail line.
std::string library_detail(const container& c, const library_slot& slot, const std::optional<op_yml>& op,
                           std::string_view source, std::vector<std::string>& problems,
                           std::vector<std::string>& missing) {
  const auto& bytes = c.section(slot.kind);
  const std::string what = fmt::format("{} section", section_description(slot.kind));
  if (bytes.empty()) {
    check_empty_library(slot, op, source, what, problems, missing);
    return "empty";
  }
  const std::string label = fmt::format("{} ({})", source, what);
  std::string detail;
  try {
    const elf_info info = inspect_elf(bytes, label);
    detail = info.summary();
    if (info.machine != slot.machine || info.bits != slot.bits) {
      problems.push_back(fmt::format("{}: {} holds an {}, expected ELF{} {}", source, what, info.summary(), slot.bits,
                                     machine_name(slot.machine)));
      return detail;
    }
    if (!info.is_shared_object()) {
      problems.push_back(fmt::format("{}: {} holds an {}, expected a shared object", source, what, info.summary()));
      return detail;
    }
    if (op) {
      const std::string symbol = kernel_list_symbol(op->name);
      detail += info.exports_kernel_list(op->name) ? fmt::format(", exports {}", symbol)
                                                   : fmt::format(", does NOT export {}", symbol);
    }
    std::string needs;
    for (const std::string* v : {&info.max_glibc, &info.max_glibcxx, &info.max_cxxabi})
      if (!v->empty()) needs += (needs.empty() ? "" : " ") + *v;
    detail += needs.empty() ? std::string(", needs no versioned glibc/libstdc++ symbols") : ", needs " + needs;
    if (slot.kind != section_kind::lib_x86_64) {
      for (const auto& [need, limit] :
           {std::pair{info.max_glibc, board_abi::max_glibc}, std::pair{info.max_glibcxx, board_abi::max_glibcxx},
            std::pair{info.max_cxxabi, board_abi::max_cxxabi}}) {  // the boards' ceiling, docs/abi.md §1
        if (!need.empty() && compare_symbol_versions(need, limit) > 0)
          problems.push_back(
              fmt::format("{}: {} needs {} but board images provide at most {}; "
                          "build with an older toolchain or avoid the symbol",
                          source, what, need, limit));
      }
    }
    check_library_section(bytes, info, op, source, what, label, problems);
  } catch (const error& e) {
    if (detail.empty()) detail = "not a usable ELF";
    problems.push_back(e.detail());
  }
  return detail;
}

}  // namespace

void throw_missing_kernel_list(std::span<const elf_symbol> exported, const op_yml& op, std::string_view label) {
  std::string others;
  for (const elf_symbol& e : exported)
    if (e.name.starts_with("vx_kernel_") && e.name.ends_with("_list")) others += (others.empty() ? "" : ", ") + e.name;
  throw error(
      fmt::format("{}: does not export {} (op.yml name is '{}'){}", label, kernel_list_symbol(op.name), op.name,
                  others.empty() ? std::string("; it exports no vx_kernel_*_list at all") : "; it exports " + others));
}

std::uint32_t select_kernel_index(std::size_t count, const op_yml& op, std::optional<std::uint32_t> kernel_index,
                                  std::string_view symbol, std::string_view label) {
  if (count == 0)
    throw error(
        fmt::format("{}: {} is empty: its first entry is NULL (expected {{&cpu_descriptor, &vx_descriptor, NULL}})",
                    label, symbol));
  const std::uint32_t index = kernel_index.value_or(op.kernel_index.value_or(0));
  if (index >= count)
    throw error(fmt::format("{}: kernel_index {} is out of range: {} has {} kernel{} (0..{})", label, index, symbol,
                            count, count == 1 ? "" : "s", count - 1));
  return index;
}

std::string check_descriptor_for_op(const kernel_descriptor_fields& d, const op_yml& op, std::uint32_t index,
                                    std::string_view symbol, std::string_view label) {
  // The board runtime writes the enumeration into the descriptor it selects; a descriptor in
  // read-only memory (declared const/constexpr) would crash it there, so say so here instead.
  if (!d.writable)
    throw error(
        fmt::format("{}: descriptor {} of {} is in read-only memory; the runtime writes its 'enumeration' field, so "
                    "it must not be const/constexpr",
                    label, index, symbol));
  const std::string_view field = d.name_field;
  const std::size_t name_length = std::min(field.find('\0'), field.size());
  if (name_length == 0 || name_length == field.size())
    throw error(fmt::format("{}: descriptor {} of {} has {} name", label, index, symbol,
                            name_length == 0 ? "an empty" : "an unterminated (256-character)"));
  const std::string_view name = field.substr(0, name_length);
  // rknnop-generated descriptors carry the schema fingerprint after the name's terminator; an op.yml
  // generated from a different version of the struct would bind params by the wrong positions.
  std::string_view tail = field.substr(name_length + 1);
  tail = tail.substr(0, std::min(tail.find('\0'), tail.size()));
  if (op.schema_fingerprint && tail.starts_with(schema_marker) &&
      tail.substr(schema_marker.size()) != *op.schema_fingerprint)
    throw error(
        fmt::format("{}: op.yml was generated from a different op struct than the library (op.yml schema {}, library "
                    "schema {}); rebuild both from the same source",
                    label, *op.schema_fingerprint, tail.substr(schema_marker.size())));
  const std::size_t expected = op.parameter_count();
  if (d.num_params != expected)
    throw error(fmt::format(
        "{}: kernel '{}' (index {} of {}) has numParams {} but op.yml declares {} ({} input{}, {} "
        "output{}, {} param{}); the runtime rejects such a node",
        label, name, index, symbol, d.num_params, expected, op.inputs.size(), op.inputs.size() == 1 ? "" : "s",
        op.outputs.size(), op.outputs.size() == 1 ? "" : "s", op.params.size(), op.params.size() == 1 ? "" : "s"));
  if (expected > 0 && !d.has_parameters)
    throw error(fmt::format("{}: kernel '{}' has numParams {} but a NULL parameter table", label, name, expected));
  // The table must say what op.yml says, in op.yml's order.
  for (std::size_t i = 0; i < expected; ++i) {
    const kernel_parameter& p = d.parameters[i];
    std::string_view role;
    const op_yml_entry* entry = nullptr;
    std::int32_t want_direction = VX_INPUT, want_type = VX_TYPE_TENSOR;
    if (i < op.inputs.size()) {
      role = "input";
      entry = &op.inputs[i];
    } else if (i < op.inputs.size() + op.outputs.size()) {
      role = "output";
      entry = &op.outputs[i - op.inputs.size()];
      want_direction = VX_OUTPUT;
    } else {
      role = "param";
      entry = &op.params[i - op.inputs.size() - op.outputs.size()];
      want_type = entry->type == VX_TYPE_ARRAY ? VX_TYPE_ARRAY : VX_TYPE_SCALAR;
    }
    if (p.direction != want_direction || p.data_type != want_type)
      throw error(fmt::format("{}: kernel '{}' parameter {} is {{{}, {}}} but op.yml's {} '{}' ({}) needs {{{}, {}}}",
                              label, name, i, direction_name(p.direction), type_text(p.data_type), role, entry->name,
                              type_text(entry->type), direction_name(want_direction), type_text(want_type)));
  }
  return std::string(name);
}

void check_library_for_op(std::span<const std::uint8_t> library, const op_yml& op,
                          std::optional<std::uint32_t> kernel_index, std::string_view label) {
  const std::string symbol = kernel_list_symbol(op.name);
  const std::optional<elf_kernel_list> list = read_kernel_list(library, symbol, label);
  if (!list) throw_missing_kernel_list(inspect_elf(library, label).exported, op, label);
  const std::uint32_t index = select_kernel_index(list->entries.size(), op, kernel_index, symbol, label);
  const elf_kernel_descriptor& d = list->entries[index];
  std::vector<kernel_parameter> rows;
  for (const auto& [direction, data_type, state] : d.parameters) rows.push_back({direction, data_type, state});
  (void)check_descriptor_for_op({d.name_field, d.writable, d.num_params, d.has_parameters, rows}, op, index, symbol,
                                label);
}

std::vector<std::string> library_problems(const container& c, const op_yml& op, std::string_view source) {
  std::vector<std::string> problems, missing;
  const std::optional<op_yml> known(op);
  for (const library_slot& slot : library_slots)
    if (!c.section(slot.kind).empty()) (void)library_detail(c, slot, known, source, problems, missing);
  for (std::string& p : problems) p = escape_nonprintable(p);
  return problems;
}

// Each container section in file order, as inspect prints them: a case per section kind, kept as one
// table (each case is a few lines; library sections go to library_detail).
container_report validate_container(const container& c, std::string_view source) {
  container_report report;
  std::vector<std::string>& problems = report.problems;
  try {
    report.op = container_op(c, source);
  } catch (const error& e) {
    problems.push_back(e.detail());
  }
  const std::optional<op_yml>& op = report.op;
  for (const section_kind kind : section_layout(c.version)) {
    const auto& bytes = c.section(kind);
    std::string& detail = report.details[static_cast<std::size_t>(kind)];
    switch (kind) {
      case section_kind::shader:
        if (bytes.empty()) {
          detail = "empty";
          if (op && op->kernel_index.value_or(0) != 0)
            problems.push_back(
                fmt::format("{}: op.yml selects kernel_index {} (a shader kernel) but the shader section is empty",
                            source, *op->kernel_index));
        } else if (container_format::starts_with(bytes, container_format::shader_magic)) {
          detail = "Vivante shader binary (SHDR)";
        } else {
          detail = "unknown data (no SHDR magic)";
          problems.push_back(fmt::format("{}: shader section does not start with \"SHDR\"", source));
        }
        break;
      case section_kind::lib_x86_64:
      case section_kind::lib_aarch64:
      case section_kind::lib_armhf:
        for (const library_slot& slot : library_slots)
          if (slot.kind == kind) detail = library_detail(c, slot, op, source, problems, report.missing_sections);
        break;
      case section_kind::op_yml:
        detail = op ? fmt::format("op {}: {} input(s), {} output(s), {} param(s), kernel_index {}", op->name,
                                  op->inputs.size(), op->outputs.size(), op->params.size(),
                                  op->kernel_index ? fmt::format("{}", *op->kernel_index) : std::string("absent"))
                    : std::string("invalid");
        break;
      case section_kind::op_py: {
        const std::string line = python_class_line(text_of(bytes));
        detail = line.empty() ? std::string("no class line") : error(line).detail();
        if (line.empty())
          problems.push_back(fmt::format("{}: .py section has no 'class ...' line", source));
        else if (op && python_class_name(line) != op->name)
          problems.push_back(
              fmt::format("{}: .py class is '{}' but op.yml name is '{}'", source, python_class_name(line), op->name));
        break;
      }
    }
  }
  // One line each, whatever the sections held (class names, symbol names come from the file).
  for (std::string& p : problems) p = escape_nonprintable(p);
  for (std::string& p : report.missing_sections) p = escape_nonprintable(p);
  return report;
}

}  // namespace rknnop::host
