// SPDX-License-Identifier: MIT
#include "rknnop/host/loader.hpp"

#include "rknnop/host/descriptor_pointers.hpp"

#include "rknnop/host/container.hpp"
#include "rknnop/host/elf.hpp"
#include "rknnop/host/error.hpp"
#include "rknnop/host/file_io.hpp"
#include "rknnop/host/validate.hpp"
#include <rknnop/vx_type.hpp>

#include <rknnop/openvx.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <fstream>
#include <memory>
#include <mutex>
#include <system_error>  // the lock of ~state
#include <sstream>
#include <unistd.h>
#include <utility>

#include <fmt/format.h>

#include "formats/byte_io.hpp"
#include "formats/temporary_file.hpp"
#include "process/child_process.hpp"

namespace rknnop::host {

namespace child_io {
namespace {
std::atomic<bool> load_probe{true};
}  // namespace
bool load_probe_enabled() noexcept { return load_probe.load(std::memory_order_relaxed); }
void set_load_probe(bool enabled) noexcept { load_probe.store(enabled, std::memory_order_relaxed); }
}  // namespace child_io

namespace {

constexpr std::size_t max_list_entries = 1024;  // a list longer than this is garbage, not a list

std::string_view text_of(const std::vector<std::uint8_t>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// True when [address, address + size) lies in a writable mapping of this process.
bool is_writable_memory(const void* address, std::size_t size) {
  std::ifstream maps("/proc/self/maps");
  if (!maps) return true;  // cannot tell: let the write decide
  const auto begin = reinterpret_cast<std::uintptr_t>(address);
  const std::uintptr_t end = begin + size;
  std::string line;
  while (std::getline(maps, line)) {
    std::uintptr_t lo = 0, hi = 0;
    char perms[5] = {};
    if (std::sscanf(line.c_str(), "%lx-%lx %4s", &lo, &hi, perms) != 3) continue;
    if (begin >= lo && end <= hi) return perms[1] == 'w';
  }
  return false;
}

// Loads the op.yml that goes with the library: the same reading of a container as
// `rknnop-pack inspect --verify` (container_op); for a bare library, the one beside its file.
op_yml load_yml(const op_source& source, const load_options& options, const std::optional<container>& packed) {
  if (packed) {  // the .py section states the op's port order; op.yml's maps may not (issue 9)
    if (!options.op_yml) return container_op(*packed, source.label);
    op_yml op = read_op_yml_file(*options.op_yml);
    check_python_section(packed->op_py, source.label);
    if (!packed->op_py.empty()) apply_python_port_order(op, text_of(packed->op_py), "the .py section");
    return op;
  }
  if (options.op_yml) return read_op_yml_file(*options.op_yml);
  if (!source.file)
    throw error(
        fmt::format("{}: no op.yml given (--op-yml), and a library opened from memory has no folder to find one "
                    "in; the loader needs it for the op name and the param types",
                    source.label));
  const auto beside = source.file->parent_path() / "op.yml";
  if (std::filesystem::exists(beside)) return read_op_yml_file(beside);
  throw error(
      fmt::format("{}: no op.yml given (--op-yml) and none beside the library ({}); the "
                  "loader needs it for the op name and the param types",
                  source.label, beside.string()));
}

// How long a probe may take, and how much memory it may touch beyond this process's own (its
// copy-on-write start): a library whose loading does not return, or that fills memory (a corrupt
// segment size or constructor, an instrumented library's corrupt globals), is stopped at either.
constexpr std::chrono::seconds probe_deadline{30};
constexpr std::uint64_t probe_memory_budget = std::uint64_t{1} << 30;

// dlopens and dlcloses `path` in a forked child first: a corrupt library that crashes the dynamic
// loader (or its constructors or destructors) kills the child, not this process, and becomes one line naming `label`.
// The child's stderr (ld.so's "Inconsistency detected" lines) is captured, not shown. Empty on success.
// ld.so's and dlerror's text name the file dlopen was given; a memory file's /proc/self/fd/N says
// nothing ("version `GLIBC_2.99' not found (required by /proc/self/fd/8)"): its leading name is
// dropped and every other one becomes the library as the user knows it (the container or model file).
std::string named_as_user_knows_it(std::string text, const std::string& path, const std::string& label,
                                   std::string_view what, std::string_view op) {
  if (text.starts_with(path + ": ")) text.erase(0, path.size() + 2);
  if (!path.starts_with("/proc/self/fd/")) return text;
  const std::string instead = fmt::format("the {} of op '{}' in {}", what, op, label);
  for (std::size_t from = 0, at = 0; (at = text.find(path, from)) != std::string::npos;) {
    const std::size_t end = at + path.size();
    if (end < text.size() && text[end] >= '0' && text[end] <= '9') {  // /proc/self/fd/80 is not /proc/self/fd/8
      from = end;
      continue;
    }
    text.replace(at, path.size(), instead);
    from = at + instead.size();
  }
  return text;
}

std::string probe_load(const std::string& path, const std::string& label, std::string_view what, std::string_view op) {
  if (!child_io::load_probe_enabled()) return {};  // already in a child process (rknnop-node)
  int channel[2];
  if (::pipe2(channel, O_CLOEXEC) != 0)
    throw error(fmt::format("{}: cannot create a pipe for the load probe: {}", label, std::strerror(errno)));
  const std::uint64_t memory_limit = child_io::resident_bytes(::getpid()) + probe_memory_budget;
  std::fflush(nullptr);
  const pid_t child = ::fork();
  if (child < 0) {
    const int why = errno;
    ::close(channel[0]);
    ::close(channel[1]);
    throw error(fmt::format("{}: cannot fork the load probe: {}", label, std::strerror(why)));
  }
  if (child == 0) {  // only async-signal-safe calls besides dlopen itself; never returns
    // The parent's interrupt cleanup would remove the parent's temporary files: not the probe's job.
    for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::signal(signal_number, SIG_DFL);
    ::dup2(channel[1], STDERR_FILENO);
    ::dup2(channel[1], STDOUT_FILENO);
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* why = ::dlerror();
      if (why) (void)!::write(channel[1], why, ::strlen(why));
      ::_exit(2);
    }
    // Unloading runs the library's destructors (DT_FINI_ARRAY), which this process runs at exit.
    if (::dlclose(handle) != 0) ::_exit(3);
    ::_exit(0);
  }
  ::close(channel[1]);
  // A library whose constructors never return is stopped after the deadline, one that fills memory
  // when it passes the budget (child_io::watch_child, shared with the node runner).
  const child_io::child_outcome outcome = child_io::watch_child(child, channel[0], probe_deadline, memory_limit);
  const bool timed_out = outcome.timed_out;
  const std::uint64_t memory_used = outcome.memory_used;
  const int status = outcome.status;
  std::string report = outcome.output;
  if (timed_out)
    return fmt::format("loading the {} did not finish within {} s (its constructors do not return)", what,
                       probe_deadline.count());
  if (memory_used != 0)
    return fmt::format(
        "loading the {} used more than {} MiB of memory: the probe process was stopped at {} MiB (a corrupt "
        "segment size or constructor)",
        what, probe_memory_budget >> 20, (memory_used - (memory_limit - probe_memory_budget)) >> 20);
  if (WIFSIGNALED(status))
    return fmt::format("the {} is corrupt: loading it killed a probe process with {}{}", what,
                       child_io::signal_description(WTERMSIG(status)), report.empty() ? "" : "; " + report);
  report = named_as_user_knows_it(std::move(report), path, label, what, op);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 2) return fmt::format("dlopen of the {} failed: {}", what, report);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return fmt::format("the {} is corrupt: loading it stopped a probe process with exit status {}{}", what,
                       WIFEXITED(status) ? WEXITSTATUS(status) : -1, report.empty() ? "" : " (" + report + ")");
  return {};
}

// Loads the library section (or a library given as bytes): its structure is checked first
// (check_elf_structure), then it is loaded in a probe process, then here. The file holding it is gone
// when this returns.
void* dlopen_bytes(const std::vector<std::uint8_t>& bytes, const std::string& label, std::string_view what,
                   std::string_view op) {
  // A memory file (temporary_file: nothing in any folder), or where /proc is missing a registered
  // temporary file removed right after dlopen.
  const auto held = [&] {
    try {
      return std::make_unique<temporary_file>(bytes, "rknnop-op-", ".so");
    } catch (const error& e) {
      throw error(fmt::format("{}: the {}: {}", label, what, e.detail()));
    }
  }();
  temporary_file& file = *held;
  if (const std::string problem = probe_load(file.path(), label, what, op); !problem.empty())
    throw error(fmt::format("{}: {}", label, problem));
  void* handle = ::dlopen(file.path().c_str(), RTLD_NOW | RTLD_LOCAL);
  const char* why = handle ? nullptr : ::dlerror();
  std::string reason = why ? why : "";
  reason = named_as_user_knows_it(std::move(reason), file.path(), label, what, op);
  file.remove();
  if (!handle) throw error(fmt::format("{}: dlopen of the {} failed: {}", label, what, reason));
  return handle;
}

// Serializes open() and the dlclose of a library: dlopen returns the same mapping to every caller for
// one .so, and the enumeration write into its descriptor must not race with another thread reading it.
// The load probe is a fork(): a child forked while another thread is inside the dynamic linker (a
// dlclose of another session's library) inherits its lock held and its dlopen never returns, so no
// dlopen or dlclose of the loader runs while it forks. Recursive: a failed open() releases its library.
std::recursive_mutex& open_mutex() {
  static std::recursive_mutex m;
  return m;
}

// --- op_library::open, step by step (docs/runtime.md §7) ---------------------------------------------

// Step 1, the bytes (read from the file by op_source::read): a .rknnop (starts with "RKNN") gives its
// section for this host; anything else must be an ELF kernel library.
struct library_file_bytes {
  std::vector<std::uint8_t> file;
  std::optional<container> packed;
  section_kind packed_kind = section_kind::lib_x86_64;
  std::string label;  ///< names the library: the file, or the container's section

