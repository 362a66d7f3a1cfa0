// SPDX-License-Identifier: MIT
// The parent's side of a node run in a child process (isolation.hpp, docs/isolation.md): the request
// goes to the runner (rknnop-node, started with posix_spawn) in anonymous memory files with the library,
// the runner's reply comes back in another, and a status page says which step it was in when it died.
// A session keeps its runner for its next requests (the library stays loaded there); a runner that
// died in a request is waited for and replaced by a fresh one at the next.
#include "isolate/node_child.hpp"

#include "rknnop/host/error.hpp"
#include "rknnop/host/isolation.hpp"
#include "rknnop/host/memory_budget.hpp"
#include "rknnop/vx_type.hpp"

#include <algorithm>
#include <limits>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <memory>
#include <optional>
#include <spawn.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

#include <fmt/format.h>

#include "process/child_process.hpp"
#include "isolate/node_wire.hpp"

extern char** environ;  // NOLINT(readability-redundant-declaration): posix_spawn's environment

namespace rknnop::host {

namespace {

std::atomic<node_execution> default_execution{node_execution::in_process};

struct runner_settings {
  std::mutex mutex;
  std::optional<node_limits> limits;
  std::filesystem::path runner;
};
runner_settings& settings() {
  static runner_settings s;
  return s;
}

}  // namespace

void set_default_node_execution(node_execution execution) noexcept { default_execution.store(execution); }
node_execution default_node_execution() noexcept { return default_execution.load(); }

void set_node_limits(const node_limits& limits) noexcept {
  const std::lock_guard lock(settings().mutex);
  settings().limits = limits;
}

node_limits current_node_limits() {
  {
    const std::lock_guard lock(settings().mutex);
    if (settings().limits) return *settings().limits;
  }
  node_limits limits;
  const auto number = [](const char* name) -> std::optional<std::uint64_t> {
    const char* text = std::getenv(name);
    if (text == nullptr || *text == '\0') return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const unsigned long long value = std::strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || value == 0 || value > (std::uint64_t{1} << 40))
      throw error(fmt::format("{}='{}': expected a positive whole number", name, text));
    return value;
  };
  // A year at most: the deadline is counted in the steady clock's nanoseconds, which a larger number overflows.
  constexpr std::uint64_t max_seconds = 365ULL * 24 * 3600;
  if (const auto seconds = number("RKNNOP_NODE_TIME_LIMIT")) {
    if (*seconds > max_seconds)
      throw error(fmt::format("RKNNOP_NODE_TIME_LIMIT='{}': at most {} (a year)", *seconds, max_seconds));
    limits.time = std::chrono::seconds(*seconds);
  }
  if (const auto mib = number("RKNNOP_NODE_MEMORY_LIMIT")) limits.memory = *mib << 20;
  return limits;
}

void set_node_runner(const std::filesystem::path& runner) {
  const std::lock_guard lock(settings().mutex);
  settings().runner = runner;
}

std::filesystem::path node_runner_path() {
  {
    const std::lock_guard lock(settings().mutex);
    if (!settings().runner.empty()) return settings().runner;
  }
  if (const char* given = std::getenv("RKNNOP_NODE_RUNNER"); given != nullptr && *given != '\0') {
    if (::access(given, X_OK) != 0)
      throw error(fmt::format("RKNNOP_NODE_RUNNER='{}': not an executable file: {}", given, std::strerror(errno)));
    return given;
  }
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw error(fmt::format("cannot find the node runner rknnop-node: /proc/self/exe: {}", ec.message()));
  const std::filesystem::path beside = self.parent_path() / "rknnop-node";
  const std::filesystem::path build_tree = self.parent_path().parent_path() / "rknnop-node" / "rknnop-node";
  for (const std::filesystem::path& candidate : {beside, build_tree})
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  throw error(
      fmt::format("cannot find the node runner rknnop-node (looked at {} and {}); install it beside the tools or set "
                  "RKNNOP_NODE_RUNNER",
                  beside.string(), build_tree.string()));
}

