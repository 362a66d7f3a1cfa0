// SPDX-License-Identifier: MIT
#include "rknnop/host/file_io.hpp"

#include "rknnop/host/error.hpp"

#include <atomic>
#include <chrono>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

#include <fmt/format.h>

namespace rknnop::host {

namespace {

// What a file that is not a regular file is, for messages.
std::string_view kind_of(mode_t mode) noexcept {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

std::string reason_of(int error_number) { return std::strerror(error_number); }

class file_descriptor {
public:
  explicit file_descriptor(int fd) noexcept : fd_(fd) {}
  ~file_descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  file_descriptor(const file_descriptor&) = delete;
  file_descriptor& operator=(const file_descriptor&) = delete;
  [[nodiscard]] int get() const noexcept { return fd_; }
  int release() noexcept { return std::exchange(fd_, -1); }

private:
  int fd_;
};

// --- the interrupt cleanup registry ----------------------------------------------------------
// Fixed storage only: the signal handler reads it with no allocation and no locks.
constexpr int max_registered = 64;
constexpr std::size_t max_registered_path = 4096;
enum slot_state : int { slot_free = 0, slot_filling = 1, slot_ready = 2 };
struct registry_slot {
  std::atomic<int> state{slot_free};
  char path[max_registered_path] = {};
};
registry_slot registry[max_registered];
std::atomic<bool> handlers_installed{false};
constexpr int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

extern "C" void remove_temporaries_and_reraise(int signal_number) {
  const int saved_errno = errno;
  for (registry_slot& slot : registry)
    if (slot.state.load(std::memory_order_acquire) == slot_ready) ::unlink(slot.path);
  errno = saved_errno;
  // SA_RESETHAND restored the default action; the signal is blocked until this handler returns,
  // then it is delivered again and terminates the process as it would have without us.
  ::raise(signal_number);
}

}  // namespace

std::vector<std::uint8_t> read_file(const std::filesystem::path& path, std::uint64_t limit) {
  const std::string name = path.string();
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused right after, by fstat.
  const file_descriptor fd(::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (fd.get() < 0) throw error(fmt::format("cannot open '{}': {}", name, reason_of(errno)));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw error(fmt::format("cannot examine '{}': {}", name, reason_of(errno)));
  if (!S_ISREG(st.st_mode))
    throw error(
        fmt::format("'{}' is {}, not a regular file; rknnop reads regular files only", name, kind_of(st.st_mode)));
  const auto size = static_cast<std::uint64_t>(st.st_size);
  const auto too_large = [&](std::uint64_t at_least) {
    return error(fmt::format("'{}' is {}{} bytes, larger than the {}-byte limit for files rknnop reads", name,
                             at_least > size ? "over " : "", at_least, limit));
  };
  if (size > limit) throw too_large(size);
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  std::size_t done = 0;
  for (;;) {
    if (done == bytes.size()) {
      // The file may have grown since fstat: read on, up to the limit.
      if (bytes.size() >= limit) {
        std::uint8_t probe = 0;
        const ssize_t more = ::read(fd.get(), &probe, 1);
        if (more > 0) throw too_large(limit + 1);
        break;
      }
      bytes.resize(static_cast<std::size_t>(std::min<std::uint64_t>(limit, bytes.size() + (1u << 16))));
    }
    const ssize_t got = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw error(fmt::format("cannot read '{}': {}", name, reason_of(errno)));
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  bytes.resize(done);
  return bytes;
}

void check_output_path(const std::filesystem::path& path, std::string_view what) {
  const std::string name = path.string();
  if (name.empty()) throw error(fmt::format("{}: the output path is empty", what));
  struct stat st {};
  if (::lstat(name.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) {
      std::error_code ec;
      const std::filesystem::path target = std::filesystem::read_symlink(path, ec);
      throw error(fmt::format(
          "{}: '{}' is a symbolic link{}; rknnop replaces an output file as a whole and does not write through "
          "links: name the file itself",
          what, name, ec ? std::string() : fmt::format(" to '{}'", target.string())));
    }
    if (!S_ISREG(st.st_mode))
      throw error(
          fmt::format("{}: '{}' is {}; rknnop writes an output by replacing a regular file and will not replace {}",
                      what, name, kind_of(st.st_mode), kind_of(st.st_mode)));
  } else if (errno != ENOENT) {
    throw error(fmt::format("{}: cannot examine '{}': {}", what, name, reason_of(errno)));
  }
  const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  struct stat dir {};
  if (::stat(folder.c_str(), &dir) != 0)
    throw error(
        fmt::format("{}: the folder '{}' of '{}' {}", what, folder.string(), name,
                    errno == ENOENT ? std::string("does not exist") : "cannot be examined: " + reason_of(errno)));
  if (!S_ISDIR(dir.st_mode))
    throw error(fmt::format("{}: '{}' (the folder of '{}') is {}, not a directory", what, folder.string(), name,
                            kind_of(dir.st_mode)));
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw error(
        fmt::format("{}: the folder '{}' of '{}' is not writable: {}", what, folder.string(), name, reason_of(errno)));
}

void write_file_atomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  const std::string name = path.string();
  check_output_path(path, "cannot write the output");
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  // A name no one else uses: "." + the file name + ".tmp." + 16 hex digits; O_EXCL makes a collision
  // fail instead of sharing the file. Registered before it exists, so no signal can come between
  // its creation and its registration.
  static std::atomic<std::uint64_t> counter{0};
  std::string temporary;
  registered_temporary watch(std::filesystem::path{});
  int raw = -1;
  int reason = 0;
  for (unsigned attempt = 0; attempt < 8 && raw < 0; ++attempt) {
    const std::uint64_t salt = (static_cast<std::uint64_t>(::getpid()) << 40) ^
                               static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                               (++counter * 0x9E3779B97F4A7C15ull);
    temporary = (dir / fmt::format(".{}.tmp.{:016x}", path.filename().string(), salt)).string();
    watch.release();
    watch.watch(std::filesystem::absolute(temporary));
    raw = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // 0666 & ~umask
    reason = errno;
    if (raw < 0 && reason != EEXIST) break;
  }
  if (raw < 0)
    throw error(
        fmt::format("cannot create a temporary file in '{}' for '{}': {}", dir.string(), name, reason_of(reason)));
  file_descriptor fd(raw);
  const auto fail = [&](std::string_view stage, int why) {
    ::unlink(temporary.c_str());
    return error(fmt::format("cannot {} '{}': {}", stage, name, reason_of(why)));
  };
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t put = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) throw fail("write", put < 0 ? errno : EIO);
    done += static_cast<std::size_t>(put);
  }
  if (::fsync(fd.get()) != 0) throw fail("flush", errno);
  if (::close(fd.release()) != 0) throw fail("close", errno);
  if (::rename(temporary.c_str(), name.c_str()) != 0) {
    const int why = errno;
    ::unlink(temporary.c_str());
    throw error(fmt::format("cannot rename the temporary file onto '{}': {}", name, reason_of(why)));
  }
  watch.release();
}

void write_file_atomically(const std::filesystem::path& path, std::string_view text) {
  write_file_atomically(path,
                        std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

void check_plain_file_name(std::string_view name, std::string_view field, std::string_view source) {
  const auto refuse = [&](std::string_view why) {
    return error(fmt::format("{}: {} '{}' {}; it must be a plain file name (it becomes a path beside the op)", source,
                             field, name, why));
  };
  if (name.empty()) throw refuse("is empty");
  if (name == "." || name == "..") throw refuse("names a folder");
  if (name.front() == '/') throw refuse("is an absolute path");
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (c == '/' || c == '\\')
      throw refuse(fmt::format("holds a '{}' at byte {} (a folder separator)", static_cast<char>(c), i));
    if (c < 0x20 || c == 0x7F) throw refuse(fmt::format("holds the control byte 0x{:02x} at byte {}", c, i));
  }
}

void install_interrupt_cleanup() noexcept {
  if (handlers_installed.exchange(true)) return;
  for (const int signal_number : cleanup_signals) {
    struct sigaction current {};
    if (::sigaction(signal_number, nullptr, &current) != 0) continue;
    if (current.sa_handler == SIG_IGN) continue;  // nohup and friends: keep ignoring
    struct sigaction action {};
    action.sa_handler = remove_temporaries_and_reraise;
    sigemptyset(&action.sa_mask);
    for (const int other : cleanup_signals) sigaddset(&action.sa_mask, other);
    action.sa_flags = SA_RESETHAND;
    ::sigaction(signal_number, &action, nullptr);
  }
}

registered_temporary::registered_temporary(const std::filesystem::path& path) noexcept { watch(path); }

void registered_temporary::watch(const std::filesystem::path& path) noexcept {
  release();
  const std::string& text = path.native();
  if (text.empty() || text.size() >= max_registered_path) return;
  for (int i = 0; i < max_registered; ++i) {
    int expected = slot_free;
    if (!registry[i].state.compare_exchange_strong(expected, slot_filling, std::memory_order_acq_rel)) continue;
    std::memcpy(registry[i].path, text.c_str(), text.size() + 1);
    registry[i].state.store(slot_ready, std::memory_order_release);
    slot_ = i;
    return;
  }
}

registered_temporary::~registered_temporary() { release(); }

void registered_temporary::release() noexcept {
  if (slot_ < 0) return;
  registry[slot_].state.store(slot_free, std::memory_order_release);
  slot_ = -1;
}

int create_temporary_file(std::string_view stem, std::string_view suffix, std::string& path) {
  const char* from_environment = std::getenv("TMPDIR");
  const bool named = from_environment != nullptr && *from_environment != '\0';
  const std::string folder = named ? from_environment : "/tmp";
  const std::string origin = named ? fmt::format("TMPDIR='{}'", folder) : std::string("the temporary folder '/tmp'");
  struct stat st {};
  if (::stat(folder.c_str(), &st) != 0)
    throw error(
        fmt::format("{} {}; set TMPDIR to an existing writable folder", origin,
                    errno == ENOENT ? std::string("does not exist") : "cannot be examined: " + reason_of(errno)));
  if (!S_ISDIR(st.st_mode)) throw error(fmt::format("{} is {}, not a directory", origin, kind_of(st.st_mode)));
  path = fmt::format("{}/{}XXXXXX{}", folder, stem, suffix);
  const int fd = ::mkostemps(path.data(), static_cast<int>(suffix.size()), O_CLOEXEC);
  if (fd < 0) throw error(fmt::format("cannot create a temporary file in {}: {}", origin, reason_of(errno)));
  return fd;
}

}  // namespace rknnop::host