  [[nodiscard]] const std::vector<std::uint8_t>& library() const {
    return packed ? packed->section(packed_kind) : file;
  }
};

const std::vector<std::uint8_t>& host_section(const container& packed, const std::string& label, section_kind& kind) {
  kind = library_section_for(host_machine(), packed.version, label);
  const std::vector<std::uint8_t>& bytes = packed.section(kind);
  if (bytes.empty())
    throw error(
        fmt::format("{}: the {} section is empty, and this host is {}: this container cannot run here "
                    "(rknnop_add_op leaves a board section empty when that cross compiler is missing)",
                    label, section_description(kind), machine_name(host_machine())));
  return bytes;
}

library_file_bytes read_library_file(std::vector<std::uint8_t> bytes_read, const std::string& label) {
  library_file_bytes read{std::move(bytes_read), std::nullopt, section_kind::lib_x86_64, label};
  const std::vector<std::uint8_t>& bytes = read.file;
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), container_format::magic.data(), 4) == 0) {
    read.packed = parse_container(bytes, label);
    (void)host_section(*read.packed, label, read.packed_kind);
    read.label = fmt::format("{} ({} section)", label, section_description(read.packed_kind));
  } else if (!looks_like_elf(bytes)) {
    if (const std::string model = rknn_model_kind(bytes); !model.empty())
      throw error(
          fmt::format("{}: this is {}, not a .rknnop container or a kernel library; the .rknnop tools take "
                      "the custom op's container",
                      label, model));
    throw error(fmt::format(
        "{}: neither a kernel library (ELF) nor a .rknnop container (starts with "
        "{})",
        label,
        bytes.empty() ? std::string("nothing: the file is empty")
                      : byte_io::hex_bytes(std::span(bytes).first(std::min<std::size_t>(4, bytes.size())))));
  }
  return read;
}

