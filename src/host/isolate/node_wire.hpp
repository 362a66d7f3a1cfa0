// SPDX-License-Identifier: MIT
#pragma once
// The bytes a node runner (rknnop-node) and its parent exchange through memory files: a request (what
// to load and run, with the input tensors) and a reply (the descriptor, the steps, the output
// tensors), plus the status page the runner keeps current while it runs (isolation.hpp).
#include "rknnop/host/engine.hpp"
#include "rknnop/host/error.hpp"
#include <rknnop/files.hpp>  // write_all

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace rknnop::host::child_io {

// The whole of a memory file (a request, a reply) into `bytes`: false on an error (errno says which)
// or a short read, `bytes` then holding what was read.
inline bool read_whole_file(int fd, std::vector<std::uint8_t>& bytes) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return false;
  bytes.assign(static_cast<std::size_t>(st.st_size), 0);
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t got = ::pread(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      bytes.resize(done);
      return false;
    }
    done += static_cast<std::size_t>(got);
  }
  return true;
}

// A memory file's content replaced by `bytes`: false on an error (errno says which).
inline bool replace_whole_file(int fd, std::span<const std::uint8_t> bytes) {
  if (::ftruncate(fd, 0) != 0) return false;
  const int why = rknnop::files::write_all(fd, bytes, 0);
  if (why != 0) errno = why;
  return why == 0;
}

inline constexpr std::uint32_t node_wire_magic = 0x524e4b52;  // "RKNR"
inline constexpr std::uint32_t node_wire_version =
    7;  // 4: a runner serves requests; 5: the status page reports tensor bytes; 6: the sandbox's fields;
        // 7: the library's label (op_source)

// The descriptors the runner is given: the library, the request, the reply, the status page, and the
// control socket: the parent sends a byte when a request is in the request file, the runner one back
// when its reply is in the reply file; the parent closing it ends the runner.
inline constexpr int runner_library_fd = 3;
inline constexpr int runner_request_fd = 4;
inline constexpr int runner_reply_fd = 5;
inline constexpr int runner_status_fd = 6;
inline constexpr int runner_control_fd = 7;

enum class runner_command : std::uint8_t { load = 1, run = 2, rknpu2 = 3 };  // rknpu2: rknpu2_runner.cpp

// The step the runner is in, kept in the status page for the parent to read after a crash or a kill.
// `shader`: the runner's shader executor runs a VX kernel's .vx (the descriptor's function is NULL).
enum class runner_step : std::uint32_t { start = 0, load, validate, initialize, kernel, deinitialize, done, shader };

// The page the runner maps shared (runner_status_fd): the step, and what its fault handler found.
struct runner_status {
  std::uint32_t step = 0;
  std::uint32_t fault_length = 0;
  char fault[1024] = {};
  std::uint64_t tensor_bytes =
      0;                  ///< the run's tensors (outputs included) once verified: the memory limit grows by them
  char refused[96] = {};  ///< the system call the sandbox refused (the runner then ends with SIGSYS)
  char missing_layers[512] = {};  ///< the sandbox's layers this runner lacks, for the tool's one note
};

// The runner's arguments: `--rknnop-node PARENT_PID`, and `--processes` for a runner that may start
// processes (it is sent a VX shader: POCL links each compiled kernel with the system linker).
inline constexpr std::string_view runner_processes_flag = "--processes";

class wire_writer {
public:
  template <class T>
    requires std::is_trivially_copyable_v<T>
  void put(const T& value) {
    append(&value, sizeof value);
  }
  void put_bytes(std::span<const std::byte> data) {
    put(static_cast<std::uint64_t>(data.size()));
    append(data.data(), data.size());
  }
  void put_string(std::string_view text) { put_bytes(std::as_bytes(std::span(text.data(), text.size()))); }
  template <class T>
  void put_vector(const std::vector<T>& items) {
    put(static_cast<std::uint64_t>(items.size()));
    for (const T& item : items) put(item);
  }
  // A tensor, inputs in a request and outputs in a reply alike: name, type, dims, bytes.
  void put_tensor(std::string_view name, std::int32_t type, const std::vector<std::uint32_t>& dims,
                  std::span<const std::byte> data) {
    put_string(name);
    put(type);
    put_vector(dims);
    put_bytes(data);
  }
  [[nodiscard]] const std::vector<std::uint8_t>& bytes() const noexcept { return bytes_; }
  // Room for `more` bytes at once: a reply of large outputs grows once, not by doubling (a copy of
  // up to twice the outputs beside them).
  void reserve_more(std::size_t more) { bytes_.reserve(bytes_.size() + more); }

private:
  // resize + memcpy, not insert: GCC 12's -Wstringop-overflow misfires on insert into an empty vector at -O3.
  void append(const void* data, std::size_t size) {
    if (size == 0) return;
    const std::size_t at = bytes_.size();
    bytes_.resize(at + size);
    std::memcpy(bytes_.data() + at, data, size);
  }
  std::vector<std::uint8_t> bytes_;
};

// Bounded reads: a short or garbled message throws, never reads past the end.
class wire_reader {
public:
  explicit wire_reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  template <class T>
    requires std::is_trivially_copyable_v<T>
  T get() {
    T value{};
    std::memcpy(&value, take(sizeof value).data(), sizeof value);
    return value;
  }
  std::span<const std::uint8_t> get_bytes() { return take(get<std::uint64_t>()); }
  std::string get_string() {
    const std::span<const std::uint8_t> s = get_bytes();
    return {reinterpret_cast<const char*>(s.data()), s.size()};
  }
  // What put_tensor wrote, as a node's input (the bytes point into the message).
  node_input get_tensor() {
    node_input t;
    t.name = get_string();
    t.type = get<std::int32_t>();
    t.dims = get_vector<std::uint32_t>();
    t.bytes = std::as_bytes(get_bytes());
    return t;
  }
  template <class T>
  std::vector<T> get_vector() {
    const auto count = get<std::uint64_t>();
    if (count > (bytes_.size() - at_) / sizeof(T)) throw error("node runner message: a list runs past its end");
    std::vector<T> items;
    items.reserve(count);
    for (std::uint64_t i = 0; i < count; ++i) items.push_back(get<T>());
    return items;
  }

private:
  std::span<const std::uint8_t> take(std::uint64_t size) {
    if (size > bytes_.size() - at_) throw error("node runner message: truncated");
    const std::span<const std::uint8_t> part = bytes_.subspan(at_, static_cast<std::size_t>(size));
    at_ += static_cast<std::size_t>(size);
    return part;
  }
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
};

}  // namespace rknnop::host::child_io
