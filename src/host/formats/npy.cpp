// SPDX-License-Identifier: MIT
#include "rknnop/host/npy.hpp"

#include "rknnop/host/error.hpp"
#include "rknnop/host/file_io.hpp"

#include <rknnop/float16.hpp>  // the SDK's exact conversions (round to nearest even)

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <type_traits>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "formats/byte_io.hpp"

namespace rknnop::host {

namespace {

constexpr std::array<std::uint8_t, 6> npy_magic{0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr std::string_view supported_descrs = "<f2, <f4, <i4, |i1, |u1, <i2, <u2";

// A tiny reader for the header's Python dict literal, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (1, 32, 32, 3), }
class header_parser {
public:
  header_parser(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  [[noreturn]] void fail(std::string_view what) const {
    throw error(fmt::format("{}: bad .npy header: {} at header offset {} in \"{}\"", source_, what, pos_, printable()));
  }

  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c, std::string_view what) {
    if (!accept(c)) fail(fmt::format("expected '{}' {}", c, what));
  }
  [[nodiscard]] char peek() {
    skip_space();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  std::string string_literal() {
    skip_space();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) fail("expected a quoted string");
    const char quote = text_[pos_++];
    const auto end = text_.find(quote, pos_);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string value(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return value;
  }
  bool boolean() {
    skip_space();
    for (const auto& [word, value] :
         {std::pair{std::string_view("True"), true}, std::pair{std::string_view("False"), false}}) {
      if (text_.substr(pos_).starts_with(word)) {
        pos_ += word.size();
        return value;
      }
    }
    fail("expected True or False");
  }
  std::vector<std::size_t> shape_tuple() {
    expect('(', "to open the shape tuple");
    std::vector<std::size_t> shape;
    while (!accept(')')) {
      skip_space();
      std::size_t value = 0;
      const char* first = text_.data() + pos_;
      const char* last = text_.data() + text_.size();
      const auto [ptr, ec] = std::from_chars(first, last, value);
      if (ec == std::errc::result_out_of_range) fail("shape dimension out of range");
      if (ec != std::errc() || ptr == first) fail("expected a non-negative integer shape dimension");
      pos_ += static_cast<std::size_t>(ptr - first);
      if (pos_ < text_.size() && text_[pos_] == 'L') ++pos_;  // Python 2 long suffix
      shape.push_back(value);
      if (!accept(',')) {
        expect(')', "to close the shape tuple");
        break;
      }
    }
    return shape;
  }
  [[nodiscard]] bool at_end() {
    skip_space();
    return pos_ == text_.size();
  }

private:
  [[nodiscard]] std::string printable() const {
    std::string out;
    for (const char c : text_.substr(0, 200)) out += (c == '\n') ? std::string("\\n") : std::string(1, c);
    return out;
  }
  std::string_view text_;
  std::string_view source_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string_view npy_descr(npy_dtype dtype) noexcept {
  const std::string_view descr = vx_type_npy_descr(static_cast<std::int32_t>(dtype));
  return descr.empty() ? "?" : descr;
}

std::size_t npy_item_size(npy_dtype dtype) noexcept { return vx_tensor_element_size(static_cast<std::int32_t>(dtype)); }

std::optional<npy_dtype> npy_dtype_from_descr(std::string_view descr) noexcept {
  const vx_type type = vx_type_from_npy_descr(descr);
  if (type == vx_type::invalid) return std::nullopt;
  return static_cast<npy_dtype>(type);
}

namespace {
// Element i of little-endian `bytes` holding T, as double (float16 exactly, integers by value).
template <class T>
double load_element(const std::uint8_t* bytes, std::size_t i) {
  if constexpr (std::is_same_v<T, rknnop::float16>) {
    return rknnop::float16::to_float(byte_io::load_le<std::uint16_t>(bytes + 2 * i));
  } else if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<float>(byte_io::load_le<std::uint32_t>(bytes + 4 * i));
  } else {
    return static_cast<T>(byte_io::load_le<std::make_unsigned_t<T>>(bytes + sizeof(T) * i));
  }
}

// Calls f(i, value) for every element of `a`, the element type dispatched once.
template <class F>
void for_each_element(const npy_array& a, F&& f) {
  const std::size_t n = a.data.size() / npy_item_size(a.dtype);
  visit_tensor_element_type(static_cast<std::int32_t>(a.dtype), [&]<class T>(std::type_identity<T>) {
    for (std::size_t i = 0; i < n; ++i) f(i, load_element<T>(a.data.data(), i));
  });
}
}  // namespace

std::size_t npy_array::element_count() const noexcept {
  std::size_t n = 1;
  for (const std::size_t d : shape) n *= d;
  return n;
}

std::vector<float> npy_array::to_floats() const {
  std::vector<float> out(data.size() / npy_item_size(dtype));
  for_each_element(*this, [&](std::size_t i, double v) { out[i] = static_cast<float>(v); });
  return out;
}

npy_array npy_array::from_floats(std::span<const float> values, std::vector<std::size_t> shape, npy_dtype dtype) {
  npy_array array;
  array.dtype = dtype;
  array.shape = std::move(shape);
  if (array.element_count() != values.size())
    throw error(fmt::format("cannot make a .npy array of shape ({}) from {} values", fmt::join(array.shape, ", "),
                            values.size()));
  if (dtype == npy_dtype::float16) {
    for (const float v : values) byte_io::append_le<std::uint16_t>(array.data, rknnop::float16::from_float(v));
  } else if (dtype == npy_dtype::float32) {
    for (const float v : values) byte_io::append_le<std::uint32_t>(array.data, std::bit_cast<std::uint32_t>(v));
  } else {
    throw error(fmt::format("npy_array::from_floats supports <f2 and <f4, not {}", npy_descr(dtype)));
  }
  return array;
}

npy_array convert_to_float(const npy_array& array, npy_dtype to, conversion_report& report) {
  if (to != npy_dtype::float16 && to != npy_dtype::float32)
    throw error(fmt::format("convert_to_float supports <f2 and <f4, not {}", npy_descr(to)));
  report = {};
  npy_array out;
  out.dtype = to;
  out.shape = array.shape;
  const std::size_t n = array.data.size() / npy_item_size(array.dtype);
  out.data.reserve(n * npy_item_size(to));
  report.count = n;
  for_each_element(array, [&](std::size_t i, double v) {
    double c = 0;
    if (to == npy_dtype::float16) {
      // Every supported dtype converts to float exactly below float16's range, so one rounding.
      const std::uint16_t h = rknnop::float16::from_float(static_cast<float>(v));
      byte_io::append_le<std::uint16_t>(out.data, h);
      c = rknnop::float16::to_float(h);
    } else {
      const float f = static_cast<float>(v);
      byte_io::append_le<std::uint32_t>(out.data, std::bit_cast<std::uint32_t>(f));
      c = f;
    }
    if (std::isnan(v) || c == v) return;
    const bool lost = (std::isinf(c) && !std::isinf(v)) || std::isnan(c) || (c == 0 && v != 0);
    if (lost) {
      if (!report.first_lossy) {
        report.first_lossy = i;
        report.first_lossy_value = v;
        report.first_lossy_result = c;
      }
      ++report.lossy;
      return;
    }
    ++report.rounded;
    report.largest_relative = std::max(report.largest_relative, std::fabs(c - v) / std::fabs(v));
  });
  return out;
}

std::string numpy_index(std::span<const std::size_t> shape, std::size_t index) {
  std::vector<std::size_t> at(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    if (shape[d] == 0) break;
    at[d] = index % shape[d];
    index /= shape[d];
  }
  return fmt::format("[{}]", fmt::join(at, ", "));
}

namespace {

// The preamble: magic, version, header length; where the header text starts and how long it is.
struct npy_preamble {
  std::size_t header_start = 0;
  std::size_t header_len = 0;
};

npy_preamble read_npy_preamble(std::span<const std::uint8_t> bytes, std::string_view source) {
  if (bytes.size() < npy_magic.size() || !std::equal(npy_magic.begin(), npy_magic.end(), bytes.begin()))
    throw error(
        fmt::format("{}: not a .npy file: expected magic 93 4e 55 4d 50 59 (\"\\x93NUMPY\"), "
                    "got {}",
                    source,
                    bytes.empty() ? std::string("an empty file")
                                  : byte_io::hex_bytes(bytes.first(std::min<std::size_t>(6, bytes.size())))));
  if (bytes.size() < 10)
    throw error(
        fmt::format("{}: truncated .npy header: {} bytes, shorter than the 10-byte preamble", source, bytes.size()));
  const unsigned major = bytes[6];
  const unsigned minor = bytes[7];
  npy_preamble p;
  if (major == 1 && minor == 0) {
    p.header_len = byte_io::load_le<std::uint16_t>(bytes.data() + 8);
    p.header_start = 10;
  } else if ((major == 2 || major == 3) && minor == 0) {
    if (bytes.size() < 12)
      throw error(
          fmt::format("{}: truncated .npy header: version {}.0 needs a 4-byte header "
                      "length at offset 8, file is {} bytes",
                      source, major, bytes.size()));
    p.header_len = byte_io::load_le<std::uint32_t>(bytes.data() + 8);
    p.header_start = 12;
  } else {
    throw error(
        fmt::format("{}: unsupported .npy format version {}.{}: expected 1.0, 2.0 or 3.0", source, major, minor));
  }
  if (p.header_len > bytes.size() - p.header_start)
    throw error(
        fmt::format("{}: truncated .npy header: header length {} at offset 8 runs past "
                    "the end of the {}-byte file",
                    source, p.header_len, bytes.size()));
  return p;
}

// The header dict: descr, fortran_order and shape, each required once.
struct npy_header {
  std::string descr;
  bool fortran_order = false;
  std::vector<std::size_t> shape;
};

npy_header read_npy_header(std::string_view text, std::string_view source) {
  header_parser parser(text, source);
  std::optional<std::string> descr;
  std::optional<bool> fortran_order;
  std::optional<std::vector<std::size_t>> shape;
  parser.expect('{', "to open the header dict");
  while (!parser.accept('}')) {
    const std::string key = parser.string_literal();
    parser.expect(':', fmt::format("after key '{}'", key));
    // (Python's dict keeps the last of a repeated key: a header naming one twice means two things)
    if ((key == "descr" && descr) || (key == "fortran_order" && fortran_order) || (key == "shape" && shape))
      parser.fail(fmt::format("key '{}' given twice", key));
    if (key == "descr") {
      if (parser.peek() == '[') parser.fail("structured (record) dtypes are not supported");
      descr = parser.string_literal();
    } else if (key == "fortran_order") {
      fortran_order = parser.boolean();
    } else if (key == "shape") {
      shape = parser.shape_tuple();
    } else {
      parser.fail(fmt::format("unexpected key '{}' (expected descr, fortran_order, shape)", key));
    }
    if (!parser.accept(',')) {
      parser.expect('}', "to close the header dict");
      break;
    }
  }
  if (!parser.at_end()) parser.fail("unexpected text after the header dict");
  if (!descr) throw error(fmt::format("{}: bad .npy header: missing 'descr'", source));
  if (!fortran_order) throw error(fmt::format("{}: bad .npy header: missing 'fortran_order'", source));
  if (!shape) throw error(fmt::format("{}: bad .npy header: missing 'shape'", source));
  return {std::move(*descr), *fortran_order, std::move(*shape)};
}

// The array the header describes: a supported dtype in C order, and exactly its bytes after the header.
npy_array read_npy_data(std::span<const std::uint8_t> bytes, std::size_t data_start, npy_header header,
                        std::string_view source) {
  const auto dtype = npy_dtype_from_descr(header.descr);
  if (!dtype)
    throw error(
        fmt::format("{}: unsupported .npy dtype '{}': expected one of {} (little-endian); "
                    "convert with a.astype(np.float32)",
                    source, header.descr, supported_descrs));
  if (header.fortran_order)
    throw error(
        fmt::format("{}: Fortran-order .npy arrays are not supported; save "
                    "np.ascontiguousarray(a) instead",
                    source));
  npy_array array;
  array.dtype = *dtype;
  array.shape = std::move(header.shape);
  std::size_t expected = npy_item_size(array.dtype);
  for (const std::size_t d : array.shape) {
    if (d != 0 && expected > std::numeric_limits<std::size_t>::max() / d)
      throw error(fmt::format("{}: bad .npy shape ({}): size overflows", source, fmt::join(array.shape, ", ")));
    expected *= d;
  }
  const std::size_t available = bytes.size() - data_start;
  if (available < expected)
    throw error(
        fmt::format("{}: truncated .npy data: shape ({}) of {} needs {} bytes at offset {}, "
                    "file has {}",
                    source, fmt::join(array.shape, ", "), header.descr, expected, data_start, available));
  if (available > expected)
    throw error(
        fmt::format("{}: {} trailing bytes after the .npy data: shape ({}) of {} needs {} "
                    "bytes at offset {}",
                    source, available - expected, fmt::join(array.shape, ", "), header.descr, expected, data_start));
  array.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(data_start), bytes.end());
  return array;
}

}  // namespace

// The .npy layout in file order: preamble, header dict, data.
npy_array parse_npy(std::span<const std::uint8_t> bytes, std::string_view source) {
  const npy_preamble p = read_npy_preamble(bytes, source);
  const std::string_view text(reinterpret_cast<const char*>(bytes.data() + p.header_start), p.header_len);
  return read_npy_data(bytes, p.header_start + p.header_len, read_npy_header(text, source), source);
}

npy_array read_npy_file(const std::filesystem::path& path) { return parse_npy(read_file(path), path.string()); }

std::vector<std::uint8_t> serialize_npy(const npy_array& array) {
  if (array.data.size() != array.element_count() * npy_item_size(array.dtype))
    throw error(fmt::format("cannot write .npy: shape ({}) of {} needs {} bytes, array holds {}",
                            fmt::join(array.shape, ", "), npy_descr(array.dtype),
                            array.element_count() * npy_item_size(array.dtype), array.data.size()));
  std::string shape_text = "(";
  for (std::size_t i = 0; i < array.shape.size(); ++i)
    shape_text += fmt::format("{}{}", i == 0 ? "" : ", ", array.shape[i]);
  if (array.shape.size() == 1) shape_text += ',';
  shape_text += ')';
  std::string header =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", npy_descr(array.dtype), shape_text);
  // Pad with spaces and a final newline so that the data starts on a 64-byte boundary.
  const auto padded_total = [&](std::size_t prefix_size) { return (prefix_size + header.size() + 1 + 63) / 64 * 64; };
  const bool v1 = padded_total(10) - 10 <= 65535;
  const std::size_t prefix = v1 ? 10 : 12;
  const std::size_t total = padded_total(prefix);
  header.append(total - prefix - header.size() - 1, ' ');
  header += '\n';
  std::vector<std::uint8_t> out(npy_magic.begin(), npy_magic.end());
  out.push_back(v1 ? 1 : 2);
  out.push_back(0);
  if (v1)
    byte_io::append_le<std::uint16_t>(out, static_cast<std::uint16_t>(header.size()));
  else
    byte_io::append_le<std::uint32_t>(out, static_cast<std::uint32_t>(header.size()));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), array.data.begin(), array.data.end());
  return out;
}

void write_npy_file(const npy_array& array, const std::filesystem::path& path) {
  write_file_atomically(path, serialize_npy(array));
}

std::vector<std::uint32_t> to_openvx_dims(std::span<const std::size_t> shape) {
  std::vector<std::uint32_t> dims;
  dims.reserve(shape.size());
  for (auto it = shape.rbegin(); it != shape.rend(); ++it) {
    if (*it > std::numeric_limits<std::uint32_t>::max())
      throw error(
          fmt::format("shape ({}) has a dimension {} larger than OpenVX's uint32 dims", fmt::join(shape, ", "), *it));
    dims.push_back(static_cast<std::uint32_t>(*it));
  }
  return dims;
}

std::vector<std::size_t> from_openvx_dims(std::span<const std::uint32_t> dims) { return {dims.rbegin(), dims.rend()}; }

}  // namespace rknnop::host
