/* SPDX-License-Identifier: MIT */
/* The element-by-element float16 conversions of the toolkit-style C baselines (toolkit_*.c). */
#ifndef RKNNOP_BENCH_TOOLKIT_HALF_H
#define RKNNOP_BENCH_TOOLKIT_HALF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu, bits;
  float f;
  if (exponent == 0) {
    f = (float)mantissa * 5.9604644775390625e-8f; /* 2^-24 */
    return sign ? -f : f;
  }
  bits =
      exponent == 31 ? (sign | 0x7F800000u | (mantissa << 13)) : (sign | ((exponent + 112) << 23) | (mantissa << 13));
  memcpy(&f, &bits, sizeof f);
  return f;
}

static uint16_t float_to_half(float f) { /* round to nearest even */
  uint32_t bits, sign, abs_bits;
  memcpy(&bits, &f, sizeof bits);
  sign = (bits >> 16) & 0x8000u;
  abs_bits = bits & 0x7FFFFFFFu;
  if (abs_bits >= 0x7F800000u) return (uint16_t)(sign | 0x7C00u | (abs_bits > 0x7F800000u ? 0x200u : 0));
  if (abs_bits >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u); /* rounds to beyond 65504 */
  if (abs_bits < 0x38800000u) {                                   /* subnormal half (or zero) */
    float scaled;
    memcpy(&scaled, &abs_bits, sizeof scaled);
    return (uint16_t)(sign | (uint16_t)lrintf(scaled * 16777216.0f)); /* 2^24 */
  }
  {
    uint32_t rounded = abs_bits + 0xFFFu + ((abs_bits >> 13) & 1u);
    return (uint16_t)(sign | ((rounded - 0x38000000u) >> 13));
  }
}

#endif