// Step 4, load: after the load probe, dlopen the container's section from memory, or the bare library
// from its file (threads opening the same .so share its mapping), or from memory when it has none.
// The caller holds open_mutex().
void* load_library(const op_source& source, const library_file_bytes& read, std::string_view op) {
  const std::string& label = source.label;
  if (read.packed) return dlopen_bytes(read.library(), label, section_description(read.packed_kind), op);
  if (!source.file) return dlopen_bytes(read.file, label, "library", op);
  const std::string absolute = std::filesystem::absolute(*source.file).string();
  if (const std::string problem = probe_load(absolute, label, "library", op); !problem.empty())
    throw error(fmt::format("{}: {}", label, problem));
  void* handle = ::dlopen(absolute.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = ::dlerror();
    throw error(fmt::format("{}: dlopen failed: {}", label,
                            why ? named_as_user_knows_it(why, absolute, label, "library", op) : "unknown reason"));
  }
  return handle;
}

// Step 5, find the kernel list: dlsym of vx_kernel_<Name>_list, NULL-terminated.
std::span<vx_kernel_description_t* const> find_kernel_list(void* handle, const elf_info& info, const op_yml& op,
                                                           const std::string& label) {
  const std::string symbol = kernel_list_symbol(op.name);
  ::dlerror();
  void* list_address = ::dlsym(handle, symbol.c_str());
  if (list_address == nullptr) throw_missing_kernel_list(info.exported, op, label);
  check_descriptor_pointers(list_address, symbol, max_list_entries, label);  // before reading through them
  auto* const* list = static_cast<vx_kernel_description_t* const*>(list_address);
  std::size_t count = 0;
  while (count < max_list_entries && list[count] != nullptr) ++count;
  if (count == max_list_entries)
    throw error(fmt::format("{}: {} has no NULL terminator within {} entries", label, symbol, max_list_entries));
  return {list, count};
}

