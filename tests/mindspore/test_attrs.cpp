// SPDX-License-Identifier: MIT
// Params <-> MindSpore Lite Custom-node attrs without MindSpore: encode_attrs' names and
// little-endian bytes for every param kind, the round trip through the kernel side's decoder, and
// every decoding diagnostic (missing, wrong size, wrong count, missing or stale schema).
#include <rknnop/mindspore_attrs.hpp>
#include <rknnop/op.hpp>

// The example's struct without its OpenVX export (this program has no OpenVX runtime).
#undef RKNNOP_EXPORT_OP
#define RKNNOP_EXPORT_OP(Name) static_assert(true, "")
#include "resize_area/resize_area.cpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

struct AllKinds {
  static constexpr std::string_view name = "AllKinds";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {
    bool flag;
    char letter;
    std::int8_t small;
    rknnop::float16 half;
    std::int16_t i16;
    std::uint32_t u32;
    float f32;
    double f64;
    std::int64_t i64;
    std::array<std::int32_t, 3> fixed;
    rknnop::int_array<4> bounded;
  };
  static constexpr auto infer = [](const inputs&, outputs&, const params&) {};
  static constexpr auto cpu = [](const inputs&, outputs&, const params&) {};
};

struct NoParams {
  static constexpr std::string_view name = "NoParams";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  static constexpr auto infer = [](const inputs&, outputs&, const rknnop::no_params&) {};
  static constexpr auto cpu = [](const inputs&, outputs&, const rknnop::no_params&) {};
};

// The other version of AllKinds a stale model was converted for: one field renamed.
struct AllKindsOld {
  static constexpr std::string_view name = "AllKinds";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {
    bool flag_renamed;
  };
  static constexpr auto infer = [](const inputs&, outputs&, const params&) {};
  static constexpr auto cpu = [](const inputs&, outputs&, const params&) {};
};

using bytes = std::vector<std::uint8_t>;
namespace ms = rknnop::detail::mindspore;

AllKinds::params sample() {
  AllKinds::params p{};
  p.flag = true;
  p.letter = 'Q';
  p.small = -2;
  p.half = rknnop::float16(1.5f);  // 0x3E00
  p.i16 = -300;
  p.u32 = 0xA1B2C3D4u;
  p.f32 = 1.0f;  // 0x3F800000
  p.f64 = -2.0;  // 0xC000000000000000
  p.i64 = -5;
  p.fixed = {1, -1, 0x01020304};
  p.bounded.storage()[0] = 7;
  p.bounded.storage()[1] = 8;
  p.bounded.resize(2);
  return p;
}

// Decodes attrs as the kernel does; the one-line message on failure.
template <class Op>
std::string decode(const rknnop::mindspore::attr_map& attrs, typename rknnop::detail::op_model<Op>::params& p) {
  const auto lookup = [&](std::string_view name) {
    const auto it = attrs.find(std::string(name));
    if (it == attrs.end()) return ms::attr_bytes{};
    return ms::attr_bytes{it->second.data(), it->second.size(), true};
  };
  const rknnop::detail::outcome r = ms::decode_attrs<Op>(lookup, p);
  return r.ok() ? std::string() : std::string(r.message().message());
}

TEST(MindSporeAttrs, OneAttrPerParamFieldPlusTheSchema) {
  const auto attrs = rknnop::mindspore::encode_attrs<AllKinds>(sample());
  std::vector<std::string> names;
  for (const auto& [name, value] : attrs) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"bounded", "f32", "f64", "fixed", "flag", "half", "i16", "i64", "letter",
                                             "rknnop:schema", "small", "u32"}));
}

