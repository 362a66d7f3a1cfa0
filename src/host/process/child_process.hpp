// SPDX-License-Identifier: MIT
#pragma once
// Watching a child process that runs code rknnop does not trust (the load probe of loader.cpp, the
// node runner of node_child.cpp): read what it says on a pipe, stop it at a deadline or when its
// resident memory passes a limit, and reap it. One mechanism for both.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <sys/types.h>

namespace rknnop::host::child_io {

struct child_outcome {
  bool timed_out = false;
  std::uint64_t memory_used = 0;   ///< resident bytes when stopped for memory, else 0
  std::uint64_t memory_limit = 0;  ///< the limit then (memory_limit + extra_memory())
  int status = 0;                  ///< waitpid's status
  std::string output;              ///< what the child wrote to the pipe, at most max_output bytes
  bool answered = false;           ///< a byte came on answer_fd: the child runs on, not waited for
  bool stopped_by_parent = false;  ///< its channel ended while it lived: the SIGKILL was this process's
};

/// Reads `output_fd` until the child closes it (then closes it), killing the child (SIGKILL) after
/// `deadline` or when its resident memory exceeds `memory_limit` bytes (plus `extra_memory()` when
/// given, asked at each check: what the child has said it legitimately holds); then waits for it.
/// With `answer_fd` (a socket to a child that serves requests): returns `answered` when the child sends
/// a byte on it, leaving both descriptors open; the socket's end (the child died, or closed it) kills
/// and waits for the child; the end of its output alone does not. `kill_group`: the child leads its own
/// process group (the runner's session), killed whole whenever the child is killed, and the memory
/// files it holds and the other processes of its group count with its resident memory.
child_outcome watch_child(pid_t child, int output_fd, std::chrono::milliseconds deadline, std::uint64_t memory_limit,
                          std::size_t max_output = 2048, int answer_fd = -1,
                          const std::function<std::uint64_t()>& extra_memory = {}, bool kill_group = false);

/// The bytes of the memory files (memfd) a process holds open, allocated pages only (/proc/<pid>/fd).
std::uint64_t memory_file_bytes(pid_t pid);

/// Resident bytes of the other processes in the process group `leader` leads (/proc/<pid>/stat).
std::uint64_t group_members_resident_bytes(pid_t leader);

/// Resident bytes of a process (/proc/<pid>/statm); 0 when unreadable.
std::uint64_t resident_bytes(pid_t pid);

/// Whether op_library::open first loads a library in a forked probe process (loader.cpp); the node
/// runner, itself the child, turns it off.
bool load_probe_enabled() noexcept;
void set_load_probe(bool enabled) noexcept;

/// "SIGSEGV (Segmentation fault)"; own names (sigabbrev_np needs glibc 2.32, the boards have 2.28).
std::string signal_description(int signal_number);

}  // namespace rknnop::host::child_io