// Step 7, check the descriptor: against op.yml (check_descriptor_for_op, as on the file in step 3),
// then write its enumeration as the board runtime does.
kernel_descriptor_info check_descriptor(vx_kernel_description_t* descriptor, const op_yml& op, std::uint32_t index,
                                        std::size_t list_size, const std::string& label) {
  kernel_descriptor_info k;
  k.list_symbol = kernel_list_symbol(op.name);
  k.list_size = list_size;
  k.kernel_index = index;
  kernel_descriptor_fields fields;
  fields.writable = is_writable_memory(descriptor, sizeof *descriptor);
  if (fields.writable) {  // the rest is read only from a descriptor that can be one
    fields.name_field = std::string_view(descriptor->name, VX_MAX_KERNEL_NAME);
    fields.num_params = descriptor->numParams;
    fields.has_parameters = descriptor->parameters != nullptr;
  }
  // The table is read only when its size is op.yml's: a garbage numParams fails the check unread.
  if (fields.has_parameters && fields.num_params == op.parameter_count())
    for (std::size_t i = 0; i < fields.num_params; ++i) {
      const vx_param_description_t& p = descriptor->parameters[i];
      k.parameters.push_back({p.direction, p.data_type, p.state});
    }
  fields.parameters = k.parameters;
  k.name = check_descriptor_for_op(fields, op, k.kernel_index, k.list_symbol, label);
  // Written once per mapping: a second open of the same .so only reads it (no write racing with a
  // session of another thread that reads the descriptor).
  if (descriptor->enumeration != loader_kernel_enumeration) descriptor->enumeration = loader_kernel_enumeration;
  k.enumeration = descriptor->enumeration;
  k.is_shader = descriptor->function == nullptr;
  k.has_validate = descriptor->validate != nullptr;
  k.has_initialize = descriptor->initialize != nullptr;
  k.has_deinitialize = descriptor->deinitialize != nullptr;
  k.num_params = descriptor->numParams;
  return k;
}

}  // namespace

section_kind library_section_for(std::uint16_t machine, std::uint64_t version, std::string_view source) {
  if (machine == elf_machine::x86_64) return section_kind::lib_x86_64;
  if (machine == elf_machine::aarch64) return section_kind::lib_aarch64;
  if (machine != elf_machine::arm)
    throw error(fmt::format("{}: a .rknnop holds libraries for x86-64, aarch64 and armhf only; this host is {}", source,
                            machine_name(machine)));
  if (version == 1)
    throw error(
        fmt::format("{}: a version-1 container (RKNN-Toolkit 1.2.0) has no armhf library section, and "
                    "this host is armhf (RV1109/RV1126); rebuild the op with toolkit 1.3.2+ or "
                    "rknnop_add_op (container version 2)",
                    source));
  return section_kind::lib_armhf;
}