TEST(MindSporeAttrs, LittleEndianBytesOfEveryKind) {
  const auto a = rknnop::mindspore::encode_attrs<AllKinds>(sample());
  EXPECT_EQ(a.at("flag"), bytes({1}));
  EXPECT_EQ(a.at("letter"), bytes({'Q'}));
  EXPECT_EQ(a.at("small"), bytes({0xFE}));
  EXPECT_EQ(a.at("half"), bytes({0x00, 0x3E}));
  EXPECT_EQ(a.at("i16"), bytes({0xD4, 0xFE}));
  EXPECT_EQ(a.at("u32"), bytes({0xD4, 0xC3, 0xB2, 0xA1}));
  EXPECT_EQ(a.at("f32"), bytes({0x00, 0x00, 0x80, 0x3F}));
  EXPECT_EQ(a.at("f64"), bytes({0, 0, 0, 0, 0, 0, 0, 0xC0}));
  EXPECT_EQ(a.at("i64"), bytes({0xFB, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(a.at("fixed"), bytes({1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 4, 3, 2, 1}));
  EXPECT_EQ(a.at("bounded"), bytes({7, 0, 0, 0, 8, 0, 0, 0}));  // only the items it holds
  const std::uint64_t fp = rknnop::detail::op_model<AllKinds>::fingerprint;
  bytes schema;
  for (int i = 0; i < 8; ++i) schema.push_back(std::uint8_t(fp >> (8 * i)));
  EXPECT_EQ(a.at("rknnop:schema"), schema);
}

TEST(MindSporeAttrs, RoundTrip) {
  AllKinds::params p{};
  ASSERT_EQ(decode<AllKinds>(rknnop::mindspore::encode_attrs<AllKinds>(sample()), p), "");
  const AllKinds::params want = sample();
  EXPECT_EQ(p.flag, want.flag);
  EXPECT_EQ(p.letter, want.letter);
  EXPECT_EQ(p.small, want.small);
  EXPECT_EQ(p.half.bits(), want.half.bits());
  EXPECT_EQ(p.i16, want.i16);
  EXPECT_EQ(p.u32, want.u32);
  EXPECT_EQ(p.f32, want.f32);
  EXPECT_EQ(p.f64, want.f64);
  EXPECT_EQ(p.i64, want.i64);
  EXPECT_EQ(p.fixed, want.fixed);
  ASSERT_EQ(p.bounded.size(), 2u);
  EXPECT_EQ(p.bounded[0], 7);
  EXPECT_EQ(p.bounded[1], 8);
}

TEST(MindSporeAttrs, NoParamsIsOnlyTheSchema) {
  const auto a = rknnop::mindspore::encode_attrs<NoParams>();
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a.count("rknnop:schema"), 1u);
  rknnop::no_params p;
  EXPECT_EQ(decode<NoParams>(a, p), "");
}

struct error_case {
  const char* what;
  void (*edit)(rknnop::mindspore::attr_map&);
  const char* message;
};

TEST(MindSporeAttrs, EveryDecodingDiagnostic) {
  const error_case cases[] = {
      {"missing scalar", [](auto& a) { a.erase("f32"); },
       "param 'f32': the node has no attribute 'f32' and the param has no default (give the node the attribute, or "
       "the field a default member initializer)"},
      {"missing array", [](auto& a) { a.erase("fixed"); },
       "param 'fixed': the node has no attribute 'fixed' and the param has no default (give the node the attribute, "
       "or the field a default member initializer)"},
      {"a NaN float32 (as rknnop-run --param f32=nan)",
       [](auto& a) {
         a["f32"] = {0x00, 0x00, 0xC0, 0x7F};
       },
       "param 'f32': nan is not a finite number"},
      {"an infinite float64", [](auto& a) { a["f64"] = {0, 0, 0, 0, 0, 0, 0xF0, 0x7F}; },
       "param 'f64': inf is not a finite number"},
      {"bool byte 2", [](auto& a) { a["flag"] = {2}; }, "param 'flag': 2 is not a bool value, expected 0 or 1"},
      {"bool of 4 bytes (a vx_bool)",
       [](auto& a) {
         a["flag"] = {1, 0, 0, 0};
       },
       "param 'flag': attr 'flag' has 4 bytes, expected 1 (a little-endian bool)"},
      {"float16 of 4 bytes",
       [](auto& a) {
         a["half"] = {0, 0, 0x80, 0x3F};
       },
       "param 'half': attr 'half' has 4 bytes, expected 2 (a little-endian float16)"},
      {"float32 as ASCII text",
       [](auto& a) {
         a["f32"] = {'1', '.', '0'};
       },
       "param 'f32': attr 'f32' has 3 bytes, expected 4 (a little-endian float32)"},
      {"empty int64", [](auto& a) { a["i64"] = {}; },
       "param 'i64': attr 'i64' has 0 bytes, expected 8 (a little-endian int64)"},
      {"array of 7 bytes",
       [](auto& a) {
         a["fixed"].pop_back();
         a["fixed"].pop_back();
         a["fixed"].pop_back();
         a["fixed"].pop_back();
         a["fixed"].pop_back();
       },
       "param 'fixed': attr 'fixed' has 7 bytes, not a whole number of 4-byte int32 items"},
      {"exact array short", [](auto& a) { a["fixed"].resize(8); }, "param 'fixed': expected exactly 3 items, got 2"},
      {"exact array long", [](auto& a) { a["fixed"].resize(16); }, "param 'fixed': expected exactly 3 items, got 4"},
      {"bounded array too long", [](auto& a) { a["bounded"].resize(20); },
       "param 'bounded': expected at most 4 items, got 5"},
      {"no schema", [](auto& a) { a.erase("rknnop:schema"); },
       "the Custom node has no attr 'rknnop:schema' (write the node's attrs with rknnop::mindspore::encode_attrs)"},
      {"schema of 4 bytes", [](auto& a) { a["rknnop:schema"].resize(4); },
       "attr 'rknnop:schema' has 4 bytes, expected 8 (a little-endian uint64)"},
  };
  for (const error_case& c : cases) {
    auto attrs = rknnop::mindspore::encode_attrs<AllKinds>(sample());
    c.edit(attrs);
    AllKinds::params p{};
    EXPECT_EQ(decode<AllKinds>(attrs, p), c.message) << c.what;
  }
}

TEST(MindSporeAttrs, EmptyBoundedArrayIsValid) {
  AllKinds::params in = sample();
  in.bounded.resize(0);
  const auto attrs = rknnop::mindspore::encode_attrs<AllKinds>(in);
  EXPECT_TRUE(attrs.at("bounded").empty());
  AllKinds::params p{};
  p.bounded.resize(3);
  EXPECT_EQ(decode<AllKinds>(attrs, p), "");
  EXPECT_EQ(p.bounded.size(), 0u);
}

TEST(MindSporeAttrs, StaleModelIsRefusedWithBothFingerprints) {
  AllKindsOld::params old{};
  const auto attrs = rknnop::mindspore::encode_attrs<AllKindsOld>(old);
  AllKinds::params p{};
  const std::string message = decode<AllKinds>(attrs, p);
  EXPECT_NE(message.find("the model's attrs were written for a different op struct (model schema "), std::string::npos)
      << message;
  EXPECT_NE(message.find("convert the model again with this op's rknnop::mindspore::encode_attrs"), std::string::npos);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(rknnop::detail::op_model<AllKinds>::fingerprint));
  EXPECT_NE(message.find(std::string("library schema ") + hex), std::string::npos) << message;
}

// docs/mindspore.md §1's converter-side call, on its op.
TEST(MindSporeAttrs, ResizeAreaAsTheReadmeWritesIt) {
  const auto attrs = rknnop::mindspore::encode_attrs<ResizeArea>({.size = {32, 32}, .align_corners = false});
  ASSERT_EQ(attrs.size(), 3u);
  EXPECT_EQ(attrs.at("size"), bytes({32, 0, 0, 0, 32, 0, 0, 0}));
  EXPECT_EQ(attrs.at("align_corners"), bytes({0}));
  EXPECT_EQ(attrs.at("rknnop:schema").size(), 8u);
}

TEST(MindSporeAttrs, ExtraAttrsAreIgnored) {
  auto attrs = rknnop::mindspore::encode_attrs<AllKinds>(sample());
  attrs["something_else"] = {1, 2, 3};
  AllKinds::params p{};
  EXPECT_EQ(decode<AllKinds>(attrs, p), "");
}

}  // namespace

