// SPDX-License-Identifier: MIT
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/npy.hpp>

#include "test_util.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace {

using namespace rknnop::host;

// A .npy image exactly as numpy.save writes it (version 1.0, header padded to 64 bytes).
std::vector<std::uint8_t> npy_image(std::string_view dict, std::span<const std::uint8_t> data, int major = 1) {
  std::string header(dict);
  const std::size_t prefix = major == 1 ? 10 : 12;
  while ((prefix + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::vector<std::uint8_t> out{0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<std::uint8_t>(major), 0};
  const auto len = header.size();
  out.push_back(static_cast<std::uint8_t>(len & 0xFF));
  out.push_back(static_cast<std::uint8_t>(len >> 8));
  if (major != 1) {
    out.push_back(0);
    out.push_back(0);
  }
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::vector<std::uint8_t> float_bytes(std::initializer_list<float> values) {
  std::vector<std::uint8_t> out;
  for (const float v : values) {
    const auto bits = std::bit_cast<std::uint32_t>(v);
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
  }
  return out;
}

TEST(Npy, ReadsWhatNumpyWrites) {
  const auto data = float_bytes({1, 2, 3, 4, 5, 6});
  const auto image = npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 3), }", data);
  const npy_array a = parse_npy(image, "a.npy");
  EXPECT_EQ(a.dtype, npy_dtype::float32);
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(a.to_floats(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  // Our writer produces the same bytes numpy does.
  EXPECT_EQ(serialize_npy(a), image);
}

TEST(Npy, HeaderVersions2And3AndOneDimensionalShape) {
  const auto data = float_bytes({7, 8});
  for (const int major : {2, 3}) {
    const auto image = npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", data, major);
    const npy_array a = parse_npy(image, "v.npy");
    EXPECT_EQ(a.shape, std::vector<std::size_t>{2});
    EXPECT_EQ(a.to_floats(), (std::vector<float>{7, 8}));
  }
  // Scalars (shape ()) hold one element; numpy writes 1-d shapes as "(2,)".
  const npy_array scalar =
      parse_npy(npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", float_bytes({9})), "s.npy");
  EXPECT_TRUE(scalar.shape.empty());
  EXPECT_EQ(scalar.element_count(), 1u);
  const auto written = serialize_npy(npy_array::from_floats(std::vector<float>{1, 2}, {2}));
  const std::string text(written.begin(), written.end());
  EXPECT_NE(text.find("'shape': (2,), }"), std::string::npos);
}

TEST(Npy, AllDtypesRoundTrip) {
  for (const npy_dtype dtype : {npy_dtype::float16, npy_dtype::float32, npy_dtype::int32, npy_dtype::int8,
                                npy_dtype::uint8, npy_dtype::int16, npy_dtype::uint16}) {
    npy_array a;
    a.dtype = dtype;
    a.shape = {2, 3};
    a.data.resize(6 * npy_item_size(dtype));
    for (std::size_t i = 0; i < a.data.size(); ++i) a.data[i] = static_cast<std::uint8_t>(i * 7);
    const auto bytes = serialize_npy(a);
    EXPECT_EQ(bytes.size() % 64, a.data.size() % 64) << npy_descr(dtype);  // data starts 64-aligned
    const npy_array b = parse_npy(bytes, "rt.npy");
    EXPECT_EQ(b.dtype, a.dtype);
    EXPECT_EQ(b.shape, a.shape);
    EXPECT_EQ(b.data, a.data);
  }
  EXPECT_EQ(npy_dtype_from_descr("|u1"), npy_dtype::uint8);
  EXPECT_EQ(npy_dtype_from_descr("=f4"), npy_dtype::float32);
  EXPECT_EQ(npy_dtype_from_descr(">f4"), std::nullopt);
  EXPECT_EQ(npy_dtype_from_descr("|f4"), std::nullopt);
}

TEST(Npy, Float16ConversionIsExactAndRoundsToNearestEven) {
  const std::vector<float> values{0.0f,
                                  -0.0f,
                                  1.0f,
                                  -2.5f,
                                  65504.0f,
                                  6.103515625e-05f /* min normal */,
                                  5.960464477539063e-08f /* min subnormal */,
                                  1.0009765625f};
  const npy_array half = npy_array::from_floats(values, {values.size()}, npy_dtype::float16);
  EXPECT_EQ(half.to_floats(), values);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1.0).
  const float halfway = 1.0f + 1.0f / 2048.0f;
  const float above = 1.0f + 3.0f / 2048.0f;  // halfway between 1+2^-10 and 1+2^-9: even is 1+2^-9
  const auto rounded =
      npy_array::from_floats(std::vector<float>{halfway, above, 70000.0f}, {3}, npy_dtype::float16).to_floats();
  EXPECT_EQ(rounded[0], 1.0f);
  EXPECT_EQ(rounded[1], 1.0f + 2.0f / 1024.0f);
  EXPECT_TRUE(std::isinf(rounded[2]));
  const auto nan =
      npy_array::from_floats(std::vector<float>{std::numeric_limits<float>::quiet_NaN()}, {1}, npy_dtype::float16)
          .to_floats();
  EXPECT_TRUE(std::isnan(nan[0]));
}

TEST(Npy, OpenVxDimsAreReversed) {
  const std::vector<std::size_t> nhwc{1, 32, 32, 3};
  EXPECT_EQ(to_openvx_dims(nhwc), (std::vector<std::uint32_t>{3, 32, 32, 1}));
  const std::vector<std::uint32_t> dims{3, 32, 32, 1};
  EXPECT_EQ(from_openvx_dims(dims), nhwc);
}

TEST(Npy, FileRoundTrip) {
  const auto dir = rknnop_test::work_dir("npy_file");
  const auto a = npy_array::from_floats(std::vector<float>{1.5f, -2.0f}, {1, 2}, npy_dtype::float16);
  write_npy_file(a, dir / "a.npy");
  const auto b = read_npy_file(dir / "a.npy");
  EXPECT_EQ(b.dtype, npy_dtype::float16);
  EXPECT_EQ(b.to_floats(), (std::vector<float>{1.5f, -2.0f}));
  RKNNOP_EXPECT_ERROR(read_npy_file(dir / "missing.npy"), "cannot open", "missing.npy", "No such file or directory");
}

TEST(Npy, BadMagic) {
  RKNNOP_EXPECT_ERROR(parse_npy(rknnop_test::bytes_of("PK\x03\x04 not numpy"), "x.npy"), "x.npy: not a .npy file",
                      "got 50 4b 03 04 20 6e");
}

TEST(Npy, UnsupportedFormatVersion) {
  auto image = npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", float_bytes({1}));
  image[6] = 4;
  RKNNOP_EXPECT_ERROR(parse_npy(image, "v4.npy"), "v4.npy: unsupported .npy format version 4.0");
}

TEST(Npy, TruncatedHeader) {
  const char preamble[] = "\x93NUMPY\x01";
  RKNNOP_EXPECT_ERROR(
      parse_npy(std::span(reinterpret_cast<const std::uint8_t*>(preamble), sizeof preamble - 1), "p.npy"),
      "p.npy: truncated .npy header: 7 bytes, shorter than the 10-byte preamble");
  auto image = npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", {});
  image.resize(40);
  RKNNOP_EXPECT_ERROR(parse_npy(image, "t.npy"), "t.npy: truncated .npy header", "runs past the end");
}

TEST(Npy, MalformedHeaders) {
  const auto data = float_bytes({1});
  RKNNOP_EXPECT_ERROR(parse_npy(npy_image("['descr', '<f4']", data), "h.npy"), "h.npy: bad .npy header",
                      "expected '{' to open the header dict");
  RKNNOP_EXPECT_ERROR(parse_npy(npy_image("{'descr': '<f4', 'fortran_order': False}", data), "h.npy"),
                      "h.npy: bad .npy header: missing 'shape'");
  RKNNOP_EXPECT_ERROR(parse_npy(npy_image("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,)}", data), "h.npy"),
                      "expected True or False");
  RKNNOP_EXPECT_ERROR(parse_npy(npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (1, x)}", data), "h.npy"),
                      "expected a non-negative integer shape dimension");
  RKNNOP_EXPECT_ERROR(parse_npy(npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}", data), "h.npy"),
                      "expected a non-negative integer shape dimension");
  RKNNOP_EXPECT_ERROR(
      parse_npy(npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1}", data), "h.npy"),
      "unexpected key 'extra'");
  RKNNOP_EXPECT_ERROR(
      parse_npy(npy_image("{'descr': '<f8', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", data), "h.npy"),
      "key 'descr' given twice");
  RKNNOP_EXPECT_ERROR(
      parse_npy(npy_image("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}", data), "h.npy"),
      "structured (record) dtypes are not supported");
}

TEST(Npy, UnsupportedDtype) {
  std::vector<std::uint8_t> data(8, 0);
  RKNNOP_EXPECT_ERROR(parse_npy(npy_image("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", data), "d.npy"),
                      "d.npy: unsupported .npy dtype '<f8'", "<f2, <f4, <i4, |i1, |u1, <i2, <u2");
  RKNNOP_EXPECT_ERROR(parse_npy(npy_image("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", data), "be.npy"),
                      "be.npy: unsupported .npy dtype '>f4'");
}

TEST(Npy, FortranOrderIsRejected) {
  RKNNOP_EXPECT_ERROR(
      parse_npy(npy_image("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 1), }", float_bytes({1, 2})), "f.npy"),
      "f.npy: Fortran-order .npy arrays are not supported", "np.ascontiguousarray");
}

TEST(Npy, DataSizeMustMatchShape) {
  RKNNOP_EXPECT_ERROR(
      parse_npy(npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3), }", float_bytes({1, 2})),
                "short.npy"),
      "short.npy: truncated .npy data: shape (1, 3) of <f4 needs 12 bytes at offset 128, file has 8");
  RKNNOP_EXPECT_ERROR(
      parse_npy(npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", float_bytes({1, 2})),
                "long.npy"),
      "long.npy: 4 trailing bytes after the .npy data");
  RKNNOP_EXPECT_ERROR(parse_npy(npy_image("{'descr': '<f4', 'fortran_order': False, 'shape': (4000000000, 4000000000, "
                                          "4000000000), }",
                                          {}),
                                "huge.npy"),
                      "huge.npy: bad .npy shape", "overflows");
}

}  // namespace
