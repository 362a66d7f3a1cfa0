// SPDX-License-Identifier: MIT
// The node runner's side of an RKNPU2 plugin run (rknpu2_run.hpp): inside rknnop-node, after its
// sandbox is set up, the plugin (the library descriptor's bytes) is checked and loaded, then described
// or run as librknnrt runs a CPU custom op: rknnop_rknpu2_infer for the outputs' attrs, then the
// custom op's init, compute and destroy with one context, the attributes read back through
// rknn_custom_op_get_op_attr (rknpu2_get_op_attr below; rknnop-node exports the C name). The
// plugin's lines on stderr are caught in a memory file while its callbacks run: a failure's reply is
// the plugin's own "rknnop: <Op>: ..." line.
#include "isolate/rknpu2_runner.hpp"

#include "rknnop/host/elf.hpp"
#include "rknnop/host/error.hpp"
#include "rknnop/host/rknpu2_run.hpp"
#include <rknnop/rknpu2_plugin.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fmt/format.h>

namespace rknnop::host::child_io {

namespace {

// The plugin, loaded by the first request and kept for the next ones.
struct loaded_plugin {
  void* handle = nullptr;
  rknnop_rknpu2_custom_op* op = nullptr;
  RKNNOP_RKNPU2_INFER_FN infer = nullptr;
  RKNNOP_RKNPU2_DESCRIBE_FN describe = nullptr;
  int log_file = -1;  // the plugin's stderr while its callbacks run (made before the sandbox's second call)
};
std::optional<loaded_plugin> plugin;

// The attributes of the node being run, for rknpu2_get_op_attr.
const std::vector<rknnop_rknpu2_op_attr>* current_attrs = nullptr;

template <class F>
F symbol(void* handle, const char* name) {
  void* address = ::dlsym(handle, name);
  F f = nullptr;
  static_assert(sizeof f == sizeof address);
  std::memcpy(&f, &address, sizeof f);
  return f;
}

loaded_plugin& load(const std::string& label, const rknpu2_runner_hooks& hooks) {
  if (plugin) return *plugin;
  hooks.set_step(runner_step::load);
  std::vector<std::uint8_t> bytes;
  if (!read_whole_file(runner_library_fd, bytes))
    throw error(fmt::format("{}: cannot read the plugin in the node runner: {}", label, std::strerror(errno)));
  // What the tool checked, again where the plugin is loaded: a plugin for this machine, its structure
  // sound before ld.so maps it.
  const elf_info info = inspect_elf(bytes, label);
  check_loadable_on_host(info, label);
  check_elf_structure(bytes, label);
  if (info.find_export("get_rknn_custom_op") == nullptr)
    throw error(fmt::format("{}: not an RKNPU2 plugin: it does not export get_rknn_custom_op", label));
  loaded_plugin p;
  p.log_file = ::memfd_create("rknnop-node-plugin-log", MFD_CLOEXEC);
  if (p.log_file < 0)
    throw error(fmt::format("{}: cannot create the node runner's log file: {}", label, std::strerror(errno)));
  const std::string path = fmt::format("/proc/self/fd/{}", runner_library_fd);
  p.handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (p.handle == nullptr) {
    std::string why = ::dlerror();
    if (why.starts_with(path + ": ")) why.erase(0, path.size() + 2);
    throw error(fmt::format("{}: dlopen of the plugin failed: {}", label, why));
  }
  if (hooks.after_load) hooks.after_load();
  const auto get_op = symbol<RKNNOP_RKNPU2_GET_CUSTOM_OP_FN>(p.handle, "get_rknn_custom_op");
  if (get_op == nullptr) throw error(fmt::format("{}: get_rknn_custom_op is not found after loading", label));
  p.op = get_op();
  if (p.op == nullptr) throw error(fmt::format("{}: get_rknn_custom_op() returned NULL", label));
  p.infer = symbol<RKNNOP_RKNPU2_INFER_FN>(p.handle, "rknnop_rknpu2_infer");
  p.describe = symbol<RKNNOP_RKNPU2_DESCRIBE_FN>(p.handle, "rknnop_rknpu2_describe");
  plugin = p;
  return *plugin;
}

std::string op_type_of(const rknnop_rknpu2_custom_op& op) {
  return {op.op_type, ::strnlen(op.op_type, sizeof op.op_type)};
}

// A tensor's memory ending at an inaccessible page (an overrun faults at its first byte out, and the
// fault handler names the tensor), zero-filled. Unmapped with the run.
struct guarded_memory {
  void* mapping = MAP_FAILED;
  std::size_t mapped = 0;
  char* data = nullptr;
  guarded_memory() = default;
  guarded_memory(const guarded_memory&) = delete;
  guarded_memory& operator=(const guarded_memory&) = delete;
  ~guarded_memory() {
    if (mapping != MAP_FAILED) ::munmap(mapping, mapped);
  }
};

void allocate(guarded_memory& m, std::size_t size, const std::string& label, const rknpu2_runner_hooks& hooks) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t pages = (size + page - 1) / page;
  m.mapped = (pages + 1) * page;
  m.mapping = ::mmap(nullptr, m.mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m.mapping == MAP_FAILED)
    throw error(fmt::format("cannot allocate {} bytes for {}: {}", size, label, std::strerror(errno)));
  char* base = static_cast<char*>(m.mapping);
  (void)::mprotect(base + pages * page, page, PROT_NONE);
  m.data = base + pages * page - size;
  hooks.guard_buffer(label, m.data, size);
}

// The plugin's stderr into the log file while `call` runs; what it wrote comes back.
template <class Call>
std::string catching_stderr(int log_file, Call&& call) {
  (void)std::fflush(stderr);
  (void)::ftruncate(log_file, 0);
  (void)::lseek(log_file, 0, SEEK_SET);
  const int saved = ::dup(STDERR_FILENO);
  if (saved >= 0) (void)::dup2(log_file, STDERR_FILENO);
  call();
  (void)std::fflush(stderr);
  if (saved >= 0) {
    (void)::dup2(saved, STDERR_FILENO);
    ::close(saved);
  }
  std::string text;
  char chunk[4096];
  for (off_t at = 0; text.size() < (1u << 20);) {
    const ssize_t got = ::pread(log_file, chunk, sizeof chunk, at);
    if (got <= 0) break;
    text.append(chunk, static_cast<std::size_t>(got));
    at += got;
  }
  return text;
}

// The first line the plugin wrote that is rknnop's ("rknnop: <Op>: ..."), else its last line.
std::string plugin_line(const std::string& text) {
  std::string last;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    if (line.starts_with("rknnop: ")) return line;
    at = end + 1;
    if (!line.empty()) last = std::move(line);
  }
  return last;
}

