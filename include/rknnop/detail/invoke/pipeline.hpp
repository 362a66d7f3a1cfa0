// SPDX-License-Identifier: MIT
#pragma once

// Layer 10 of detail/ (docs/architecture.md §1): the invocation, the backend-neutral core of every
// call of an op. The typed views of one call (`invocation`), the exception firewall (`call_user`,
// `guarded`), the one `infer` check, the output dtype defaults, the buffer guards, the unload hook,
// and `invoke`: THE per-call pipeline (bind the inputs, run and check `infer`, allocate the outputs,
// run the kernel, check and write back) that the RKNN v1 (OpenVX), MindSpore Lite and RKNPU2
// adapters all run, each through its own tensor I/O. Includes no backend's header.

#include <rknnop/detail/decode.hpp>
#include <rknnop/detail/log.hpp>
#include <rknnop/detail/model.hpp>
#include <rknnop/detail/scratch.hpp>
#include <rknnop/detail/threads.hpp>
#include <rknnop/parallel.hpp>
#include <rknnop/status.hpp>

#include <cstddef>      // std::size_t
#include <cstdint>      // fixed-width types
#include <new>          // std::bad_alloc (exception builds)
#include <tuple>        // run_each_element's inputs
#include <type_traits>  // std::remove_cvref_t
#include <utility>      // std::index_sequence

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported
RKNNOP_DETAIL_BEGIN_GLUE    // see config.hpp: compiled for size

namespace rknnop::detail {
// Typed views of one invocation: the op's own inputs/outputs/params structs, filled in.
template <class Op>
struct invocation {
  using model = op_model<Op>;
  typename model::inputs in{};
  typename model::outputs out{};
  typename model::params par{};
  tensor_info info[model::input_count + model::output_count]{};
  void* data[model::input_count + model::output_count]{};
};

// Binds field I's view (of `views`, the op's inputs or outputs struct) to `data` and `info`.
template <std::size_t I, class Views>
void bind_view(Views& views, const tensor_info& info, void* data) noexcept {
  auto& view = field<I>(views);
  auto* const typed = static_cast<typename std::remove_cvref_t<decltype(view)>::element_type*>(data);
  if constexpr (RKNNOP_COMPACT_GLUE)  // an RKNN v1 board library: the shorter loop over the rank
    view.bind(typed, info.dims, info.rank, info.dtype);
  else  // every dims entry, a fixed copy: cheaper per call than the loop
    view.bind_all(typed, info.dims, info.rank, info.dtype);
}

#if RKNNOP_HAS_EXCEPTIONS
// The exception being handled as a failure: "<what> threw ..." (what: nullptr for a backend's
// firewall, which says "exception: ..."). Called from a catch (...) block; not a template, so that
// each call site of the firewalls below has one handler instead of three (compile time).
RKNNOP_DETAIL_COLD inline outcome current_exception_failure(const char* what) noexcept {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return outcome(status_code::no_memory,
                   what ? error("{} threw std::bad_alloc", what) : error("out of memory (std::bad_alloc)"));
  } catch (const std::exception& e) {
    status m = what ? error("{} threw: ", what) : error("exception: ");
    m.append(e.what());
    return outcome(status_code::failure, m);
  } catch (...) {
    return outcome(status_code::failure,
                   what ? error("{} threw an exception of unknown type", what) : error("an exception of unknown type"));
  }
}
#endif

// "<what> failed: <message>", for an op's function that returned a failed status.
RKNNOP_DETAIL_COLD inline outcome user_failure(const char* what, const status& s) noexcept {
  status m = error("{} failed: ", what);
  m.append(s.message());
  return outcome(status_code::failure, m);
}

// Runs one of the op's functions; an exception becomes a failure naming the function.
template <class F>
outcome call_user(const char* what, F&& f) noexcept {
#if RKNNOP_HAS_EXCEPTIONS
  try {
#endif
    if constexpr (std::is_void_v<decltype(f())>) {
      f();
      return {};
    } else {
      const status s = f();
      if (s.ok()) return {};
      return user_failure(what, s);
    }
#if RKNNOP_HAS_EXCEPTIONS
  } catch (...) {
    return current_exception_failure(what);
  }
#endif
}

