// SPDX-License-Identifier: MIT
// The node runner (rknnop-node): a child process that loads one op library and runs its nodes for its
// parent (node_child.cpp), one request at a time: a byte on the control socket says a request is in
// the request file, a byte back says the reply is in the reply file; the socket's end ends the runner.
// Everything of the library runs here: its constructors, the descriptor's callbacks and the kernel, or
// a VX kernel's shader through the executor main() gives (rknnop::vxc's bridge in rknnop-node). Tensor
// buffers end at guard pages; a fault is mapped to the tensor it touched by an async-signal-safe
// handler that writes a prepared line into the shared status page.
#include "rknnop/host/engine.hpp"
#include "rknnop/host/error.hpp"
#include "rknnop/host/isolation.hpp"
#include "rknnop/host/loader.hpp"
#include "rknnop/host/memory_budget.hpp"

#include <rknnop/host/openvx_host.h>
#include <rknnop/openvx.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "process/child_process.hpp"
#include "isolate/node_wire.hpp"
#include "isolate/rknpu2_runner.hpp"

namespace rknnop::host {

namespace {

using child_io::runner_status;
using child_io::runner_step;

runner_status* status_page = nullptr;  // shared with the parent
const vx_kernel_description_t* real_descriptor = nullptr;

void set_step(runner_step step) noexcept {
  if (status_page != nullptr) __atomic_store_n(&status_page->step, static_cast<std::uint32_t>(step), __ATOMIC_SEQ_CST);
}

// The run's tensors, all allocated once the graph is verified (guard-paged mappings: resident only
// as the kernel writes them), for the parent's memory limit; called before the op's code runs on them.
void report_tensors(vx_context context) noexcept {
  vx_size in_use = 0, limit = 0;
  if (status_page != nullptr && rknnopHostGetTensorMemory(context, &in_use, &limit) == VX_SUCCESS)
    __atomic_store_n(&status_page->tensor_bytes, static_cast<std::uint64_t>(in_use), __ATOMIC_SEQ_CST);
}

// --- the fault handler's view of the tensors -------------------------------------------------------

struct guarded_tensor {
  std::uintptr_t start = 0;
  std::size_t size = 0;
  std::array<char, 160> label{};
};
constexpr std::size_t max_guarded = 64;
std::array<guarded_tensor, max_guarded> guarded{};
volatile std::size_t guarded_count = 0;
std::uintptr_t page_size = 4096;
std::array<char, 16384> alternate_stack{};

// Async-signal-safe text building into the status page.
struct fault_text {
  char* out;
  std::size_t capacity;
  std::size_t length = 0;
  void add(const char* text) noexcept {
    while (*text != '\0' && length < capacity) out[length++] = *text++;
  }
  void add(std::uint64_t value) noexcept {
    char digits[24];
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + value % 10);
      value /= 10;
    } while (value != 0);
    while (n > 0 && length < capacity) out[length++] = digits[--n];
  }
};

extern "C" void on_fault(int signal_number, siginfo_t* info, void*) {
  if (status_page != nullptr && (signal_number == SIGSEGV || signal_number == SIGBUS)) {
    const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    fault_text text{status_page->fault, sizeof status_page->fault};
    bool found = false;
    // Past a tensor's end first: one tensor's trailing guard page can lie just before another's start
    // (mmap places later buffers lower), and the access is then the first tensor's overrun.
    for (std::size_t i = 0; i < guarded_count && !found; ++i) {
      const guarded_tensor& t = guarded[i];
      const std::uintptr_t end = t.start + t.size;
      if (address >= end && address < end + page_size) {
        text.add("the access at byte ");
        text.add(address - t.start);
        text.add(" of ");
        text.add(t.label.data());
        text.add(" is ");
        text.add(address - end + 1);
        text.add(" byte(s) past its end (it holds ");
        text.add(t.size);
        text.add(" bytes)");
        found = true;
      }
    }
    for (std::size_t i = 0; i < guarded_count && !found; ++i) {
      const guarded_tensor& t = guarded[i];
      if (address < t.start && address + 2 * page_size >= t.start) {
        text.add("the access at byte -");
        text.add(t.start - address);
        text.add(" of ");
        text.add(t.label.data());
        text.add(" is before its start");
        found = true;
      }
    }
    if (!found && info->si_code == SI_KERNEL)
      text.add("a wild (non-canonical) address was used");
    else if (!found && address < page_size)
      text.add("a null pointer was used");
    status_page->fault_length = static_cast<std::uint32_t>(text.length);
  }
  // SA_RESETHAND restored the default action: the fault recurs (or the signal is delivered) and ends
  // the process with this signal, which the parent reports.
  ::raise(signal_number);
}