// The rules every backend that reads attributes shares (detail/invoke/attrs.hpp; RKNPU2's
// tests/rknpu2/test_plugin.cpp has the same cases): an absent attribute takes the struct's default,
// an empty list is a list (not an absent attribute), an enum takes only its names' values.
enum class pad { constant = 0, reflect = 3 };
template <>
struct rknnop::customize::enum_names<pad> {
  static constexpr rknnop::enum_name<pad> table[] = {{pad::constant, "CONSTANT"}, {pad::reflect, "REFLECT"}};
};
struct Defaults {
  static constexpr std::string_view name = "Defaults";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {
    float alpha = 0.5f;
    pad mode = pad::reflect;
    rknnop::int_array<4> axes{1, 2};
  };
  static constexpr auto infer = [](const inputs&, outputs&, const params&) {};
  static constexpr auto cpu = [](const inputs&, outputs&, const params&) {};
};

TEST(MindSporeAttrs, AbsentTakesTheDefaultEmptyIsAListEnumsTakeTheirNames) {
  auto attrs = rknnop::mindspore::encode_attrs<Defaults>();
  attrs.erase("alpha");
  attrs.erase("mode");
  attrs["axes"] = {};
  Defaults::params p{};
  p.alpha = 2.f;
  p.mode = pad::constant;
  ASSERT_EQ(decode<Defaults>(attrs, p), "");
  EXPECT_EQ(p.alpha, 2.f);  // the caller's value stays: an absent attribute leaves the param as it is
  EXPECT_EQ(p.mode, pad::constant);
  EXPECT_EQ(p.axes.size(), 0u);  // the empty list, not the default {1, 2}
  attrs = rknnop::mindspore::encode_attrs<Defaults>();
  attrs["mode"] = {1, 0, 0, 0};
  EXPECT_EQ(decode<Defaults>(attrs, p),
            "param 'mode': 1 is not the value of one of the enum's names (CONSTANT = 0, REFLECT = 3)");
}
