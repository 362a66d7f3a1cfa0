// SPDX-License-Identifier: MIT
#include "child_process.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <poll.h>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

#include <fmt/format.h>

namespace rknnop::host::child_io {

namespace {
// How often the child's memory is looked at while it runs.
constexpr std::chrono::milliseconds memory_period{50};
}  // namespace

std::uint64_t resident_bytes(pid_t pid) {
  std::ifstream statm(fmt::format("/proc/{}/statm", pid));
  std::uint64_t size = 0;
  std::uint64_t resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

std::string signal_description(int signal_number) {
  constexpr std::pair<int, std::string_view> names[] = {
      {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"}, {SIGILL, "SIGILL"},   {SIGABRT, "SIGABRT"}, {SIGFPE, "SIGFPE"},
      {SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"}, {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"}};
  std::string name = fmt::format("signal {}", signal_number);
  for (const auto& [number, text] : names)
    if (number == signal_number) name = std::string(text);
  const char* text = ::strsignal(signal_number);
  return text ? fmt::format("{} ({})", name, text) : name;
}

child_outcome watch_child(pid_t child, int output_fd, std::chrono::milliseconds deadline, std::uint64_t memory_limit,
                          std::size_t max_output) {
  child_outcome outcome;
  char chunk[512];
  const auto end = std::chrono::steady_clock::now() + deadline;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      outcome.timed_out = true;
      ::kill(child, SIGKILL);
      break;
    }
    if (const std::uint64_t used = resident_bytes(child); used > memory_limit) {
      outcome.memory_used = used;
      ::kill(child, SIGKILL);
      break;
    }
    pollfd p{output_fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min(left, memory_period).count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t got = ::read(output_fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    if (outcome.output.size() < max_output)
      outcome.output.append(chunk,
                            std::min<std::size_t>(static_cast<std::size_t>(got), max_output - outcome.output.size()));
  }
  ::close(output_fd);
  while (::waitpid(child, &outcome.status, 0) < 0 && errno == EINTR) {}
  while (!outcome.output.empty() && (outcome.output.back() == '\n' || outcome.output.back() == ' '))
    outcome.output.pop_back();
  return outcome;
}

}  // namespace rknnop::host::child_io
