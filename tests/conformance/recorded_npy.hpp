// SPDX-License-Identifier: MIT
#pragma once
// The .npy files a backend's run records for a row "<Op>.in_<backend>" (cases.hpp: recorded_row), read by
// every driver. A record is a file like any other (it may be hostile): it is read with rknnop's bounded
// reader (regular files only, at most recorded_max_bytes), and both readers refuse the same shapes with
// the same messages (checked_shape):
//   read_npy_host    the PC's drivers: rknnop::host's parser (parse_npy), which takes the bytes: only
//                    types that do not depend on libstdc++'s string ABI cross into rknnop::host (the
//                    MindSpore Lite driver is built with the old one);
//   read_npy_strict  the board column's driver, cross-compiled without rknnop::host: the one form the
//                    records hold (format 1.0, a dict of exactly 'descr' '<f4' or '<f2', 'fortran_order'
//                    False and 'shape', padded with spaces to the '\n' that ends the header).
// tests/conformance/test_recorded_npy.cpp feeds both the same hostile files.
#include <rknnop/files.hpp>    // the bounded reader
#include <rknnop/types.hpp>    // rknnop::dtype
#include <rknnop/vx_type.hpp>  // vx_tensor_element_size, vx_type_from_npy_descr, vx_max_tensor_rank
#ifndef RKNNOP_CONFORMANCE_BOARD_DRIVER
#include <rknnop/host/npy.hpp>
#endif

#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace conformance {

// A recorded tensor: its element type, shape (outermost first) and bytes.
struct recorded_tensor {
  rknnop::dtype type = rknnop::dtype::float32;
  std::vector<std::uint32_t> shape;
  std::vector<std::uint8_t> data;
};

// A record holds one call's tensors: far below this, which bounds what a driver allocates for one.
inline constexpr std::uint64_t recorded_max_bytes = std::uint64_t{64} << 20;

inline std::runtime_error recorded_error(const std::string& file, const std::string& why) {
  return std::runtime_error(file + ": " + why);
}

// The whole file, bounded (a FIFO, a device or a directory is refused, not waited for).
inline std::vector<std::uint8_t> read_recorded_file(const std::string& file) {
  std::vector<std::uint8_t> bytes;
  // (the header, at most 64 KiB, comes on top of the data)
  if (const rknnop::files::result r = rknnop::files::read_file(file, bytes, recorded_max_bytes + (1u << 16)); !r)
    throw std::runtime_error(r.error);
  return bytes;
}

// The rules of a recorded shape, for both readers: rank 1 to 6, no zero dim, each dim a uint32, the
// element count computed without overflow and its bytes within recorded_max_bytes and equal to the data's.
template <class Dim>
std::vector<std::uint32_t> checked_shape(const std::string& file, const std::vector<Dim>& dims, rknnop::dtype type,
                                         std::size_t data_bytes) {
  if (dims.empty() || dims.size() > rknnop::vx_max_tensor_rank)
    throw recorded_error(file, "a rank of " + std::to_string(dims.size()) + " (a recorded tensor has 1 to " +
                                   std::to_string(rknnop::vx_max_tensor_rank) + " dims)");
  std::vector<std::uint32_t> shape;
  std::uint64_t bytes = rknnop::vx_tensor_element_size(static_cast<std::int32_t>(type));
  for (const Dim d : dims) {
    if (d == 0) throw recorded_error(file, "a zero dim");
    if (std::uint64_t{d} > std::numeric_limits<std::uint32_t>::max())
      throw recorded_error(file, "a dim of " + std::to_string(d) + " (at most 2^32 - 1)");
    if (std::uint64_t{d} > recorded_max_bytes / bytes)  // (checked before the multiply: it cannot wrap)
      throw recorded_error(
          file, "its shape is over the " + std::to_string(recorded_max_bytes) + "-byte limit of a recorded tensor");
    bytes *= d;
    shape.push_back(static_cast<std::uint32_t>(d));
  }
  if (bytes != data_bytes)
    throw recorded_error(
        file, "its shape gives " + std::to_string(bytes) + " bytes, the file holds " + std::to_string(data_bytes));
  return shape;
}

// float32 or float16: what librknnrt hands a CPU custom op.
inline rknnop::dtype recorded_type(const std::string& file, std::int32_t vx) {
  if (vx != static_cast<std::int32_t>(rknnop::dtype::float32) &&
      vx != static_cast<std::int32_t>(rknnop::dtype::float16))
    throw recorded_error(file, "expected float32 or float16 ('<f4' or '<f2')");
  return static_cast<rknnop::dtype>(vx);
}

// The header dict of a .npy 1.0 file, parsed strictly (read_npy_strict).
class npy_header_parser {
public:
  npy_header_parser(const std::string& file, std::string_view text) : file_(file), text_(text) {}

  std::vector<std::uint64_t> dims;
  std::int32_t vx = 0;

