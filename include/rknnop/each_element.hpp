// SPDX-License-Identifier: MIT
#pragma once

// An element-wise CPU kernel, written as the function of one element:
//
//   static constexpr auto cpu = rknnop::each_element([](float x) { return std::exp(x); });
//   static constexpr auto cpu = rknnop::each_element([](float a, float b, const params& p) { return a * p.gain + b; });
//
// out[i] = f(in0[i], in1[i], ..., params) for every element i of the op's one output: f takes each
// input's element_type in the order of `inputs` (and, optionally last, the op's params) and returns
// the output's element_type. Every input has the output's number of elements (shape inference gives
// the output's dims; the kernel fails naming the field otherwise). f must not throw (it runs on the
// pool's threads, as parallel_for's function).
//
// What the SDK gains from knowing the access pattern: where the backend copies tensors on the pool
// (the PC's RKNN v1 library), the node is one pass: each range copies its inputs' slabs in, converts,
// applies f and converts the results back, while they are in the cache, then the output goes out in
// one copy; no output buffer to fill and scan (every element is written by the SDK), every other
// check kept (a lossy conversion of the output fails the node and leaves the tensor as it was).
// Elsewhere it is an ordinary kernel over the whole tensors, split by parallel_for: same bits.

#include <rknnop/config.hpp>
#include <rknnop/detail/reflect.hpp>  // field, field_count, field_name
#include <rknnop/parallel.hpp>
#include <rknnop/status.hpp>

#include <cstddef>      // std::size_t
#include <type_traits>  // std::is_invocable_v
#include <utility>      // std::index_sequence, std::declval

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop {

template <class F>
struct each_element_kernel {
  F f;

  // The kernel the backends without element ranges run (and a test calls): sizes checked, then
  // parallel_for over the elements.
  template <class Inputs, class Outputs, class Params>
  status operator()(const Inputs& in, Outputs& out, const Params& par) const noexcept {
    check_shape<Inputs, Outputs, Params>();
    if (status s = sizes(in, out); !s.ok()) return s;
    auto& y = detail::field<0>(out);
    auto* const o = y.data();
    parallel_for(y.size(), grain, [&](std::size_t a, std::size_t b) noexcept {
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        for (std::size_t i = a; i < b; ++i) o[i] = element(par, detail::field<I>(in).data()[i]...);
      }(std::make_index_sequence<detail::field_count<Inputs>>{});
    });
    return ok;
  }

  // One element: f(x..., par), or f(x...) when f takes no params.
  template <class Params, class... X>
  [[gnu::always_inline]] auto element(const Params& par, const X&... x) const noexcept {
    if constexpr (std::is_invocable_v<const F&, const X&..., const Params&>)
      return f(x..., par);
    else if constexpr (std::is_invocable_v<const F&, const X&...>)
      return f(x...);
    else
      static_assert(sizeof...(X) == ~std::size_t{0},  // (false, dependent on X)
                    "rknnop: each_element's function takes each input's element_type, in the order of `inputs` "
                    "(and optionally `const params&` last)");
  }

  // Whether every input has the output's element count; else the line naming the first that has not.
  template <class Inputs, class Outputs>
  static status sizes(const Inputs& in, const Outputs& out) noexcept {
    const std::size_t n = detail::field<0>(out).size();
    status s = ok;
    detail::for_each_field_index<Inputs>([&](auto i) {
      const std::size_t m = detail::field<i>(in).size();
      if (s.ok() && m != n)
        s = error(
            "each_element: input '{}' has {} elements, output '{}' has {} (every input needs the output's "
            "element count; `infer` gives the output's dims)",
            detail::field_name<Inputs, i>, m, detail::field_name<Outputs, 0>, n);
    });
    return s;
  }

  // The shape of an element-wise op, checked where the kernel is instantiated.
  template <class Inputs, class Outputs, class Params>
  static constexpr void check_shape() noexcept {
    static_assert(detail::field_count<Outputs> == 1, "rknnop: each_element writes one output: `outputs` has one field");
    static_assert(detail::field_count<Inputs> >= 1, "rknnop: each_element reads at least one input");
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      using out_type = typename std::remove_cvref_t<decltype(detail::field<0>(std::declval<Outputs&>()))>::element_type;
      // (element() says it when f takes other arguments)
      using result = decltype(std::declval<const each_element_kernel&>().element(
          std::declval<const Params&>(), std::declval<const typename std::remove_cvref_t<decltype(detail::field<I>(
                                             std::declval<const Inputs&>()))>::element_type&>()...));
      static_assert(std::is_convertible_v<result, out_type>,
                    "rknnop: each_element's function returns the output's element_type");
    }(std::make_index_sequence<detail::field_count<Inputs>>{});
  }

  // Elements per range of parallel_for (each on its own: the same bits for any thread count).
  static constexpr std::size_t grain = 16384;
};

// The kernel applying f to every element (see above).
template <class F>
constexpr each_element_kernel<F> each_element(F f) noexcept {
  return {f};
}

}  // namespace rknnop

RKNNOP_DETAIL_END_HIDDEN
