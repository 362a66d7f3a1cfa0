// SPDX-License-Identifier: MIT
// The readers of recorded .npy files (recorded_npy.hpp) on hostile files: the board driver's strict
// reader and the PC drivers' (parse_npy) must both refuse each, without crashing, hanging or allocating
// what the header claims, and refuse the shapes both see with the same message; a good file must read
// the same through both. Prints one line per case; exit 1 when one fails.
#include "recorded_npy.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using conformance::read_npy_host;
using conformance::read_npy_strict;
using conformance::recorded_tensor;

int failures = 0;

void fail(const std::string& what) {
  std::printf("rknnop: test_recorded_npy: %s\n", what.c_str());
  ++failures;
}

// A .npy 1.0 file of this header dict, padded as numpy pads it, and `data` bytes.
std::string npy(const std::string& dict, std::size_t data) {
  std::string header = dict;
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string file = std::string("\x93NUMPY\x01\x00", 8);
  file += static_cast<char>(header.size() & 0xff);
  file += static_cast<char>(header.size() >> 8);
  return file + header + std::string(data, '\x01');
}

std::string write(const std::filesystem::path& dir, const std::string& name, const std::string& bytes) {
  const std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

template <class Read>
std::string refusal(Read read, const std::string& file) {
  try {
    (void)read(file);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// Both readers refuse `file`; `same`: with the same message.
void expect_refused(const std::string& name, const std::string& file, bool same) {
  const std::string strict = refusal(read_npy_strict, file), host = refusal(read_npy_host, file);
  if (strict.empty()) fail(name + ": the strict (board) reader accepted it");
  if (host.empty()) fail(name + ": the host reader accepted it");
  if (same && strict != host) fail(name + ": different messages: '" + strict + "' and '" + host + "'");
  std::printf("%-34s strict: %s\n%-34s host:   %s\n", name.c_str(), strict.c_str(), "", host.c_str());
}

}  // namespace

int main() {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("rknnop-test-recorded-npy." + std::to_string(static_cast<long>(getpid())));
  std::filesystem::create_directories(dir);
  const auto f = [&](const std::string& name, const std::string& dict, std::size_t data) {
    return write(dir, name + ".npy", npy(dict, data));
  };

  // The good files: the form run-demo-model.sh's records have.
  for (const auto& [descr, size] : {std::pair<const char*, std::size_t>{"<f4", 4}, {"<f2", 2}}) {
    const std::string file =
        f(std::string("good") + descr[2],
          std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (1, 3, 2, 2), }", 12 * size);
    try {
      const recorded_tensor a = read_npy_strict(file), b = read_npy_host(file);
      if (a.type != b.type || a.shape != b.shape || a.data != b.data ||
          a.shape != std::vector<std::uint32_t>{1, 3, 2, 2})
        fail(file + ": the readers disagree");
      else
        std::printf("%-34s accepted by both\n", descr);
    } catch (const std::exception& e) {
      fail(std::string(descr) + ": refused: " + e.what());
    }
  }

  // The shape rules both readers apply (checked_shape): the same message.
  expect_refused("overflowing count",
                 f("overflow", "{'descr': '<f4', 'fortran_order': False, 'shape': (65536, 65536, 65536, 65536), }", 0),
                 false);
  expect_refused("rank 10",
                 f("rank10", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 1, 1, 1), }", 4),
                 true);
  expect_refused("rank 0", f("rank0", "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 4), true);
  expect_refused("zero dim", f("zero", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 0), }", 0), true);
  expect_refused("dim over uint32", f("wide", "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296,), }", 0),
                 false);
  expect_refused("data not the shape's", f("short", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 20),
                 false);
  // The header's syntax (each reader in its own words).
  expect_refused("negative dim",
                 f("negative", "{'descr': '<f4', 'fortran_order': False, 'shape': (-18446744073709551615, 2), }", 0),
                 false);
  expect_refused("dims without a comma", f("nocomma", "{'descr': '<f4', 'fortran_order': False, 'shape': (2 3), }", 24),
                 false);
  expect_refused("descr in another key's value",
                 f("smuggled", "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'x': \"'descr': '<f4'\", }", 8),
                 false);
  expect_refused("descr <f8", f("f8", "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", 16), false);
  expect_refused("duplicate key",
                 f("duplicate", "{'descr': '<f8', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 8), false);
  expect_refused("duplicate good key",
                 f("duplicate2", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'shape': (2,), }", 8), false);
  expect_refused("another key", f("extra", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1, }", 8),
                 false);
  expect_refused("fortran order", f("fortran", "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", 24),
                 false);
  expect_refused("no shape", f("noshape", "{'descr': '<f4', 'fortran_order': False, }", 4), false);
  expect_refused("text after the dict", f("after", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x", 8),
                 false);
  expect_refused("dim with a sign", f("plus", "{'descr': '<f4', 'fortran_order': False, 'shape': (+2,), }", 8), false);
  {
    std::string cut = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 8);
    cut[8] = '\xff';  // a header length beyond the file
    expect_refused("header length beyond the file", write(dir, "cut.npy", cut), false);
  }
  // Not regular files: refused at once (a FIFO is not waited on).
  const std::string fifo = (dir / "fifo.npy").string();
  if (mkfifo(fifo.c_str(), 0600) == 0) expect_refused("a FIFO", fifo, true);
  expect_refused("a directory", dir.string(), true);
  expect_refused("a missing file", (dir / "missing.npy").string(), true);

  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  std::printf("%s\n", failures ? "FAILED" : "all refused or read as expected");
  return failures ? 1 : 0;
}