void install_fault_handler() noexcept {
  page_size = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  stack_t stack{};
  stack.ss_sp = alternate_stack.data();
  stack.ss_size = alternate_stack.size();
  (void)::sigaltstack(&stack, nullptr);  // a kernel's stack overflow still reaches the handler
  struct sigaction action {};
  action.sa_sigaction = on_fault;
  action.sa_flags = static_cast<int>(SA_SIGINFO | SA_ONSTACK | SA_RESETHAND);
  sigemptyset(&action.sa_mask);
  for (const int signal_number : {SIGSEGV, SIGBUS}) (void)::sigaction(signal_number, &action, nullptr);
}

void guard_buffer(const std::string& label, const void* data, std::size_t size) {
  if (guarded_count >= max_guarded) return;
  guarded_tensor& t = guarded[guarded_count];
  t.start = reinterpret_cast<std::uintptr_t>(data);
  t.size = size;
  const std::size_t n = std::min(label.size(), t.label.size() - 1);
  std::memcpy(t.label.data(), label.data(), n);
  t.label[n] = '\0';
  guarded_count = guarded_count + 1;
}

// --- the descriptor's callbacks, each named in the status page while it runs ------------------------

vx_status VX_CALLBACK run_validate(vx_node node, const vx_reference parameters[], vx_uint32 num,
                                   vx_meta_format metas[]) {
  set_step(runner_step::validate);
  return real_descriptor->validate(node, parameters, num, metas);
}
vx_status VX_CALLBACK run_initialize(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  report_tensors(vxGetContext(reinterpret_cast<vx_reference>(node)));
  set_step(runner_step::initialize);
  return real_descriptor->initialize(node, parameters, num);
}
vx_status VX_CALLBACK run_kernel(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  report_tensors(vxGetContext(reinterpret_cast<vx_reference>(node)));
  set_step(runner_step::kernel);
  return real_descriptor->function(node, parameters, num);
}
vx_status VX_CALLBACK run_deinitialize(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  set_step(runner_step::deinitialize);
  return real_descriptor->deinitialize(node, parameters, num);
}

// The reply: all written at once to the reply file (replacing the previous one) at the end.
void write_reply(const child_io::wire_writer& w) {
  if (!child_io::replace_whole_file(child_io::runner_reply_fd, w.bytes())) ::_exit(4);
}

void put_descriptor(child_io::wire_writer& w, const kernel_descriptor_info& k) {
  w.put_string(k.list_symbol);
  w.put(static_cast<std::uint64_t>(k.list_size));
  w.put(k.kernel_index);
  w.put_string(k.name);
  w.put(k.enumeration);
  for (const bool flag : {k.is_shader, k.has_validate, k.has_initialize, k.has_deinitialize})
    w.put(static_cast<std::uint8_t>(flag ? 1 : 0));
  w.put(k.num_params);
  w.put_vector(k.parameters);
}

std::vector<std::uint8_t> read_request() {
  std::vector<std::uint8_t> bytes;
  if (!child_io::read_whole_file(child_io::runner_request_fd, bytes)) ::_exit(5);
  return bytes;
}

