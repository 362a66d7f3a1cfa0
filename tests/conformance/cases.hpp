// SPDX-License-Identifier: MIT
#pragma once
// The conformance suite's rows, written once for every backend (tests/conformance/README.md): an op,
// its input tensors (shape outermost first, as NumPy and RKNPU2 and MindSpore Lite write it), its
// params by name in the struct's order, and the outputs the runtime holds. Each backend's driver
// (run_<backend>.cpp) turns a row into its own runtime's calls and prints one result line:
//   <row>\tok\t<digest of every output's dtype, shape and bytes>
//   <row>\trefused\t<the first "rknnop: " line the op logged, or the runtime's status>
//   <row>\tn/a\t<key of conformance.py's table of explanations>
// conformance.py compares the lines of every backend and writes docs/backends.md.
#include <rknnop/config.hpp>  // RKNNOP_GUARD_BUFFERS: a checking build (the PC's) or a board's
#include <rknnop/float16.hpp>
#ifndef RKNNOP_CONFORMANCE_BOARD_DRIVER
#include <rknnop/host/npy.hpp>  // the inputs a row takes from another backend's run (a record's .npy files)
#endif

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <limits>
#include <string>
#include <vector>

namespace conformance {

enum class element { float32, float16, int32, int8, uint8 };

inline const char* element_name(element e) {
  switch (e) {
    case element::float32: return "float32";
    case element::float16: return "float16";
    case element::int32: return "int32";
    case element::int8: return "int8";
    case element::uint8: return "uint8";
  }
  return "?";
}
inline std::size_t element_size(element e) {
  return e == element::float32 || e == element::int32 ? 4 : e == element::float16 ? 2 : 1;
}

struct tensor_case {
  element type;
  std::vector<std::uint32_t> shape;  // outermost first
  std::vector<std::uint8_t> bytes;   // dense, C order
};

// A param as its value: every backend writes it the way its own runtime hands params to a kernel.
enum class param_kind { f32, i32, i8, boolean, enumeration, i32_array };
struct param_case {
  std::string name;
  param_kind kind;
  std::vector<double> values;  // one, or the array's items; a bool's 0/1 (or another number: out of range)
  bool given = true;           // false: the node has no such param
};

struct output_case {
  element type;
  std::vector<std::uint32_t> shape;  // what the runtime's model holds (RKNPU2 always gives one)
};

struct row {
  std::string name;  // the row's key in docs/backends.md: "<Op>.<case>"
  std::string op;
  bool expect_refused;
  std::vector<tensor_case> inputs;
  std::vector<output_case> outputs;
  std::vector<param_case> params;
  // The runtime fixes the outputs' shapes (a model's real tensors) instead of leaving them to `infer`
  // (OpenVX virtual tensors, MindSpore Lite outputs without a shape). RKNPU2 always fixes them.
  bool fixed_output_shapes = false;
  // The bad case is found by running the kernel (the op's `cpu`, or the check of what it wrote), not
  // before it: a backend that only infers shapes never sees it.
  bool found_by_kernel = false;
  // The rule is a checking build's (RKNNOP_GUARD_BUFFERS: the PC's) only: a board's build converts or
  // takes the case as it comes (docs/architecture.md §3), so there the row is n/a (board-converts).
  bool checking_builds_only = false;
  // The backend whose run gives the inputs (row "<Op>.in_<backend>"): what that runtime handed the op,
  // recorded there; every other driver reads them (recorded_inputs). Empty: the inputs are written here.
  std::string inputs_from = {};
  std::string inputs_missing = {};  // why the recorded inputs could not be read (the row is then skipped)
};

// --- inputs: deterministic values, independent of any op ------------------------------------------
inline std::size_t count_of(const std::vector<std::uint32_t>& shape) {
  std::size_t n = 1;
  for (std::uint32_t d : shape) n *= d;
  return n;
}
// Values in [lo, hi), spread by a multiplicative step so that neighbours differ.
inline tensor_case values(element type, std::vector<std::uint32_t> shape, double lo, double hi) {
  const std::size_t n = count_of(shape);
  tensor_case t{type, std::move(shape), std::vector<std::uint8_t>(n * element_size(type))};
  for (std::size_t i = 0; i < n; ++i) {
    const double v = lo + (hi - lo) * double((i * 7919 + 13) % 1000) / 1000.0;
    std::uint8_t* at = t.bytes.data() + i * element_size(type);
    switch (type) {
      case element::float32: {
        const float f = float(v);
        std::memcpy(at, &f, 4);
        break;
      }
      case element::float16: {
        const std::uint16_t h = rknnop::float16(float(v)).bits();
        std::memcpy(at, &h, 2);
        break;
      }
      case element::int32: {
        std::int32_t k = std::int32_t(std::lround(v));
        if (k == 0) k = 1;  // (a divisor)
        std::memcpy(at, &k, 4);
        break;
      }
      case element::int8: *at = std::uint8_t(std::int8_t(std::lround(v))); break;
      case element::uint8: *at = std::uint8_t(std::lround(v)); break;
    }
  }
  return t;
}

inline param_case f32(std::string name, double v) { return {std::move(name), param_kind::f32, {v}}; }
inline param_case i32(std::string name, double v) { return {std::move(name), param_kind::i32, {v}}; }
inline param_case i8(std::string name, double v) { return {std::move(name), param_kind::i8, {v}}; }
inline param_case boolean(std::string name, double v) { return {std::move(name), param_kind::boolean, {v}}; }
inline param_case enumeration(std::string name, double v) { return {std::move(name), param_kind::enumeration, {v}}; }
inline param_case array(std::string name, std::vector<double> v) {
  return {std::move(name), param_kind::i32_array, std::move(v)};
}
inline param_case absent(param_case p) {
  p.given = false;
  return p;
}

// A recorded input: its element type, shape (outermost first) and bytes.
struct recorded_tensor {
  element type = element::float32;
  std::vector<std::uint32_t> shape;
  std::vector<std::uint8_t> data;
};

inline std::vector<std::uint8_t> read_bytes(const std::string& file) {
  std::vector<std::uint8_t> bytes;
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (!f) throw std::runtime_error(file + ": cannot be opened");
  std::uint8_t chunk[4096];
  for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0 && bytes.size() < (std::size_t{1} << 26);)
    bytes.insert(bytes.end(), chunk, chunk + n);
  std::fclose(f);
  return bytes;
}

