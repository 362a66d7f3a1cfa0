// SPDX-License-Identifier: MIT
#pragma once

#include <rknnop/types.hpp>

#include <cstddef>           // std::size_t
#include <cstdint>           // std::uint32_t
#include <initializer_list>  // set_dims({...})
#include <span>              // dims()
#include <type_traits>       // spec parsing

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop {
// Layout tags: which logical axis each OpenVX dim is. OpenVX reports dims innermost first, so an
// NHWC tensor (TensorFlow's layout, what the toolkit's models deliver) has dims [C, W, H, N].
namespace layout {
struct RKNNOP_DETAIL_USER_TYPE any {};
struct RKNNOP_DETAIL_USER_TYPE nhwc {};
struct RKNNOP_DETAIL_USER_TYPE nchw {};
}  // namespace layout

namespace detail {
template <class T>
concept layout_tag =
    std::is_same_v<T, layout::any> || std::is_same_v<T, layout::nhwc> || std::is_same_v<T, layout::nchw>;

template <class... Ts>
struct first_unsupported_element {
  using type = void;
};
template <class T, class... Ts>
struct first_unsupported_element<T, Ts...> {
  using type = std::conditional_t<tensor_element<T>, typename first_unsupported_element<Ts...>::type, T>;
};

template <class First, class... Rest>
struct element_list {
  using first = First;
  using unsupported = typename first_unsupported_element<First, Rest...>::type;  // void: all supported
  template <template <class...> class X>
  using apply = X<First, First, Rest...>;  // X<kernel type, accepted types...>
  static constexpr std::int32_t accepted[] = {element_dtype<First>::value, element_dtype<Rest>::value...};
};

template <class... Spec>
struct tensor_spec {  // element types only
  using layout_type = layout::any;
  using elements = element_list<Spec...>;
};
template <layout_tag Layout, class... Elements>
struct tensor_spec<Layout, Elements...> {
  static_assert(sizeof...(Elements) > 0,
                "rknnop: tensor<layout, ...> needs at least one element type after the layout");
  using layout_type = Layout;
  using elements = element_list<Elements...>;
};
}  // namespace detail

// A tensor field of an op's `inputs` or `outputs`, and the view the kernel receives.
//
//   rknnop::tensor<rknnop::layout::nhwc, float, rknnop::float16> images;
//
// The optional layout tag comes first, then the element types the op accepts. The first element
// type is the one the kernel sees: data arriving in another accepted type is converted at the
// boundary (exactly), and outputs are converted back to the type of the runtime's tensor.
template <class... Spec>
class RKNNOP_DETAIL_USER_TYPE tensor {
  static_assert(sizeof...(Spec) > 0, "rknnop: tensor<> needs at least one element type, e.g. tensor<float16>");

public:
  using layout_type = typename detail::tensor_spec<Spec...>::layout_type;
  using element_type = typename detail::tensor_spec<Spec...>::elements::first;
  static constexpr auto& accepted_dtypes = detail::tensor_spec<Spec...>::elements::accepted;
  template <template <class...> class X>
  using apply_elements = typename detail::tensor_spec<Spec...>::elements::template apply<X>;
  static constexpr std::uint32_t required_rank = std::is_same_v<layout_type, layout::any> ? 0u : 4u;

  RKNNOP_DETAIL_HIDDEN constexpr tensor() noexcept = default;

  // Shape: dims innermost first, exactly as OpenVX reports them.
  RKNNOP_DETAIL_HIDDEN constexpr std::uint32_t rank() const noexcept { return rank_; }
  // (A rank above 6 that shape inference set, which the validator refuses, shows its first 6 dims.)
  RKNNOP_DETAIL_HIDDEN constexpr std::span<const std::uint32_t> dims() const noexcept {
    return {dims_, rank_ <= detail::max_tensor_rank ? rank_ : detail::max_tensor_rank};
  }
  RKNNOP_DETAIL_HIDDEN constexpr std::uint32_t dim(std::uint32_t i) const noexcept { return i < rank_ ? dims_[i] : 1u; }
  RKNNOP_DETAIL_HIDDEN constexpr std::size_t size() const noexcept {
    std::size_t n = rank_ ? 1 : 0;
    for (std::uint32_t i = 0; i < rank_; ++i) n *= dims_[i];
    return n;
  }
  // The dtype of the runtime's tensor (the kernel sees element_type whatever this is).
  RKNNOP_DETAIL_HIDDEN constexpr rknnop::dtype dtype() const noexcept { return static_cast<rknnop::dtype>(dtype_); }

  // Named axes for layout-tagged tensors.
  RKNNOP_DETAIL_HIDDEN constexpr std::uint32_t n() const noexcept
    requires(!std::is_same_v<layout_type, layout::any>)
  {
    return dim(3);
  }
  RKNNOP_DETAIL_HIDDEN constexpr std::uint32_t c() const noexcept
    requires(!std::is_same_v<layout_type, layout::any>)
  {
    return dim(std::is_same_v<layout_type, layout::nhwc> ? 0 : 2);
  }
  RKNNOP_DETAIL_HIDDEN constexpr std::uint32_t h() const noexcept
    requires(!std::is_same_v<layout_type, layout::any>)
  {
    return dim(std::is_same_v<layout_type, layout::nhwc> ? 2 : 1);
  }
  RKNNOP_DETAIL_HIDDEN constexpr std::uint32_t w() const noexcept
    requires(!std::is_same_v<layout_type, layout::any>)
  {
    return dim(std::is_same_v<layout_type, layout::nhwc> ? 1 : 0);
  }

  // Element access: flat index, or logical (n, h, w, c) for NHWC / (n, c, h, w) for NCHW.
  RKNNOP_DETAIL_HIDDEN element_type* data() noexcept { return data_; }
  RKNNOP_DETAIL_HIDDEN const element_type* data() const noexcept { return data_; }
  RKNNOP_DETAIL_HIDDEN element_type& operator[](std::size_t i) noexcept { return data_[i]; }
  RKNNOP_DETAIL_HIDDEN const element_type& operator[](std::size_t i) const noexcept { return data_[i]; }
  RKNNOP_DETAIL_HIDDEN element_type& operator()(std::size_t a, std::size_t b, std::size_t c, std::size_t d) noexcept
    requires(!std::is_same_v<layout_type, layout::any>)
  {
    return data_[offset(a, b, c, d)];
  }
  RKNNOP_DETAIL_HIDDEN const element_type& operator()(std::size_t a, std::size_t b, std::size_t c,
                                                      std::size_t d) const noexcept
    requires(!std::is_same_v<layout_type, layout::any>)
  {
    return data_[offset(a, b, c, d)];
  }

  // Shape inference: set an output's dims (innermost first) and, optionally, its dtype.
  RKNNOP_DETAIL_HIDDEN constexpr void set_dims(std::initializer_list<std::uint32_t> dims) noexcept {
    rank_ = 0;
    for (std::uint32_t d : dims)
      if (rank_ < detail::max_tensor_rank)
        dims_[rank_++] = d;
      else
        rank_ = detail::max_tensor_rank + 1;  // remembered as "too many", reported by the validator
  }
  RKNNOP_DETAIL_HIDDEN constexpr void set_dims(std::span<const std::uint32_t> dims) noexcept {
    set_dims(dims.data(), static_cast<std::uint32_t>(dims.size() < 0xFFFFFFFFu ? dims.size() : 0xFFFFFFFFu));
  }
  // set_dims(in.x.dims(), in.x.rank()): the spelling from when dims() returned a pointer.
  RKNNOP_DETAIL_HIDDEN constexpr void set_dims(std::span<const std::uint32_t> dims, std::uint32_t rank) noexcept {
    set_dims(dims.data(), rank < dims.size() ? rank : static_cast<std::uint32_t>(dims.size()));
  }
  RKNNOP_DETAIL_HIDDEN constexpr void set_dims(const std::uint32_t* dims, std::uint32_t rank) noexcept {
    rank_ = rank <= detail::max_tensor_rank ? rank : detail::max_tensor_rank + 1;
    for (std::uint32_t i = 0; i < rank && i < detail::max_tensor_rank; ++i) dims_[i] = dims[i];
  }
  // Logical order for layout-tagged tensors: set_shape(n, h, w, c) for NHWC, (n, c, h, w) for NCHW.
  RKNNOP_DETAIL_HIDDEN constexpr void set_shape(std::uint32_t a, std::uint32_t b, std::uint32_t c,
                                                std::uint32_t d) noexcept
    requires(!std::is_same_v<layout_type, layout::any>)
  {
    set_dims({d, c, b, a});
  }
  RKNNOP_DETAIL_HIDDEN constexpr void set_dtype(rknnop::dtype type) noexcept {
    dtype_ = static_cast<std::int32_t>(type);
  }

  // Used by the generated callbacks.
  RKNNOP_DETAIL_HIDDEN void bind(element_type* data, const std::uint32_t* dims, std::uint32_t rank,
                                 std::int32_t type) noexcept {
    data_ = data;
    set_dims(dims, rank);
    dtype_ = type;
  }
  // The same from a whole dims array (a tensor_info's): every entry copied, a fixed 24 bytes where
  // set_dims loops over the rank (entries past the rank are never read).
  RKNNOP_DETAIL_HIDDEN void bind_all(element_type* data, const std::uint32_t (&dims)[detail::max_tensor_rank],
                                     std::uint32_t rank, std::int32_t type) noexcept {
    data_ = data;
    rank_ = rank <= detail::max_tensor_rank ? rank : detail::max_tensor_rank + 1;
    for (std::uint32_t i = 0; i < detail::max_tensor_rank; ++i) dims_[i] = dims[i];
    dtype_ = type;
  }

private:
  RKNNOP_DETAIL_HIDDEN std::size_t offset(std::size_t a, std::size_t b, std::size_t c, std::size_t d) const noexcept {
    // dims_[0] is innermost: logical (a, b, c, d) = (outer .. inner).
    return ((a * dims_[2] + b) * dims_[1] + c) * dims_[0] + d;
  }

  element_type* data_ = nullptr;
  std::uint32_t dims_[detail::max_tensor_rank] = {};
  std::uint32_t rank_ = 0;
  std::int32_t dtype_ = vx_type::invalid;
};

namespace detail {
template <class T>
struct is_tensor : std::false_type {};
template <class... Spec>
struct is_tensor<tensor<Spec...>> : std::true_type {};
template <class T>
concept tensor_field = is_tensor<T>::value;

// The first element type of a tensor field that is not a tensor element type; void if none.
template <class T>
struct unsupported_element {
  using type = void;
};
template <class... Spec>
struct unsupported_element<tensor<Spec...>> {
  using type = typename tensor_spec<Spec...>::elements::unsupported;
};
}  // namespace detail

// Work sizes of an op's VX (shader) kernel, set by its `vx` function. Mirrors
// vx_kernel_execution_parameters_t: get_global_id(d) runs from offset[d] in steps of scale[d],
// global[d] work-items per dimension, grouped by local[d] (0 lets the driver choose).
struct work_size {
  std::uint32_t dims = 0;
  std::size_t offset[3] = {0, 0, 0};
  std::size_t scale[3] = {1, 1, 1};
  std::size_t local[3] = {0, 0, 0};
  std::size_t global[3] = {0, 0, 0};

  // One work-item per `step` elements along each of up to three axes.
  static constexpr work_size grid(std::size_t x, std::size_t y = 0, std::size_t z = 0,
                                  std::size_t step_x = 1) noexcept {
    work_size ws;
    ws.dims = z ? 3 : (y ? 2 : 1);
    ws.scale[0] = step_x;
    ws.global[0] = step_x ? (x + step_x - 1) / step_x : 0;
    ws.global[1] = y;
    ws.global[2] = z;
    return ws;
  }
};

}  // namespace rknnop

RKNNOP_DETAIL_END_HIDDEN
