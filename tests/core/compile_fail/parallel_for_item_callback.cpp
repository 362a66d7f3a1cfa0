// SPDX-License-Identifier: MIT
// parallel_for's callback takes one index instead of a range [begin, end).
#include <rknnop/parallel.hpp>

#include <cstddef>

float square_all(float* values, std::size_t count) {
#ifdef RKNNOP_COMPILE_FAIL
  rknnop::parallel_for(count, 1024, [&](std::size_t i) { values[i] *= values[i]; });
#else
  rknnop::parallel_for(count, 1024, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) values[i] *= values[i];
  });
#endif
  return count ? values[0] : 0.0f;
}
