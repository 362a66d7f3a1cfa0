// SPDX-License-Identifier: MIT
// The SDK's decode path, driven through the host OpenVX runtime's C API. From the input: which of
// ResizeArea's descriptors to register (and with which parameter count and table), arbitrary
// objects for its parameters (tensors of rank 0..7 with any dtype, dims and data, virtual tensors,
// scalars of any type, arrays of any item type and count, NULLs, objects of the wrong kind), then
// vxVerifyGraph/vxProcessGraph, and the descriptor's callbacks called directly with a random
// `num`, parameter list and meta formats.
// Asserted: no crash, UB or leak; every failing callback logs exactly one line starting
// "rknnop: " (to the sink and, with a node, to the node's OpenVX log, with the same status), and a
// succeeding one logs nothing; a failing vxVerifyGraph/vxProcessGraph leaves a log entry.
#include "resize_area/resize_area.cpp"  // the example op; exports vx_kernel_ResizeArea_list

#include "fuzz_util.hpp"

#include <rknnop/host/openvx_host.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

using rknnop::fuzz::byte_reader;

// --- what the callbacks report ------------------------------------------------------------------
std::vector<std::string>& sink_lines() {
  static std::vector<std::string> lines;
  return lines;
}
void capture_line(const char* line, void*) noexcept {
  try {
    sink_lines().emplace_back(line);
  } catch (...) {
    rknnop::fuzz::failed("cannot store a log line", __FILE__, __LINE__);
  }
}

void expect_reported(vx_node node, vx_status status, std::size_t lines_before) {
  const auto& lines = sink_lines();
  if (status == VX_SUCCESS) {
    RKNNOP_FUZZ_EXPECT(lines.size() == lines_before, "a callback logged and returned VX_SUCCESS: " + lines.back());
    return;
  }
  RKNNOP_FUZZ_EXPECT(lines.size() == lines_before + 1, "a failing callback must log exactly one line");
  RKNNOP_FUZZ_EXPECT(lines.back().starts_with("rknnop: "), lines.back());
  if (!node) return;
  vx_status logged = VX_SUCCESS;
  std::array<char, 2048> message{};
  RKNNOP_FUZZ_EXPECT(rknnopHostGetLastLogEntry(reinterpret_cast<vx_reference>(node), &logged, message.data(),
                                               message.size()) == VX_SUCCESS);
  RKNNOP_FUZZ_EXPECT(std::string_view(message.data()).starts_with("rknnop: "), message.data());
  RKNNOP_FUZZ_EXPECT(logged == status, message.data());
}

// --- the descriptor under test, wrapped so that every call the runtime makes is checked -------
const vx_kernel_description_t* current = nullptr;

vx_status VX_CALLBACK checked_function(vx_node node, const vx_reference* refs, vx_uint32 num) {
  const std::size_t before = sink_lines().size();
  const vx_status s = current->function(node, refs, num);
  expect_reported(node, s, before);
  return s;
}
vx_status VX_CALLBACK checked_validate(vx_node node, const vx_reference refs[], vx_uint32 num, vx_meta_format metas[]) {
  const std::size_t before = sink_lines().size();
  const vx_status s = current->validate(node, refs, num, metas);
  expect_reported(node, s, before);
  return s;
}
vx_status VX_CALLBACK checked_initialize(vx_node node, const vx_reference* refs, vx_uint32 num) {
  const std::size_t before = sink_lines().size();
  const vx_status s = current->initialize(node, refs, num);
  expect_reported(node, s, before);
  return s;
}
vx_status VX_CALLBACK checked_deinitialize(vx_node node, const vx_reference* refs, vx_uint32 num) {
  const vx_status s = current->deinitialize(node, refs, num);
  RKNNOP_FUZZ_EXPECT(s == VX_SUCCESS);
  return s;
}
vx_status noop_shader(void*, vx_node, const rknnop_host_kernel_info*, const vx_reference*, vx_uint32) {
  return VX_SUCCESS;
}