void describe(const loaded_plugin& p, wire_writer& reply) {
  reply.put_string(op_type_of(*p.op));
  const char* text = p.describe ? p.describe() : nullptr;
  reply.put_string(text ? std::string_view(text, ::strnlen(text, 1u << 20)) : std::string_view());
  reply.put(static_cast<std::uint8_t>(p.infer ? 1 : 0));
}

void run(loaded_plugin& p, wire_reader& r, wire_writer& reply, const std::string& label,
         const rknpu2_runner_hooks& hooks) {
  // The node's attributes, as librknnrt holds them.
  std::vector<rknnop_rknpu2_op_attr> attrs;
  std::vector<std::vector<std::uint8_t>> attr_data;
  const auto n_attrs = r.get<std::uint64_t>();
  if (n_attrs > 4096) throw error("node runner message: too many attributes");
  attrs.reserve(n_attrs);
  attr_data.reserve(n_attrs);
  for (std::uint64_t i = 0; i < n_attrs; ++i) {
    rknnop_rknpu2_op_attr a{};
    const std::string name = r.get_string();
    std::memcpy(a.name, name.data(), std::min(name.size(), sizeof a.name - 1));
    a.dtype = r.get<std::int32_t>();
    a.n_elems = r.get<std::uint32_t>();
    const std::span<const std::uint8_t> data = r.get_bytes();
    attr_data.emplace_back(data.begin(), data.end());
    a.data = attr_data.back().empty() ? nullptr : attr_data.back().data();
    attrs.push_back(a);
  }
  // The inputs, each in guarded memory.
  const auto n_inputs = r.get<std::uint64_t>();
  if (n_inputs > 256) throw error("node runner message: too many inputs");
  hooks.clear_guarded();
  std::vector<rknnop_rknpu2_op_tensor> inputs(n_inputs);
  std::vector<guarded_memory> memory(n_inputs);
  std::uint64_t tensor_bytes = 0;
  for (std::uint64_t i = 0; i < n_inputs; ++i) {
    rknnop_rknpu2_op_tensor& t = inputs[i];
    t.attr.index = static_cast<std::uint32_t>(i);
    t.attr.type = r.get<std::int32_t>();
    const std::vector<std::uint32_t> dims = r.get_vector<std::uint32_t>();
    if (dims.size() > RKNNOP_RKNPU2_MAX_DIMS) throw error("node runner message: an input of too many dims");
    t.attr.n_dims = static_cast<std::uint32_t>(dims.size());
    std::uint64_t elements = 1;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      t.attr.dims[d] = dims[d];
      elements *= dims[d];
    }
    const std::span<const std::uint8_t> data = r.get_bytes();
    if (data.size() > 0xFFFFFFFFu) throw error("node runner message: an input of more than 4 GiB");
    t.attr.n_elems = static_cast<std::uint32_t>(std::min<std::uint64_t>(elements, 0xFFFFFFFFu));
    t.attr.size = static_cast<std::uint32_t>(data.size());
    t.attr.size_with_stride = t.attr.size;
    t.attr.w_stride = dims.empty() ? 0 : dims.back();
    t.attr.fmt = r.get<std::int32_t>();
    if (t.attr.fmt < RKNNOP_RKNPU2_NCHW || t.attr.fmt > RKNNOP_RKNPU2_UNDEFINED)
      throw error("node runner message: an input of an unknown layout");
    (void)std::snprintf(t.attr.name, sizeof t.attr.name, "input%u", static_cast<unsigned>(i));
    allocate(memory[i], data.size(), fmt::format("input {}", i), hooks);
    if (!data.empty()) std::memcpy(memory[i].data, data.data(), data.size());
    t.mem.virt_addr = memory[i].data;
    t.mem.size = t.attr.size;
    tensor_bytes += data.size();
  }
  const auto n_outputs = r.get<std::uint32_t>();
  if (n_outputs > 256) throw error("node runner message: too many outputs");
  // The outputs' attrs as librknnrt handed them (rknnop-run --replay: the record's), else the plugin's infer.
  std::vector<rknnop_rknpu2_tensor_attr> given_outputs;
  const bool outputs_given = r.get<std::uint8_t>() != 0;  // the flag, not the count: zero outputs may be given
  if (outputs_given) {
    for (std::uint32_t i = 0; i < n_outputs; ++i) {
      rknnop_rknpu2_tensor_attr a{};
      a.type = r.get<std::int32_t>();
      const std::vector<std::uint32_t> dims = r.get_vector<std::uint32_t>();
      a.fmt = r.get<std::int32_t>();
      const std::uint32_t size = rknpu2_element_size(a.type);
      if (dims.size() > RKNNOP_RKNPU2_MAX_DIMS || size == 0 || a.fmt < RKNNOP_RKNPU2_NCHW ||
          a.fmt > RKNNOP_RKNPU2_UNDEFINED)
        throw error("node runner message: an output of too many dims, an unknown type or layout");
      a.n_dims = static_cast<std::uint32_t>(dims.size());
      std::uint64_t elements = 1;
      for (std::size_t d = 0; d < dims.size(); ++d) {
        a.dims[d] = dims[d];
        elements *= dims[d];
        if (elements > 0xFFFFFFFFu) throw error("node runner message: an output of more than 4 GiB");
      }
      if (elements * size > 0xFFFFFFFFu) throw error("node runner message: an output of more than 4 GiB");
      a.n_elems = static_cast<std::uint32_t>(elements);
      a.size = static_cast<std::uint32_t>(elements * size);
      given_outputs.push_back(a);
    }
  }
  std::vector<rknnop_rknpu2_op_tensor> outputs(n_outputs);
  std::vector<rknnop_rknpu2_tensor_attr> input_attrs;
  input_attrs.reserve(inputs.size());
  for (const rknnop_rknpu2_op_tensor& t : inputs) input_attrs.push_back(t.attr);
  std::vector<rknnop_rknpu2_tensor_attr> output_attrs(n_outputs);

  // The outputs' attrs: the plugin's infer (what rknn-toolkit2's shape_infer gave the model).
  if (outputs_given) {
    output_attrs = given_outputs;
  } else if (p.infer == nullptr) {
    throw error(
        fmt::format("{}: the plugin has no rknnop_rknpu2_infer (it is not rknnop's): rknnop-run cannot "
                    "tell its outputs' shapes",
                    label));
  } else {
    hooks.set_step(runner_step::validate);
    char line[1024] = {};
    if (p.infer(attrs.data(), static_cast<std::uint32_t>(attrs.size()), input_attrs.data(),
                static_cast<std::uint32_t>(input_attrs.size()), output_attrs.data(), n_outputs, line, sizeof line) != 0)
      throw error(line[0] != '\0' ? std::string(line) : label + ": rknnop_rknpu2_infer returned -1 without a line");
  }
  std::vector<guarded_memory> output_memory(n_outputs);
  for (std::uint32_t i = 0; i < n_outputs; ++i) {
    outputs[i].attr = output_attrs[i];
    outputs[i].attr.index = i;
    outputs[i].attr.size_with_stride = outputs[i].attr.size;
    (void)std::snprintf(outputs[i].attr.name, sizeof outputs[i].attr.name, "output%u", static_cast<unsigned>(i));
    allocate(output_memory[i], outputs[i].attr.size, fmt::format("output {}", i), hooks);
    outputs[i].mem.virt_addr = output_memory[i].data;
    outputs[i].mem.size = outputs[i].attr.size;
    tensor_bytes += outputs[i].attr.size;
  }
  hooks.tensor_bytes(tensor_bytes);

  // init, compute, destroy, as librknnrt calls them: a context each, sharing internal_ctx, the
  // priv_data init set handed on. Their lines come back; librknnrt ignores what init returns.
  rknnop_rknpu2_op_context init_ctx{};
  init_ctx.target = RKNNOP_RKNPU2_TARGET_CPU;
  init_ctx.internal_ctx = 1;
  current_attrs = &attrs;
  int compute_status = -1;
  int destroy_status = 0;
  // The plugin's sink writes unless RKNNOP_LOG=off, which the tools set for their VX libraries.
  (void)::setenv("RKNNOP_LOG", "on", 1);
  const std::string said = catching_stderr(p.log_file, [&] {
    if (p.op->init) {
      hooks.set_step(runner_step::initialize);
      (void)p.op->init(&init_ctx, inputs.data(), static_cast<std::uint32_t>(inputs.size()), outputs.data(), n_outputs);
    }
    rknnop_rknpu2_op_context compute_ctx = init_ctx;
    if (p.op->compute) {
      hooks.set_step(runner_step::kernel);
      compute_status = p.op->compute(&compute_ctx, inputs.data(), static_cast<std::uint32_t>(inputs.size()),
                                     outputs.data(), n_outputs);
    }
    rknnop_rknpu2_op_context destroy_ctx = init_ctx;
    if (p.op->destroy) {
      hooks.set_step(runner_step::deinitialize);
      destroy_status = p.op->destroy(&destroy_ctx);
    }
  });
  current_attrs = nullptr;
  hooks.set_step(runner_step::done);
  if (p.op->compute == nullptr) throw error(fmt::format("{}: the custom op has no compute callback", label));
  if (compute_status != 0 || destroy_status != 0) {
    const std::string first = plugin_line(said);
    throw error(!first.empty() ? first
                               : fmt::format("{}: {} returned {} without a line", label,
                                             compute_status != 0 ? "compute" : "destroy",
                                             compute_status != 0 ? compute_status : destroy_status));
  }
  reply.put(static_cast<std::uint64_t>(n_outputs));
  for (std::uint32_t i = 0; i < n_outputs; ++i) {
    const rknnop_rknpu2_tensor_attr& a = outputs[i].attr;
    reply.put(a.type);
    std::vector<std::uint32_t> dims(a.dims, a.dims + std::min<std::uint32_t>(a.n_dims, RKNNOP_RKNPU2_MAX_DIMS));
    reply.put_vector(dims);
    reply.put_bytes(std::as_bytes(std::span(output_memory[i].data, a.size)));
  }
  reply.put_string(said);  // RKNNOP_PROFILE=1's lines, for the tool to show
}

}  // namespace

