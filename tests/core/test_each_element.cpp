// SPDX-License-Identifier: MIT
// rknnop::each_element: the kernel of an element-wise op written as the function of one element.
// Its own operator() (every backend's kernel) against values the test computes itself, the field
// line for inputs of another size, and the PC's one-pass node (detail::run_each_element) against the
// same: bit for bit on float16 and float32 tensors for several thread counts, the precision rule's
// line with the tensor left as it was, and the shapes that take the ordinary pipeline instead.
#include "exp/exp.cpp"  // the example: e^x through rknnop::each_element

#include <rknnop/each_element.hpp>
#include <rknnop/op.hpp>

#include "vx_harness.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

// Two inputs and a param; the output's dims are its own `shape` when given (to try other shapes).
struct EachAxpy {
  using values = rknnop::tensor<float, rknnop::float16>;
  struct inputs {
    values a;
    values b;
  };
  struct outputs {
    values y;
  };
  struct params {
    float alpha;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) { out.y.set_dims(in.a.dims()); };
  static constexpr auto cpu = rknnop::each_element([](float a, float b, const params& p) { return a * p.alpha + b; });
};
RKNNOP_EXPORT_OP(EachAxpy);

// float16 in and out, the kernel sees float16: the identity, no conversion on either side.
struct EachCopy16 {
  struct inputs {
    rknnop::tensor<rknnop::float16> x;
  };
  struct outputs {
    rknnop::tensor<rknnop::float16> y;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, rknnop::no_params) {
    out.y.set_dims(in.x.dims());
    out.y.set_dtype(in.x.dtype());
  };
  static constexpr auto cpu = rknnop::each_element([](rknnop::float16 x) { return x; });
};
RKNNOP_EXPORT_OP(EachCopy16);

