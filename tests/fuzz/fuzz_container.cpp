// SPDX-License-Identifier: MIT
// .rknnop container reading: any input either parses or throws rknnop::host::error; whatever parses
// re-serializes byte for byte, and the reported section locations point at the section bytes.
// Then the load path up to dlopen: validate_container is what `inspect --verify` and `pack` run and
// what the loader runs of the host's section before it loads it (container_op, check_library_for_op
// with its check_elf_structure). dlopen itself is not called here: the loader runs it in a probe
// process first (tests/host/test_hostile_files.cpp loads corrupt libraries that way), and a fuzzer
// that forked per input would spend its time in fork.
#include "fuzz_util.hpp"

#include <rknnop/host/container.hpp>
#include <rknnop/host/validate.hpp>

#include <algorithm>
#include <span>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rknnop::host;
  const std::span<const std::uint8_t> bytes(data, size);
  std::vector<section_location> locations;
  container parsed;
  try {
    parsed = parse_container(bytes, "fuzz.rknnop", &locations);
  } catch (const error& e) {
    rknnop::fuzz::expect_clean_error(e);
    return 0;
  }
  const std::vector<std::uint8_t> written = serialize_container(parsed);
  RKNNOP_FUZZ_EXPECT(std::ranges::equal(written, bytes), "re-serialized container differs from the input");

  const auto layout = section_layout(parsed.version);
  RKNNOP_FUZZ_EXPECT(locations.size() == layout.size());
  for (std::size_t i = 0; i < locations.size(); ++i) {
    const section_location& at = locations[i];
    RKNNOP_FUZZ_EXPECT(at.kind == layout[i]);
    RKNNOP_FUZZ_EXPECT(at.offset <= size && at.size <= size - at.offset);
    RKNNOP_FUZZ_EXPECT(std::ranges::equal(bytes.subspan(at.offset, at.size), parsed.section(at.kind)));
    RKNNOP_FUZZ_EXPECT(!section_description(at.kind).empty());
  }
  if (parsed.version == 1) RKNNOP_FUZZ_EXPECT(parsed.lib_armhf.empty());

  // The validation: problems are one clean line each, never a crash; the details name every section.
  const container_report report = validate_container(parsed, "fuzz.rknnop");
  for (const std::string& p : report.problems)
    RKNNOP_FUZZ_EXPECT_MSG(!p.empty() && p == escape_nonprintable(p), "a problem is not one escaped line", p);
  for (const section_kind kind : layout) RKNNOP_FUZZ_EXPECT(!report.details[static_cast<std::size_t>(kind)].empty());

  // A parsed container is also valid input with a location-less call.
  const container again = parse_container(written, "again.rknnop");
  for (const section_kind kind : all_section_kinds) RKNNOP_FUZZ_EXPECT(again.section(kind) == parsed.section(kind));
  return 0;
}
