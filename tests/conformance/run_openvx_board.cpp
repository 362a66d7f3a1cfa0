// SPDX-License-Identifier: MIT
// Conformance driver (b): RKNN v1 through Rockchip's own libOpenVX.so.1.2, cross-compiled and run under
// qemu by scripts/board-run.sh --runner (docs/board-emulation.md). Each op's board library (rknnop_add_op's
// <out>/<arch>/lib<lower>.so, the examples' and the suite's test ops) is registered once into one context
// the way librknn_runtime registers an op library (board/runner/vx_board_run.c: dlopen, dlsym
// vx_kernel_<Name>_list, vxAddUserKernel, vxAddParameterToKernel per param, vxFinalizeKernel); each row is
// then a one-node graph: inputs as tensors (dims innermost first, written after vxVerifyGraph: the driver
// allocates them there), outputs tensors of the row's dtype and shape (a model's tensors: librknn_runtime
// creates them with the model's shapes, and this libOpenVX refuses a virtual tensor without dims,
// vxCreateVirtualTensor(graph, 0, NULL, type, 0) failing with -7), params as scalars and INT32 arrays in the struct's
// order, each created as librknn_runtime creates a model's param (docs/board-emulation.md §8 item 1: a bool is a 1-byte
// UINT8 scalar). A board library logs a refusal to stderr (rknnop's default sink): the driver captures it per row.
// Prints one result line per row (cases.hpp).
//
//   conformance_openvx_board NAME=LIB.so... RESULTS.tsv   (the results last, as every driver's)
#include "cases.hpp"
#include "vx_element.hpp"

#include <rknnop/openvx.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace conformance;

// The enumeration librknn_runtime gives a custom op's kernel (vx_board_run.c), one more per op here:
// the ops share one context.
constexpr vx_enum rknn_kernel_enumeration = static_cast<vx_enum>(0xfff03080);

// What the VX calls printed (stdout and stderr, where a board library's rknnop lines go) while a row ran.
// When stdout and stderr cannot be redirected, nothing is (failed() says why: the row is refused, naming
// it); when they cannot be restored, the driver stops (its results would go to the capture file).
class captured_output {
public:
  captured_output() {
    std::fflush(stdout);
    std::fflush(stderr);
    std::FILE* f = std::tmpfile();
    if (!f) {
      failed_ = "tmpfile failed";
      return;
    }
    const int out = dup(1), err = dup(2);
    if (out < 0 || err < 0 || dup2(fileno(f), 1) < 0 || dup2(fileno(f), 2) < 0) {
      failed_ = std::string("cannot redirect stdout and stderr: ") + std::strerror(errno);
      if (out >= 0) restore_fd(out, 1), close(out);
      if (err >= 0) restore_fd(err, 2), close(err);
      std::fclose(f);
      return;
    }
    file_ = f;
    saved_out_ = out;
    saved_err_ = err;
  }
  captured_output(const captured_output&) = delete;
  captured_output& operator=(const captured_output&) = delete;
  ~captured_output() {
    restore();
    if (file_) std::fclose(file_);
  }
  // Why nothing is captured; empty when it is.
  const std::string& failed() const { return failed_; }
  // Restores stdout and stderr and returns the lines captured.
  std::vector<std::string> lines() {
    restore();
    std::vector<std::string> out;
    if (!file_) return out;
    std::rewind(file_);
    std::string line;
    for (int c; (c = std::fgetc(file_)) != EOF;) {
      if (c != '\n') {
        line += static_cast<char>(c);
        continue;
      }
      out.push_back(line);
      line.clear();
    }
    if (!line.empty()) out.push_back(line);
    return out;
  }

private:
  static void restore_fd(int saved, int fd) {
    if (dup2(saved, fd) >= 0) return;
    static const char why[] = "conformance_openvx_board: cannot restore stdout or stderr after a row\n";
    [[maybe_unused]] const ssize_t n = write(fd == 2 ? saved : 2, why, sizeof why - 1);  // (stderr first)
    std::_Exit(1);
  }
  void restore() {
    if (saved_out_ < 0) return;
    std::fflush(stdout);
    std::fflush(stderr);
    restore_fd(saved_err_, 2);
    restore_fd(saved_out_, 1);
    close(saved_out_);
    close(saved_err_);
    saved_out_ = saved_err_ = -1;
  }
  std::FILE* file_ = nullptr;
  int saved_out_ = -1;
  int saved_err_ = -1;
  std::string failed_;
};