// RKNNOP_FUZZ_TRACE=1 prints what an input builds and calls (to read a reproducer).
bool tracing() {
  static const bool on = [] {
    const char* v = std::getenv("RKNNOP_FUZZ_TRACE");
    return v != nullptr && v[0] == '1';
  }();
  return on;
}
template <class... Args>
void trace(const char* format, Args... args) {
  if (tracing()) std::fprintf(stderr, format, args...);
}

// --- objects from the input -------------------------------------------------------------------
constexpr std::array<vx_enum, 10> tensor_dtypes{VX_TYPE_FLOAT32, VX_TYPE_FLOAT16, VX_TYPE_INT8,  VX_TYPE_UINT8,
                                                VX_TYPE_INT16,   VX_TYPE_UINT16,  VX_TYPE_INT32, VX_TYPE_INVALID,
                                                VX_TYPE_FLOAT64, VX_TYPE_BOOL};
constexpr std::array<vx_enum, 16> scalar_types{VX_TYPE_BOOL,    VX_TYPE_BOOL8,   VX_TYPE_CHAR,   VX_TYPE_INT8,
                                               VX_TYPE_UINT8,   VX_TYPE_INT16,   VX_TYPE_UINT16, VX_TYPE_INT32,
                                               VX_TYPE_UINT32,  VX_TYPE_INT64,   VX_TYPE_UINT64, VX_TYPE_FLOAT16,
                                               VX_TYPE_FLOAT32, VX_TYPE_FLOAT64, VX_TYPE_ENUM,   VX_TYPE_SIZE};
constexpr std::array<vx_enum, 8> array_item_types{VX_TYPE_INT32, VX_TYPE_UINT32, VX_TYPE_INT16, VX_TYPE_FLOAT32,
                                                  VX_TYPE_INT64, VX_TYPE_SIZE,   VX_TYPE_ENUM,  VX_TYPE_UINT8};
// Item values that stress shape inference. A virtual tensor would get (and be allocated with) the
// shape they give, so an input uses either these or virtual tensors, never both: a 2^31-wide
// output is a legitimate request, not a finding.
constexpr std::array<std::int32_t, 6> extreme_items{INT32_MIN, INT32_MAX, 0, -1, 65536, 1 << 20};

template <class T>
T pick(byte_reader& in, const T* values, std::size_t count, std::uint8_t random_above = 0xF0) {
  const std::uint8_t b = in.u8();
  return b >= random_above ? in.value<T>() : values[b % count];
}

// Object kinds for a parameter slot.
enum class kind : std::uint8_t { null, tensor, virtual_tensor, scalar, array, foreign, count };

struct builder {
  byte_reader& in;
  vx_context context;
  vx_graph graph;
  bool allow_extreme_items;        // cleared by the first virtual tensor
  bool allow_virtual = true;       // cleared by the first extreme item
  std::vector<vx_reference> pool;  // everything created, for the direct calls

  vx_reference keep(vx_reference r) {
    if (r) pool.push_back(r);
    return r;
  }