namespace child_io {

namespace {

// An owned descriptor.
class owned_fd {
public:
  explicit owned_fd(int fd = -1) noexcept : fd_(fd) {}
  owned_fd(const owned_fd&) = delete;
  owned_fd& operator=(const owned_fd&) = delete;
  owned_fd(owned_fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  owned_fd& operator=(owned_fd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  ~owned_fd() { reset(); }
  void reset() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  [[nodiscard]] int get() const noexcept { return fd_; }

private:
  int fd_;
};

// A reply's bytes beyond its outputs: the descriptor, the steps and their log lines.
constexpr std::uint64_t max_reply_text = std::uint64_t{16} << 20;

// Lowest number a memory file is moved to: never one of the runner's fixed descriptors (3-6), so each
// posix_spawn dup2 really copies (dup2 of a descriptor onto itself would keep its close-on-exec flag).
constexpr int high_descriptor = 16;

// An anonymous memory file (nothing in any folder) holding `bytes`, close-on-exec.
owned_fd memory_file(const char* name, std::span<const std::uint8_t> bytes, std::size_t size = 0) {
  const int raw = ::memfd_create(name, MFD_CLOEXEC);
  if (raw < 0) throw error(fmt::format("cannot create a memory file for the node runner: {}", std::strerror(errno)));
  const int fd = ::fcntl(raw, F_DUPFD_CLOEXEC, high_descriptor);
  ::close(raw);
  if (fd < 0) throw error(fmt::format("cannot move a memory file for the node runner: {}", std::strerror(errno)));
  owned_fd owned(fd);
  if (const int why = rknnop::files::write_all(fd, bytes); why != 0)
    throw error(
        fmt::format("cannot write {} bytes for the node runner to memory: {}", bytes.size(), std::strerror(why)));
  if (size != 0 && ::ftruncate(fd, static_cast<off_t>(size)) != 0)
    throw error(fmt::format("cannot size a memory file for the node runner: {}", std::strerror(errno)));
  return owned;
}

// A runner's text for the user's terminal: control bytes (ESC, CR, NUL...) escaped.
std::string printable(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f)
      out += fmt::format("\\x{:02x}", byte);
    else
      out += c;
  }
  return out;
}

// The step the runner's status page names, as the runner's report (the page is the library's to write:
// the tool never says it in its own voice).
std::string_view step_text(runner_step step) {
  switch (step) {
    case runner_step::start: return "while starting";
    case runner_step::load: return "while loading the library";
    case runner_step::validate: return "in the validator";
    case runner_step::initialize: return "in the initializer";
    case runner_step::kernel: return "in the CPU kernel";
    case runner_step::shader: return "in the VX shader";
    case runner_step::deinitialize: return "in the deinitializer";
    case runner_step::done: return "while unloading the library";
  }
  return "in an unknown step";
}

// The last line of what the child wrote (glibc's "free(): corrupted unsorted chunks", ld.so's
// "Inconsistency detected"), for the one line of a crash.
std::string last_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (const auto at = text.rfind('\n'); at != std::string::npos) text.erase(0, at + 1);
  if (text.size() > 200) text = text.substr(0, 200) + "...";
  return text;
}
}  // namespace

// A started runner serving one library's requests (node_wire.hpp): its files stay open between
// requests; the socket is the control channel. Destroying it stops the runner and waits for it.
struct runner_process {
  pid_t pid = -1;
  owned_fd request, reply, status, control, output;
  bool processes = false;    ///< it may start processes (a VX shader's runner)
  std::string cache_folder;  ///< its own writable folder (POCL's kernel cache), removed after it

  runner_process() = default;
  runner_process(const runner_process&) = delete;
  runner_process& operator=(const runner_process&) = delete;
  ~runner_process() {
    stop();
    if (!cache_folder.empty()) {
      std::error_code ignored;
      std::filesystem::remove_all(cache_folder, ignored);
    }
  }
  void stop() noexcept {
    if (pid <= 0) return;
    ::kill(-pid, SIGKILL);  // idle, or being given up: nothing of it, nor of its process group, is needed
    ::kill(pid, SIGKILL);
    int ignored = 0;
    while (::waitpid(pid, &ignored, 0) < 0 && errno == EINTR) {}
    pid = -1;
  }
  // Whether it is still there (an idle runner can die with the thread that started it: PDEATHSIG).
  [[nodiscard]] bool alive() noexcept {
    int ignored = 0;
    if (pid > 0 && ::waitpid(pid, &ignored, WNOHANG) == pid) pid = -1;
    return pid > 0;
  }
};