std::string vx_status_text(std::int32_t status) {
  static constexpr std::string_view names[] = {"VX_SUCCESS",
                                               "VX_FAILURE",
                                               "VX_ERROR_NOT_IMPLEMENTED",
                                               "VX_ERROR_NOT_SUPPORTED",
                                               "VX_ERROR_NOT_SUFFICIENT",
                                               "VX_ERROR_NOT_ALLOCATED",
                                               "VX_ERROR_NOT_COMPATIBLE",
                                               "VX_ERROR_NO_RESOURCES",
                                               "VX_ERROR_NO_MEMORY",
                                               "VX_ERROR_OPTIMIZED_AWAY",
                                               "VX_ERROR_INVALID_PARAMETERS",
                                               "VX_ERROR_INVALID_MODULE",
                                               "VX_ERROR_INVALID_REFERENCE",
                                               "VX_ERROR_INVALID_LINK",
                                               "VX_ERROR_INVALID_FORMAT",
                                               "VX_ERROR_INVALID_DIMENSION",
                                               "VX_ERROR_INVALID_VALUE",
                                               "VX_ERROR_INVALID_TYPE",
                                               "VX_ERROR_INVALID_GRAPH",
                                               "VX_ERROR_INVALID_NODE"};
  if (status <= 0 && status >= -19) return fmt::format("{} ({})", names[-status], status);
  return fmt::format("status {}", status);
}

struct op_library::state {
  std::filesystem::path source;
  void* handle = nullptr;
  op_yml op;
  kernel_descriptor_info kernel;
  vx_kernel_description_t* descriptor = nullptr;

  state() = default;
  state(const state&) = delete;
  state& operator=(const state&) = delete;
  ~state() {
    if (!handle) return;
    try {
      const std::lock_guard lock(open_mutex());  // not while a load probe forks (open_mutex)
      ::dlclose(handle);
    } catch (const std::system_error&) {  // the lock could not be taken: close anyway
      ::dlclose(handle);
    }
  }
};

op_library::op_library(std::unique_ptr<state> s) noexcept : state_(std::move(s)) {}
op_library::op_library(op_library&&) noexcept = default;
op_library& op_library::operator=(op_library&&) noexcept = default;
op_library::~op_library() = default;

const op_yml& op_library::op() const noexcept { return state_->op; }
const kernel_descriptor_info& op_library::kernel() const noexcept { return state_->kernel; }
void* op_library::descriptor() const noexcept { return state_->descriptor; }
const std::filesystem::path& op_library::source() const noexcept { return state_->source; }

op_source op_source::read(const std::filesystem::path& path) { return op_source{read_file(path), path.string(), path}; }

library_inspection op_library::inspect(const std::filesystem::path& path, const load_options& options) {
  return inspect(op_source::read(path), options);
}

library_inspection op_library::inspect(op_source source, const load_options& options) {
  library_file_bytes read = read_library_file(std::move(source.bytes), source.label);  // the bytes move on
  const elf_info info = inspect_elf(read.library(), read.label);
  check_loadable_on_host(info, read.label);
  library_inspection result;
  result.op = load_yml(source, options, read.packed);
  check_library_for_op(read.library(), result.op, options.kernel_index, read.label);
  result.label = read.label;
  if (options.op_yml)
    result.op_yml_path = *options.op_yml;
  else if (!read.packed)
    result.op_yml_path = source.file->parent_path() / "op.yml";  // load_yml found it there
  result.file = std::move(read.file);
  return result;
}

op_library op_library::open(const std::filesystem::path& path, const load_options& options) {
  return open(op_source::read(path), options);
}

// The steps of docs/runtime.md §7, in its order; each names the file, symbol or parameter it rejects.
op_library op_library::open(op_source source, const load_options& options) {
  auto s = std::make_unique<state>();
  s->source = source.file.value_or(std::filesystem::path(source.label));
  // 1. Take the bytes (op_source::read read the file).
  const library_file_bytes read = read_library_file(std::move(source.bytes), source.label);  // not copied
  // 2. Check the machine.
  const elf_info info = inspect_elf(read.library(), read.label);
  check_loadable_on_host(info, read.label);
  // 3. Read op.yml and check the file, before any of it runs.
  s->op = load_yml(source, options, read.packed);
  check_library_for_op(read.library(), s->op, options.kernel_index, read.label);
  // 4. Load.
  const std::lock_guard lock(open_mutex());
  s->handle = load_library(source, read, s->op.name);
  // 5. Find the kernel list.
  const std::span list = find_kernel_list(s->handle, info, s->op, read.label);
  // 6. Select the descriptor.
  const std::uint32_t index =
      select_kernel_index(list.size(), s->op, options.kernel_index, kernel_list_symbol(s->op.name), read.label);
  s->descriptor = list[index];
  // 7. Check the descriptor and write its enumeration.
  s->kernel = check_descriptor(s->descriptor, s->op, index, list.size(), read.label);
  return op_library(std::move(s));
}

}  // namespace rknnop::host