  // Tensors stay small (at most a few thousand elements) unless their byte size overflows vx_size,
  // which the runtime rejects before allocating anything.
  vx_reference tensor(bool is_virtual, bool typical) {
    const vx_uint32 rank = typical ? 4 : static_cast<vx_uint32>(in.below(8));
    const vx_enum dtype = typical ? (in.flag() ? VX_TYPE_FLOAT32 : VX_TYPE_FLOAT16)
                                  : pick(in, tensor_dtypes.data(), tensor_dtypes.size());
    std::array<vx_size, 8> dims{};
    unsigned __int128 elements = 1;
    bool overflows = false;
    for (vx_uint32 i = 0; i < rank; ++i) {
      const std::uint8_t b = in.u8();
      dims[i] = b == 0xFF ? 0xFFFFFFFFu : b == 0xFE ? 0u : b == 0xFD ? in.value<vx_uint32>() : 1u + b % 8u;
      elements *= dims[i];
      if (elements > (static_cast<unsigned __int128>(1) << 66)) overflows = true;
    }
    if (!overflows && elements > 4096)
      for (vx_uint32 i = 0; i < rank; ++i) dims[i] = dims[i] == 0 ? 0 : 1u + dims[i] % 3u;
    const bool no_dims = in.u8() == 0xEE;  // a NULL dims pointer
    const auto fixed_point = static_cast<vx_int8>(in.u8());
    vx_tensor t = is_virtual ? vxCreateVirtualTensor(graph, rank, no_dims ? nullptr : dims.data(), dtype, fixed_point)
                             : vxCreateTensor(context, rank, no_dims ? nullptr : dims.data(), dtype, fixed_point);
    if (t && !is_virtual) fill(t);
    trace("%s tensor rank %u dtype %#x dims [%u,%u,%u,%u,%u,%u,%u]%s -> %p\n", is_virtual ? "virtual" : "real", rank,
          static_cast<unsigned>(dtype), dims[0], dims[1], dims[2], dims[3], dims[4], dims[5], dims[6],
          no_dims ? " (NULL dims)" : "", static_cast<void*>(t));
    return keep(reinterpret_cast<vx_reference>(t));
  }

  // Tiles up to 255 input bytes over the tensor's storage.
  void fill(vx_tensor t) {
    std::array<std::uint8_t, 255> chunk{};
    const std::size_t n = in.u8();
    in.fill(chunk.data(), n);
    rknnop_host_tensor_buffer b{};
    if (rknnopHostGetTensorBuffer(t, VX_WRITE_ONLY, &b) != VX_SUCCESS) return;
    auto* out = static_cast<std::uint8_t*>(b.data);
    for (std::size_t i = 0; n && i < b.size_in_bytes; ++i) out[i] = chunk[i % n];
    rknnopHostResetTensorWritten(t);
  }

  vx_reference scalar(bool typical) {
    const vx_enum type = typical ? VX_TYPE_BOOL : pick(in, scalar_types.data(), scalar_types.size());
    alignas(8) std::array<std::uint8_t, 16> value{};
    in.fill(value.data(), 8);
    if (type == VX_TYPE_BOOL && in.u8() < 0xF0) value = {static_cast<std::uint8_t>(value[0] & 1u)};
    const bool null_value = in.u8() == 0xEE;
    trace("scalar type %#x%s\n", static_cast<unsigned>(type), null_value ? " (NULL value)" : "");
    return keep(reinterpret_cast<vx_reference>(vxCreateScalar(context, type, null_value ? nullptr : value.data())));
  }

  vx_reference array(bool typical) {
    const vx_enum type = typical ? VX_TYPE_INT32 : pick(in, array_item_types.data(), array_item_types.size());
    const vx_size capacity = typical ? 2 + in.below(2) : in.below(7);
    vx_array a = vxCreateArray(context, type, capacity);
    if (!a) return nullptr;
    const std::size_t count = typical ? 2 : in.below(capacity + 2);
    alignas(8) std::array<std::uint8_t, 8 * 8> items{};
    for (std::size_t i = 0; i < count && i < 8; ++i) {
      std::int32_t v = static_cast<std::int32_t>(in.u8() % 14) - 1;
      const std::uint8_t extreme = in.u8();  // read either way: the input layout does not depend on the mode
      if (allow_extreme_items && extreme >= 0xC0) {
        v = pick(in, extreme_items.data(), extreme_items.size(), 0xFF);
        allow_virtual = false;
      }
      if (type == VX_TYPE_INT32)
        std::memcpy(items.data() + i * 4, &v, 4);
      else
        in.fill(items.data() + i * 8, 8);
    }
    vx_size item_size = 0;
    vxQueryArray(a, VX_ARRAY_ITEMSIZE, &item_size, sizeof item_size);
    if (count && count <= 8 && item_size && item_size <= 8) vxAddArrayItems(a, count, items.data(), item_size);
    trace(
        "array item type %#x capacity %zu count %zu first items %d,%d -> %p\n", static_cast<unsigned>(type),
        static_cast<std::size_t>(capacity), count,
        [&] {
          std::int32_t v;
          std::memcpy(&v, items.data(), 4);
          return v;
        }(),
        [&] {
          std::int32_t v;
          std::memcpy(&v, items.data() + 4, 4);
          return v;
        }(),
        static_cast<void*>(a));
    return keep(reinterpret_cast<vx_reference>(a));
  }