namespace {

// A pipe's or a socket pair's two ends above the runner's fixed descriptors (its dup2s onto 3-7 must
// not close them).
std::pair<owned_fd, owned_fd> high_pair(bool socket) {
  int ends[2];
  const int made = socket ? ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) : ::pipe2(ends, O_CLOEXEC);
  if (made != 0) throw error(fmt::format("cannot create a channel for the node runner: {}", std::strerror(errno)));
  owned_fd first(::fcntl(ends[0], F_DUPFD_CLOEXEC, high_descriptor));
  owned_fd second(::fcntl(ends[1], F_DUPFD_CLOEXEC, high_descriptor));
  ::close(ends[0]);
  ::close(ends[1]);
  if (first.get() < 0 || second.get() < 0)
    throw error(fmt::format("cannot move a channel for the node runner: {}", std::strerror(errno)));
  return {std::move(first), std::move(second)};
}

// A folder of its own in TMPDIR for a runner that runs a VX shader: POCL's kernel cache, the only place
// its sandbox lets it write (a shared cache would let one library's runner plant code for another's).
// Whether others (a root tool's runner, which runs as nobody) can enter `folder`: it and every folder
// above it searchable by others.
bool others_can_enter(const std::filesystem::path& folder) {
  std::error_code ec;
  std::filesystem::path at = std::filesystem::absolute(folder, ec);
  for (; !ec && !at.empty(); at = at.parent_path()) {
    struct stat st {};
    if (::stat(at.c_str(), &st) != 0 || (st.st_mode & S_IXOTH) == 0) return false;
    if (at == at.root_path()) return true;
  }
  return false;
}

std::string runner_cache_folder() {
  const char* tmp = std::getenv("TMPDIR");
  std::string folder = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  // A root tool's runner is nobody (isolation.hpp): a TMPDIR only root can enter is not its to reach.
  if (::geteuid() == 0 && !others_can_enter(folder)) folder = "/tmp";
  std::string pattern = folder + "/rknnop-node-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr)
    throw error(fmt::format("cannot create a folder for the node runner's kernel cache in {}: {}",
                            pattern.substr(0, pattern.rfind('/')), std::strerror(errno)));
  return pattern;
}

