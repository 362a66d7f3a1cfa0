// SPDX-License-Identifier: MIT
// Every reader of a model or an op.yml is linear in its input (issue 30 item 4): each case reads an
// input and the same shape ten times larger, and fails when the CPU time grows like the square of
// the size (a ratio near 100) rather than like the size (near 10). A ratio, not an absolute time,
// and CPU time of this process, so that a loaded machine does not make it flaky; 60 leaves room for
// cache effects (the sizes are chosen so that both inputs' structures exceed the caches; a small
// input that fits gives ratios near 40 for a linear reader) and still catches a quadratic step (the cases before the
// fix: 18 s for 100k keys, 150 s for 100k op descriptions, 13.7 s for 100k nodes x 3000 ops).
#include <rknnop/host/memory_budget.hpp>
#include <rknnop/host/op_yml.hpp>
#include <rknnop/host/rknn_model.hpp>
#if RKNNOP_TEST_HAS_VXC
#include <rknnop/vxc/vxc.hpp>

#include <malloc.h>  // mallopt
#endif

#include "test_util.hpp"

#include <algorithm>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace {

using namespace rknnop::host;

// Linear is ~10 for 10x the input and quadratic ~100; 60, because a linear reader measured 41.5 once
// (LinearTime.ObjectWithManyKeys, a 2-core CI run with ctest -j2: the small input's 17 ms share the
// caches with the other test), and a quadratic step still measures well above it.
constexpr double quadratic_ratio = 60;

// Under AddressSanitizer (a Debug build, 10-30x slower) each reader runs once, on the smaller input:
// the memory checks of the sanitizers see every code path the large input takes, and the ratio is the
// native build's check (scripts/test.sh's native step), where CPU time means something. So under an
// emulator (the cross step's qemu: the readers are the PC's tools, with no code of their own per
// instruction set, and qemu's CPU time includes its translation of each new block).
#if defined(RKNNOP_SANITIZED_BUILD_TESTS) || defined(RKNNOP_TEST_EMULATOR)
constexpr bool measure_ratio = false;
#else
constexpr bool measure_ratio = true;
#endif

// The least CPU time of three calls of `work`, in seconds.
double cpu_seconds(const std::function<void()>& work) {
  double best = 1e9;
  for (int i = 0; i < 3; ++i) {
    const std::clock_t start = std::clock();
    work();
    best = std::min(best, static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC);
  }
  return best;
}

// `make(n)` and `make(10 n)` read by `read`: the ratio of their CPU times.
void expect_linear(const char* what, std::size_t n, const std::function<std::string(std::size_t)>& make,
                   const std::function<void(const std::string&)>& read) {
  // The large inputs exceed the JSON allowance of the default budget (16 MiB + 4 bytes a byte of
  // text); a given budget allows them.
  set_memory_budget(std::uint64_t{4} << 30);
  const std::string small = make(n);
  if (!measure_ratio) {
    read(small);
    return;
  }
  const std::string large = make(10 * n);
  const double t1 = cpu_seconds([&] { read(small); });
  const double t10 = cpu_seconds([&] { read(large); });
  const double ratio = t10 / std::max(t1, 1e-4);
  std::printf("%s: %zu bytes %.4f s, %zu bytes %.4f s, ratio %.1f\n", what, small.size(), t1, large.size(), t10, ratio);
  EXPECT_LT(ratio, quadratic_ratio) << what << ": 10x the input took " << ratio << "x the CPU time";
}

std::vector<std::uint8_t> model_bytes(std::string graph, std::string ops, std::size_t op_count) {
  std::vector<model_op_blobs> blobs(op_count);
  model_file f = build_model_file(std::move(graph), ops, blobs);
  return f.serialize();
}

void read_model(const std::string& text) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(text.data());
  (void)model::parse(std::span<const std::uint8_t>(p, text.size()), "m.rknn");
}

// A model around `graph` members after an empty node list, without custom ops.
std::string graph_model(const std::string& members) {
  const auto bytes = model_bytes(R"({"nodes": [], )" + members + "}", "[]", 0);
  return {bytes.begin(), bytes.end()};
}

