// SPDX-License-Identifier: MIT
#pragma once
// The conformance suite's rows, written once for every backend (tests/conformance/README.md): an op,
// its input tensors (shape outermost first, as NumPy and RKNPU2 and MindSpore Lite write it), its
// params by name in the struct's order, and the outputs the runtime holds. Each backend's driver
// (run_<backend>.cpp) turns a row into its own runtime's calls and prints one result line:
//   <row>\tok\t<digest of every output's dtype, shape and bytes>
//   <row>\trefused\t<the first "rknnop: " line the op logged, or the runtime's status>
//   <row>\tn/a\t<key of conformance.py's table of explanations>[; <the driver's note>]
//   <row>\tskipped\t<why the row's recorded inputs are missing>
// (ok may carry a note after the digest too: print_ok.)
// conformance.py compares the lines of every backend and writes docs/backends.md.
#include <rknnop/config.hpp>  // RKNNOP_GUARD_BUFFERS: a checking build (the PC's) or a board's
#include <rknnop/float16.hpp>
#include <rknnop/types.hpp>    // rknnop::dtype: a row's element types
#include <rknnop/vx_type.hpp>  // vx_tensor_element_size

#include "recorded_npy.hpp"  // the inputs a row takes from another backend's run

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>  // which recorded files exist
#include <stdexcept>
#include <limits>
#include <string>
#include <vector>

namespace conformance {

using element = rknnop::dtype;  // the rows use float32, float16, int32, int8 and uint8

// An element type's name in the digest (digest::add_output): the digests in docs/backends.md hash these.
inline const char* element_name(element e) {
  switch (e) {
    case element::float32: return "float32";
    case element::float16: return "float16";
    case element::int32: return "int32";
    case element::int8: return "int8";
    case element::uint8: return "uint8";
    case element::int16: return "int16";
    case element::uint16: return "uint16";
  }
  return "?";
}
inline std::size_t element_size(element e) { return rknnop::vx_tensor_element_size(static_cast<std::int32_t>(e)); }

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
  // takes the case as it comes (docs/architecture.md §1), so there the row is n/a (board-converts).
  bool checking_builds_only = false;
  // The backend whose run gives the inputs (row "<Op>.in_<backend>"): what that runtime handed the op,
  // recorded there; every other driver reads them (recorded_row). Empty: the inputs are written here.
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
      case element::int16:
      case element::uint16: {  // (no row has them: the low 16 bits, as int8 and uint8 keep the low 8)
        const auto k = std::uint16_t(std::lround(v));
        std::memcpy(at, &k, 2);
        break;
      }
    }
  }
  return t;
}