void serve_rknpu2(wire_reader& request, wire_writer& reply, const std::string& label,
                  const rknpu2_runner_hooks& hooks) {
  const auto what = request.get<rknpu2_request>();
  loaded_plugin& p = load(label, hooks);
  reply.put(static_cast<std::uint8_t>(1));
  if (what == rknpu2_request::describe)
    describe(p, reply);
  else if (what == rknpu2_request::run)
    run(p, request, reply, label, hooks);
  else
    throw error("node runner message: an unknown RKNPU2 request");
}

}  // namespace rknnop::host::child_io

namespace rknnop::host {

std::uint32_t rknpu2_element_size(std::int32_t type) noexcept {
  switch (type) {
    case RKNNOP_RKNPU2_FLOAT32:
    case RKNNOP_RKNPU2_INT32:
    case RKNNOP_RKNPU2_UINT32: return 4;
    case RKNNOP_RKNPU2_FLOAT16:
    case RKNNOP_RKNPU2_INT16:
    case RKNNOP_RKNPU2_UINT16:
    case RKNNOP_RKNPU2_BFLOAT16: return 2;
    case RKNNOP_RKNPU2_INT8:
    case RKNNOP_RKNPU2_UINT8:
    case RKNNOP_RKNPU2_BOOL: return 1;
    case RKNNOP_RKNPU2_INT64: return 8;
    default: return 0;
  }
}

void rknpu2_runner_get_op_attr(const void* context, const char* name, void* attr) noexcept {
  using child_io::current_attrs;
  (void)context;
  auto* out = static_cast<rknnop_rknpu2_op_attr*>(attr);
  if (out == nullptr) return;
  *out = rknnop_rknpu2_op_attr{};
  out->dtype = 12;  // RKNN_TENSOR_TYPE_MAX of SDK 2.x: undefined, as librknnrt answers an absent attribute
  if (current_attrs == nullptr || name == nullptr) return;
  for (const rknnop_rknpu2_op_attr& a : *current_attrs)
    if (::strncmp(a.name, name, sizeof a.name) == 0) {
      *out = a;
      return;
    }
}

}  // namespace rknnop::host