#ifndef RKNNOP_CONFORMANCE_BOARD_DRIVER
// A .npy file through rknnop::host's parser, which takes the bytes: only types that do not depend on
// libstdc++'s string ABI cross into rknnop::host (the MindSpore Lite driver is built with the old one).
inline recorded_tensor read_npy(const std::string& file) {
  const rknnop::host::npy_array a = rknnop::host::parse_npy(read_bytes(file), file);
  if (a.dtype != rknnop::dtype::float32 && a.dtype != rknnop::dtype::float16)
    throw std::runtime_error(file + ": expected float32 or float16");
  return {a.dtype == rknnop::dtype::float32 ? element::float32 : element::float16,
          std::vector<std::uint32_t>(a.shape.begin(), a.shape.end()), a.data};
}
#else
// The board column's driver is cross-compiled without rknnop::host: it reads the one form the records
// hold (format 1.0, '<f4' or '<f2', C order) and refuses anything else; the PC's drivers read the same
// files through parse_npy, so a file this misreads gives other bits than theirs (a FAIL, not a pass).
inline recorded_tensor read_npy(const std::string& file) {
  const std::vector<std::uint8_t> b = read_bytes(file);
  const auto bad = [&](const char* why) { return std::runtime_error(file + ": " + why); };
  if (b.size() < 10 || std::memcmp(b.data(), "\x93NUMPY\x01\x00", 8) != 0) throw bad("not a .npy 1.0 file");
  const std::size_t header = b[8] | std::size_t{b[9]} << 8;
  if (b.size() < 10 + header) throw bad("its header is cut");
  const std::string h(reinterpret_cast<const char*>(b.data()) + 10, header);
  recorded_tensor t;
  if (h.find("'descr': '<f4'") != std::string::npos)
    t.type = element::float32;
  else if (h.find("'descr': '<f2'") != std::string::npos)
    t.type = element::float16;
  else
    throw bad("expected '<f4' or '<f2'");
  if (h.find("'fortran_order': False") == std::string::npos) throw bad("expected C order");
  const std::size_t open = h.find("'shape': ("), close = h.find(')', open);
  if (open == std::string::npos || close == std::string::npos) throw bad("no shape");
  std::size_t count = 1;
  for (std::size_t i = open + 10; i < close;) {
    char* end = nullptr;
    const unsigned long d = std::strtoul(h.c_str() + i, &end, 10);
    if (end == h.c_str() + i) break;
    if (d == 0 || d > 0xFFFFFFFFul) throw bad("a dim out of range");
    t.shape.push_back(static_cast<std::uint32_t>(d));
    count *= d;
    i = static_cast<std::size_t>(end - h.c_str());
    while (i < close && (h[i] == ',' || h[i] == ' ')) ++i;
  }
  if (t.shape.empty() || count * element_size(t.type) != b.size() - 10 - header)
    throw bad("its size is not its shape's");
  t.data.assign(b.begin() + static_cast<std::ptrdiff_t>(10 + header), b.end());
  return t;
}
#endif