// A param's number as the integer a model holds for it: truncated toward zero (NaN: 0; beyond int64's
// range: its nearest end), then the low bits of its two's complement (a bool's 2 is the byte 2). The one
// conversion of every driver: casting a double the target type cannot hold is undefined behaviour.
template <class Int>
Int param_integer(double v) {
  constexpr double two_63 = 9223372036854775808.0;
  const std::int64_t wide = std::isnan(v) ? 0
                            : v >= two_63 ? std::numeric_limits<std::int64_t>::max()
                            : v < -two_63 ? std::numeric_limits<std::int64_t>::min()
                                          : static_cast<std::int64_t>(v);
  return static_cast<Int>(static_cast<std::uint64_t>(wide));  // (modulo 2^N since C++20)
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

// A row "<Op>.in_<backend>" (`name`): op <Op> on what backend <backend>'s run handed it, recorded there
// before the other drivers run (ctest: every conformance.run.* depends on it), in the folder
// RKNNOP_CONFORMANCE_INPUTS names: <row>.in<k>.npy its inputs and <row>.out<k>.npy its outputs, k = 0, 1,
// ... (run_librknnrt.sh copies every one of the call's files). The row's outputs have the recorded ones'
// dtypes and shapes. When that run recorded nothing it writes <dir>/<backend>.failed, the reason.
inline row recorded_row(const std::string& name, std::vector<param_case> params) {
  const std::size_t dot = name.find(".in_");
  row r{name, name.substr(0, dot), false, {}, {}, std::move(params)};
  r.inputs_from = dot == std::string::npos ? "?" : name.substr(dot + 4);
  const char* dir = std::getenv("RKNNOP_CONFORMANCE_INPUTS");
  if (!dir || !*dir) {
    r.inputs_missing = "RKNNOP_CONFORMANCE_INPUTS is not set (ctest's conformance.run.* set it)";
    return r;
  }
  const std::string stem = std::string(dir) + "/" + r.name;
  const auto exists = [](const std::string& file) {
    std::error_code ec;
    return std::filesystem::exists(file, ec);
  };
  try {
    // (a few: RKNPU2 ops take and give a handful of tensors)
    for (std::size_t k = 0; k < 16 && exists(stem + ".in" + std::to_string(k) + ".npy"); ++k) {
      recorded_tensor a = read_npy(stem + ".in" + std::to_string(k) + ".npy");
      r.inputs.push_back({a.type, std::move(a.shape), std::move(a.data)});
    }
    for (std::size_t k = 0; k < 16 && exists(stem + ".out" + std::to_string(k) + ".npy"); ++k) {
      const recorded_tensor a = read_npy(stem + ".out" + std::to_string(k) + ".npy");
      r.outputs.push_back({a.type, a.shape});
    }
    if (r.inputs.empty() || r.outputs.empty()) {
      std::vector<std::uint8_t> why;  // (the reason, when that run wrote one; empty when it cannot be read)
      (void)rknnop::files::read_file(std::string(dir) + "/" + r.inputs_from + ".failed", why, 4096);
      std::string reason(why.begin(), why.end());
      while (!reason.empty() && reason.back() == '\n') reason.pop_back();
      throw std::runtime_error(reason.empty() ? stem + ".in0.npy and .out0.npy: not both recorded" : reason);
    }
  } catch (const std::exception& e) {
    r.inputs.clear();
    r.outputs.clear();
    r.inputs_missing = "no inputs recorded by the " + r.inputs_from + " column's run: " + e.what();
  }
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
  // backend (RKNNOP_ALLOW_LOSSY=1 accepts it); a board's converts it (docs/architecture.md §1), so there
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
  // Exp is element-wise (rknnop::each_element): on the PC's RKNN v1 library a tensor this large takes
  // the node's one pass (copies, conversions, function and checks range by range), everywhere else the
  // kernel over the whole tensors. The same bits, and the same refusal naming the same first element.
  r.push_back({"Exp.one_pass",
               "Exp",
               false,
               {values(e::float16, {1, 480, 640, 3}, -4, 4)},
               {{e::float16, {1, 480, 640, 3}}},
               {}});
  r.push_back({"rule.lossy_output_one_pass",
               "Exp",
               true,
               {values(e::float16, {480, 640, 3}, -9.72, 10)},
               {{e::float16, {480, 640, 3}}},
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
  r.push_back(recorded_row("DualResidual.in_librknnrt", {f32("alpha", 0.5)}));
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

// A result line's last field on one line: a logged line or a reason may hold tabs and newlines.
inline std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\t' || c == '\r') c = ' ';
  return text;
}
inline void print_ok(const row& r, const digest& d) {
  std::printf("%s\tok\t%016llx\n", r.name.c_str(), static_cast<unsigned long long>(d.h));
}
// The same line with a note after the digest ("; ..."): what a runtime that reported success logged
// (run_openvx_board.cpp). conformance.py judges the cell by its kind: ok for a bad case is a FAIL whatever
// the note says.
inline void print_ok(const row& r, const digest& d, const std::string& note) {
  std::printf("%s\tok\t%016llx%s\n", r.name.c_str(), static_cast<unsigned long long>(d.h), one_line(note).c_str());
}
inline void print_refused(const row& r, const std::string& line) {
  std::printf("%s\trefused\t%s\n", r.name.c_str(), one_line(line).c_str());
}
// The key of conformance.py's EXPLANATIONS, then optionally the driver's note after "; ".
inline void print_na(const row& r, const std::string& key) {
  std::printf("%s\tn/a\t%s\n", r.name.c_str(), one_line(key).c_str());
}
inline void print_skipped(const row& r, const std::string& why) {
  std::printf("%s\tskipped\t%s\n", r.name.c_str(), one_line(why).c_str());
}

// Every driver asks this first: prints the row's line without running it, and returns true, for a row
// whose recorded inputs are missing (skipped with the reason: conformance.py makes it a FAIL unless the
// backend that records them was skipped) and, in a board's build, for a row whose rule only a checking
// build (RKNNOP_GUARD_BUFFERS: the PC's) applies (n/a: board-converts).
inline bool answered_without_running(const row& r) {
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
