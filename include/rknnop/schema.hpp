// SPDX-License-Identifier: MIT
#pragma once

// An op struct as run-time data: what the emitter, the parity harness and other host code read off an
// op without instantiating its kernels (docs/architecture.md §1, layer 12 of detail/).
//
//   rknnop::op_schema s = rknnop::schema_of<MyOp>();
//   for (const rknnop::field_desc& f : s.fields) ...  // inputs, outputs, params in declaration order
//
// The public names: op_schema, schema_of<Op>(), field_desc and field_kind (one field: its name, role,
// VX type, accepted dtypes, rank, layout, array capacity), param_extra and enum_desc (a param's
// default member initializer and enum names). They are defined in detail/field_desc.hpp and
// detail/schema.hpp, where the SDK's own layers build them.

#include <rknnop/detail/schema.hpp>  // op_schema, schema_of, field_desc, field_kind, param_extra, enum_desc
#include <rknnop/vx_type.hpp>        // field_desc::vx_type and accepted[] hold vx_type values
