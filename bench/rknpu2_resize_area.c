/* SPDX-License-Identifier: MIT */
/*
 * ResizeArea as an RKNPU2 CPU custom op written by hand in the style of Rockchip's C custom-op demos,
 * the baseline of bench_rknpu2: init reads the node's attributes once (rknn_custom_op_get_op_attr)
 * into priv_data; compute takes FLOAT32 NCHW tensors straight from the runtime's buffers
 * (virt_addr + offset, dims from attr) and loops over every output pixel, channel plane by channel
 * plane, summing its input cells as TensorFlow does (each row's weighted column sum, times the row's
 * weight, added up from 0 in cell order, then scaled): the same float32 operations in the same order as
 * examples/resize_area, so the two plugins' outputs are bit-identical. No SDK code.
 * Built against Rockchip's rknn_custom_op.h (RKNNOP_RKNPU2_RUNTIME/include).
 */
#include <rknn_custom_op.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
  int32_t size[2];
  int align_corners;
} resize_area_params;

static int read_int_attr(rknn_custom_op_context* op_ctx, const char* name, int32_t* values, uint32_t count) {
  rknn_custom_op_attr attr;
  uint32_t i;
  rknn_custom_op_get_op_attr(op_ctx, name, &attr);
  if (attr.n_elems < count || attr.data == NULL) return -1;
  for (i = 0; i < count; ++i) {
    if (attr.dtype == RKNN_TENSOR_INT32)
      values[i] = ((const int32_t*)attr.data)[i];
    else if (attr.dtype == RKNN_TENSOR_INT64)
      values[i] = (int32_t)((const int64_t*)attr.data)[i];
    else if (attr.dtype == RKNN_TENSOR_BOOL || attr.dtype == RKNN_TENSOR_UINT8)
      values[i] = ((const uint8_t*)attr.data)[i];
    else
      return -1;
  }
  return 0;
}

int init_custom_resize_area(rknn_custom_op_context* op_ctx, rknn_custom_op_tensor* inputs, uint32_t n_inputs,
                            rknn_custom_op_tensor* outputs, uint32_t n_outputs) {
  resize_area_params* params;
  int32_t align = 0;
  (void)inputs;
  (void)outputs;
  if (n_inputs != 1 || n_outputs != 1) return -1;
  params = (resize_area_params*)malloc(sizeof(resize_area_params));
  if (params == NULL) return -1;
  if (read_int_attr(op_ctx, "size", params->size, 2) != 0) {
    free(params);
    return -1;
  }
  if (read_int_attr(op_ctx, "align_corners", &align, 1) != 0) align = 0;
  params->align_corners = align != 0;
  op_ctx->priv_data = params;
  return 0;
}

int destroy_custom_resize_area(rknn_custom_op_context* op_ctx) {
  free(op_ctx->priv_data);
  op_ctx->priv_data = NULL;
  return 0;
}

/* Input cells per output cell. */
static float area_scale(int64_t in, int64_t out, int align) {
  return align && out > 1 && in > 1 ? (float)(in - 1) / (float)(out - 1) : (float)in / (float)out;
}

int compute_custom_resize_area_float32(rknn_custom_op_context* op_ctx, rknn_custom_op_tensor* inputs, uint32_t n_inputs,
                                       rknn_custom_op_tensor* outputs, uint32_t n_outputs) {
  const resize_area_params* params = (const resize_area_params*)op_ctx->priv_data;
  const float* in;
  float* out;
  int64_t batch, channels, in_h, in_w, out_h, out_w, n, c, oy, ox, iy, ix;
  float sy, sx, norm;
  if (params == NULL || n_inputs != 1 || n_outputs != 1) return -1;
  if (inputs[0].attr.type != RKNN_TENSOR_FLOAT32 || outputs[0].attr.type != RKNN_TENSOR_FLOAT32) return -1;
  if (inputs[0].attr.fmt != RKNN_TENSOR_NCHW || inputs[0].attr.n_dims != 4 || outputs[0].attr.n_dims != 4) return -1;
  in = (const float*)((unsigned char*)inputs[0].mem.virt_addr + inputs[0].mem.offset);
  out = (float*)((unsigned char*)outputs[0].mem.virt_addr + outputs[0].mem.offset);
  batch = inputs[0].attr.dims[0];
  channels = inputs[0].attr.dims[1];
  in_h = inputs[0].attr.dims[2];
  in_w = inputs[0].attr.dims[3];
  out_h = params->size[0];
  out_w = params->size[1];
  if (outputs[0].attr.dims[2] != (uint32_t)out_h || outputs[0].attr.dims[3] != (uint32_t)out_w) return -1;
  sy = area_scale(in_h, out_h, params->align_corners);
  sx = area_scale(in_w, out_w, params->align_corners);
  norm = (float)(1.0 / (double)(sy * sx));
  for (n = 0; n < batch; ++n)
    for (c = 0; c < channels; ++c) {
      const float* plane = in + (n * channels + c) * in_h * in_w;
      float* dst = out + (n * channels + c) * out_h * out_w;
      for (oy = 0; oy < out_h; ++oy) {
        const float y0 = (float)oy * sy, y1 = (float)(oy + 1) * sy;
        for (ox = 0; ox < out_w; ++ox) {
          const float x0 = (float)ox * sx, x1 = (float)(ox + 1) * sx;
          float sum = 0.f;
          for (iy = (int64_t)floorf(y0); iy < (int64_t)ceilf(y1); ++iy) {
            const float top = (float)iy, bottom = (float)(iy + 1);
            const float wy = top < y0 ? (bottom > y1 ? sy : bottom - y0) : (bottom > y1 ? y1 - top : 1.f);
            const float* row = plane + (iy < 0 ? 0 : iy >= in_h ? in_h - 1 : iy) * in_w;
            float row_sum = 0.f;
            for (ix = (int64_t)floorf(x0); ix < (int64_t)ceilf(x1); ++ix) {
              const float left = (float)ix, right = (float)(ix + 1);
              const float wx = left < x0 ? (right > x1 ? sx : right - x0) : (right > x1 ? x1 - left : 1.f);
              row_sum += row[ix < 0 ? 0 : ix >= in_w ? in_w - 1 : ix] * wx;
            }
            sum += row_sum * wy;
          }
          dst[oy * out_w + ox] = sum * norm;
        }
      }
    }
  return 0;
}
