// SPDX-License-Identifier: MIT
#pragma once

// NumPy .npy files (format versions 1.0, 2.0, 3.0), C order, little-endian, for the dtypes custom-op
// tensors use (<f2, <f4) and a few integer ones. Shapes are in NumPy order (outermost first);
// OpenVX wants them innermost first: to_openvx_dims({1,32,32,3}) == {3,32,32,1}.

#include <rknnop/vx_type.hpp>  // the tensor element types

#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint8_t, std::uint32_t
#include <filesystem>   // std::filesystem::path
#include <optional>     // std::optional
#include <span>         // std::span
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace rknnop::host {

/// The .npy dtypes rknnop reads and writes: the tensor element types, rknnop::dtype itself (each the
/// rknnop::vx_type of the same name, so that a tensor's VX type and its .npy dtype convert by a cast).
using npy_dtype = rknnop::dtype;

/// The descr string written to files: "<f2", "|i1", ...
[[nodiscard]] std::string_view npy_descr(npy_dtype dtype) noexcept;
/// Bytes per element.
[[nodiscard]] std::size_t npy_item_size(npy_dtype dtype) noexcept;
/// Parses a descr ("<f4", "=f4" or "|u1"); nullopt if unsupported.
[[nodiscard]] std::optional<npy_dtype> npy_dtype_from_descr(std::string_view descr) noexcept;

struct npy_array {
  npy_dtype dtype = npy_dtype::float32;
  std::vector<std::size_t> shape;  ///< NumPy order; empty = 0-d (one element)
  std::vector<std::uint8_t> data;  ///< little-endian elements, C order

  [[nodiscard]] std::size_t element_count() const noexcept;
  /// Every element converted to float (float16 exactly, integers by value).
  [[nodiscard]] std::vector<float> to_floats() const;
  /// A float16 or float32 array holding `values` (float16 rounds to nearest even).
  [[nodiscard]] static npy_array from_floats(std::span<const float> values, std::vector<std::size_t> shape,
                                             npy_dtype dtype = npy_dtype::float32);
};

/// What converting an array to a float tensor type did (docs/running.md §1).
struct conversion_report {
  std::size_t count = 0;                   ///< values converted
  std::size_t rounded = 0;                 ///< values whose converted value differs from the original
  double largest_relative = 0;             ///< the largest |converted - original| / |original| among them
  std::size_t lossy = 0;                   ///< values that overflowed to inf, became NaN or were flushed to zero
  std::optional<std::size_t> first_lossy;  ///< the flat index of the first such value
  double first_lossy_value = 0;            ///< its original value
  double first_lossy_result = 0;           ///< what it became
};

/// `array` as float16 or float32 data (`to`), rounded to nearest even, and what that changed. NaN and
/// infinite values of the original are carried over (they are not losses).
[[nodiscard]] npy_array convert_to_float(const npy_array& array, npy_dtype to, conversion_report& report);

/// "[1, 2]": the NumPy index of flat element `index` of an array of this shape.
[[nodiscard]] std::string numpy_index(std::span<const std::size_t> shape, std::size_t index);

/// Parses a whole .npy file image; `source` names the file in diagnostics.
[[nodiscard]] npy_array parse_npy(std::span<const std::uint8_t> bytes, std::string_view source);
[[nodiscard]] npy_array read_npy_file(const std::filesystem::path& path);

/// Serializes with the smallest header version that fits (1.0, else 2.0), header padded to 64 bytes.
[[nodiscard]] std::vector<std::uint8_t> serialize_npy(const npy_array& array);
void write_npy_file(const npy_array& array, const std::filesystem::path& path);

/// NumPy shape -> OpenVX dims (reversed, innermost first). Throws if a dim exceeds uint32.
[[nodiscard]] std::vector<std::uint32_t> to_openvx_dims(std::span<const std::size_t> shape);
/// OpenVX dims -> NumPy shape.
[[nodiscard]] std::vector<std::size_t> from_openvx_dims(std::span<const std::uint32_t> dims);

}  // namespace rknnop::host