  // A parameter for slot `slot` of ResizeArea's table: mostly the expected kind.
  vx_reference parameter(std::size_t slot, bool output_virtual) {
    const std::uint8_t b = in.u8();
    const bool typical = b < 0x80;
    kind k = static_cast<kind>(b % static_cast<std::uint8_t>(kind::count));
    if (typical) {
      static constexpr kind expected[] = {kind::tensor, kind::tensor, kind::array, kind::scalar};
      k = slot < 4 ? expected[slot] : kind::tensor;
      if (slot == 1 && output_virtual) k = kind::virtual_tensor;
    }
    switch (k) {
      case kind::null: return nullptr;
      case kind::tensor: return tensor(false, typical);
      case kind::virtual_tensor: {
        const bool shape_typical = typical && in.flag();
        if (!allow_virtual) return tensor(false, shape_typical);
        allow_extreme_items = false;
        return tensor(true, shape_typical);
      }
      case kind::scalar: return scalar(typical);
      case kind::array: return array(typical);
      case kind::foreign:
        return in.flag() ? reinterpret_cast<vx_reference>(graph) : reinterpret_cast<vx_reference>(context);
      case kind::count: break;
    }
    return nullptr;
  }
};

vx_uint32 log_count(vx_context context) {
  vx_uint32 n = 0;
  rknnopHostGetLogEntryCount(context, &n);
  return n;
}

// A failing graph call must say why in the context's log (the log keeps the last 4096 entries).
void expect_logged(vx_context context, vx_status status, vx_uint32 before) {
  if (status == VX_SUCCESS) return;
  const vx_uint32 after = log_count(context);
  RKNNOP_FUZZ_EXPECT(after > before || after >= 4096, "a failing graph call left no log entry");
}