// Runs a backend callback's `body` (returning an outcome): an exception that escapes it becomes a
// failure, so that nothing thrown reaches the C caller (every backend's firewall).
template <class Body>
outcome guarded(Body&& body) noexcept {
#if RKNNOP_HAS_EXCEPTIONS
  try {
#endif
    return body();
#if RKNNOP_HAS_EXCEPTIONS
  } catch (...) {
    return current_exception_failure(nullptr);
  }
#endif
}

// THE enum rule, on every backend: a param of enum type takes only the value of one of its names
// (customize::enum_names), whatever carried it (a VX_TYPE_INT32 scalar, a node attribute).
template <class E>
outcome decode_enum(const field_desc& f, std::int64_t value, E& out) noexcept {
  for (const auto& e : customize::enum_names<E>::table)
    if (static_cast<std::int64_t>(e.value) == value) {
      out = e.value;
      return {};
    }
  status s = error("{} '{}': {} is not the value of one of the enum's names (", role_name(f.kind), f.name, value);
  bool first = true;
  for (const auto& e : customize::enum_names<E>::table) {
    s.append(
        error("{}{} = {}", first ? "" : ", ", std::string_view(e.name), static_cast<std::int64_t>(e.value)).message());
    first = false;
  }
  s.append(")");
  return outcome(status_code::invalid_value, s);
}

// The dtype an output's view holds when `infer` starts (docs/architecture.md §1): the dtype the
// runtime gives the output tensor when it gives one the field accepts, else the first input's when
// the field accepts it, else the field's first accepted dtype.
inline std::int32_t default_output_dtype(const field_desc& f, std::int32_t given, std::int32_t first_input) noexcept {
  if (given != vx_type::invalid && accepts(f, given)) return given;
  return accepts(f, first_input) ? first_input : f.accepted[0];
}

// THE check of what `infer` gave an output, on every backend: rank 1..6, no dim 0, a dtype the
// field accepts.
inline outcome check_inferred(const field_desc& f, const std::uint32_t* dims, std::uint32_t rank,
                              std::int32_t dtype) noexcept {
  if (rank == 0 || rank > max_tensor_rank)
    return fail(status_code::invalid_dimension, f, "shape inference gave rank {} (expected 1..6)", rank);
  for (std::uint32_t d = 0; d < rank; ++d)
    if (dims[d] == 0) return fail(status_code::invalid_dimension, f, "shape inference gave dims[{}] = 0", d);
  if (!accepts(f, dtype)) return dtype_mismatch(f, dtype);
  return {};
}

// THE line for an inferred shape the runtime's output tensor does not have, on every backend: NumPy
// shapes (outermost first) as the user wrote them, then the dims innermost first.
inline outcome inferred_shape_mismatch(const field_desc& f, const std::uint32_t* inferred, std::uint32_t inferred_rank,
                                       const std::uint32_t* actual, std::uint32_t actual_rank) noexcept {
  status s = error("{} '{}': shape inference gives NumPy shape ", role_name(f.kind), f.name);
  append_numpy_shape(s, inferred, inferred_rank);
  s.append(", the output tensor has ");
  append_numpy_shape(s, actual, actual_rank);
  s.append(" (dims innermost first ");
  append_dims(s, inferred, inferred_rank);
  s.append(" and ");
  append_dims(s, actual, actual_rank);
  s.append(")");
  return outcome(status_code::invalid_dimension, s);
}

// Runs the op's `infer` on bound inputs and checks every output it gave (check_inferred). `given`:
// per output, the dtype the runtime gives its tensor (VX_TYPE_INVALID: none yet). Check false: the
// caller runs check_inferred on each output itself, first thing in a loop over the outputs of its
// own (RKNN v1's validator, whose board libraries have a size budget).
template <class Op, bool Check = true>
outcome infer_outputs(invocation<Op>& call, const std::int32_t* given) noexcept {
  using model = op_model<Op>;
  const std::int32_t first_input = call.info[0].dtype;
  for_each_field_index<typename model::outputs>([&](auto i) {
    constexpr field_desc f = model::fields[model::input_count + i];
    field<i>(call.out).bind(nullptr, nullptr, 0,
                            default_output_dtype(f, given ? given[i] : vx_type::invalid, first_input));
  });
  outcome result = call_user("shape inference (infer)", [&] { return Op::infer(call.in, call.out, call.par); });
  if constexpr (Check)
    for_each_field_index<typename model::outputs>([&](auto i) {
      if (!result.ok()) return;
      const auto& view = field<i>(call.out);
      result = check_inferred(model::fields[model::input_count + i], view.dims().data(), view.rank(),
                              static_cast<std::int32_t>(view.dtype()));
    });
  return result;
}