// The inputs a backend's run recorded for a row "<Op>.in_<backend>": <dir>/<row>.in<k>.npy, k = 0, 1, ...,
// in the folder RKNNOP_CONFORMANCE_INPUTS names (ctest's fixture: that backend's run writes them before
// the other drivers run). The row's outputs are `outputs` tensors of the first input's dtype and shape.
inline row recorded_row(std::string name, std::string op, std::string from, std::size_t inputs, std::size_t outputs,
                        std::vector<param_case> params) {
  row r{std::move(name), std::move(op), false, {}, {}, std::move(params)};
  r.inputs_from = std::move(from);
  const char* dir = std::getenv("RKNNOP_CONFORMANCE_INPUTS");
  if (!dir || !*dir) {
    r.inputs_missing = "RKNNOP_CONFORMANCE_INPUTS is not set (ctest's conformance.run.* set it)";
    return r;
  }
  try {
    for (std::size_t k = 0; k < inputs; ++k) {
      const std::string file = std::string(dir) + "/" + r.name + ".in" + std::to_string(k) + ".npy";
      recorded_tensor a = read_npy(file);
      r.inputs.push_back({a.type, std::move(a.shape), std::move(a.data)});
    }
  } catch (const std::exception& e) {
    r.inputs.clear();
    r.inputs_missing = "no inputs recorded by the " + r.inputs_from + " column's run: " + e.what();
    return r;
  }
  for (std::size_t k = 0; k < outputs; ++k) r.outputs.push_back({r.inputs[0].type, r.inputs[0].shape});
  return r;
}