// One row's answer, printed once the row's output is no longer captured.
struct answer {
  const char* kind;  // "ok", "refused", "n/a"
  std::string detail;
  digest outputs;
};

answer refused(const std::vector<std::string>& printed, const std::string& fallback) {
  for (const std::string& line : printed)
    if (line.rfind("rknnop: ", 0) == 0) return {"refused", line, {}};
  std::string all = fallback;
  for (const std::string& line : printed) all += " | " + line;
  return {"refused", "(no rknnop line) " + all, {}};
}

class board_runtime {
public:
  explicit board_runtime(vx_context context) : context_(context) {}

  // Registers op `name` from library `path` as librknn_runtime does; false with the reason on stderr.
  bool add(const std::string& name, const std::string& path) {
    void* lib = dlopen(path.c_str(), RTLD_LAZY);
    if (!lib) return failed(name, std::string("dlopen: ") + dlerror());
    const std::string symbol = "vx_kernel_" + name + "_list";
    auto** list = static_cast<vx_kernel_description_t**>(dlsym(lib, symbol.c_str()));
    if (!list || !list[0]) return failed(name, "no " + symbol);
    vx_kernel_description_t* d = list[0];
    d->enumeration = rknn_kernel_enumeration + static_cast<vx_enum>(kernels_.size());
    vx_kernel k = vxAddUserKernel(context_, d->name, d->enumeration, d->function, d->numParams, d->validate,
                                  d->initialize, d->deinitialize);
    if (!k || vxGetStatus(reinterpret_cast<vx_reference>(k)) != VX_SUCCESS) return failed(name, "vxAddUserKernel");
    for (vx_uint32 p = 0; p < d->numParams; ++p)
      if (vxAddParameterToKernel(k, p, d->parameters[p].direction, d->parameters[p].data_type,
                                 d->parameters[p].state) != VX_SUCCESS)
        return failed(name, "vxAddParameterToKernel");
    if (vxFinalizeKernel(k) != VX_SUCCESS) return failed(name, "vxFinalizeKernel");
    kernels_[name] = k;
    return true;
  }

  answer run(const row& r) {
    if (const char* key = v1_not_expressible(r)) return {"n/a", key, {}};
    const auto k = kernels_.find(r.op);
    if (k == kernels_.end()) return {"refused", "(no rknnop line) the op's library was not given", {}};
    vx_graph graph = vxCreateGraph(context_);
    if (!graph || vxGetStatus(reinterpret_cast<vx_reference>(graph)) != VX_SUCCESS)
      return refused({}, "vxCreateGraph failed: " + std::to_string(vxGetStatus(reinterpret_cast<vx_reference>(graph))));
    answer a;
    {
      captured_output capture;
      if (!capture.failed().empty()) {
        vxReleaseGraph(&graph);
        return refused({}, "the row's output cannot be captured: " + capture.failed());
      }
      a = run_graph(r, graph, k->second);
      const std::vector<std::string> printed = capture.lines();
      if (a.kind == std::string("refused")) {
        a = refused(printed, a.detail);
      } else if (a.kind == std::string("ok")) {
        // This libOpenVX reports success after a failed CPU kernel (docs/board-emulation.md §8 item 7): the
        // node's line reaches only stderr. The cell says so after the digest (a bad case: FAIL).
        for (const std::string& line : printed)
          if (line.rfind("rknnop: ", 0) == 0) {
            a.detail = "; the run succeeded after the node logged: " + line;
            break;
          }
      }
    }
    vxReleaseGraph(&graph);
    release();
    return explained(r, a);
  }

private:
  // The cases this stack cannot express (conformance.py's EXPLANATIONS), each recognised by what it did.
  static answer explained(const row& r, const answer& a) {
    const bool zero_dim_input =
        std::any_of(r.inputs.begin(), r.inputs.end(), [](const tensor_case& t) { return count_of(t.shape) == 0; });
    if (zero_dim_input && a.kind == std::string("refused") &&
        a.detail.find("vxQueryTensor(VX_TENSOR_NUMBER_OF_DIMS) failed: -12") != std::string::npos)
      return {"n/a", "board-zero-dim-tensor", {}};
    // A board's library takes a float scalar as it is (io.hpp's read_scalar; docs/architecture.md §1, the
    // invocation core's rules): only an op whose kernel checks the value refuses a nan there, in the op's
    // own words, at run time (where this runtime still says VX_SUCCESS: the note after the key quotes the
    // line). So the run logged nothing, or that kernel's failure; any other line is the cell's FAIL.
    const bool non_finite = std::any_of(r.params.begin(), r.params.end(), [](const param_case& p) {
      return p.kind == param_kind::f32 && !std::isfinite(p.values[0]);
    });
    const bool ran = r.expect_refused && a.kind == std::string("ok");
    if (non_finite && ran && (a.detail.empty() || a.detail.find("the CPU kernel failed: ") != std::string::npos))
      return {"n/a", "board-float-scalar" + a.detail, {}};
    // A board's library finds an output left wholly unwritten by its markers (decode.hpp's check_written),
    // with its own shorter line, at run time.
    if (ran &&
        a.detail.find("the kernel wrote nothing (rknnop's unwritten markers are all still there)") != std::string::npos)
      return {"n/a", "board-marker-check" + a.detail, {}};
    return a;
  }