// The inferred shape of output I against the runtime's (call.info[k], rank 0: the runtime leaves it
// to `infer`, which then gives it): the one shape rule (same_shape) and the one line.
template <class Op, std::size_t I>
outcome settle_output_shape(invocation<Op>& call) noexcept {
  using model = op_model<Op>;
  constexpr std::size_t k = model::input_count + I;
  constexpr field_desc f = model::fields[k];
  const auto& view = field<I>(call.out);
  tensor_info& info = call.info[k];
  if (info.rank == 0) {  // deferred: the inferred shape is the tensor's
    info.rank = info.tensor_rank = view.rank();
    info.elements = view.size();
    for (std::uint32_t d = 0; d < view.rank(); ++d) info.dims[d] = view.dims()[d];
  } else if (!same_shape(f, info.dims, info.rank, view.dims().data(), view.rank())) {
    return inferred_shape_mismatch(f, view.dims().data(), view.rank(), info.dims,
                                   info.tensor_rank ? info.tensor_rank : info.rank);
  } else {  // the kernel sees the inferred shape (a layout-tagged view may add outer dims of 1)
    info.rank = view.rank();
    for (std::uint32_t d = 0; d < view.rank(); ++d) info.dims[d] = view.dims()[d];
  }
  if (info.dtype == vx_type::invalid) info.dtype = static_cast<std::int32_t>(view.dtype());
  if (!accepts(f, info.dtype)) return dtype_mismatch(f, info.dtype);
  return {};
}

// THE infer-and-settle step of every backend that runs `infer` itself: the dtype the runtime gives
// each output (call.info, as the adapter bound it; VX_TYPE_INVALID: none) as `infer`'s default, `infer`
// run and checked (infer_outputs), each output's inferred shape settled against the runtime's
// (settle_output_shape), then `settled(i)`, the backend's own step for output i (a
// std::integral_constant). Run per call by `invoke` (Io::infer_per_call) and once per node by
// RKNPU2's init (settle_node).
template <class Op, class Settled>
outcome infer_and_settle(invocation<Op>& call, Settled&& settled) noexcept {
  using model = op_model<Op>;
  std::int32_t given[model::output_count > 0 ? model::output_count : 1] = {};
  for (std::size_t i = 0; i < model::output_count; ++i) given[i] = call.info[model::input_count + i].dtype;
  outcome result = infer_outputs(call, given);
  for_each_field_index<typename model::outputs>([&](auto i) {
    if (result.ok()) result = settle_output_shape<Op, decltype(i)::value>(call);
    if (result.ok()) result = settled(i);
  });
  return result;
}

// RKNNOP_GUARD_BUFFERS: whether the kernel wrote outside a tensor's buffer (before the outputs are
// copied out, so a wrong `infer` fails the node instead of giving short or corrupted results).
template <class Op>
outcome check_guards(const invocation<Op>& call, const buffer_list& buffers, std::size_t scratch_overruns) noexcept {
  if constexpr (buffer_list::guard == 0) {
    return {};
  } else {
    using model = op_model<Op>;
    for (std::size_t k = 0; k < model::input_count + model::output_count; ++k) {
      const buffer_list::overrun_report r = buffers.overrun(call.data[k]);
      if (r.changed != 0) return overrun_failure(model::fields[k], call.info[k], r);
    }
    if (__atomic_load_n(&scratch_guard::overruns, __ATOMIC_ACQUIRE) != scratch_overruns)
      return scratch_overrun_failure();
    return {};
  }
}