// Starts a runner for `library`: its memory files, its output pipe and its control socket. The runner
// leads its own session (no controlling terminal; its process group is killed whole) and reads
// /dev/null; `processes`: a runner that may start processes (POCL's linker, for a VX shader).
std::unique_ptr<runner_process> start_runner(const child_library& library, bool processes) {
  const std::filesystem::path runner = node_runner_path();
  // A process that runs a library it does not trust cannot be traced by the same user (without Yama,
  // a library could otherwise attach to its tool and inject code); under AddressSanitizer
  // LeakSanitizer's tracer needs it (docs/isolation.md).
#if !defined(__SANITIZE_ADDRESS__)
  (void)::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
  auto process = std::make_unique<runner_process>();
  process->processes = processes;
  if (processes) {
    process->cache_folder = runner_cache_folder();
    // A root tool's runner runs as an unprivileged user (isolation.hpp): its folder is that user's.
    if (::geteuid() == 0 && ::chown(process->cache_folder.c_str(), runner_unprivileged_id, runner_unprivileged_id) != 0)
      throw error(fmt::format("cannot give the node runner's kernel-cache folder {} to its user: {}",
                              process->cache_folder, std::strerror(errno)));
  }
  const owned_fd library_file = memory_file("rknnop-node-library", library.file);
  process->request = memory_file("rknnop-node-request", {});
  process->reply = memory_file("rknnop-node-reply", {});
  process->status = memory_file("rknnop-node-status", {}, sizeof(runner_status));
  auto [output, output_end] = high_pair(false);
  auto [control, control_end] = high_pair(true);

  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawnattr_init(&attributes);
  ::posix_spawn_file_actions_adddup2(&actions, library_file.get(), runner_library_fd);
  ::posix_spawn_file_actions_adddup2(&actions, process->request.get(), runner_request_fd);
  ::posix_spawn_file_actions_adddup2(&actions, process->reply.get(), runner_reply_fd);
  ::posix_spawn_file_actions_adddup2(&actions, process->status.get(), runner_status_fd);
  ::posix_spawn_file_actions_adddup2(&actions, control_end.get(), runner_control_fd);
  ::posix_spawn_file_actions_adddup2(&actions, output_end.get(), STDOUT_FILENO);
  ::posix_spawn_file_actions_adddup2(&actions, output_end.get(), STDERR_FILENO);
  ::posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // The runner starts with no signal blocked and the interrupt signals at their default action (the
  // parent's cleanup handler removes the parent's files, not the runner's job).
  sigset_t none;
  sigemptyset(&none);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) sigaddset(&defaults, signal_number);
  ::posix_spawnattr_setsigmask(&attributes, &none);
  ::posix_spawnattr_setsigdefault(&attributes, &defaults);
  ::posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSID);
  const std::string parent = std::to_string(::getpid());
  std::string program = runner.string();
  std::string flag = "--rknnop-node";
  std::string processes_flag(runner_processes_flag);
  std::vector<char*> argv = {program.data(), flag.data(), const_cast<char*>(parent.c_str())};
  if (processes) argv.push_back(processes_flag.data());
  argv.push_back(nullptr);
  // The environment, POCL's kernel cache in the runner's own folder.
  std::vector<std::string> environment_text;
  for (char** e = environ; *e != nullptr; ++e)
    if (!std::string_view(*e).starts_with("POCL_CACHE_DIR=") &&
        !std::string_view(*e).starts_with("RKNNOP_NODE_OP_YML="))
      environment_text.emplace_back(*e);
  if (processes) environment_text.push_back("POCL_CACHE_DIR=" + process->cache_folder);
  // The op.yml the runner reads: its sandbox lets it read that file (and no other of the user's).
  if (library.options.op_yml) environment_text.push_back("RKNNOP_NODE_OP_YML=" + library.options.op_yml->string());
  std::vector<char*> environment;
  for (std::string& e : environment_text) environment.push_back(e.data());
  environment.push_back(nullptr);
  const int spawned =
      ::posix_spawn(&process->pid, program.c_str(), &actions, &attributes, argv.data(), environment.data());
  ::posix_spawn_file_actions_destroy(&actions);
  ::posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    process->pid = -1;
    throw error(
        fmt::format("{}: cannot start the node runner {}: {}", library.origin, program, std::strerror(spawned)));
  }
  process->output = std::move(output);
  process->control = std::move(control);
  return process;
}

// Puts `request` in the runner's request file and a clean status page beside it; drops what the runner
// wrote since the last request (the one line of a crash quotes this request's output only).
// The control channel is the library's to use too (a thread of it may answer on descriptor 7): the
// last reply is emptied, so an answer that is not the runner's reads no earlier run's output; answers
// left on the channel are dropped; the byte is sent without blocking (a channel the runner does not
// read fills up), and the watch then bounds the wait by the time limit.
void send_request(runner_process& process, const wire_writer& request) {
  if (!replace_whole_file(process.request.get(), request.bytes()) || ::ftruncate(process.reply.get(), 0) != 0)
    throw error(fmt::format("cannot write the node runner's request: {}", std::strerror(errno)));
  const runner_status clean{};
  (void)::pwrite(process.status.get(), &clean, sizeof clean, 0);
  char chunk[512];
  for (pollfd p{process.output.get(), POLLIN, 0}; ::poll(&p, 1, 0) > 0 && (p.revents & POLLIN) != 0;)
    if (::read(process.output.get(), chunk, sizeof chunk) <= 0) break;
  for (int drained = 0; drained < 1024 && ::recv(process.control.get(), chunk, sizeof chunk, MSG_DONTWAIT) > 0;)
    ++drained;
  const char go = 1;
  (void)::send(process.control.get(), &go, 1, MSG_NOSIGNAL | MSG_DONTWAIT);  // a dead runner is found by the watch
}