// Calls the descriptor's callbacks directly with a random parameter count and list.
void call_directly(byte_reader& in, builder& objects, const std::vector<vx_reference>& node_params, vx_node node) {
  const vx_kernel_description_t& d = *current;
  const std::uint8_t how = in.u8();
  vx_uint32 num = d.numParams;
  if (how >= 0xE0)
    num = in.value<vx_uint32>();
  else if (how >= 0xA0)
    num = static_cast<vx_uint32>(in.below(9));
  // Exactly `num` entries (up to 64) on the heap, so a read past `num` is an ASan report.
  const std::size_t entries = num < 64 ? num : 64;
  std::unique_ptr<vx_reference[]> refs(entries ? new vx_reference[entries] : nullptr);
  for (std::size_t i = 0; i < entries; ++i) {
    const std::uint8_t b = in.u8();
    if (b < 0xC0 && i < node_params.size())
      refs[i] = node_params[i];
    else if (b < 0xF0 && !objects.pool.empty())
      refs[i] = objects.pool[b % objects.pool.size()];
    else
      refs[i] = nullptr;
  }
  const vx_reference* list = in.u8() == 0xEE ? nullptr : refs.get();
  vx_node target = in.flag() ? node : nullptr;

  std::unique_ptr<vx_meta_format[]> metas;
  if (in.flag() && entries) {
    metas.reset(new vx_meta_format[entries]);
    for (std::size_t i = 0; i < entries; ++i)
      metas[i] = in.flag() || objects.pool.empty()
                     ? nullptr
                     : reinterpret_cast<vx_meta_format>(objects.pool[in.below(objects.pool.size())]);
  }
  const vx_status validated = checked_validate(target, list, num, metas.get());
  trace("direct validate(num %u, list %p, node %p, metas %p) -> %d\n", num, static_cast<const void*>(list),
        static_cast<void*>(target), static_cast<void*>(metas.get()), validated);

  // The board runtime runs a node's function and initializer only with parameters its validator
  // accepted, and the generated callbacks rely on that for the output shapes. A wrong count or a
  // NULL list is checked before anything else, so those calls are always fair.
  const bool count_or_list_wrong = num != d.numParams || list == nullptr;
#ifndef RKNNOP_FUZZ_UNVALIDATED_CALLS
  if (validated != VX_SUCCESS && !count_or_list_wrong) return;
#else
  (void)validated;
  (void)count_or_list_wrong;
#endif
  for (std::size_t i = 0; list && i < entries; ++i) trace("  list[%zu] = %p\n", i, static_cast<void*>(list[i]));
  if (d.function) trace("direct function -> %d\n", checked_function(target, list, num));
  if (d.initialize) trace("direct initialize -> %d\n", checked_initialize(target, list, num));
  if (d.deinitialize) checked_deinitialize(target, list, num);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool sink_set = [] {
    rknnop::set_log_sink(&capture_line);
    return true;
  }();
  (void)sink_set;
  sink_lines().clear();
  byte_reader in(data, size);

  vx_kernel_description_t* const* list = vx_kernel_ResizeArea_list.entries;
  current = list[in.flag() ? 1 : 0];
  const vx_kernel_description_t& d = *current;

  vx_context context = vxCreateContext();
  RKNNOP_FUZZ_EXPECT(context != nullptr);
  const std::uint8_t setup = in.u8();
  if (setup & 0x01) rknnopHostSetKhronosMode(context, vx_true_e);  // a VSI-dims kernel must fail cleanly
  if (setup & 0x02) rknnopHostSetShaderExecutor(context, &noop_shader, nullptr, nullptr);
  const bool loose_table = (setup & 0x04) != 0;  // VX_TYPE_REFERENCE everywhere: anything reaches the callbacks
  const bool output_virtual = (setup & 0x08) != 0;
  vx_uint32 num_params = d.numParams;
  if ((setup & 0x30) == 0x30) num_params = static_cast<vx_uint32>(in.below(7));

  vx_graph graph = vxCreateGraph(context);
  builder objects{in, context, graph, !output_virtual, true, {}};

  vx_kernel kernel = vxAddUserKernel(context, d.name, d.enumeration, d.function ? &checked_function : nullptr,
                                     num_params, &checked_validate, d.initialize ? &checked_initialize : nullptr,
                                     d.deinitialize ? &checked_deinitialize : nullptr);
  for (vx_uint32 i = 0; kernel && i < num_params; ++i) {
    const vx_param_description_t p =
        i < d.numParams ? d.parameters[i]
                        : vx_param_description_t{VX_INPUT, VX_TYPE_REFERENCE, VX_PARAMETER_STATE_REQUIRED};
    vxAddParameterToKernel(kernel, i, p.direction, loose_table ? VX_TYPE_REFERENCE : p.data_type, p.state);
  }
  if (kernel) vxFinalizeKernel(kernel);
  vx_node node = kernel ? vxCreateGenericNode(graph, kernel) : nullptr;

  std::vector<vx_reference> node_params;
  for (vx_uint32 i = 0; i < num_params; ++i) {
    node_params.push_back(objects.parameter(i, output_virtual));
    if (node) vxSetParameterByIndex(node, i, node_params.back());
  }

  if (node) {
    vx_uint32 before = log_count(context);
    const vx_status verified = vxVerifyGraph(graph);
    trace("vxVerifyGraph -> %d\n", verified);
    expect_logged(context, verified, before);
    const int runs = verified == VX_SUCCESS ? 1 + static_cast<int>(in.below(2)) : static_cast<int>(in.below(2));
    for (int r = 0; r < runs; ++r) {
      before = log_count(context);
      const vx_status processed = vxProcessGraph(graph);
      trace("vxProcessGraph -> %d\n", processed);
      expect_logged(context, processed, before);
    }
  }
  call_directly(in, objects, node_params, node);

  RKNNOP_FUZZ_EXPECT(vxReleaseContext(&context) == VX_SUCCESS);
  return 0;
}