// --- the one pass of an element-wise op ---------------------------------------------------------
// An op whose kernel is rknnop::each_element's, on an adapter with element ranges (Io::element_ranges):
// each range converts its inputs' elements to the kernel's types, applies the op's function, converts
// the results to the output tensor's dtype and checks them (the precision rule, in checking builds),
// a piece at a time while it is in the cache. No output buffer filled and scanned (the SDK writes every
// element itself), no kernel-typed copy of a tensor. The results are the kernel's own operator()'s
// (each_element.hpp) bit for bit. Two kinds of adapter:
//   copies (vx_io, the PC's library): each range first copies its slabs of every input in from the
//     runtime; the output goes out in one copy at the end, only if every element passed (a refused
//     node leaves the tensor as it was);
//   in place (Io::in_place: RKNPU2's two adapters, whose tensors are host memory): the ranges read the
//     runtime's input memory and write its output memory themselves, nothing copied (a refused node
//     leaves the output written up to where the ranges stopped, as those adapters' check_output does).

}  // namespace rknnop::detail
namespace rknnop {
template <class F>
struct each_element_kernel;  // <rknnop/each_element.hpp>, which an op using it includes (not every op's unit)
}  // namespace rknnop
namespace rknnop::detail {
template <class K>
inline constexpr bool is_each_element = false;
template <class F>
inline constexpr bool is_each_element<each_element_kernel<F>> = true;

// An op whose CPU kernel is rknnop::each_element's.
template <class Op>
concept each_element_op = is_each_element<std::remove_cvref_t<decltype(Op::cpu)>>;

// An adapter with element ranges (static constexpr bool element_ranges = true), and one whose ranges
// work in the runtime's memory itself (static constexpr bool in_place = true).
template <class Io>
concept with_element_ranges = requires { requires Io::element_ranges; };
template <class Io>
concept in_place_ranges = requires { requires Io::in_place; };

// Whether the one pass takes this call: every input has the output's rank and dims (so one slab
// split fits all), and the adapter splits the output into slabs for it (element_slabs: the PC's
// copies, a tensor large enough to split; in place, tensors the kernel reads as they are); else the
// ordinary pipeline runs (the kernel's operator() checks the element counts and names the field).
template <class Op, class Io, class Call>
bool element_ranges_fit(Io& io, const Call& call, slabs& s) noexcept {
  using model = op_model<Op>;
  const tensor_info& out = call.info[model::input_count];
  if (out.elements == 0 || !io.element_slabs(call, s)) return false;
  for (std::size_t k = 0; k < model::input_count; ++k) {
    const tensor_info& in = call.info[k];
    if (in.rank != out.rank || in.tensor_rank != out.tensor_rank || in.elements != out.elements) return false;
    for (std::uint32_t d = 0; d < out.rank; ++d)
      if (in.dims[d] != out.dims[d]) return false;
  }
  return true;
}

// Elements per piece: what a range converts, applies and checks at a time (the pieces of every input
// and the output's, a few KiB each, stay in the L1 cache).
inline constexpr std::size_t element_piece = 512;

// A piece of one input's elements in the kernel's type. Its constructor does nothing, so a tuple of
// them (std::tuple value-initializes its elements) is not zeroed for every piece: 2 KiB of stores per
// piece of float inputs, where the elements are then written anyway or not used at all.
template <class T>
struct piece_of {
  piece_of() noexcept {}  // NOLINT(modernize-use-equals-default): = default would be zeroed in a tuple
  T* data() noexcept { return values; }
  T values[element_piece];
};

// Input I's elements [at, at + n) in the kernel's type: in place in the raw buffer when the dtypes
// agree, else converted into `piece`.
template <class T>
const T* kernel_elements(convert_fn fn, const char* raw, std::size_t raw_size, std::size_t at, std::size_t n,
                         T* piece) noexcept {
  if (!fn) return reinterpret_cast<const T*>(raw + at * raw_size);
  fn(raw + at * raw_size, piece, n);
  return piece;
}

// Calls that took the one pass, in this library (the tests ask which path a node took).
inline constinit std::size_t each_element_passes = 0;

// The one pass (see above). `io`: the adapter, with element_ranges and element_slabs(call, s); with
// copies, copy_in(k, info, slabs, a, b, at) (0 or the runtime's failure code), copy_in_failed(k, code)
// and copy_out(k, info, raw); in place, memory(k): tensor k's data in the runtime's memory, which
// element_slabs checked (each tensor's bytes there, no input sharing a byte with the output).
template <class Op, class Io, class Call>
outcome run_each_element(Io& io, Call& call, buffer_list& buffers, const slabs& s) noexcept {
  using model = op_model<Op>;
  constexpr std::size_t inputs = model::input_count, out = inputs;
  const field_desc& fo = model::fields[out];
  const tensor_info& oi = call.info[out];
  const std::size_t elements = oi.elements, out_size = dtype_size(oi.dtype);
  // Each input's raw data (the tensor's dtype) and its conversion to the kernel's; the output's raw
  // data and the conversion from the kernel's.
  const char* raw_in[inputs];
  std::size_t in_size[inputs];
  convert_fn to_kernel[inputs];
  char* raw_out = nullptr;
  if constexpr (in_place_ranges<Io>) raw_out = io.memory(out);
  for (std::size_t k = 0; k < inputs; ++k) {
    const field_desc& f = model::fields[k];
    const tensor_info& info = call.info[k];
    in_size[k] = dtype_size(info.dtype);
    to_kernel[k] = info.dtype == f.vx_type ? nullptr : f.to_kernel[accepted_index(f, info.dtype)];
    if constexpr (in_place_ranges<Io>) {
      raw_in[k] = io.memory(k);
    } else {
      raw_in[k] = static_cast<const char*>(buffers.allocate(elements * in_size[k]));
      if (!raw_in[k]) return fail(status_code::no_memory, f, "cannot allocate {} bytes", elements * in_size[k]);
    }
  }
  if constexpr (!in_place_ranges<Io>) {
    raw_out = static_cast<char*>(buffers.allocate(elements * out_size));
    if (!raw_out) return fail(status_code::no_memory, fo, "cannot allocate {} bytes", elements * out_size);
  }
  const convert_fn from_kernel = oi.dtype == fo.vx_type ? nullptr : fo.from_kernel[accepted_index(fo, oi.dtype)];
  // The precision rule where check_output runs it: checking builds (the PC's), float16 and float32.
  const bool precision = check_every_element && from_kernel &&
                         (oi.dtype == vx_type::float16 || oi.dtype == vx_type::float32) && !lossy_allowed();
  const bool halves = fo.vx_type == vx_type::float32 && oi.dtype == vx_type::float16;

  using out_type = typename std::remove_cvref_t<decltype(field<0>(call.out))>::element_type;
  const auto& par = call.par;
  std::size_t first_lost = elements;
  int failed_code = 0;
  std::size_t failed_input = 0;
  // Elements [at, at + n): each input's in the kernel's type, the function, the output's conversion.
  const auto apply = [&](std::size_t at, std::size_t n, out_type* result) noexcept {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      using types = std::tuple<typename std::remove_cvref_t<decltype(field<I>(call.in))>::element_type...>;
      std::tuple<piece_of<std::tuple_element_t<I, types>>...> pieces;  // not zeroed (piece_of)
      const std::tuple<const std::tuple_element_t<I, types>*...> x{
          kernel_elements(to_kernel[I], raw_in[I], in_size[I], at, n, std::get<I>(pieces).data())...};
      // The pointers as restrict parameters: one loop the compiler may vectorize (no reload per element).
      [&par, n](out_type* __restrict y, const std::tuple_element_t<I, types>* __restrict... p) noexcept {
        for (std::size_t j = 0; j < n; ++j) y[j] = Op::cpu.element(par, p[j]...);
      }(result, std::get<I>(x)...);
    }(std::make_index_sequence<inputs>{});
  };
  parallel_for(s.count, s.grain(), [&](std::size_t first, std::size_t last) noexcept {
    out_type piece[element_piece];
    for (std::size_t a = first, b; a < last; a = b) {
      b = last - a > s.grain() ? a + s.grain() : last;
      // The slabs in (while they are in the cache, the pieces below read them)
      if constexpr (!in_place_ranges<Io>)
        for (std::size_t k = 0; k < inputs; ++k)
          if (const int code =
                  io.copy_in(k, call.info[k], s, a, b, const_cast<char*>(raw_in[k]) + a * s.size * in_size[k])) {
            if (!__atomic_exchange_n(&failed_code, code, __ATOMIC_RELAXED))
              __atomic_store_n(&failed_input, k, __ATOMIC_RELAXED);
            return;
          }
      for (std::size_t at = a * s.size, end = b * s.size; at < end; at += element_piece) {
        const std::size_t n = end - at < element_piece ? end - at : element_piece;
        if (!from_kernel) {  // the kernel's type is the tensor's: straight into the output's data
          apply(at, n, reinterpret_cast<out_type*>(raw_out + at * out_size));
          continue;
        }
        apply(at, n, piece);
        char* const converted = raw_out + at * out_size;
        from_kernel(piece, converted, n);
        if (!precision) continue;
        // The precision rule as check_and_convert runs it: float32 into float16 screened 16 halves at a
        // time (only zeros, subnormals, inf and NaN need the rule), anything else element by element.
        const auto* const kernel_piece = reinterpret_cast<const char*>(piece);
        const auto exact = [&](std::size_t s0, std::size_t e0) noexcept {
          const std::size_t lost = first_lossy(fo.vx_type, oi.dtype, kernel_piece, converted, s0, e0);
          if (lost != e0) lower_to(&first_lost, at + lost);
        };
        if (halves)
          screen_output(screen::half_nan_zero, converted, 0, n, exact);
        else
          exact(0, n);
      }
    }
  });
  __atomic_add_fetch(&each_element_passes, 1, __ATOMIC_RELAXED);
  if constexpr (!in_place_ranges<Io>)
    if (failed_code) return io.copy_in_failed(failed_input, failed_code);
  if (first_lost != elements) {  // the element again, for the line
    out_type value[1];
    apply(first_lost, 1, value);
    return lossy_failure(fo, oi, reinterpret_cast<const char*>(value), first_lost);
  }
  if constexpr (in_place_ranges<Io>)
    return {};
  else
    return io.copy_out(out, oi, raw_out);
}