// --- the rows --------------------------------------------------------------------------------------
inline std::vector<row> rows() {
  using e = element;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<row> r;
  // (1) the same inputs give the same output bits: every example op.
  r.push_back({"Exp.float32", "Exp", false, {values(e::float32, {2, 3, 5}, -10, 10)}, {{e::float32, {2, 3, 5}}}, {}});
  r.push_back({"Exp.float16", "Exp", false, {values(e::float16, {2, 3, 5}, -4, 4)}, {{e::float16, {2, 3, 5}}}, {}});
  // exp(-10) is subnormal in float16: a checking build (the PC's) refuses the lossy output on every
  // backend (RKNNOP_ALLOW_LOSSY=1 accepts it); a board's converts it (docs/architecture.md §3), so there
  // the row is n/a (board-converts). Found by checking what the kernel wrote.
  r.push_back({"rule.lossy_output",
               "Exp",
               true,
               {values(e::float16, {2, 3, 5}, -10, 10)},
               {{e::float16, {2, 3, 5}}},
               {},
               false,
               true,
               true});
  r.push_back({"LeakyRelu.float16",
               "LeakyRelu",
               false,
               {values(e::float16, {1, 4, 3, 2}, -3, 3)},
               {{e::float16, {1, 4, 3, 2}}},
               {f32("alpha", 0.125)}});
  r.push_back({"LeakyRelu.default_alpha",
               "LeakyRelu",
               false,
               {values(e::float32, {7}, -3, 3)},
               {{e::float32, {7}}},
               {absent(f32("alpha", 0.2))}});
  r.push_back({"MirrorPad.reflect",
               "MirrorPad",
               false,
               {values(e::float32, {3, 4}, -5, 5)},
               {{e::float32, {5, 7}}},
               {array("paddings", {1, 1, 2, 1}), enumeration("mode", 0)}});
  r.push_back({"MirrorPad.symmetric",
               "MirrorPad",
               false,
               {values(e::float16, {2, 3, 4}, -5, 5)},
               {{e::float16, {4, 3, 7}}},
               {array("paddings", {1, 1, 0, 0, 3, 0}), enumeration("mode", 1)}});
  r.push_back({"QuantizedMaxPool.float16",
               "QuantizedMaxPool",
               false,
               {values(e::float16, {1, 5, 6, 2}, 0, 255)},
               {{e::float16, {1, 3, 3, 2}}, {e::float16, {1}}, {e::float16, {1}}},
               {f32("min_input", -1), f32("max_input", 1), array("ksize", {1, 2, 2, 1}), array("strides", {1, 2, 2, 1}),
                i32("padding", 1)}});
  r.push_back({"QuantizedMaxPool.uint8",
               "QuantizedMaxPool",
               false,
               {values(e::uint8, {1, 5, 6, 2}, 0, 255)},
               {{e::uint8, {1, 2, 2, 2}}, {e::float32, {1}}, {e::float32, {1}}},
               {f32("min_input", 0), f32("max_input", 6), array("ksize", {1, 3, 3, 1}), array("strides", {1, 2, 2, 1}),
                i32("padding", 0)}});
  r.push_back({"ResizeArea.float32",
               "ResizeArea",
               false,
               {values(e::float32, {1, 6, 8, 3}, -2, 2)},
               {{e::float32, {1, 4, 3, 3}}},
               {array("size", {4, 3}), boolean("align_corners", 0)}});
  r.push_back({"ResizeArea.float16_align_corners",
               "ResizeArea",
               false,
               {values(e::float16, {2, 5, 5, 1}, -2, 2)},
               {{e::float16, {2, 3, 2, 1}}},
               {array("size", {3, 2}), boolean("align_corners", 1)}});
  r.push_back({"TruncateDiv.float32",
               "TruncateDiv",
               false,
               {values(e::float32, {2, 3}, -9, 9), values(e::float32, {3}, 0.5, 3)},
               {{e::float32, {2, 3}}},
               {}});
  r.push_back({"TruncateDiv.int32",
               "TruncateDiv",
               false,
               {values(e::int32, {4, 2}, -50, 50), values(e::int32, {4, 2}, -7, 7)},
               {{e::int32, {4, 2}}},
               {}});
  r.push_back({"DualResidual.float32",
               "DualResidual",
               false,
               {values(e::float32, {1, 3, 4, 4}, -3, 3), values(e::float32, {1, 3, 4, 4}, -2, 2)},
               {{e::float32, {1, 3, 4, 4}}, {e::float32, {1, 3, 4, 4}}},
               {f32("alpha", 0.5)}});
  r.push_back({"DualResidual.float16",
               "DualResidual",
               false,
               {values(e::float16, {2, 5}, -3, 3), values(e::float16, {2, 5}, -2, 2)},
               {{e::float16, {2, 5}}, {e::float16, {2, 5}}},
               {f32("alpha", 0.75)}});
  // What librknnrt 1.6.0 handed rknnop's DualResidual plugin inside Rockchip's dual_residual_custom.rknn
  // (the emulated NPU layers' output, alpha 0.5 as the model's node holds it), recorded by the
  // librknnrt column's run (run_librknnrt.sh); its cell is what the plugin returned to librknnrt.
  r.push_back(recorded_row("DualResidual.in_librknnrt", "DualResidual", "librknnrt", 2, 2, {f32("alpha", 0.5)}));
  r.push_back({"ConfRanged.float32",
               "ConfRanged",
               false,
               {values(e::float32, {3, 2}, -3, 3)},
               {{e::float32, {3, 2}}},
               {i8("small", -3), boolean("flag", 1)}});

  // (2) the same bad cases are refused alike.
  r.push_back({"rule.wrong_rank",
               "ResizeArea",
               true,
               {values(e::float32, {1, 2, 2, 1, 1}, -1, 1)},
               {{e::float32, {1, 4, 3, 1}}},
               {array("size", {4, 3}), boolean("align_corners", 0)}});
  r.push_back({"rule.zero_dim", "Exp", true, {values(e::float32, {2, 0, 3}, -1, 1)}, {{e::float32, {2, 1, 3}}}, {}});
  r.push_back({"rule.refused_dtype",
               "ConfRanged",
               true,
               {values(e::float16, {4}, -1, 1)},
               {{e::float32, {4}}},
               {i8("small", 2), boolean("flag", 0)}});
  r.push_back({"rule.missing_param",
               "DualResidual",
               true,
               {values(e::float32, {2, 3}, -1, 1), values(e::float32, {2, 3}, -1, 1)},
               {{e::float32, {2, 3}}, {e::float32, {2, 3}}},
               {absent(f32("alpha", 0))}});
  r.push_back({"rule.param_out_of_range",
               "ConfRanged",
               true,
               {values(e::float32, {4}, -1, 1)},
               {{e::float32, {4}}},
               {i8("small", 300), boolean("flag", 0)}});
  r.push_back({"rule.bool_out_of_range",
               "ConfRanged",
               true,
               {values(e::float32, {4}, -1, 1)},
               {{e::float32, {4}}},
               {i8("small", 2), boolean("flag", 2)}});
  r.push_back({"rule.non_finite_param",
               "LeakyRelu",
               true,
               {values(e::float32, {4}, -1, 1)},
               {{e::float32, {4}}},
               {f32("alpha", nan)}});
  // The same NaN where the op's kernel does not check it: only a rule of the SDK's can refuse it.
  r.push_back({"rule.non_finite_param_unchecked",
               "DualResidual",
               true,
               {values(e::float32, {2, 3}, -1, 1), values(e::float32, {2, 3}, -1, 1)},
               {{e::float32, {2, 3}}, {e::float32, {2, 3}}},
               {f32("alpha", nan)}});
  r.push_back({"rule.bad_enum",
               "MirrorPad",
               true,
               {values(e::float32, {3, 4}, -5, 5)},
               {{e::float32, {5, 7}}},
               {array("paddings", {1, 1, 2, 1}), enumeration("mode", 7)}});
  r.push_back({"rule.infer_disagrees",
               "Exp",
               true,
               {values(e::float32, {2, 3, 5}, -1, 1)},
               {{e::float32, {2, 3, 6}}},
               {},
               true});
  r.push_back(
      {"rule.infer_zero_dim", "ConfZeroDim", true, {values(e::float32, {2, 3}, -1, 1)}, {{e::float32, {2, 3}}}, {}});
  r.push_back({"rule.infer_int8_for_float",
               "ConfInt8Output",
               true,
               {values(e::float32, {2, 3}, -1, 1)},
               {{e::float32, {2, 3}}},
               {}});
  r.push_back({"rule.infer_int8_for_float16",
               "ConfInt8Output",
               true,
               {values(e::float16, {2, 3}, -1, 1)},
               {{e::float16, {2, 3}}},
               {}});
  r.push_back({"rule.unwritten_output",
               "ConfUnwritten",
               true,
               {values(e::float32, {2, 3}, -1, 1)},
               {{e::float32, {2, 3}}},
               {},
               false,
               true});
  return r;
}