// The sandbox's layers a runner could not set up, said once per process (docs/isolation.md).
void note_missing_layers(const runner_process& process) {
  static std::atomic<bool> said{false};
  runner_status status{};
  if (::pread(process.status.get(), &status, sizeof status, 0) != static_cast<ssize_t>(sizeof status)) return;
  const std::string missing(status.missing_layers, ::strnlen(status.missing_layers, sizeof status.missing_layers));
  if (missing.empty() || said.exchange(true)) return;
  fmt::print(stderr, "rknnop: note: the node runner runs without {}; its other layers hold (docs/isolation.md)\n",
             printable(missing));
}

// The reply file, its size checked before it is read: the outputs the memory budget allows and their
// steps' text, never more (a runner's reply is not trusted).
// The size is taken once: the runner (or a thread it left) may grow the file after the check, and the
// read never goes past the size checked (before, read_whole_file's own fstat read what it had grown to).
std::vector<std::uint8_t> read_reply(const runner_process& process, const child_library& library) {
  struct stat st {};
  if (::fstat(process.reply.get(), &st) != 0)
    throw error(fmt::format("cannot read the node runner's reply: {}", std::strerror(errno)));
  const std::uint64_t bound = memory_budget() + max_reply_text;
  if (st.st_size < 0 || static_cast<std::uint64_t>(st.st_size) > bound)
    throw error(
        fmt::format("{} ({}): the node runner's reply is {} bytes, more than the memory budget and {} MiB "
                    "of text allow ({} bytes); it was not read",
                    library.op_name, library.origin, st.st_size, max_reply_text >> 20, bound));
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(st.st_size));
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t got =
        ::pread(process.reply.get(), bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      throw error(fmt::format("cannot read the node runner's reply: {}",
                              got < 0 ? std::strerror(errno) : "it is shorter than its size"));
    done += static_cast<std::size_t>(got);
  }
  return bytes;
}

// Reads a reply with `read`: a reply the reader finds short ("node runner message: truncated", a runner's
// or a forged reply) or garbled is one line naming the op and where its code comes from; the errors
// that name them already pass through.
template <class Read>
auto naming_the_op(const child_library& library, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const error& e) {
    const std::string& detail = e.detail();
    if (!detail.starts_with("node runner message: ") && !detail.starts_with("the node runner's reply is ")) throw;
    throw error(fmt::format("{} ({}): {}", library.op_name, library.origin, detail));
  }
}

// The run's tensors as the tool counts them itself: the request's inputs and the outputs whose shapes it
// fixed (a model's, --output-shape), exactly; `open` when an output's shape is the op validator's, which
// runs in the runner (op mode without --output-shape): those outputs count up to the tensor budget
// (--memory-limit), which the runner's own tensors may not pass, by the figure the runner reports.
struct tensor_count {
  std::uint64_t known = 0;
  bool open = false;
};