// The rest of a run request: the node's label, inputs, outputs, params and a shader kernel's .vx.
node_spec read_node_spec(child_io::wire_reader& r, std::optional<node_shader>& shader) {
  node_spec spec;
  spec.label = r.get_string();
  const auto inputs = r.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < inputs; ++i) spec.inputs.push_back(r.get_tensor());
  const auto outputs = r.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < outputs; ++i) {
    node_output_request o;
    o.name = r.get_string();
    const bool has_dims = r.get<std::uint8_t>() != 0;
    std::vector<std::uint32_t> dims = r.get_vector<std::uint32_t>();
    if (has_dims) o.dims = std::move(dims);
    o.type = r.get<std::int32_t>();
    spec.outputs.push_back(std::move(o));
  }
  const auto params = r.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < params; ++i) {
    node_param p;
    p.name = r.get_string();
    p.value.type = r.get<std::int32_t>();
    p.value.items = r.get_vector<std::int32_t>();
    p.value.scalar = r.get<std::array<std::uint8_t, 8>>();
    spec.params.push_back(std::move(p));
  }
  if (r.get<std::uint8_t>() != 0) {
    node_shader s;
    s.text = r.get_string();
    s.file_name = r.get_string();
    s.error = r.get_string();
    shader = std::move(s);
  }
  return spec;
}

// A root runner's op.yml, copied into a memory file before its sandbox makes it an unprivileged user
// (which may not read the file): the request's path, and the copy's (/proc/self/fd/N).
std::pair<std::string, std::string> op_yml_copy;

void copy_op_yml_for_an_unprivileged_runner() noexcept {
  const char* path = std::getenv("RKNNOP_NODE_OP_YML");
  if (::geteuid() != 0 || path == nullptr || *path == '\0') return;
  try {
    std::vector<std::uint8_t> text;
    const int in = ::open(path, O_RDONLY | O_CLOEXEC);
    const bool read = in >= 0 && child_io::read_whole_file(in, text);
    if (in >= 0) ::close(in);
    const int copy = read ? ::memfd_create("rknnop-node-op.yml", MFD_CLOEXEC) : -1;
    if (copy >= 0 && rknnop::files::write_all(copy, text) == 0)
      op_yml_copy = {path, fmt::format("/proc/self/fd/{}", copy)};
  } catch (...) {  // the runner then reads the file itself, as before
  }
}

// The library, loaded by the first request and kept for the next ones (all name the same file).
std::optional<op_library> loaded;
// The sandbox's second call, once the library is loaded (runner_sandbox_request::library_loaded).
std::function<void()> after_load;

// What an RKNPU2 plugin's request borrows of this loop (rknpu2_runner.cpp).
child_io::rknpu2_runner_hooks rknpu2_hooks() {
  child_io::rknpu2_runner_hooks h;
  h.set_step = set_step;
  h.after_load = [] {
    if (after_load) std::exchange(after_load, nullptr)();
  };
  h.clear_guarded = [] { guarded_count = 0; };
  h.guard_buffer = guard_buffer;
  h.tensor_bytes = [](std::uint64_t bytes) {
    if (status_page != nullptr) __atomic_store_n(&status_page->tensor_bytes, bytes, __ATOMIC_SEQ_CST);
  };
  return h;
}

