// SPDX-License-Identifier: MIT
// Field names: rknnop's fallback, and agreement with boost::pfr::get_name where PFR has it.
#include <rknnop/detail/reflect.hpp>
#include <rknnop/tensor.hpp>

#include <boost/version.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstdint>

namespace {

struct many_kinds {
  rknnop::tensor<float> images;
  std::array<std::int32_t, 2> size;
  bool align_corners;
  rknnop::int_array<4> pads;
  double _under_score9;
};

namespace nested {
template <class T>
struct templated {
  T alpha;
  int beta;
};
}  // namespace nested

static_assert(rknnop::detail::names::fallback_name<many_kinds, 0> == "images");
static_assert(rknnop::detail::names::fallback_name<many_kinds, 1> == "size");
static_assert(rknnop::detail::names::fallback_name<many_kinds, 2> == "align_corners");
static_assert(rknnop::detail::names::fallback_name<many_kinds, 3> == "pads");
static_assert(rknnop::detail::names::fallback_name<many_kinds, 4> == "_under_score9");
static_assert(rknnop::detail::names::fallback_name<nested::templated<float>, 1> == "beta");

// A type's own name, as an op without `name` gets it: namespaces (anonymous ones included) and
// enclosing functions left out; a template's arguments kept (check_op refuses that as an op name).
static_assert(rknnop::detail::type_name<many_kinds> == "many_kinds");
static_assert(rknnop::detail::type_name<nested::templated<float>> == "templated<float>");
static_assert(rknnop::detail::type_name<rknnop::float16> == "float16");
constexpr std::string_view local_type_name() {
  struct LocalOp {};
  return rknnop::detail::type_name<LocalOp>;
}
static_assert(local_type_name() == "LocalOp");

struct twenty_four {
  int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, last;
};
static_assert(rknnop::detail::names::fallback_name<twenty_four, 23> == "last");

TEST(Reflect, FallbackNamesAtRunTime) {
  EXPECT_EQ((rknnop::detail::field_name<many_kinds, 2>), "align_corners");
  EXPECT_EQ(rknnop::detail::field_count<many_kinds>, 5u);
}

TEST(Reflect, FallbackAgreesWithPfrGetName) {
#if RKNNOP_DETAIL_PFR_HAS_NAMES
  rknnop::detail::for_each_field_index<many_kinds>([](auto i) {
    const std::string_view ours = rknnop::detail::names::fallback_name<many_kinds, i>;
    const std::string_view pfr = boost::pfr::get_name<i, many_kinds>();
    EXPECT_EQ(ours, pfr);
  });
#else
  GTEST_SKIP() << "the installed Boost.PFR ("
               << "Boost " << BOOST_VERSION / 100000 << "." << BOOST_VERSION / 100 % 1000
               << ") has no get_name (Boost >= 1.84); only rknnop's fallback is available here";
#endif
}

}  // namespace

// A tensor view's dims() is a span of its rank; set_dims takes it, and the older spelling
// set_dims(x.dims(), x.rank()) (from when dims() was a pointer) still compiles and agrees.
namespace {
constexpr bool dims_as_span() {
  rknnop::tensor<float> a, b, c;
  a.set_dims({3, 2});
  b.set_dims(a.dims());
  c.set_dims(a.dims(), a.rank());
  return a.dims().size() == 2 && b.rank() == 2 && b.dim(0) == 3 && b.dim(1) == 2 && c.rank() == 2 && c.dim(0) == 3 &&
         c.dim(1) == 2;
}
static_assert(dims_as_span());
}  // namespace