std::string op_description(std::size_t i) {
  return fmt::format(R"({{"name": "Op{}", "inputs": {{"in": {{"type": "VX_TYPE_TENSOR"}}}}, )"
                     R"("outputs": {{"out": {{"type": "VX_TYPE_TENSOR"}}}}}})",
                     i);
}

TEST(LinearTime, ObjectWithManyKeys) {
  expect_linear(
      "an object of n keys", 100000,  // its hash set is out of the caches at both sizes
      [](std::size_t n) {
        std::string members = R"("extra": {)";
        for (std::size_t i = 0; i < n; ++i) members += fmt::format(R"({}"key{}": {})", i ? ", " : "", i, i);
        return graph_model(members + "}");
      },
      read_model);
}

// The hash of a large object's keys still finds a repeated key, at any distance and past a table growth.
TEST(LinearTime, ADuplicateKeyIsFoundInSmallAndLargeObjects) {
  for (const std::size_t n : {3, 15, 16, 17, 100, 5000}) {
    for (const std::size_t again : {std::size_t{0}, n / 2, n - 1}) {
      std::string members = R"("extra": {)";
      for (std::size_t i = 0; i < n; ++i) members += fmt::format(R"({}"key{}": {})", i ? ", " : "", i, i);
      const std::string text = graph_model(fmt::format(R"({}, "key{}": 0}})", members, again));
      const std::string message = rknnop_test::error_of([&] { read_model(text); });
      EXPECT_NE(message.find(fmt::format("invalid JSON: the key 'key{}' appears twice in one object", again)),
                std::string::npos)
          << n << " keys: " << message;
    }
    EXPECT_NO_THROW(read_model(graph_model(fmt::format(R"("extra": {{"key{}": 0, "KEY{}": 1}})", n, n))));
  }
}

TEST(LinearTime, ArrayOfManyObjects) {
  expect_linear(
      "an array of n objects", 20000,
      [](std::size_t n) {
        std::string members = R"("extra": [)";
        for (std::size_t i = 0; i < n; ++i) members += i ? R"(, {"a": [1]})" : R"({"a": [1]})";
        return graph_model(members + "]");
      },
      read_model);
}

TEST(LinearTime, ManyOpDescriptions) {
  expect_linear(
      "n op descriptions", 4000,
      [](std::size_t n) {
        std::string ops = "[";
        for (std::size_t i = 0; i < n; ++i) ops += (i ? ", " : "") + op_description(i);
        const auto bytes = model_bytes(R"({"nodes": []})", ops + "]", n);
        return std::string(bytes.begin(), bytes.end());
      },
      read_model);
}

// n nodes naming n/30 custom ops (100k x 3000 in the issue), each node with its two connections.
TEST(LinearTime, ManyNodesAndOps) {
  expect_linear(
      "n nodes of n/30 ops", 4000,
      [](std::size_t n) {
        const std::size_t op_count = n / 30;
        std::string ops = "[";
        for (std::size_t i = 0; i < op_count; ++i) ops += (i ? ", " : "") + op_description(i);
        std::string nodes, connection, tensors;
        for (std::size_t i = 0; i < n; ++i) {
          nodes += fmt::format(R"({}{{"op": "OP{}", "name": "n{}"}})", i ? ", " : "", i % op_count, i);
          connection += fmt::format(
              R"({}{{"node_id": {}, "left": "input", "left_tensor_id": 0, "right_tensor": {{"type": "norm_tensor", "tensor_id": 0}}}}, )"
              R"({{"node_id": {}, "left": "output", "left_tensor_id": 0, "right_tensor": {{"type": "norm_tensor", "tensor_id": 1}}}})",
              i ? ", " : "", i, i);
        }
        const std::string graph = R"({"nodes": [)" + nodes + R"(], "norm_tensor": [{"tensor_id": 0, "size": [4]}, )" +
                                  R"({"tensor_id": 1, "size": [4]}], "connection": [)" + connection + "]}";
        const auto bytes = model_bytes(graph, ops + "]", op_count);
        return std::string(bytes.begin(), bytes.end());
      },
      read_model);
}