namespace {

using pool = rknnop::detail::thread_pool;

struct threads_set {
  explicit threads_set(unsigned n) { pool::set_threads(n); }
  threads_set(const threads_set&) = delete;
  threads_set& operator=(const threads_set&) = delete;
  ~threads_set() { pool::set_threads(0); }
};

std::vector<float> values(std::size_t n, unsigned seed, float lo, float hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

std::size_t count(const std::vector<std::uint32_t>& dims) {
  std::size_t n = 1;
  for (const std::uint32_t d : dims) n *= d;
  return n;
}

std::size_t passes() { return __atomic_load_n(&rknnop::detail::each_element_passes, __ATOMIC_RELAXED); }

// Whether this build's RKNN v1 library takes the one pass for a tensor of n elements: the PC's (copies
// on the pool's threads), for a tensor that splits; a board's build (the cross tests) never does.
bool one_pass_for(std::size_t n) { return rknnop::detail::copies_on_the_pool && n >= 2 * 32768; }

// Runs Exp on `x` in tensors of `dims` (input and output dtypes given), returns the output's
// values as floats, and whether the one pass ran; the node's status in *status.
std::vector<float> run_exp(const std::vector<std::uint32_t>& dims, vx_enum in_type, vx_enum out_type,
                           const std::vector<float>& x, vx_status* status, bool* one_pass, std::string* log = nullptr) {
  rknnop::test::harness h(vx_kernel_Exp_list.entries[0]);
  vx_tensor in = in_type == VX_TYPE_FLOAT16
                     ? h.tensor<rknnop::float16>(dims, in_type, std::vector<rknnop::float16>(x.begin(), x.end()))
                     : h.tensor<float>(dims, in_type, x);
  // The output starts as a pattern (7.0): a refused node must leave it so.
  vx_tensor out =
      out_type == VX_TYPE_FLOAT16
          ? h.tensor<rknnop::float16>(dims, out_type, std::vector<rknnop::float16>(x.size(), rknnop::float16(7.f)))
          : h.tensor<float>(dims, out_type, std::vector<float>(x.size(), 7.f));
  const std::size_t before = passes();
  *status = h.run({rknnop::test::ref(in), rknnop::test::ref(out)});
  *one_pass = passes() != before;
  if (log) *log = h.last_log();
  std::vector<float> got;
  if (out_type == VX_TYPE_FLOAT16)
    for (const rknnop::float16 v : rknnop::test::harness::read<rknnop::float16>(out)) got.push_back(float(v));
  else
    got = rknnop::test::harness::read<float>(out);
  return got;
}

// What the node must give: e^x of the value the kernel sees (x as the input tensor holds it), in the
// output tensor's dtype.
std::vector<float> expected_exp(const std::vector<float>& x, vx_enum in_type, vx_enum out_type) {
  std::vector<float> y;
  for (const float v : x) {
    const float seen = in_type == VX_TYPE_FLOAT16 ? float(rknnop::float16(v)) : v;
    const float e = std::exp(seen);
    y.push_back(out_type == VX_TYPE_FLOAT16 ? float(rknnop::float16(e)) : e);
  }
  return y;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

TEST(EachElement, TheKernelIsTheFunctionOnEveryElement) {
  for (const std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(2 * 16384 + 5)}) {
    const auto a = values(n, unsigned(n), -8.f, 8.f), b = values(n, unsigned(n) + 1, -8.f, 8.f);
    for (const unsigned threads : {1u, 2u, 3u}) {
      const threads_set set(threads);
      std::vector<float> y(n, 0.f);
      const std::uint32_t dims[1] = {std::uint32_t(n)};
      EachAxpy::inputs in;
      EachAxpy::outputs out;
      in.a.bind(const_cast<float*>(a.data()), dims, 1, VX_TYPE_FLOAT32);
      in.b.bind(const_cast<float*>(b.data()), dims, 1, VX_TYPE_FLOAT32);
      out.y.bind(y.data(), dims, 1, VX_TYPE_FLOAT32);
      const EachAxpy::params p{-1.5f};
      ASSERT_TRUE(EachAxpy::cpu(in, out, p).ok());
      for (std::size_t i = 0; i < n; ++i) {
        const float want = a[i] * -1.5f + b[i];
        ASSERT_EQ(std::memcmp(&y[i], &want, sizeof want), 0) << "element " << i << " of " << n << ", " << threads;
      }
    }
  }
}

TEST(EachElement, AnInputOfAnotherSizeIsNamed) {
  std::vector<float> a(6, 1.f), b(4, 1.f), y(4, 0.f);
  const std::uint32_t six[1] = {6}, four[1] = {4};
  EachAxpy::inputs in;
  EachAxpy::outputs out;
  in.a.bind(a.data(), four, 1, VX_TYPE_FLOAT32);
  in.b.bind(b.data(), six, 1, VX_TYPE_FLOAT32);
  out.y.bind(y.data(), four, 1, VX_TYPE_FLOAT32);
  const rknnop::status s = EachAxpy::cpu(in, out, EachAxpy::params{1.f});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(std::string(s.message()),
            "each_element: input 'b' has 6 elements, output 'y' has 4 (every input needs the output's element "
            "count; `infer` gives the output's dims)");
}

// Tensors large enough to split take the one pass, small ones the ordinary pipeline: the same values,
// e^x as the test computes it, bit for bit, whatever the dtypes and the thread count.
TEST(EachElement, TheNodeIsTheFunctionOnEveryElementOnBothPaths) {
  const std::vector<std::vector<std::uint32_t>> shapes = {{3, 640, 480, 1}, {70001}, {5, 7, 3}, {3, 301, 257}, {2, 3}};
  for (const auto& dims : shapes)
    for (const vx_enum in_type : {VX_TYPE_FLOAT16, VX_TYPE_FLOAT32})
      for (const vx_enum out_type : {VX_TYPE_FLOAT16, VX_TYPE_FLOAT32})
        for (const unsigned threads : {1u, 2u, 3u}) {
          const threads_set set(threads);
          const std::size_t n = count(dims);
          const auto x = values(n, unsigned(n) + threads, -9.f, 9.f);  // e^9 = 8103: no float16 overflow
          vx_status status = VX_FAILURE;
          bool one_pass = false;
          const auto got = run_exp(dims, in_type, out_type, x, &status, &one_pass);
          ASSERT_EQ(status, VX_SUCCESS) << n;
          EXPECT_EQ(one_pass, one_pass_for(n)) << n << " elements";
          EXPECT_TRUE(same_bits(got, expected_exp(x, in_type, out_type)))
              << n << " elements, " << threads << " threads, in " << in_type << ", out " << out_type;
        }
}

// The precision rule (RKNNOP_GUARD_BUFFERS builds: the PC's): e^12 = 162754.8 overflows float16. Both
// paths refuse the node with the same line, naming the first such element, and leave the tensor as
// it was. A board's build converts without the rule (docs/architecture.md §1): the node gives inf there.
TEST(EachElement, ALossyOutputFailsTheNodeOnBothPathsAndLeavesTheTensor) {
  for (const std::vector<std::uint32_t>& dims : {std::vector<std::uint32_t>{3, 640, 480}, {5, 7}}) {
    const std::size_t n = count(dims), at = n / 2 + 1;
    auto x = values(n, 5, -4.f, 4.f);
    x[at] = 12.f;
    x[n - 1] = 12.f;  // a later one: the line names the first
    for (const unsigned threads : {1u, 2u}) {
      const threads_set set(threads);
      vx_status status = VX_SUCCESS;
      bool one_pass = false;
      std::string log;
      const auto got = run_exp(dims, VX_TYPE_FLOAT32, VX_TYPE_FLOAT16, x, &status, &one_pass, &log);
      EXPECT_EQ(one_pass, one_pass_for(n));
      if constexpr (!rknnop::detail::check_every_element) {
        ASSERT_EQ(status, VX_SUCCESS) << log;
        EXPECT_TRUE(same_bits(got, expected_exp(x, VX_TYPE_FLOAT32, VX_TYPE_FLOAT16)));
        EXPECT_TRUE(std::isinf(got[at]) && std::isinf(got[n - 1]));
        continue;
      }
      EXPECT_NE(status, VX_SUCCESS);
      EXPECT_NE(log.find("rknnop: Exp: output 'y': element " + std::to_string(at) + " (index ["), std::string::npos)
          << log;
      EXPECT_NE(log.find("]) = 162755 becomes inf (overflow)"), std::string::npos) << log;
      EXPECT_NE(log.find("becomes inf (overflow) (VX_TYPE_FLOAT32 to VX_TYPE_FLOAT16)"), std::string::npos) << log;
      EXPECT_TRUE(same_bits(got, std::vector<float>(n, 7.f))) << "the output tensor was written";
    }
  }
}

// Inputs whose dims differ from the output's (the same count) take the ordinary pipeline, and so
// does an input of another count, which fails with the kernel's line.
TEST(EachElement, OtherShapesTakeTheOrdinaryPipeline) {
  struct {
    std::vector<std::uint32_t> a, b;
    bool fine;
  } const cases[] = {{{600, 200}, {120000}, true}, {{600, 200}, {600, 201}, false}};
  for (const auto& c : cases) {
    const threads_set set(2);
    rknnop::test::harness h(vx_kernel_EachAxpy_list.entries[0]);
    const auto a = values(count(c.a), 1, -2.f, 2.f), b = values(count(c.b), 2, -2.f, 2.f);
    vx_tensor ta = h.tensor<float>(c.a, VX_TYPE_FLOAT32, a), tb = h.tensor<float>(c.b, VX_TYPE_FLOAT32, b);
    vx_tensor ty = h.tensor<float>(c.a, VX_TYPE_FLOAT32);
    const float alpha = 0.5f;
    const std::size_t before = passes();
    const vx_status status = h.run({rknnop::test::ref(ta), rknnop::test::ref(tb), rknnop::test::ref(ty),
                                    rknnop::test::ref(h.scalar(VX_TYPE_FLOAT32, &alpha))});
    EXPECT_EQ(passes(), before);
    if (!c.fine) {
      EXPECT_NE(status, VX_SUCCESS);
      EXPECT_NE(h.last_log().find("each_element: input 'b' has 120600 elements, output 'y' has 120000"),
                std::string::npos)
          << h.last_log();
      continue;
    }
    ASSERT_EQ(status, VX_SUCCESS) << h.last_log();
    const auto got = rknnop::test::harness::read<float>(ty);
    std::vector<float> want(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) want[i] = a[i] * alpha + b[i];
    EXPECT_TRUE(same_bits(got, want));
  }
}

// Two inputs and a param on the one pass; float16 in and out with no conversion (the identity).
TEST(EachElement, TwoInputsAParamAndNoConversionOnTheOnePass) {
  const std::vector<std::uint32_t> dims = {3, 640, 480};
  const std::size_t n = count(dims);
  for (const unsigned threads : {1u, 2u}) {
    const threads_set set(threads);
    {
      rknnop::test::harness h(vx_kernel_EachAxpy_list.entries[0]);
      const auto a = values(n, 3, -2.f, 2.f), b = values(n, 4, -2.f, 2.f);
      vx_tensor ta = h.tensor<rknnop::float16>(dims, VX_TYPE_FLOAT16, std::vector<rknnop::float16>(a.begin(), a.end()));
      vx_tensor tb = h.tensor<float>(dims, VX_TYPE_FLOAT32, b);
      vx_tensor ty = h.tensor<float>(dims, VX_TYPE_FLOAT32);
      const float alpha = -3.25f;
      const std::size_t before = passes();
      ASSERT_EQ(h.run({rknnop::test::ref(ta), rknnop::test::ref(tb), rknnop::test::ref(ty),
                       rknnop::test::ref(h.scalar(VX_TYPE_FLOAT32, &alpha))}),
                VX_SUCCESS)
          << h.last_log();
      EXPECT_EQ(passes(), before + (one_pass_for(n) ? 1 : 0));
      std::vector<float> want(n);
      for (std::size_t i = 0; i < n; ++i) want[i] = float(rknnop::float16(a[i])) * alpha + b[i];
      EXPECT_TRUE(same_bits(rknnop::test::harness::read<float>(ty), want));
    }
    {
      rknnop::test::harness h(vx_kernel_EachCopy16_list.entries[0]);
      std::vector<rknnop::float16> x(n);
      for (std::size_t i = 0; i < n; ++i) x[i] = rknnop::float16::from_bits(std::uint16_t(i * 2654435761u >> 16));
      vx_tensor tx = h.tensor<rknnop::float16>(dims, VX_TYPE_FLOAT16, x);
      vx_tensor ty = h.tensor<rknnop::float16>(dims, VX_TYPE_FLOAT16);
      const std::size_t before = passes();
      ASSERT_EQ(h.run({rknnop::test::ref(tx), rknnop::test::ref(ty)}), VX_SUCCESS) << h.last_log();
      EXPECT_EQ(passes(), before + (one_pass_for(n) ? 1 : 0));
      const auto got = rknnop::test::harness::read<rknnop::float16>(ty);
      ASSERT_EQ(got.size(), n);
      EXPECT_EQ(std::memcmp(got.data(), x.data(), n * 2), 0);  // every bit pattern, NaNs included
    }
  }
}
