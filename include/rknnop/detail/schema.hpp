// SPDX-License-Identifier: MIT
#pragma once

// Layer 12 of detail/ (docs/architecture.md §1): the schema. An op struct as run-time data
// (op_schema), built from op_model<Op>: what the emitter (<rknnop/emit/...>) reads, so that its
// generators are plain functions compiled once. No {fmt}, no text, no files: under RKNNOP_EMITTER,
// RKNNOP_EXPORT_OP hands this to the generator's main (cmake/rknnopEmitterMain.cpp.in).

#include <rknnop/detail/field_desc.hpp>
#include <rknnop/detail/model.hpp>

#include <algorithm>    // std::min (the probe)
#include <array>        // default items, enum tables
#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint64_t
#include <optional>     // optional Python members
#include <span>         // the field table
#include <string_view>  // names
#include <type_traits>  // field types
#include <utility>      // std::index_sequence

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop {
/// What the op's `infer` gave for one probe (every input of the dims `input_dims`, params at their
/// defaults): filled by op_schema::probe_shapes. `ran` is false when it could not be run (a param
/// without a default) or refused the probe; then nothing is known.
struct shape_probe {
  static constexpr auto max_rank = static_cast<std::uint32_t>(vx_max_tensor_rank);
  std::uint32_t input_dims[max_rank] = {};
  std::uint32_t input_rank = 0;
  bool ran = false;
  std::size_t output = 0;  ///< the first output whose dims differ from the inputs', when `differs`
  bool differs = false;
  std::uint32_t output_dims[max_rank] = {};
  std::uint32_t output_rank = 0;
};

/// Everything emission reads off an op struct; built by schema_of<Op>() so that the emitter's
/// generators are plain functions, compiled once.
struct op_schema {
  std::string_view name;
  std::string_view rknpu2_type;        ///< the RKNPU2 (ONNX) op type: Op::rknpu2_type, else name
  std::span<const field_desc> fields;  ///< inputs, outputs, params, in declaration order
  std::size_t input_count = 0;
  std::size_t output_count = 0;
  std::size_t param_count = 0;
  std::uint64_t fingerprint = 0;
  bool has_vx = false;
  std::span<const param_extra> param_extras;  ///< one per param: default, enum names
  std::optional<std::string_view> python_output_shape;
  std::optional<std::string_view> python_compute;
  /// Runs the op's `infer` on a probe (the emitter's check of a Python class without
  /// python_output_shape, which gives every output input 0's shape).
  void (*probe_shapes)(shape_probe&) noexcept = nullptr;
};

namespace detail {
template <class Op>
concept has_python_output_shape = requires {
  { std::string_view(Op::python_output_shape) };
};
template <class Op>
concept has_python_compute = requires {
  { std::string_view(Op::python_compute) };
};

// --- defaults: a default member initializer in `params` ------------------------------------------
// `params p;` is default-initialisation: a member without an initializer stays indeterminate, and
// reading it in constant evaluation is not a constant expression. So a field has a default exactly
// when reading it from `P p;` is a constant expression, which a template argument can test
// (GCC 12 and clang 16 agree; tests/core/test_param_defaults.cpp). Class types are read through
// their members (float16's bits, every item and the count of an int_array): GCC copies a class
// with an indeterminate member without complaint.
template <class F>
constexpr std::int64_t read_for_default(const F& f) noexcept {
  if constexpr (std::is_same_v<F, float16>) {
    return f.bits();
  } else if constexpr (int32_array_type<F>) {
    std::int64_t sum = static_cast<std::int64_t>(f.size());
    for (std::size_t i = 0; i < f.size(); ++i) sum += f[i];
    return sum;
  } else {
    return f == F{} ? 0 : 1;
  }
}
template <class P, std::size_t I>
constexpr std::int64_t probe_default() noexcept {
  P p;  // default-initialised on purpose: see above
  return read_for_default(field<I>(p));
}
template <class P, std::size_t I>
concept has_default_member_initializer =
    requires { typename std::integral_constant<bool, (probe_default<P, I>(), true)>; };

template <class P, std::size_t I>
constexpr auto default_of() noexcept {
  P p;
  return field<I>(p);
}

// Class templates rather than variable templates: GCC applies the hidden visibility pragma to these.
template <class E>
struct enum_table {
  static constexpr std::size_t size = std::size(customize::enum_names<E>::table);
  static constexpr std::array<enum_desc, size> make() noexcept {
    std::array<enum_desc, size> out{};
    for (std::size_t i = 0; i < size; ++i)
      out[i] = {static_cast<std::int32_t>(customize::enum_names<E>::table[i].value),
                std::string_view(customize::enum_names<E>::table[i].name)};
    return out;
  }
  static constexpr std::array<enum_desc, size> value = make();
};

template <class P, std::size_t I>
struct default_items {
  using F = std::remove_cvref_t<decltype(field<I>(std::declval<P&>()))>;
  static constexpr std::array<std::int32_t, array_traits<F>::capacity> make() noexcept {
    const F given = default_of<P, I>();
    std::array<std::int32_t, array_traits<F>::capacity> items{};
    for (std::size_t k = 0; k < given.size(); ++k) items[k] = given[k];
    return items;
  }
  static constexpr std::array<std::int32_t, array_traits<F>::capacity> value = make();
};

template <class P, std::size_t I>
constexpr param_extra describe_param_extra() noexcept {
  using F = std::remove_cvref_t<decltype(field<I>(std::declval<P&>()))>;
  param_extra e;
  if constexpr (enum_param_type<F>) {
    e.enumerators = enum_table<F>::value.data();
    e.enumerator_count = enum_table<F>::size;
  }
  if constexpr (has_default_member_initializer<P, I>) {
    e.has_default = true;
    constexpr F value = default_of<P, I>();
    if constexpr (int32_array_type<F>) {
      e.items_default = default_items<P, I>::value.data();
      e.items_default_count = value.size();
    } else if constexpr (std::is_same_v<F, float16>) {
      e.float_default = static_cast<float>(value);
    } else if constexpr (std::is_floating_point_v<F>) {
      e.float_default = value;
    } else if constexpr (std::is_enum_v<F>) {
      e.int_default = static_cast<std::int32_t>(value);
    } else if constexpr (std::is_unsigned_v<F> && !std::is_same_v<F, bool> && !std::is_same_v<F, char>) {
      // (char is VX_TYPE_CHAR whatever its signedness: unsigned on ARM, where a build found this)
      e.uint_default = value;
    } else {
      e.int_default = static_cast<std::int64_t>(value);
    }
  }
  return e;
}

template <class P>
struct param_extras {
  template <std::size_t... I>
  static constexpr std::array<param_extra, field_count<P>> make(std::index_sequence<I...>) noexcept {
    return {describe_param_extra<P, I>()...};
  }
  static constexpr std::array<param_extra, field_count<P>> value = make(std::make_index_sequence<field_count<P>>{});
};
}  // namespace detail

namespace detail {
// The probe: inputs bound without data (infer reads dims and dtypes only), outputs as the validator
// binds them before infer, params value-initialised (each default member initializer applied).
template <class Op>
void probe_shapes(shape_probe& probe) noexcept {
  using model = op_model<Op>;
  for (const param_extra& e : param_extras<typename model::params>::value)
    if (!e.has_default) return;  // a required param's value is unknown here
  typename model::inputs in{};
  typename model::outputs out{};
  typename model::params par{};
  for_each_field_index<typename model::inputs>(
      [&](auto i) { field<i>(in).bind(nullptr, probe.input_dims, probe.input_rank, model::fields[i].accepted[0]); });
  for_each_field_index<typename model::outputs>([&](auto i) {
    constexpr field_desc f = model::fields[model::input_count + i];
    field<i>(out).bind(nullptr, nullptr, 0, f.accepted[0]);
  });
  bool ok = true;
#if RKNNOP_HAS_EXCEPTIONS
  try {
#endif
    if constexpr (std::is_void_v<decltype(Op::infer(in, out, par))>)
      Op::infer(in, out, par);
    else
      ok = static_cast<status>(Op::infer(in, out, par)).ok();
#if RKNNOP_HAS_EXCEPTIONS
  } catch (...) {
    ok = false;
  }
#endif
  if (!ok) return;
  probe.ran = true;
  for_each_field_index<typename model::outputs>([&](auto i) {
    if (probe.differs) return;
    const auto& view = field<i>(out);
    const std::span<const std::uint32_t> dims = view.dims();
    bool same = dims.size() == probe.input_rank;
    for (std::size_t k = 0; same && k < dims.size(); ++k) same = dims[k] == probe.input_dims[k];
    if (same) return;
    probe.differs = true;
    probe.output = i;
    probe.output_rank = static_cast<std::uint32_t>(std::min<std::size_t>(dims.size(), shape_probe::max_rank));
    for (std::uint32_t k = 0; k < probe.output_rank; ++k) probe.output_dims[k] = dims[k];
  });
}
}  // namespace detail

template <class Op>
constexpr op_schema schema_of() noexcept {
  static_assert(detail::check_op<Op>(), "rknnop: emission needs a valid op struct (see above)");
  using model = detail::op_model<Op>;
  op_schema s;
  s.name = model::name;
  s.rknpu2_type = model::rknpu2_type;
  s.fields = model::fields;
  s.input_count = model::input_count;
  s.output_count = model::output_count;
  s.param_count = model::param_count;
  s.fingerprint = model::fingerprint;
  s.has_vx = model::has_vx;
  s.param_extras = detail::param_extras<typename model::params>::value;
  if constexpr (detail::has_python_output_shape<Op>) s.python_output_shape = std::string_view(Op::python_output_shape);
  if constexpr (detail::has_python_compute<Op>) s.python_compute = std::string_view(Op::python_compute);
  s.probe_shapes = &detail::probe_shapes<Op>;
  return s;
}

}  // namespace rknnop

RKNNOP_DETAIL_END_HIDDEN
