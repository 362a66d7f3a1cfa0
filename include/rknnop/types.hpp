// SPDX-License-Identifier: MIT
#pragma once

// The field types an op struct may use besides tensors: scalars and int32 arrays, and their VX types.

#include <rknnop/detail/dtypes.hpp>
#include <rknnop/float16.hpp>

#include <array>             // std::array params
#include <concepts>          // enum name tables
#include <cstddef>           // std::size_t
#include <cstdint>           // fixed-width scalar types
#include <cstdlib>           // std::malloc, std::calloc for buffer<T>
#include <cstring>           // std::memset for buffer<T>
#include <initializer_list>  // int_array defaults
#include <string_view>       // enum names
#include <type_traits>       // type mapping

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop {
// A variable-length int32 array param holding at most Max items (the runtime's arrays are int32).
// Like std::array, `int_array<4> pads;` leaves it unset (a required param) and `int_array<4> pads{};`
// or `int_array<4> pads = {1, 1};` gives the param a default (empty, or those items): the members
// have no initializers of their own, so that rknnop can tell the two apart (docs/first-op.md §4).
template <std::size_t Max>
class RKNNOP_DETAIL_USER_TYPE int_array {
  static_assert(Max > 0, "rknnop: int_array<Max> needs Max > 0");

public:
  RKNNOP_DETAIL_HIDDEN constexpr int_array() noexcept = default;
  // The first Max items of `items` (more are a compile error in constant evaluation).
  RKNNOP_DETAIL_HIDDEN constexpr int_array(std::initializer_list<std::int32_t> items) noexcept : items_{}, count_(0) {
    for (std::int32_t v : items) items_[count_++] = v;
  }
  RKNNOP_DETAIL_HIDDEN constexpr std::size_t size() const noexcept { return count_; }
  RKNNOP_DETAIL_HIDDEN constexpr bool empty() const noexcept { return count_ == 0; }
  RKNNOP_DETAIL_HIDDEN static constexpr std::size_t max_size() noexcept { return Max; }
  RKNNOP_DETAIL_HIDDEN constexpr std::int32_t operator[](std::size_t i) const noexcept { return items_[i]; }
  RKNNOP_DETAIL_HIDDEN constexpr const std::int32_t* begin() const noexcept { return items_; }
  RKNNOP_DETAIL_HIDDEN constexpr const std::int32_t* end() const noexcept { return items_ + count_; }
  RKNNOP_DETAIL_HIDDEN constexpr const std::int32_t* data() const noexcept { return items_; }

  // For the generated decoder (and tests): the writable storage and the item count.
  RKNNOP_DETAIL_HIDDEN constexpr std::int32_t* storage() noexcept { return items_; }
  RKNNOP_DETAIL_HIDDEN constexpr void resize(std::size_t n) noexcept { count_ = n <= Max ? n : Max; }

private:
  std::int32_t items_[Max];
  std::size_t count_;
};

// What `infer`, `cpu` and `vx` receive as params when the op struct declares no `params`:
//   static constexpr auto cpu = [](const inputs& in, outputs& out, rknnop::no_params) { ... };
struct no_params {};

// One enumerator of an enum param and the name TensorFlow's string attribute spells it with.
template <class E>
struct enum_name {
  E value;
  std::string_view name;
};

namespace customize {
// Specialize for an enum used as a param (an int32 scalar on the board; its names in op.yml's
// comments, `rknnop-run --param mode=REFLECT` and the generated Python class):
//   template <> struct rknnop::customize::enum_names<pad_mode> {
//     static constexpr rknnop::enum_name<pad_mode> table[] = {{pad_mode::reflect, "REFLECT"},
//                                                              {pad_mode::symmetric, "SYMMETRIC"}};
//   };
template <class E>
struct enum_names;  // undefined: an enum without a name table is not a param type
}  // namespace customize

namespace detail {
// The rank limit (vx_types.hpp: rknnop::vx_max_tensor_rank) as the SDK counts dims (std::uint32_t).
inline constexpr auto max_tensor_rank = static_cast<std::uint32_t>(vx_max_tensor_rank);

// RKNNOP_GUARD_BUFFERS: buffer<T> overruns seen when a buffer was freed, for the callback to report
// after the kernel (a destructor cannot fail the node). One record per library, not per thread: two
// nodes of the op running at once may see each other's overrun, which is still an overrun.
struct scratch_guard {
  static constexpr std::size_t bytes = RKNNOP_GUARD_BUFFERS ? 64 : 0;  // before and after each buffer
  struct pattern_bytes {
    unsigned char at[2 * 64];  // the guard before, then the guard after; varied, unlike a memset
  };
  static constexpr pattern_bytes make_pattern() noexcept {
    pattern_bytes p{};
    for (std::size_t i = 0; i < sizeof p.at; ++i) p.at[i] = static_cast<unsigned char>(0x5Au ^ ((i * 0x3Bu) & 0xFFu));
    return p;
  }
  static inline constinit std::size_t overruns = 0;  // counts; the last one's bytes and size below
  static inline constinit long long first = 0, last = 0;
  static inline constinit std::size_t size = 0;
};
inline constexpr scratch_guard::pattern_bytes scratch_guard_pattern = scratch_guard::make_pattern();
}  // namespace detail

// Scratch memory for kernels: zero-filled, freed on scope exit, no exceptions and no libstdc++ (so
// kernel libraries stay loadable on the boards' old userland). Test it like a pointer:
//   rknnop::buffer<float> rows(n); if (!rows) return rknnop::error("out of memory");
// On the PC (RKNNOP_GUARD_BUFFERS) guard bytes around it catch a kernel writing outside it.
template <class T>
class RKNNOP_DETAIL_USER_TYPE buffer {
  static_assert(std::is_trivially_copyable_v<T>, "rknnop: buffer<T> holds trivially copyable T only");

public:
  RKNNOP_DETAIL_HIDDEN explicit buffer(std::size_t count) noexcept : data_(allocate(count)), size_(data_ ? count : 0) {}
  RKNNOP_DETAIL_HIDDEN buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  RKNNOP_DETAIL_HIDDEN ~buffer() {
    if constexpr (guard != 0) {
      if (data_) check_guards();
      std::free(data_ ? reinterpret_cast<unsigned char*>(data_) - guard : nullptr);
    } else {
      std::free(data_);
    }
  }

  RKNNOP_DETAIL_HIDDEN explicit operator bool() const noexcept { return data_ != nullptr; }
  RKNNOP_DETAIL_HIDDEN std::size_t size() const noexcept { return size_; }
  RKNNOP_DETAIL_HIDDEN T* data() noexcept { return data_; }
  RKNNOP_DETAIL_HIDDEN const T* data() const noexcept { return data_; }
  RKNNOP_DETAIL_HIDDEN T& operator[](std::size_t i) noexcept { return data_[i]; }
  RKNNOP_DETAIL_HIDDEN const T& operator[](std::size_t i) const noexcept { return data_[i]; }

private:
  static constexpr std::size_t guard = detail::scratch_guard::bytes;

  // Small blocks from malloc, zeroed here: glibc's calloc skips its per-thread cache, malloc does
  // not (a kernel's small tables then cost a few instructions per call). Large ones from calloc,
  // which gets fresh zero pages without writing them.
  RKNNOP_DETAIL_HIDDEN static T* allocate(std::size_t count) noexcept {
    if (count > (~std::size_t{0} - 2 * guard) / sizeof(T))
      return nullptr;  // not calloc's to refuse: sanitizers abort there
    const std::size_t bytes = count * sizeof(T), total = bytes + 2 * guard;
    unsigned char* p = nullptr;
    if (count > small_bytes / sizeof(T)) {
      p = static_cast<unsigned char*>(std::calloc(total, 1));
    } else {
      p = static_cast<unsigned char*>(std::malloc(total ? total : 1));
      if (p) std::memset(p + guard, 0, bytes);
    }
    if (p && guard != 0) {
      std::memcpy(p, detail::scratch_guard_pattern.at, guard);
      std::memcpy(p + guard + bytes, detail::scratch_guard_pattern.at + guard, guard);
    }
    return p ? reinterpret_cast<T*>(p + guard) : nullptr;
  }
  RKNNOP_DETAIL_HIDDEN void check_guards() const noexcept {
    const unsigned char* p = reinterpret_cast<const unsigned char*>(data_) - guard;
    const std::size_t bytes = size_ * sizeof(T);
    if (std::memcmp(p, detail::scratch_guard_pattern.at, guard) == 0 &&
        std::memcmp(p + guard + bytes, detail::scratch_guard_pattern.at + guard, guard) == 0)
      return;
    long long first = 0, last = 0;
    bool changed = false;
    for (std::size_t i = 0; i < 2 * guard; ++i) {
      const std::size_t at = i < guard ? i : bytes + i;  // the bytes before, then the bytes after
      if (p[at] == detail::scratch_guard_pattern.at[i]) continue;
      const long long offset = static_cast<long long>(at) - static_cast<long long>(guard);
      if (!changed || (offset >= 0 && first < 0)) first = offset;
      last = offset;
      changed = true;
    }
    if (!changed) return;
    detail::scratch_guard::first = first;
    detail::scratch_guard::last = last;
    detail::scratch_guard::size = bytes;
    __atomic_add_fetch(&detail::scratch_guard::overruns, 1, __ATOMIC_RELEASE);
  }
  static constexpr std::size_t small_bytes = 1024;  // glibc's per-thread cache takes blocks up to 1032 bytes

  T* data_;
  std::size_t size_;
};

// The VX name of a dtype ("VX_TYPE_FLOAT16"), as diagnostics spell it; from the one table.
[[nodiscard]] constexpr const char* dtype_vx_name(dtype type) noexcept {
  return detail::vx_type_name(static_cast<std::int32_t>(type));
}

namespace detail {

// The VX type of a tensor element type; not a tensor element type: VX_TYPE_INVALID, so that tensor<double> still
// declares and the op's gate (model.hpp) reports it naming the op, the field and the type.
template <class T>
struct element_dtype : std::integral_constant<std::int32_t, dtype_vx_of<T>()> {};  // from the one table (dtypes.hpp)

template <class T>
concept tensor_element = element_dtype<T>::value != vx_type::invalid;

// Bytes of a tensor element or scalar value (BOOL: 4); 0 for anything else.
constexpr std::size_t dtype_size(std::int32_t type) noexcept { return vx_type_size(type, vx_use_scalar); }

// An enum param: an enum with a customize::enum_names table, carried as a VX_TYPE_INT32 scalar.
template <class T>
concept enum_param_type = std::is_enum_v<T> && requires {
  { customize::enum_names<T>::table[0].value } -> std::convertible_to<T>;
  { customize::enum_names<T>::table[0].name } -> std::convertible_to<std::string_view>;
};

// Scalar param types -> VX scalar type (and the exact storage size the driver copies).
template <class T>
constexpr std::int32_t scalar_vx_type() noexcept {
  if constexpr (std::is_same_v<T, bool>)
    return vx_type::bool_;
  else if constexpr (std::is_same_v<T, char>)
    return vx_type::char_;
  else if constexpr (std::is_same_v<T, float16>)
    return vx_type::float16;
  else if constexpr (std::is_same_v<T, float>)
    return vx_type::float32;
  else if constexpr (std::is_same_v<T, double>)
    return vx_type::float64;
  else if constexpr (enum_param_type<T>)
    return vx_type::int32;
  else if constexpr (std::is_integral_v<T> && sizeof(T) <= 8) {
    constexpr bool s = std::is_signed_v<T>;
    if constexpr (sizeof(T) == 1)
      return s ? vx_type::int8 : vx_type::uint8;
    else if constexpr (sizeof(T) == 2)
      return s ? vx_type::int16 : vx_type::uint16;
    else if constexpr (sizeof(T) == 4)
      return s ? vx_type::int32 : vx_type::uint32;
    else
      return s ? vx_type::int64 : vx_type::uint64;
  } else {
    return vx_type::invalid;
  }
}

template <class T>
concept vx_scalar_type = !std::is_same_v<T, wchar_t> && !std::is_same_v<T, char8_t> && !std::is_same_v<T, char16_t> &&
                         !std::is_same_v<T, char32_t> && scalar_vx_type<T>() != vx_type::invalid;

template <class T>
struct array_traits : std::false_type {};
template <std::size_t N>
struct array_traits<std::array<std::int32_t, N>> : std::true_type {
  static constexpr std::size_t capacity = N;
  static constexpr bool exact = true;
};
template <std::size_t Max>
struct array_traits<int_array<Max>> : std::true_type {
  static constexpr std::size_t capacity = Max;
  static constexpr bool exact = false;
};

template <class T>
concept int32_array_type = array_traits<T>::value;

}  // namespace detail
}  // namespace rknnop

RKNNOP_DETAIL_END_HIDDEN
