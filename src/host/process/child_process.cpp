// SPDX-License-Identifier: MIT
#include "process/child_process.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <sys/stat.h>
#include <thread>
#include <fstream>
#include <sstream>
#include <poll.h>
#include <string_view>
#include <sys/socket.h>
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

std::uint64_t memory_file_bytes(pid_t pid) {
  std::uint64_t bytes = 0;
  std::error_code ec;
  const std::string folder = fmt::format("/proc/{}/fd", pid);
  for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code link_error;
    const std::string target = std::filesystem::read_symlink(it->path(), link_error).string();
    if (link_error || !target.starts_with("/memfd:")) continue;
    struct stat st {};
    if (::stat(it->path().c_str(), &st) == 0) bytes += static_cast<std::uint64_t>(st.st_blocks) * 512;
  }
  return bytes;
}

std::uint64_t group_members_resident_bytes(pid_t leader) {
  std::uint64_t bytes = 0;
  std::error_code ec;
  for (std::filesystem::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos || name == std::to_string(leader))
      continue;
    // The whole file, not its first line: a command may hold a newline (and a forged ") R 1 1 1").
    std::ifstream stat(it->path() / "stat");
    std::string text(4096, '\0');
    stat.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(stat.gcount()));
    // pid (comm) state ppid pgrp ...: the command may hold spaces and parentheses; fields follow the last ')'.
    const auto close = text.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(text.substr(close + 1));
    std::string state;
    long parent = 0, group = 0;
    if (fields >> state >> parent >> group && group == leader)
      bytes += resident_bytes(static_cast<pid_t>(std::stol(name)));
  }
  return bytes;
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

namespace {

// The next bytes of the child's output into `outcome` (up to max_output kept); false at its end.
bool read_output(int output_fd, child_outcome& outcome, std::size_t max_output) {
  char chunk[512];
  const ssize_t got = ::read(output_fd, chunk, sizeof chunk);
  if (got < 0 && errno == EINTR) return true;
  if (got <= 0) return false;
  if (outcome.output.size() < max_output)
    outcome.output.append(chunk,
                          std::min<std::size_t>(static_cast<std::size_t>(got), max_output - outcome.output.size()));
  return true;
}

}  // namespace

child_outcome watch_child(pid_t child, int output_fd, std::chrono::milliseconds deadline, std::uint64_t memory_limit,
                          std::size_t max_output, int answer_fd, const std::function<std::uint64_t()>& extra_memory,
                          bool kill_group) {
  child_outcome outcome;
  const bool serving = answer_fd >= 0;
  int output = output_fd;
  const auto end = std::chrono::steady_clock::now() + deadline;
  std::uint64_t members = 0;  // a runner's other processes (a VX runner's), looked at every tenth check
  for (int check = 0;; ++check) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      outcome.timed_out = true;
      break;
    }
    const std::uint64_t limit = memory_limit + (extra_memory ? extra_memory() : 0);
    // A runner's memory files count too: their pages are not in its resident set unless mapped.
    if (kill_group && check % 10 == 0) members = group_members_resident_bytes(child);
    if (const std::uint64_t used = resident_bytes(child) + (kill_group ? memory_file_bytes(child) + members : 0);
        used > limit) {
      outcome.memory_used = used;
      outcome.memory_limit = limit;
      break;
    }
    pollfd p[2] = {{output, POLLIN, 0}, {answer_fd, POLLIN, 0}};  // a negative descriptor is skipped
    const int ready = ::poll(p, 2, static_cast<int>(std::min(left, memory_period).count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    if (p[0].revents != 0 && !read_output(output, outcome, max_output)) {
      if (!serving) break;
      output = -1;  // a runner that closed its output still answers, or dies
    }
    if (p[1].revents != 0) {
      char byte = 0;
      const ssize_t got = ::recv(answer_fd, &byte, 1, 0);
      if (got < 0 && errno == EINTR) continue;
      outcome.answered = got == 1;
      if (outcome.answered) return outcome;
      break;
    }
  }
  // Stopped, or its channel ended: a child that serves may still run (it closed the socket), so it is
  // killed either way; a dead child's status is its own.
  bool waited = false;
  if (serving && !outcome.timed_out && outcome.memory_used == 0) {
    // Its channel ended: a runner that died has its own status; one still alive is stopped here, and
    // that SIGKILL is the tool's, not a crash of the op's code. A crashing runner's descriptors close
    // before it can be waited for, and on a loaded machine it may then wait for a core: up to 2 s
    // (100 ms read a segfault as "stopped by the tool" under a full 2-core test run).
    for (int tries = 0; tries < 400 && !waited; ++tries) {
      const pid_t got = ::waitpid(child, &outcome.status, WNOHANG);
      waited = got == child;
      if (!waited) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    outcome.stopped_by_parent = !waited;
  }
  if (kill_group) ::kill(-child, SIGKILL);  // the group's id is the child's until it is waited for
  if (!waited && (outcome.timed_out || outcome.memory_used != 0 || serving)) ::kill(child, SIGKILL);
  if (!serving) ::close(output_fd);
  while (!waited && ::waitpid(child, &outcome.status, 0) < 0 && errno == EINTR) {}
  // What a dead runner wrote last (glibc's abort message) may still be in the pipe: what is there now.
  for (pollfd p{output, POLLIN, 0}; serving && output >= 0 && ::poll(&p, 1, 0) > 0;)
    if (!read_output(output, outcome, max_output)) break;
  while (!outcome.output.empty() && (outcome.output.back() == '\n' || outcome.output.back() == ' '))
    outcome.output.pop_back();
  return outcome;
}

}  // namespace rknnop::host::child_io
