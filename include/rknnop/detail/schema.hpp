// SPDX-License-Identifier: MIT
#pragma once

// Layer 12 of detail/ (docs/architecture.md §1): the schema. An op struct as run-time data
// (op_schema), built from op_model<Op>: what the emitter (<rknnop/emit/...>) reads, so that its
// generators are plain functions compiled once. No {fmt}, no text, no files: under RKNNOP_EMITTER,
// RKNNOP_EXPORT_OP hands this to the generator's main (cmake/rknnopEmitterMain.cpp.in).

#include <rknnop/detail/field_desc.hpp>
#include <rknnop/detail/model.hpp>

#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint64_t
#include <optional>     // optional Python members
#include <span>         // the field table
#include <string_view>  // names

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

    namespace rknnop {
  /// Everything emission reads off an op struct; built by schema_of<Op>() so that the emitter's
  /// generators are plain functions, compiled once.
  struct op_schema {
    std::string_view name;
    std::span<const detail::field_desc> fields;  ///< inputs, outputs, params, in declaration order
    std::size_t input_count = 0;
    std::size_t output_count = 0;
    std::size_t param_count = 0;
    std::uint64_t fingerprint = 0;
    bool has_vx = false;
    std::optional<std::string_view> python_output_shape;
    std::optional<std::string_view> python_compute;
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
  }  // namespace detail

  template <class Op>
  constexpr op_schema schema_of() noexcept {
    static_assert(detail::check_op<Op>(), "rknnop: emission needs a valid op struct (see above)");
    using model = detail::op_model<Op>;
    op_schema s;
    s.name = model::name;
    s.fields = model::fields;
    s.input_count = model::input_count;
    s.output_count = model::output_count;
    s.param_count = model::param_count;
    s.fingerprint = model::fingerprint;
    s.has_vx = model::has_vx;
    if constexpr (detail::has_python_output_shape<Op>)
      s.python_output_shape = std::string_view(Op::python_output_shape);
    if constexpr (detail::has_python_compute<Op>) s.python_compute = std::string_view(Op::python_compute);
    return s;
  }

}  // namespace rknnop

RKNNOP_DETAIL_END_HIDDEN