void serve(child_io::wire_writer& reply, const runner_shader_executor& shaders) {
  const std::vector<std::uint8_t> request = read_request();
  child_io::wire_reader r(request);
  if (r.get<std::uint32_t>() != child_io::node_wire_magic || r.get<std::uint32_t>() != child_io::node_wire_version)
    throw error("the node runner does not understand its parent's request (another rknnop version?)");
  const auto command = r.get<child_io::runner_command>();
  const std::string label = r.get_string();
  load_options options;
  const bool has_op_yml = r.get<std::uint8_t>() != 0;
  const std::string op_yml = r.get_string();
  if (has_op_yml) options.op_yml = op_yml == op_yml_copy.first ? op_yml_copy.second : op_yml;
  const bool has_index = r.get<std::uint8_t>() != 0;
  const auto index = r.get<std::uint32_t>();
  if (has_index) options.kernel_index = index;
  options.execution = node_execution::in_process;
  set_memory_budget(r.get<std::uint64_t>());
  if (command == child_io::runner_command::rknpu2) return child_io::serve_rknpu2(r, reply, label, rknpu2_hooks());

  if (!loaded) {
    set_step(runner_step::load);
    child_io::set_load_probe(false);  // this process is the probe
    // The parent's bytes under the parent's label: every message names the op as the user knows it.
    op_source source = op_source::read(fmt::format("/proc/self/fd/{}", child_io::runner_library_fd));
    source.label = label;
    loaded = op_library::open(std::move(source), options);
    if (after_load) after_load();
  }
  const op_library& library = *loaded;
  if (command == child_io::runner_command::load) {
    reply.put(static_cast<std::uint8_t>(1));
    put_descriptor(reply, library.kernel());
    return;
  }

  // The descriptor as registered: the library's own, its callbacks called through the step markers.
  real_descriptor = static_cast<const vx_kernel_description_t*>(library.descriptor());
  vx_kernel_description_t wrapped = *real_descriptor;
  if (wrapped.validate != nullptr) wrapped.validate = run_validate;
  if (wrapped.initialize != nullptr) wrapped.initialize = run_initialize;
  if (wrapped.function != nullptr) wrapped.function = run_kernel;
  if (wrapped.deinitialize != nullptr) wrapped.deinitialize = run_deinitialize;

  std::optional<node_shader> shader;
  node_spec spec = read_node_spec(r, shader);
  spec.descriptor = &wrapped;
  // A VX kernel's .vx runs through the executor attached to the node's context, the step marked as
  // the executor takes its source (just before the shader runs).
  std::shared_ptr<void> executor;
  if (shader && wrapped.function == nullptr) {
    if (!shaders)
      throw error(
          fmt::format("{}: this rknnop-node was built without rknnop::vxc (OpenCL), so it cannot run the "
                      "VX shader",
                      spec.label));
    spec.on_context = [&](void* context) {
      executor = shaders(context, [&shader, context](std::string_view) {
        report_tensors(static_cast<vx_context>(context));
        set_step(runner_step::shader);
        return *shader;
      });
    };
  }
  spec.on_buffer = guard_buffer;
  guarded_count = 0;  // the previous run's tensors are gone
  (void)rknnopHostSetGuardPages(vx_true_e);
  const node_result result = run_node(spec);
  set_step(runner_step::done);

  reply.put(static_cast<std::uint8_t>(1));
  put_descriptor(reply, library.kernel());
  reply.put(static_cast<std::uint64_t>(result.report.steps.size()));
  for (const step_report& s : result.report.steps) {
    reply.put_string(s.step);
    reply.put(static_cast<std::uint8_t>(s.called ? 1 : 0));
    reply.put(s.status);
    reply.put(static_cast<std::uint64_t>(s.log.size()));
    for (const std::string& line : s.log) reply.put_string(line);
  }
  reply.put(static_cast<std::uint64_t>(result.outputs.size()));
  std::size_t output_bytes = 0;
  for (const node_output& o : result.outputs) output_bytes += o.name.size() + 4 * o.dims.size() + o.bytes.size() + 64;
  reply.reserve_more(output_bytes);
  for (const node_output& o : result.outputs) reply.put_tensor(o.name, o.type, o.dims, o.bytes);
}

// A failed request's reply: the one line.
child_io::wire_writer failure_reply(std::string_view message) {
  child_io::wire_writer reply;
  reply.put(child_io::node_wire_magic);
  reply.put(static_cast<std::uint8_t>(0));
  reply.put_string(message);
  return reply;
}

// One request: its reply, or the one line of what failed.
child_io::wire_writer answer(const runner_shader_executor& shaders) {
  child_io::wire_writer reply;
  reply.put(child_io::node_wire_magic);
  try {
    serve(reply, shaders);
  } catch (const error& e) {
    return failure_reply(e.detail());
  } catch (const std::bad_alloc&) {
    return failure_reply("the node runner ran out of memory");
  } catch (const std::exception& e) {
    return failure_reply(e.what());
  }
  return reply;
}

