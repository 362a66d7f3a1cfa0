// SPDX-License-Identifier: MIT
// float16 <-> float32 conversion: rknnop::convert (F16C, selected at run time on x86-64) against a
// plain scalar loop over rknnop::float16 (the portable bit-manipulation path when the translation
// unit is not compiled for F16C, which is the case here: no -mf16c). 3x480x640 elements.
#include "side_by_side.hpp"

#include <rknnop/float16.hpp>

#include <vector>

int main(int argc, char** argv) {
  constexpr std::size_t count = 3 * 480 * 640;
  std::vector<float> floats(count), back(count);
  std::vector<rknnop::float16> halves(count);
  for (std::size_t i = 0; i < count; ++i) floats[i] = -100.f + 200.f * float(i % 4099) / 4099.f;
  for (std::size_t i = 0; i < count; ++i) halves[i] = rknnop::float16(floats[i]);
  const std::vector<bench::contender> contenders = {
      {"half_to_float_convert", [&] { rknnop::convert(halves.data(), back.data(), count), bench::keep(back.data()); }},
      {"half_to_float_scalar",
       [&] {
         for (std::size_t i = 0; i < count; ++i) back[i] = static_cast<float>(halves[i]);
         bench::keep(back.data());
       }},
      {"float_to_half_convert",
       [&] { rknnop::convert(floats.data(), halves.data(), count), bench::keep(halves.data()); }},
      {"float_to_half_scalar",
       [&] {
         for (std::size_t i = 0; i < count; ++i) halves[i] = rknnop::float16(floats[i]);
         bench::keep(halves.data());
       }},
  };
  return bench::run(argc, argv, "bench_convert (921,600 elements)", contenders,
                    {{"half->float convert/scalar", "half_to_float_convert", "half_to_float_scalar"},
                     {"float->half convert/scalar", "float_to_half_convert", "float_to_half_scalar"}});
}