// One request to a started runner, watched: its reply, or (the runner dead and waited for) the one line
// of what ended it, thrown. The status page is the library's to write: its step, fault text and refused
// call are printed as the runner's report ("the runner reports: ..."), never in the tool's voice, and its
// tensor figure never raises the memory limit past the tool's own count.
std::vector<std::uint8_t> call(runner_process& process, const child_library& library, const wire_writer& request,
                               const tensor_count& tensors) {
  const node_limits limits = current_node_limits();
  send_request(process, request);
  // Four copies of the run's tensors on top of the limit: the tensors, the kernel's float staging of
  // narrower ones (float16: twice their bytes) and the reply's copy of the outputs.
  const std::uint64_t memory_limit = limits.memory + 4 * tensors.known;
  const std::uint64_t budget = memory_budget();
  const auto open_outputs = [&] {
    if (!tensors.open || tensors.known >= budget) return std::uint64_t{0};
    runner_status status{};
    const ssize_t got = ::pread(process.status.get(), &status, sizeof status, 0);
    // Outputs only the validator shapes: the runner's figure of all its tensors, counted beyond the
    // tool's own and only up to the budget.
    const std::uint64_t reported = got == static_cast<ssize_t>(sizeof status) ? status.tensor_bytes : 0;
    return 4 * (std::min(std::max(reported, tensors.known), budget) - tensors.known);
  };
  const child_outcome outcome = watch_child(process.pid, process.output.get(), limits.time, memory_limit, 8192,
                                            process.control.get(), open_outputs, true);
  if (outcome.answered) {
    note_missing_layers(process);
    return read_reply(process, library);
  }
  process.pid = -1;  // waited for
  runner_status status{};
  (void)::pread(process.status.get(), &status, sizeof status, 0);
  const std::string who = fmt::format("{} ({})", library.op_name, library.origin);
  // What the runner's page says, marked as its report.
  const std::string fault(status.fault, std::min<std::size_t>(status.fault_length, sizeof status.fault));
  const std::string refused(status.refused, ::strnlen(status.refused, sizeof status.refused));
  const auto reports = [&](const std::string& detail) {
    return fmt::format("; the runner reports: {}{}", step_text(static_cast<runner_step>(status.step)),
                       detail.empty() ? "" : ", " + printable(detail));
  };
  const std::string said = last_line(outcome.output);
  const std::string it_said = said.empty() ? "" : "; it said: " + printable(said);
  if (outcome.timed_out)
    throw error(fmt::format("{} did not finish within {} s (stopped){}", who,
                            std::chrono::duration_cast<std::chrono::seconds>(limits.time).count(), reports({})));
  if (outcome.memory_used != 0)
    throw error(
        fmt::format("{} used more than {} MiB of memory (stopped at {} MiB; the limit is {} MiB beyond the "
                    "run's tensors, RKNNOP_NODE_MEMORY_LIMIT){}",
                    who, outcome.memory_limit >> 20, outcome.memory_used >> 20, limits.memory >> 20, reports({})));
  if (outcome.stopped_by_parent)
    throw error(
        fmt::format("{} closed the node runner's channel to the tool without an answer; the tool stopped "
                    "it (SIGKILL){}{}",
                    who, reports({}), it_said));
  if (WIFSIGNALED(outcome.status) && WTERMSIG(outcome.status) == SIGSYS) {
    // The filter's handler names what it trapped; a call it kills outright (no handler runs) is one of
    // another architecture: i386's int 0x80 or x32 on x86-64.
    if (refused.empty())
      throw error(
          fmt::format("{} was killed by the node runner's sandbox (SIGSYS) without a call named: a system call "
                      "of another architecture (int 0x80 or x32) is killed so{}",
                      who, reports({})));
    throw error(fmt::format("{} was stopped by the node runner's sandbox (SIGSYS){}", who,
                            reports("it tried " + refused + ", which the sandbox refuses")));
  }
  if (WIFSIGNALED(outcome.status))
    throw error(fmt::format("{} crashed with {}{}{}", who, signal_description(WTERMSIG(outcome.status)), reports(fault),
                            it_said));
  throw error(fmt::format("{} stopped with exit status {}{}{}", who,
                          WIFEXITED(outcome.status) ? WEXITSTATUS(outcome.status) : -1, reports({}), it_said));
}

// The request to `runner`'s runner, started first if there is none (or it died idle); a runner that
// died in the request is dropped, the next request starts a fresh one. The runner's failure reply
// becomes the error thrown.
std::vector<std::uint8_t> call_runner(const child_library& library, runner_slot& runner, const wire_writer& request,
                                      const tensor_count& tensors, bool processes = false) {
  // A VX shader needs a runner that may start processes: the strict one is replaced (and the library
  // loaded again there) the first time a request carries a shader.
  if (runner && processes && !runner->processes) runner.reset();
  if (!runner || !runner->alive()) runner = start_runner(library, processes);
  std::vector<std::uint8_t> reply;
  try {
    reply = call(*runner, library, request, tensors);
  } catch (...) {
    runner.reset();
    throw;
  }
  naming_the_op(library, [&] {
    wire_reader head(reply);
    if (head.get<std::uint32_t>() != node_wire_magic) throw error("the node runner's reply is garbled");
    if (head.get<std::uint8_t>() == 0) {
      // A failure reply's text is the runner's (the library's, if it forged one): escaped, and naming the
      // op when it does not already.
      const std::string text = printable(head.get_string());
      if (text.find(library.op_name) != std::string::npos) throw error(text);
      throw error(fmt::format("{} ({}): {}", library.op_name, library.origin, text));
    }
  });
  return reply;
}