// Waits for the parent's next request (a byte on the control socket); false when the parent is done.
bool next_request() noexcept {
  char byte = 0;
  for (;;) {
    const ssize_t got = ::recv(child_io::runner_control_fd, &byte, 1, 0);
    if (got < 0 && errno == EINTR) continue;
    return got == 1;
  }
}

// The sandbox, set up once at the first request (the tool cleared the status page before it): before
// the library is loaded. What it lacks goes into the status page for the tool's one note.
void confine(const runner_sandbox& sandbox, bool processes) noexcept {
  std::string missing = "all of it (this rknnop-node has no sandbox)";
  try {
    runner_sandbox_request request;
    request.processes = processes;
    if (const char* folder = std::getenv("POCL_CACHE_DIR"); processes && folder != nullptr)
      request.writable_folder = folder;
    request.refused = status_page->refused;
    request.refused_capacity = sizeof status_page->refused;
    // Descriptors beyond the runner's own (3-7) that the tool's parent left open: not the runner's.
    (void)::syscall(SYS_close_range, 8U, ~0U, 0U);
    if (sandbox) {
      copy_op_yml_for_an_unprivileged_runner();
      missing = sandbox(request);
    }
  } catch (...) {
    missing = "the sandbox (it failed to set up)";
  }
  const auto note = [](const std::string& text) {
    const std::size_t at = ::strnlen(status_page->missing_layers, sizeof status_page->missing_layers);
    const std::size_t n = std::min(text.size(), sizeof status_page->missing_layers - 1 - at);
    std::memcpy(status_page->missing_layers + at, text.data(), n);
    status_page->missing_layers[at + n] = '\0';
  };
  note(missing);
  if (sandbox)
    after_load = [sandbox, note] {
      runner_sandbox_request request;
      request.library_loaded = true;
      std::string more;
      try {
        more = sandbox(request);
      } catch (...) {
        more = "the sandbox's memfd_create rule";
      }
      if (!more.empty()) note((status_page->missing_layers[0] != '\0' ? "; " : "") + more);
    };
}

}  // namespace

int node_runner_main(int argc, char** argv, const runner_shader_executor& shaders,
                     const runner_sandbox& sandbox) noexcept {
  const bool processes = argc == 4 && argv[3] == child_io::runner_processes_flag;
  if ((argc != 3 && !processes) || std::strcmp(argv[1], "--rknnop-node") != 0) {
    static constexpr char usage[] =
        "rknnop-node: the node runner of the rknnop tools; it is started by them, not by hand\n";
    (void)!::write(STDERR_FILENO, usage, sizeof usage - 1);
    return 2;
  }
  // Dies with its parent (an interrupted tool leaves no runner behind), and not after it.
  (void)::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (std::to_string(::getppid()) != argv[2]) return 3;
  void* page =
      ::mmap(nullptr, sizeof(runner_status), PROT_READ | PROT_WRITE, MAP_SHARED, child_io::runner_status_fd, 0);
  if (page == MAP_FAILED) return 4;
  status_page = static_cast<runner_status*>(page);
  install_fault_handler();
  // Requests until the parent closes the control socket (or stops this runner): the library stays
  // loaded, each run's tensors are created for it. No library destructor or static destructor runs
  // at the end: the parent has what it needs.
  for (bool confined = false; next_request();) {
    if (!confined) {
      confine(sandbox, processes);
      confined = true;
    }
    try {
      write_reply(answer(shaders));
    } catch (...) {
      ::_exit(6);
    }
    set_step(runner_step::done);
    const char ready = 1;
    if (::send(child_io::runner_control_fd, &ready, 1, MSG_NOSIGNAL) != 1) ::_exit(0);
  }
  ::_exit(0);
}

}  // namespace rknnop::host