#if RKNNOP_TEST_HAS_VXC
// The shader check of rknnop-vxcheck on hostile .vx text, 1 MB and 10 MB: before, each unclosed kernel
// or __attribute__ scanned to the end of the file (1 MB: 9.6 s, 10 MB: minutes), each argument's
// problem repeated the kernel's name (1 MB: 12 GB) and each stray byte was a problem of its own.
// The check is a single pass: 10x the text in less than quadratic_ratio times the CPU time, as for
// the readers above (a 12x bound failed a linear check at 16.5x in CI: the 10 MB text leaves the
// caches that the 1 MB one fits; the scans before the fix took minutes for what took 9.6 s).
TEST(LinearTime, ShaderSignatureCheck) {
  // The parse's vectors of the 10 MB text are larger than glibc's largest mmap threshold (32 MiB), so
  // each call would map them afresh and fault every page in, while the 1 MB text's reuse the heap:
  // both from the heap, so that the ratio is the check's work, not the kernel's page faults.
  ::mallopt(M_MMAP_THRESHOLD, 1 << 30);
  ::mallopt(M_TRIM_THRESHOLD, 1 << 30);
  const rknnop::vxc::op_signature signature{"Hostile", {"input"}, {"output"}, {{"mode", rknnop::vx_type::int32}}};
  const auto repeated = [](std::string_view unit, std::size_t bytes) {
    std::string text;
    text.reserve(bytes + unit.size());
    while (text.size() < bytes) text += unit;
    return text;
  };
  const struct {
    const char* what;
    std::function<std::string(std::size_t)> make;
  } shapes[] = {
      {"unclosed kernels", [&](std::size_t bytes) { return repeated("__kernel void f(", bytes); }},
      {"unclosed attributes", [&](std::size_t bytes) { return repeated("__kernel __attribute__((", bytes); }},
      {"a long name and many arguments",
       [&](std::size_t bytes) {
         return "__kernel void " + std::string(bytes / 2, 'x') + "(" + repeated("a,", bytes / 2) + ")";
       }},
      {"stray bytes", [&](std::size_t bytes) { return std::string(bytes, '@'); }},
      {"kernels", [&](std::size_t bytes) { return repeated("__kernel void hostile(int a, int b) { }\n", bytes); }},
  };
  for (const auto& shape : shapes) {
    const std::string small = shape.make(std::size_t{1} << 20);
    if (!measure_ratio) {
      EXPECT_LT(rknnop::vxc::check_signature(signature, small, "hostile.vx").size(), 200u) << shape.what;
      continue;
    }
    const std::string large = shape.make(std::size_t{10} << 20);
    const auto check = [&](const std::string& text) {
      (void)rknnop::vxc::check_signature(signature, text, "hostile.vx");
    };
    const double t1 = cpu_seconds([&] { check(small); });
    const double t10 = cpu_seconds([&] { check(large); });
    const double ratio = t10 / std::max(t1, 1e-4);
    std::printf("%s: %zu bytes %.4f s, %zu bytes %.4f s, ratio %.1f\n", shape.what, small.size(), t1, large.size(), t10,
                ratio);
    EXPECT_LT(ratio, quadratic_ratio) << shape.what << ": 10x the text took " << ratio << "x the CPU time";
    EXPECT_LT(rknnop::vxc::check_signature(signature, large, "hostile.vx").size(), 200u) << shape.what;
  }
}
#endif

// An op.yml with n params, each with its `# rknnop-field:` line (40k lines took 10 s in pack).
TEST(LinearTime, OpYmlFieldComments) {
  expect_linear(
      "an op.yml of n params and field lines", 2000,
      [](std::size_t n) {
        std::string text =
            "name: Many\ninputs:\n  in: {type: VX_TYPE_TENSOR}\noutputs:\n  out: {type: VX_TYPE_TENSOR}\n";
        text += "params:\n";
        for (std::size_t i = 0; i < n; ++i) text += fmt::format("  p{}: {{type: VX_TYPE_INT32}}\n", i);
        for (std::size_t i = 0; i < n; ++i) text += fmt::format("# rknnop-field: p{} param default={}\n", i, i);
        return text;
      },
      [](const std::string& text) { (void)parse_op_yml(text, "op.yml"); });
}

}  // namespace