void write_request_head(wire_writer& w, runner_command command, const child_library& library) {
  w.put(node_wire_magic);
  w.put(node_wire_version);
  w.put(command);
  w.put_string(library.label);  // the runner's loader names the library by it from the start
  w.put(static_cast<std::uint8_t>(library.options.op_yml ? 1 : 0));
  w.put_string(library.options.op_yml ? library.options.op_yml->string() : std::string());
  w.put(static_cast<std::uint8_t>(library.options.kernel_index ? 1 : 0));
  w.put(library.options.kernel_index.value_or(0));
  // The runner's budget is the tool's (--memory-limit sets it in this process only).
  w.put(memory_budget());
}

kernel_descriptor_info read_descriptor(wire_reader& r) {
  kernel_descriptor_info k;
  k.list_symbol = r.get_string();
  k.list_size = r.get<std::uint64_t>();
  k.kernel_index = r.get<std::uint32_t>();
  k.name = r.get_string();
  k.enumeration = r.get<std::int32_t>();
  k.is_shader = r.get<std::uint8_t>() != 0;
  k.has_validate = r.get<std::uint8_t>() != 0;
  k.has_initialize = r.get<std::uint8_t>() != 0;
  k.has_deinitialize = r.get<std::uint8_t>() != 0;
  k.num_params = r.get<std::uint32_t>();
  k.parameters = r.get_vector<kernel_parameter>();
  if (k.parameters.size() != k.num_params)
    throw error(
        fmt::format("the node runner's reply is forged: kernel '{}' has {} parameter(s) in its table and "
                    "says {}",
                    printable(k.name), k.parameters.size(), k.num_params));
  return k;
}

}  // namespace

kernel_descriptor_info load_in_child(const child_library& library, runner_slot& runner) {
  wire_writer request;
  write_request_head(request, runner_command::load, library);
  const std::vector<std::uint8_t> reply = call_runner(library, runner, request, tensor_count{});
  return naming_the_op(library, [&] {
    wire_reader r(reply);
    (void)r.get<std::uint32_t>();
    (void)r.get<std::uint8_t>();
    return read_descriptor(r);
  });
}