// THE per-call pipeline of every backend. `io`, the backend's adapter, provides:
//   static constexpr bool infer_per_call    run `infer` here (MindSpore Lite, RKNPU2) or trust the
//                                           runtime's verified output shapes (OpenVX's validator ran it)
//   outcome bind(invocation<Op>&, buffer_list&)        inputs read (data in the kernel's dtype and
//       layout) and their views bound; every output's call.info as the runtime gives it (rank 0:
//       the runtime leaves the shape to `infer`; dtype VX_TYPE_INVALID: to `infer` too)
//   outcome settled(invocation<Op>&, I)   the backend's own step once output I's shape is known
//       (MindSpore Lite sets it on the MSTensor); {} when there is none. I: the output's index, a
//       std::integral_constant (so that its field is a constant)
//   outcome write(invocation<Op>&, I, buffer_list&)   output I's result, checked by the core's
//       check_output (detail/decode.hpp), into the runtime's tensor
// Outputs are written back only when the kernel succeeded and every guard held.
// An element-wise op (rknnop::each_element) on an adapter with element ranges (static constexpr bool
// element_ranges) takes the one pass (run_each_element) when its tensors fit it; the adapter then
// provides bind_shapes(call, buffers) and read_inputs(call, buffers), bind's two halves, and the
// range copies run_each_element names.
template <class Op, class Io>
[[gnu::always_inline]] inline outcome invoke(Io& io, invocation<Op>& call, buffer_list& buffers) noexcept {
  using model = op_model<Op>;
  outcome result;
  const auto settle = [&] {
    if constexpr (Io::infer_per_call)
      if (result.ok()) result = infer_and_settle(call, [&](auto i) { return io.settled(call, i); });
  };
  if constexpr (each_element_op<Op> && with_element_ranges<Io>) {
    result = io.bind_shapes(call, buffers);
    settle();  // on the shapes alone, as a validator or an RKNPU2 init runs it
    if (slabs s; result.ok() && element_ranges_fit<Op>(io, call, s)) return run_each_element<Op>(io, call, buffers, s);
    if (result.ok()) result = io.read_inputs(call, buffers);
  } else {
    result = io.bind(call, buffers);
    settle();
  }
  for_each_field_index<typename model::outputs>([&](auto i) {
    if (!result.ok()) return;
    constexpr std::size_t k = model::input_count + i;
    result = allocate_output(model::fields[k], call.info[k], buffers, call.data[k]);
    if (result.ok()) bind_view<i>(call.out, call.info[k], call.data[k]);
  });
  const std::size_t scratch_overruns = __atomic_load_n(&scratch_guard::overruns, __ATOMIC_ACQUIRE);
  if (result.ok()) result = call_user("the CPU kernel", [&] { return Op::cpu(call.in, call.out, call.par); });
  if (result.ok()) result = check_guards<Op>(call, buffers, scratch_overruns);
  for_each_field_index<typename model::outputs>([&](auto i) {
    if (result.ok()) result = io.write(call, i, buffers);
  });
  return result;
}

// What a library of any backend runs when it is unloaded ([[gnu::destructor]]): parallel_for's
// workers joined, the cached scratch blocks freed (docs/runtime.md §10).
inline void unload_library() noexcept {
  thread_hooks::unload();
  scratch_cache::drain();
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_GLUE
RKNNOP_DETAIL_END_HIDDEN
