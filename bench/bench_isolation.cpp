// SPDX-License-Identifier: MIT
// What node execution in a child process costs per run (rknnop/host/isolation.hpp): one ResizeArea node
// (a .rknnop given as argv[1], default the example's) run through rknnop::host::session in this process
// and in rknnop-node (argv[2], default the build's), alternating, on a tiny and a 480x640x3 input. Prints the median
// per run of each, the overhead of the child per run and the ratio child / in-process.
#include <rknnop/host/isolation.hpp>
#include <rknnop/host/session.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace rknnop::host;
using clock_type = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

session load(const std::string& op, node_execution execution) {
  load_options options;
  options.execution = execution;
  return session::load(op, options);
}

void prepare(session& s, std::size_t h, std::size_t w) {
  std::vector<float> data(h * w * 3);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i % 17) * 0.25f;
  s.set_input("images", data, {1, h, w, 3});
  s.set_param("size", {static_cast<std::int32_t>(h / 2), static_cast<std::int32_t>(w / 2)});
  s.set_param("align_corners", false);
}

}  // namespace

int main(int argc, char** argv) try {
  const std::string op = argc > 1 ? argv[1] : RKNNOP_BENCH_RESIZE_AREA_RKNNOP;
  set_node_runner(argc > 2 ? argv[2] : RKNNOP_BENCH_NODE_RUNNER);
  constexpr int rounds = 40;
  std::printf("node execution in a child process vs in this process, %s, median of %d runs\n", op.c_str(), rounds);
  std::printf("%-22s %14s %14s %16s %8s\n", "case", "in-process", "child", "child overhead", "ratio");
  for (const auto& [h, w, name] : {std::tuple{std::size_t{4}, std::size_t{4}, "1x4x4x3 -> 2x2"},
                                   std::tuple{std::size_t{480}, std::size_t{640}, "1x480x640x3 -> 240x320"}}) {
    session here = load(op, node_execution::in_process);
    session child = load(op, node_execution::child);
    prepare(here, h, w);
    prepare(child, h, w);
    (void)here.run();
    (void)child.run();
    std::vector<double> here_ms, child_ms;
    for (int i = 0; i < rounds; ++i) {
      auto t0 = clock_type::now();
      (void)here.run();
      auto t1 = clock_type::now();
      (void)child.run();
      auto t2 = clock_type::now();
      here_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      child_ms.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
    }
    const double a = median(here_ms), b = median(child_ms);
    std::printf("%-22s %11.3f ms %11.3f ms %13.3f ms %7.1fx\n", name, a, b, b - a, b / a);
  }
  // Loading: session::load itself (in a child: a load in rknnop-node to read the descriptor).
  std::vector<double> load_here, load_child;
  for (int i = 0; i < rounds / 4; ++i) {
    auto t0 = clock_type::now();
    (void)load(op, node_execution::in_process);
    auto t1 = clock_type::now();
    (void)load(op, node_execution::child);
    auto t2 = clock_type::now();
    load_here.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    load_child.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
  }
  const double a = median(load_here), b = median(load_child);
  std::printf("%-22s %11.3f ms %11.3f ms %13.3f ms %7.1fx\n", "session::load", a, b, b - a, b / a);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_isolation: %s\n", e.what());
  return 1;
}