node_result run_in_child(const child_library& library, runner_slot& runner, const node_spec& spec) {
  if (spec.on_context)
    throw error(
        fmt::format("{}: a context hook (on_context) cannot reach a node in a child process; load the op "
                    "with load_options::execution = node_execution::in_process",
                    spec.label));
  wire_writer request;
  write_request_head(request, runner_command::run, library);
  request.put_string(spec.label);
  tensor_count tensors;
  request.put(static_cast<std::uint64_t>(spec.inputs.size()));
  for (const node_input& in : spec.inputs) {
    request.put_tensor(in.name, in.type, in.dims, in.bytes);
    tensors.known += in.bytes.size();
  }
  request.put(static_cast<std::uint64_t>(spec.outputs.size()));
  for (const node_output_request& o : spec.outputs) {
    // An output the request shapes is counted here (its type's element size, 8 bytes when the type is the op's).
    const std::uint64_t element = o.type != 0 ? vx_tensor_element_size(o.type) : 0;
    if (o.dims && !o.dims->empty()) {
      std::uint64_t bytes = element != 0 ? element : 8;
      for (const std::uint32_t d : *o.dims)
        bytes = d == 0 || bytes <= (std::uint64_t{1} << 62) / d ? bytes * d : std::uint64_t{1} << 62;
      tensors.known = std::min<std::uint64_t>(tensors.known + bytes, std::uint64_t{1} << 62);
    } else {
      tensors.open = true;
    }
    request.put_string(o.name);
    request.put(static_cast<std::uint8_t>(o.dims ? 1 : 0));
    request.put_vector(o.dims.value_or(std::vector<std::uint32_t>{}));
    request.put(o.type);
  }
  request.put(static_cast<std::uint64_t>(spec.params.size()));
  for (const node_param& p : spec.params) {
    request.put_string(p.name);
    request.put(p.value.type);
    request.put_vector(p.value.items);
    request.put(p.value.scalar);
  }
  request.put(static_cast<std::uint8_t>(spec.shader ? 1 : 0));
  if (spec.shader) {
    request.put_string(spec.shader->text);
    request.put_string(spec.shader->file_name);
    request.put_string(spec.shader->error);
  }
  const std::vector<std::uint8_t> reply = call_runner(library, runner, request, tensors, spec.shader.has_value());
  return naming_the_op(library, [&] {
    wire_reader r(reply);
    (void)r.get<std::uint32_t>();
    (void)r.get<std::uint8_t>();
    (void)read_descriptor(r);
    node_result result;
    const auto steps = r.get<std::uint64_t>();
    for (std::uint64_t i = 0; i < steps && i < 16; ++i) {
      step_report s;
      s.step = r.get_string();
      s.called = r.get<std::uint8_t>() != 0;
      s.status = r.get<std::int32_t>();
      const auto lines = r.get<std::uint64_t>();
      for (std::uint64_t j = 0; j < lines && j < 4096; ++j) s.log.push_back(r.get_string());
      result.report.steps.push_back(std::move(s));
    }
    // The outputs as requested: each named, typed and shaped as asked (what the request fixed), its bytes
    // exactly its shape's, all of them within the memory budget; anything else is a forged reply.
    const auto forged = [&](const std::string& why) {
      return error(fmt::format("{}: the node runner's reply is forged: {} ({}, {})", spec.label, why, library.op_name,
                               library.origin));
    };
    const auto outputs = r.get<std::uint64_t>();
    if (outputs != spec.outputs.size())
      throw forged(fmt::format("{} output(s) for the {} requested", outputs, spec.outputs.size()));
    std::uint64_t output_bytes = 0;
    for (std::uint64_t i = 0; i < outputs; ++i) {
      node_input t = r.get_tensor();
      const node_output_request& asked = spec.outputs[i];
      if (t.name != asked.name)
        throw forged(fmt::format("output {} is named '{}', not '{}'", i, printable(t.name), asked.name));
      if (asked.type != 0 && t.type != asked.type)
        throw forged(fmt::format("output '{}' has type {}, not the requested {}", asked.name, t.type, asked.type));
      if (asked.dims && t.dims != *asked.dims)
        throw forged(fmt::format("output '{}' has a shape other than the requested one", asked.name));
      std::uint64_t expected = vx_tensor_element_size(t.type);
      if (expected == 0 || t.dims.empty() || t.dims.size() > 6)
        throw forged(fmt::format("output '{}' has type {} and {} dimension(s)", asked.name, t.type, t.dims.size()));
      for (const std::uint32_t d : t.dims)
        expected = d == 0 || expected <= std::numeric_limits<std::uint64_t>::max() / d
                       ? expected * d
                       : std::numeric_limits<std::uint64_t>::max();
      if (t.bytes.size() != expected)
        throw forged(fmt::format("output '{}' holds {} bytes, its shape {}", asked.name, t.bytes.size(), expected));
      output_bytes += expected;
      if (output_bytes > memory_budget())
        throw forged(fmt::format("its outputs hold more than the memory budget ({} bytes)", memory_budget()));
      node_output o;
      o.name = std::move(t.name);
      o.dims = std::move(t.dims);
      o.type = t.type;
      o.bytes.assign(t.bytes.begin(), t.bytes.end());
      result.outputs.push_back(std::move(o));
    }
    return result;
  });
}

std::vector<std::uint8_t> call_in_child(const child_library& library, runner_slot& runner, runner_command command,
                                        const std::function<void(wire_writer&)>& body, std::uint64_t tensor_bytes,
                                        bool outputs_open) {
  wire_writer request;
  write_request_head(request, command, library);
  body(request);
  return call_runner(library, runner, request, tensor_count{tensor_bytes, outputs_open});
}

}  // namespace child_io

}  // namespace rknnop::host