// --- the result line -------------------------------------------------------------------------------
// FNV-1a over each output's dtype name, shape and bytes: equal digests, equal outputs.
struct digest {
  std::uint64_t h = 1469598103934665603ULL;
  void add(const void* data, std::size_t size) {
    const auto* b = static_cast<const std::uint8_t*>(data);
    for (std::size_t i = 0; i < size; ++i) h = (h ^ b[i]) * 1099511628211ULL;
  }
  void add_output(element type, const std::vector<std::uint32_t>& shape, const void* data, std::size_t size) {
    add(element_name(type), std::strlen(element_name(type)));
    for (std::uint32_t d : shape) add(&d, sizeof d);
    add(data, size);
  }
};

inline void print_ok(const row& r, const digest& d) {
  std::printf("%s\tok\t%016llx\n", r.name.c_str(), static_cast<unsigned long long>(d.h));
}
inline void print_refused(const row& r, const std::string& line) {
  std::string one = line;
  for (char& c : one)
    if (c == '\n' || c == '\t') c = ' ';
  std::printf("%s\trefused\t%s\n", r.name.c_str(), one.c_str());
}
inline void print_na(const row& r, const char* key) { std::printf("%s\tn/a\t%s\n", r.name.c_str(), key); }
inline void print_skipped(const row& r, const std::string& why) {
  std::printf("%s\tskipped\t%s\n", r.name.c_str(), why.c_str());
}

// A row whose rule only a checking build (RKNNOP_GUARD_BUFFERS: the PC's) applies, in a board's build:
// printed as n/a (board-converts) and not run; a row whose recorded inputs are missing: printed as
// skipped with the reason (conformance.py: a FAIL unless the backend that records them was skipped).
// Every driver asks this first.
inline bool not_for_this_build(const row& r) {
  if (!r.inputs_missing.empty()) {
    print_skipped(r, r.inputs_missing);
    return true;
  }
  if (RKNNOP_GUARD_BUFFERS != 0 || !r.checking_builds_only) return false;
  print_na(r, "board-converts");
  return true;
}

// The log lines rknnop wrote while one row ran (rknnop::set_log_sink).
inline std::vector<std::string>& log_lines() {
  static std::vector<std::string> lines;
  return lines;
}
inline void capture_line(const char* line, void*) noexcept { log_lines().emplace_back(line); }
inline std::string first_line_or(const std::string& fallback) {
  return log_lines().empty() ? fallback : log_lines().front();
}

}  // namespace conformance