  void release() {
    for (vx_reference& ref : refs_) vxReleaseReference(&ref);
    refs_.clear();
  }

  static bool failed(const std::string& name, const std::string& why) {
    std::fprintf(stderr, "conformance_openvx_board: %s: %s\n", name.c_str(), why.c_str());
    return false;
  }
  template <class T>
  T keep(T ref) {
    if (ref) refs_.push_back(reinterpret_cast<vx_reference>(ref));
    return ref;
  }
  static answer call_failed(const char* call, vx_status s) {
    return {"refused", std::string(call) + " failed: " + std::to_string(s), {}};
  }

  // A whole dense tensor from or to `data` (dims innermost first, 1 to 6 of them).
  static vx_status copy(vx_tensor t, const std::vector<std::uint32_t>& dims, std::size_t element, void* data,
                        vx_enum usage) {
    constexpr std::size_t max_rank = rknnop::vx_max_tensor_rank;
    if (dims.empty() || dims.size() > max_rank) return VX_ERROR_INVALID_DIMENSION;
    vx_size start[max_rank] = {}, end[max_rank] = {}, stride[max_rank] = {};
    std::size_t step = element;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      end[d] = dims[d];
      stride[d] = step;
      step *= dims[d];
    }
    return vxCopyTensorPatch(t, dims.size(), start, end, stride, data, usage, VX_MEMORY_TYPE_HOST);
  }

  answer run_graph(const row& r, vx_graph graph, vx_kernel kernel) {
    vx_node node = keep(vxCreateGenericNode(graph, kernel));
    if (vxGetStatus(reinterpret_cast<vx_reference>(node)) != VX_SUCCESS) return call_failed("vxCreateGenericNode", -1);
    std::vector<vx_reference> params;
    std::vector<std::vector<std::uint32_t>> input_dims;
    for (const tensor_case& t : r.inputs) {
      std::vector<std::uint32_t> dims(t.shape.rbegin(), t.shape.rend());
      std::vector<vx_size> sizes(dims.begin(), dims.end());
      vx_tensor in = keep(vxCreateTensor(context_, sizes.size(), sizes.data(), vx_type(t.type), 0));
      if (!in || vxGetStatus(reinterpret_cast<vx_reference>(in)) != VX_SUCCESS) {
        if (count_of(t.shape) == 0) return {"n/a", "v1-no-zero-dim", {}};
        return call_failed("vxCreateTensor", vxGetStatus(reinterpret_cast<vx_reference>(in)));
      }
      params.push_back(reinterpret_cast<vx_reference>(in));
      input_dims.push_back(dims);
    }
    std::vector<vx_tensor> outs;
    for (const output_case& o : r.outputs) {
      std::vector<vx_size> sizes(o.shape.rbegin(), o.shape.rend());
      vx_tensor out = keep(vxCreateTensor(context_, sizes.size(), sizes.data(), vx_type(o.type), 0));
      if (!out || vxGetStatus(reinterpret_cast<vx_reference>(out)) != VX_SUCCESS)
        return call_failed("vxCreateTensor (output)", vxGetStatus(reinterpret_cast<vx_reference>(out)));
      outs.push_back(out);
      params.push_back(reinterpret_cast<vx_reference>(out));
    }
    for (const param_case& p : r.params) {
      const vx_param v = vx_param_of(p);
      vx_reference ref = nullptr;
      if (v.scalar_type != VX_TYPE_INVALID) {
        ref = reinterpret_cast<vx_reference>(keep(vxCreateScalar(context_, v.scalar_type, v.scalar)));
      } else {
        vx_array a = keep(vxCreateArray(context_, VX_TYPE_INT32, v.items.size()));
        if (a && vxAddArrayItems(a, v.items.size(), v.items.data(), sizeof(std::int32_t)) != VX_SUCCESS)
          return call_failed("vxAddArrayItems", -1);
        ref = reinterpret_cast<vx_reference>(a);
      }
      if (!ref || vxGetStatus(ref) != VX_SUCCESS) return call_failed("vxCreateScalar/vxCreateArray", vxGetStatus(ref));
      params.push_back(ref);
    }
    for (std::size_t i = 0; i < params.size(); ++i)
      if (vx_status s = vxSetParameterByIndex(node, static_cast<vx_uint32>(i), params[i]); s != VX_SUCCESS)
        return call_failed("vxSetParameterByIndex", s);
    if (vx_status s = vxVerifyGraph(graph); s != VX_SUCCESS) return call_failed("vxVerifyGraph", s);
    for (std::size_t i = 0; i < r.inputs.size(); ++i) {
      std::vector<std::uint8_t> bytes = r.inputs[i].bytes;
      if (vx_status s = copy(reinterpret_cast<vx_tensor>(params[i]), input_dims[i], element_size(r.inputs[i].type),
                             bytes.data(), VX_WRITE_ONLY);
          s != VX_SUCCESS)
        return call_failed("vxCopyTensorPatch(VX_WRITE_ONLY)", s);
    }
    // As librknn_runtime's rknn_run runs a graph: scheduled on the thread vxCreateContext started, then waited for.
    if (vx_status s = vxScheduleGraph(graph); s != VX_SUCCESS) return call_failed("vxScheduleGraph", s);
    if (vx_status s = vxWaitGraph(graph); s != VX_SUCCESS) return call_failed("vxWaitGraph", s);
    answer a{"ok", "", {}};
    for (vx_tensor t : outs) {
      vx_uint32 rank = 0;
      vx_uint32 dims[6] = {};
      vx_enum type = VX_TYPE_INVALID;
      if (vxQueryTensor(t, VX_TENSOR_NUMBER_OF_DIMS, &rank, sizeof rank) != VX_SUCCESS || rank == 0 || rank > 6 ||
          vxQueryTensor(t, VX_TENSOR_DIMS, dims, sizeof(vx_uint32) * rank) != VX_SUCCESS ||
          vxQueryTensor(t, VX_TENSOR_DATA_TYPE, &type, sizeof type) != VX_SUCCESS)
        return call_failed("vxQueryTensor (output)", -1);
      const std::optional<element> e = element_of_vx(type);
      if (!e) return {"refused", "an output of VX type " + std::to_string(type), {}};
      std::vector<std::uint32_t> shape(dims, dims + rank);
      std::vector<std::uint8_t> bytes(count_of(shape) * element_size(*e));
      if (vx_status s = copy(t, shape, element_size(*e), bytes.data(), VX_READ_ONLY); s != VX_SUCCESS)
        return call_failed("vxCopyTensorPatch(VX_READ_ONLY)", s);
      std::reverse(shape.begin(), shape.end());
      a.outputs.add_output(*e, shape, bytes.data(), bytes.size());
    }
    return a;
  }

  vx_context context_;
  std::map<std::string, vx_kernel> kernels_;
  std::vector<vx_reference> refs_;  // the row's references, released after its graph
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: conformance_openvx_board NAME=LIB.so... RESULTS.tsv\n");
    return 2;
  }
  if (!std::freopen(argv[argc - 1], "w", stdout)) return 2;
  vx_context context = vxCreateContext();
  if (!context || vxGetStatus(reinterpret_cast<vx_reference>(context)) != VX_SUCCESS) {
    std::fprintf(stderr, "conformance_openvx_board: vxCreateContext failed\n");
    return 1;
  }
  board_runtime runtime(context);
  for (int i = 1; i < argc - 1; ++i) {
    const std::string arg = argv[i];
    const std::size_t eq = arg.find('=');
    if (eq == std::string::npos || !runtime.add(arg.substr(0, eq), arg.substr(eq + 1))) return 1;
  }
  for (const row& r : rows()) {
    if (answered_without_running(r)) continue;
    const answer a = runtime.run(r);
    if (a.kind == std::string("ok"))
      print_ok(r, a.outputs, a.detail);
    else if (a.kind == std::string("n/a"))
      print_na(r, a.detail);
    else
      print_refused(r, a.detail);
  }
  std::fflush(stdout);
  vxReleaseContext(&context);
  return 0;
}
