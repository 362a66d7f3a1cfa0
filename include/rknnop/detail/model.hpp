// SPDX-License-Identifier: MIT
#pragma once

// Layer 8 of detail/ (docs/architecture.md §1): the op model. What rknnop reads off an op struct at
// compile time: its checks (one gate per rule, in order, stopping at the first failure) and its
// description (names, kinds, VX types of every field).

#include <rknnop/detail/convert.hpp>
#include <rknnop/detail/field_desc.hpp>
#include <rknnop/detail/reflect.hpp>
#include <rknnop/status.hpp>
#include <rknnop/tensor.hpp>
#include <rknnop/types.hpp>

#include <array>        // field tables
#include <cstddef>      // std::size_t
#include <cstdint>      // INT32_MIN, INT32_MAX: enum values
#include <string_view>  // names
#include <type_traits>  // checks
#include <utility>      // std::cmp_less: enum values

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported
RKNNOP_DETAIL_BEGIN_GLUE    // see config.hpp: compiled for size

namespace rknnop::detail {
template <class...>
inline constexpr bool always_false_v = false;

// A string usable as a template argument, so that compile errors spell op and field names.
template <std::size_t N>
struct fixed_string {
  char chars[N + 1] = {};
  constexpr fixed_string(std::string_view s) noexcept {
    for (std::size_t i = 0; i < N; ++i) chars[i] = s[i];
  }
  constexpr std::string_view view() const noexcept { return {chars, N}; }
};

template <class Op>
struct params_of {
  using type = rknnop::no_params;
};
template <class Op>
  requires requires { typename Op::params; }
struct params_of<Op> {
  using type = typename Op::params;
};

// --- the gates ------------------------------------------------------------------------------
// `name` is optional: without it the op's name is the struct's (detail/reflect.hpp type_name).
template <class Op>
concept declares_name = requires { Op::name; };
template <class Op>
concept has_name = requires {
  { std::string_view(Op::name) };
};
// `rknpu2_type` is optional: the RKNPU2 op type (the ONNX node's op type, e.g. "cstDualResidual"),
// when it differs from the op's name; the v1 and MindSpore Lite names stay the op's name.
template <class Op>
concept declares_rknpu2_type = requires { Op::rknpu2_type; };
template <class Op>
concept has_rknpu2_type = requires {
  { std::string_view(Op::rknpu2_type) };
};
template <class Op>
concept has_io_structs = requires {
  typename Op::inputs;
  typename Op::outputs;
};
template <class T>
concept reflectable_aggregate = std::is_aggregate_v<T> && std::is_default_constructible_v<T>;

template <class Op>
concept has_cpu_kernel = requires { Op::cpu; };
template <class Op>
concept has_infer = requires { Op::infer; };
template <class Op>
concept has_vx_kernel = requires { Op::vx; };

// The op's functions return rknnop::status, or nothing (void) when they cannot fail.
template <class F, class... Args>
concept returns_status_or_void =
    std::is_invocable_v<F, Args...> && (std::is_same_v<std::invoke_result_t<F, Args...>, void> ||
                                        std::is_convertible_v<std::invoke_result_t<F, Args...>, status>);

template <class Op>
concept cpu_kernel_signature = returns_status_or_void<decltype((Op::cpu)), const typename Op::inputs&,
                                                      typename Op::outputs&, const typename params_of<Op>::type&>;
template <class Op>
concept infer_signature = returns_status_or_void<decltype((Op::infer)), const typename Op::inputs&,
                                                 typename Op::outputs&, const typename params_of<Op>::type&>;
template <class Op>
concept vx_signature =
    returns_status_or_void<decltype((Op::vx)), const typename Op::inputs&, const typename Op::outputs&,
                           const typename params_of<Op>::type&, work_size&>;

template <class T>
concept param_field = vx_scalar_type<T> || int32_array_type<T>;

// Undefined templates whose names are the message: the compiler prints them with the op, the
// field name and the type filled in.
template <class Op, fixed_string Field, class Type>
struct rknnop_error_input_or_output_field_must_be_rknnop_tensor;
template <class Op, fixed_string Field, class Type>
struct rknnop_error_param_type_has_no_vx_mapping;
template <class Op, fixed_string Field>
struct rknnop_error_duplicate_field_name;
template <class Op, fixed_string Field, class Element>
struct rknnop_error_tensor_element_type_not_supported;
template <class Op, fixed_string Field, class Enum>
struct rknnop_error_enum_param_has_no_rknnop_customize_enum_names;
template <class Op, fixed_string Field, class Enum>
struct rknnop_error_enum_names_table_is_invalid;
template <fixed_string MacroArgument, fixed_string OpName>
struct rknnop_error_export_op_argument_differs_from_op_name;

// An enum's name table is usable when it is non-empty, its names are distinct C identifiers and its
// values are distinct and fit int32 (the board's VX_TYPE_INT32 scalar).
template <class E>
consteval bool valid_enum_names() {
  constexpr auto& table = customize::enum_names<E>::table;
  const auto identifier = [](std::string_view n) {
    if (n.empty() || (n[0] >= '0' && n[0] <= '9')) return false;
    for (char c : n)
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
  };
  for (std::size_t i = 0; i < std::size(table); ++i) {
    const auto v = static_cast<std::underlying_type_t<E>>(table[i].value);
    if (!identifier(table[i].name) || std::cmp_less(v, INT32_MIN) || std::cmp_greater(v, INT32_MAX)) return false;
    for (std::size_t j = 0; j < i; ++j)
      if (table[j].name == table[i].name || table[j].value == table[i].value) return false;
  }
  return true;
}

template <class Op, class S, std::size_t I>
constexpr auto field_name_as_template_arg() {
  return fixed_string<field_name<S, I>.size()>(field_name<S, I>);
}

template <class Op, class S, bool Param>
consteval bool check_fields() {
  bool good = true;
  for_each_field_index<S>([&](auto i) {
    using F = std::remove_cvref_t<decltype(field<i>(std::declval<S&>()))>;
    if constexpr (Param) {
      if constexpr (std::is_enum_v<F> && !enum_param_type<F>) {
        static_assert(enum_param_type<F>,
                      "rknnop: an enum param needs a name table: specialize rknnop::customize::enum_names<E> "
                      "with `static constexpr rknnop::enum_name<E> table[] = {{E::a, \"A\"}, ...};` (see "
                      "docs/first-op.md); see rknnop_error_enum_param_has_no_rknnop_customize_enum_names<Op, "
                      "field, E> below");
        (void)sizeof(
            rknnop_error_enum_param_has_no_rknnop_customize_enum_names<Op, field_name_as_template_arg<Op, S, i>(), F>);
        good = false;
      } else if constexpr (enum_param_type<F>) {
        if constexpr (!valid_enum_names<F>()) {
          static_assert(always_false_v<F>,
                        "rknnop: an enum param's rknnop::customize::enum_names<E>::table needs distinct names "
                        "that are C identifiers (TensorFlow's spelling, e.g. \"REFLECT\") and distinct values "
                        "that fit int32; see rknnop_error_enum_names_table_is_invalid<Op, field, E> below");
          (void)sizeof(rknnop_error_enum_names_table_is_invalid<Op, field_name_as_template_arg<Op, S, i>(), F>);
          good = false;
        }
      } else if constexpr (!param_field<F>) {
        static_assert(param_field<F>,
                      "rknnop: a param must be a scalar (bool, char, int8_t..uint64_t, rknnop::float16, float, "
                      "double) or an int32 array (std::array<std::int32_t, N> or rknnop::int_array<Max>); "
                      "see rknnop_error_param_type_has_no_vx_mapping<Op, field, type> below");
        (void)sizeof(rknnop_error_param_type_has_no_vx_mapping<Op, field_name_as_template_arg<Op, S, i>(), F>);
        good = false;
      }
    } else {
      if constexpr (!tensor_field<F>) {
        static_assert(tensor_field<F>,
                      "rknnop: every field of `inputs` and `outputs` must be an rknnop::tensor<...>; see "
                      "rknnop_error_input_or_output_field_must_be_rknnop_tensor<Op, field, type> below");
        (void)sizeof(
            rknnop_error_input_or_output_field_must_be_rknnop_tensor<Op, field_name_as_template_arg<Op, S, i>(), F>);
        good = false;
      } else if constexpr (!std::is_void_v<typename unsupported_element<F>::type>) {
        static_assert(always_false_v<F>,
                      "rknnop: a tensor's element types must be among rknnop::float16, float, std::int8_t, "
                      "std::uint8_t, std::int16_t, std::uint16_t, std::int32_t (the VX tensor types); see "
                      "rknnop_error_tensor_element_type_not_supported<Op, field, type> below");
        (void)sizeof(rknnop_error_tensor_element_type_not_supported<Op, field_name_as_template_arg<Op, S, i>(),
                                                                    typename unsupported_element<F>::type>);
        good = false;
      }
    }
  });
  return good;
}

// All names of inputs, outputs and params, in table order.
template <class In, class Out, class Par>
consteval auto all_field_names() {
  std::array<std::string_view, field_count<In> + field_count<Out> + field_count<Par>> names{};
  std::size_t k = 0;
  for_each_field_index<In>([&](auto i) { names[k++] = field_name<In, i>; });
  for_each_field_index<Out>([&](auto i) { names[k++] = field_name<Out, i>; });
  for_each_field_index<Par>([&](auto i) { names[k++] = field_name<Par, i>; });
  return names;
}

template <class In, class Out, class Par>
consteval std::size_t first_duplicate() {
  constexpr auto names = all_field_names<In, Out, Par>();
  for (std::size_t i = 0; i < names.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (names[i] == names[j]) return i;
  return names.size();
}

consteval bool valid_op_name(std::string_view name) {
  if (name.empty() || name.size() > 200) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return !(name[0] >= '0' && name[0] <= '9');
}

// The op's name: `name` when the struct gives one, else the struct's own name.
template <class Op>
consteval std::string_view op_model_name() {
  if constexpr (has_name<Op>)
    return std::string_view(Op::name);
  else
    return type_name<Op>;
}

// RKNN_MAX_NAME_LEN is 256 with the terminating NUL; an ONNX op type is a non-empty identifier.
consteval bool valid_rknpu2_type(std::string_view type) { return type.size() < 256 && valid_op_name(type); }

template <class Op>
consteval std::string_view op_model_rknpu2_type() {
  if constexpr (has_rknpu2_type<Op>)
    return std::string_view(Op::rknpu2_type);
  else
    return op_model_name<Op>();
}

// One gate per rule, in the order a user meets them; each failure is one static_assert.
template <class Op>
consteval bool check_op() {
  if constexpr (declares_name<Op> && !has_name<Op>) {
    static_assert(always_false_v<Op>,
                  "rknnop: an op's `name`, when given, is `static constexpr std::string_view name = \"TfOpName\";` "
                  "(without it, the struct's name is the op's name)");
    return false;
  } else if constexpr (!valid_op_name(op_model_name<Op>())) {
    static_assert(always_false_v<Op>,
                  "rknnop: the op name (the struct's name, or its `name` when given) must be a C identifier of "
                  "1..200 characters (it names the symbol vx_kernel_<Name>_list); a struct named otherwise (a "
                  "template, an alias) declares `static constexpr std::string_view name = \"TfOpName\";`");
    return false;
  } else if constexpr (declares_rknpu2_type<Op> &&
                       (!has_rknpu2_type<Op> || !valid_rknpu2_type(op_model_rknpu2_type<Op>()))) {
    static_assert(always_false_v<Op>,
                  "rknnop: an op's `rknpu2_type`, when given, is `static constexpr std::string_view rknpu2_type = "
                  "\"cstMyOp\";`: the RKNPU2 (ONNX) op type, a C identifier of 1..255 characters");
    return false;
  } else if constexpr (!has_io_structs<Op>) {
    static_assert(always_false_v<Op>, "rknnop: an op struct needs nested structs `inputs` and `outputs`");
    return false;
  } else if constexpr (!std::is_aggregate_v<typename Op::inputs> || !std::is_aggregate_v<typename Op::outputs> ||
                       !std::is_aggregate_v<typename params_of<Op>::type>) {
    static_assert(always_false_v<Op>,
                  "rknnop: `inputs`, `outputs` and `params` must be plain aggregates (public fields, no "
                  "constructors, no base classes)");
    return false;
  } else if constexpr (!reflectable_aggregate<typename Op::inputs> || !reflectable_aggregate<typename Op::outputs> ||
                       !reflectable_aggregate<typename params_of<Op>::type>) {
    // An aggregate that cannot be value-initialized: usually a default member initializer of the
    // wrong type (`mode m = 0;` for an enum field), which the compiler has reported just above.
    static_assert(always_false_v<Op>,
                  "rknnop: a field of `inputs`, `outputs` or `params` cannot be default-initialized: check its "
                  "default member initializer (the compiler's error above names it) or give it one");
    return false;
  } else if constexpr (field_count<typename Op::inputs> == 0) {
    static_assert(always_false_v<Op>, "rknnop: `inputs` is empty; an op needs at least one input tensor");
    return false;
  } else if constexpr (field_count<typename Op::outputs> == 0) {
    static_assert(always_false_v<Op>, "rknnop: `outputs` is empty; an op needs at least one output tensor");
    return false;
  } else if constexpr (!check_fields<Op, typename Op::inputs, false>() ||
                       !check_fields<Op, typename Op::outputs, false>() ||
                       !check_fields<Op, typename params_of<Op>::type, true>()) {
    return false;
  } else if constexpr (constexpr std::size_t dup =
                           first_duplicate<typename Op::inputs, typename Op::outputs, typename params_of<Op>::type>();
                       dup != field_count<typename Op::inputs> + field_count<typename Op::outputs> +
                                  field_count<typename params_of<Op>::type>) {
    static_assert(always_false_v<Op>,
                  "rknnop: two fields of inputs/outputs/params share a name (op.yml keys must be unique); see "
                  "rknnop_error_duplicate_field_name<Op, name> below");
    constexpr auto names = all_field_names<typename Op::inputs, typename Op::outputs, typename params_of<Op>::type>();
    (void)sizeof(rknnop_error_duplicate_field_name<Op, fixed_string<names[dup].size()>(names[dup])>);
    return false;
  } else if constexpr (!has_cpu_kernel<Op>) {
    static_assert(always_false_v<Op>,
                  "rknnop: an op needs a CPU kernel: `static constexpr auto cpu = [](const inputs&, outputs&, "
                  "const params&) -> rknnop::status {...};`");
    return false;
  } else if constexpr (!cpu_kernel_signature<Op>) {
    static_assert(always_false_v<Op>,
                  "rknnop: wrong CPU kernel signature; `cpu` must be callable as "
                  "rknnop::status(const inputs&, outputs&, const params&) (or return void)");
    return false;
  } else if constexpr (!has_infer<Op>) {
    static_assert(always_false_v<Op>,
                  "rknnop: an op needs shape inference: `static constexpr auto infer = [](const inputs&, "
                  "outputs&, const params&) -> rknnop::status {...};` setting each output's dims");
    return false;
  } else if constexpr (!infer_signature<Op>) {
    static_assert(always_false_v<Op>,
                  "rknnop: wrong shape inference signature; `infer` must be callable as "
                  "rknnop::status(const inputs&, outputs&, const params&) (or return void)");
    return false;
  } else if constexpr (has_vx_kernel<Op> && !vx_signature<Op>) {
    static_assert(always_false_v<Op>,
                  "rknnop: wrong VX kernel work-size signature; `vx` must be callable as "
                  "rknnop::status(const inputs&, const outputs&, const params&, rknnop::work_size&) (or return void)");
    return false;
  } else {
    return true;
  }
}

// RKNNOP_EXPORT_OP(X) spells the symbol vx_kernel_X_list; the runtime looks up vx_kernel_<name>_list.
template <class Op, fixed_string Argument>
consteval bool check_export_name() {
  if constexpr (declares_name<Op> && !has_name<Op>) {
    return true;  // check_op reported it
  } else if constexpr (Argument.view() != op_model_name<Op>()) {
    static_assert(always_false_v<Op>,
                  "rknnop: RKNNOP_EXPORT_OP(X) needs X::name == \"X\": the runtime finds the op's library "
                  "symbol vx_kernel_<name>_list by the name in op.yml; see "
                  "rknnop_error_export_op_argument_differs_from_op_name<X, name> below");
    (void)sizeof(rknnop_error_export_op_argument_differs_from_op_name<
                 Argument, fixed_string<op_model_name<Op>().size()>(op_model_name<Op>())>);
    return false;
  } else {
    return true;
  }
}

// --- the description --------------------------------------------------------------------------
template <class Kernel, class... Accepted>
struct converter_table {
  static constexpr void (*to_kernel[])(const void*, void*, std::size_t) noexcept = {&convert_span<Kernel, Accepted>...};
  static constexpr void (*from_kernel[])(const void*, void*,
                                         std::size_t) noexcept = {&convert_span<Accepted, Kernel>...};
};

template <class F>
constexpr field_desc describe_tensor(std::string_view name, field_kind kind, std::size_t index) {
  using table = typename F::template apply_elements<converter_table>;
  field_desc d;
  d.to_kernel = table::to_kernel;
  d.from_kernel = table::from_kernel;
  d.name = name;
  d.kind = kind;
  d.vx_type = element_dtype<typename F::element_type>::value;
  d.accepted = F::accepted_dtypes;
  d.accepted_count = static_cast<std::uint32_t>(std::size(F::accepted_dtypes));
  d.required_rank = F::required_rank;
  d.layout = std::is_same_v<typename F::layout_type, layout::nhwc>   ? "NHWC"
             : std::is_same_v<typename F::layout_type, layout::nchw> ? "NCHW"
                                                                     : "";
  d.param_index = index;
  return d;
}

template <class F>
constexpr field_desc describe_param(std::string_view name, std::size_t index) {
  field_desc d;
  d.name = name;
  d.param_index = index;
  if constexpr (int32_array_type<F>) {
    d.kind = field_kind::array;
    d.vx_type = vx_type::int32;
    d.capacity = array_traits<F>::capacity;
    d.exact = array_traits<F>::exact;
  } else {
    d.kind = field_kind::scalar;
    d.vx_type = scalar_vx_type<F>();
  }
  return d;
}

constexpr char to_lower(char c) noexcept { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// FNV-1a over everything that must agree between a library and its op.yml.
constexpr std::uint64_t fnv1a(std::uint64_t h, std::string_view s) noexcept {
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001B3ull;
  }
  return h;
}

template <class Op>
struct op_model {
  using inputs = typename Op::inputs;
  using outputs = typename Op::outputs;
  using params = typename params_of<Op>::type;

  static constexpr std::string_view name = op_model_name<Op>();
  static constexpr std::string_view rknpu2_type = op_model_rknpu2_type<Op>();  // the RKNPU2 op type
  static constexpr std::size_t input_count = field_count<inputs>;
  static constexpr std::size_t output_count = field_count<outputs>;
  static constexpr std::size_t param_count = field_count<params>;
  static constexpr std::size_t table_size = input_count + output_count + param_count;
  static constexpr bool has_vx = has_vx_kernel<Op>;

  static constexpr std::array<field_desc, table_size> fields = [] {
    std::array<field_desc, table_size> f{};
    std::size_t k = 0;
    for_each_field_index<inputs>([&](auto i) {
      using F = std::remove_cvref_t<decltype(field<i>(std::declval<inputs&>()))>;
      f[k] = describe_tensor<F>(field_name<inputs, i>, field_kind::input, k);
      ++k;
    });
    for_each_field_index<outputs>([&](auto i) {
      using F = std::remove_cvref_t<decltype(field<i>(std::declval<outputs&>()))>;
      f[k] = describe_tensor<F>(field_name<outputs, i>, field_kind::output, k);
      ++k;
    });
    for_each_field_index<params>([&](auto i) {
      using F = std::remove_cvref_t<decltype(field<i>(std::declval<params&>()))>;
      f[k] = describe_param<F>(field_name<params, i>, k);
      ++k;
    });
    return f;
  }();

  // The op's schema fingerprint: names, kinds and VX types of every field, in table order.
  static constexpr std::uint64_t fingerprint = [] {
    std::uint64_t h = fnv1a(0xCBF29CE484222325ull, name);
    for (const field_desc& f : fields) {
      h = fnv1a(h, "|");
      h = fnv1a(h, f.name);
      h = fnv1a(h, role_name(f.kind));
      h = fnv1a(h, f.kind == field_kind::array    ? "VX_TYPE_ARRAY"
                   : f.kind == field_kind::scalar ? vx_type_name(f.vx_type)
                                                  : "VX_TYPE_TENSOR");
    }
    return h;
  }();

  static constexpr std::int32_t table_type(const field_desc& f) noexcept {
    return f.kind == field_kind::array    ? vx_type::array
           : f.kind == field_kind::scalar ? vx_type::scalar
                                          : vx_type::tensor;
  }
};

}  // namespace rknnop::detail

// The op model's public names (documented in <rknnop/op.hpp>, which every backend shares).
namespace rknnop {
// True when Op satisfies every rule of an op struct (checked with readable errors by RKNNOP_EXPORT_OP).
template <class Op>
concept op_spec =
    (!detail::declares_name<Op> || detail::has_name<Op>)&&detail::has_io_structs<Op> && detail::has_cpu_kernel<Op> &&
    detail::has_infer<Op> && detail::cpu_kernel_signature<Op> && detail::infer_signature<Op>;

// The op's name: Op::name when the struct declares one, else the struct's own name. It names the
// symbol vx_kernel_<name>_list, op.yml's `name`, the Python class and MindSpore Lite's Custom.type.
template <class Op>
inline constexpr std::string_view op_name = detail::op_model_name<Op>();

// The op's RKNPU2 op type (the ONNX node's op type librknnrt matches): Op::rknpu2_type when the
// struct declares one, else op_name<Op>.
template <class Op>
inline constexpr std::string_view rknpu2_op_type = detail::op_model_rknpu2_type<Op>();
}  // namespace rknnop

RKNNOP_DETAIL_END_GLUE
RKNNOP_DETAIL_END_HIDDEN