  void parse() {
    bool seen_descr = false, seen_order = false, seen_shape = false;
    spaces();
    expect('{', "the header to open a dict");
    for (spaces(); !accept('}');) {
      const std::string_view key = quoted("a key");
      bool* seen = key == "descr"           ? &seen_descr
                   : key == "fortran_order" ? &seen_order
                   : key == "shape"         ? &seen_shape
                                            : nullptr;
      if (!seen) fail("unexpected key '" + std::string(key) + "' (expected descr, fortran_order, shape)");
      if (*seen) fail("key '" + std::string(key) + "' given twice");
      *seen = true;
      spaces();
      expect(':', "':' after a key");
      spaces();
      if (key == "descr") {
        vx = rknnop::vx_type_from_npy_descr(quoted("the descr"));
        if (vx == rknnop::vx_type::invalid) fail("a descr that is no tensor element type");
      } else if (key == "fortran_order") {
        if (!word("False")) fail("expected C order ('fortran_order': False)");
      } else {
        shape();
      }
      continue_after_value();
    }
    if (!seen_descr || !seen_order || !seen_shape) fail("the dict lacks descr, fortran_order or shape");
    // numpy pads the header with spaces to the '\n' that ends it, at the length the file gives
    spaces();
    if (at_ + 1 != text_.size() || text_[at_] != '\n') fail("text after the dict, or no '\\n' where the header ends");
  }

private:
  [[noreturn]] void fail(const std::string& why) const {
    throw recorded_error(file_, "bad .npy header: " + why + " at header offset " + std::to_string(at_));
  }
  void spaces() {
    while (at_ < text_.size() && text_[at_] == ' ') ++at_;
  }
  bool accept(char c) {
    if (at_ >= text_.size() || text_[at_] != c) return false;
    ++at_;
    return true;
  }
  void expect(char c, const char* what) {
    if (!accept(c)) fail(std::string("expected ") + what);
  }
  bool word(std::string_view w) {
    if (text_.substr(at_, w.size()) != w) return false;
    at_ += w.size();
    return true;
  }
  std::string_view quoted(const char* what) {
    if (at_ >= text_.size() || (text_[at_] != '\'' && text_[at_] != '"')) fail(std::string("expected ") + what);
    const char quote = text_[at_++];
    const std::size_t end = text_.find(quote, at_);
    if (end == std::string_view::npos) fail("an unterminated string");
    const std::string_view s = text_.substr(at_, end - at_);
    at_ = end + 1;
    return s;
  }
  // After a value: ", " then the next key or '}', or '}'.
  void continue_after_value() {
    spaces();
    if (accept(',')) {
      spaces();
      return;
    }
    if (at_ >= text_.size() || text_[at_] != '}') fail("expected ',' or '}' after a value");
  }
  // "(1, 3, 10, 10)", "(7,)", digits only.
  void shape() {
    expect('(', "a shape tuple");
    for (spaces(); !accept(')');) {
      if (at_ >= text_.size() || text_[at_] < '0' || text_[at_] > '9') fail("expected a dim (digits only)");
      std::uint64_t d = 0;
      for (; at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9'; ++at_) {
        const unsigned digit = static_cast<unsigned>(text_[at_] - '0');
        if (d > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) fail("a dim out of range");
        d = d * 10 + digit;
      }
      dims.push_back(d);  // (the rank is checked_shape's: the header's length bounds the count)
      spaces();
      if (accept(',')) {
        spaces();
      } else if (at_ >= text_.size() || text_[at_] != ')') {
        fail("expected ',' or ')' after a dim");
      }
    }
  }

  const std::string& file_;
  std::string_view text_;
  std::size_t at_ = 0;
};

inline recorded_tensor read_npy_strict(const std::string& file) {
  const std::vector<std::uint8_t> b = read_recorded_file(file);
  if (b.size() < 10 || std::memcmp(b.data(), "\x93NUMPY\x01\x00", 8) != 0)
    throw recorded_error(file, "not a .npy 1.0 file");
  const std::size_t header = b[8] | std::size_t{b[9]} << 8;
  if (b.size() < 10 + header) throw recorded_error(file, "its header is cut");
  npy_header_parser h(file, std::string_view(reinterpret_cast<const char*>(b.data()) + 10, header));
  h.parse();
  recorded_tensor t;
  t.type = recorded_type(file, h.vx);
  t.shape = checked_shape(file, h.dims, t.type, b.size() - 10 - header);
  t.data.assign(b.begin() + static_cast<std::ptrdiff_t>(10 + header), b.end());
  return t;
}

#ifndef RKNNOP_CONFORMANCE_BOARD_DRIVER
inline recorded_tensor read_npy_host(const std::string& file) {
  const rknnop::host::npy_array a = rknnop::host::parse_npy(read_recorded_file(file), file);
  recorded_tensor t;
  t.type = recorded_type(file, static_cast<std::int32_t>(a.dtype));
  t.shape = checked_shape(file, a.shape, t.type, a.data.size());
  t.data = a.data;
  return t;
}
inline recorded_tensor read_npy(const std::string& file) { return read_npy_host(file); }
#else
inline recorded_tensor read_npy(const std::string& file) { return read_npy_strict(file); }
#endif

}  // namespace conformance
