/* SPDX-License-Identifier: MIT */
/*
 * The C exports of an rknnop RKNPU2 plugin (librkcst_<lower>.so, built by rknnop_add_op from an op
 * struct with <rknnop/rknpu2.hpp>; docs/rknpu2.md), for C and C++ callers that open a plugin themselves:
 *
 *   rknnop_rknpu2_custom_op* get_rknn_custom_op(void)         what librknnrt and rknn_server load
 *   const rknnop_rknpu2_custom_op* rknnop_rknpu2_ops(uint32_t* count)   every op of the library (one)
 *   int rknnop_rknpu2_infer(...)                                 the op's shape inference, attributes given
 *   int rknnop_rknpu2_compute(...)                               the op's CPU kernel, attributes given
 *   const char* rknnop_rknpu2_describe(void)                     the op, its tensors and attributes (text)
 *
 * Plain C (C99 and later), no Rockchip header needed. The structs are rknnop's own names for
 * librknnrt's (rknn_api.h, rknn_custom_op.h of RKNPU2 SDK 1.6.0 and later), layout for layout:
 *   rknnop_rknpu2_tensor_attr = rknn_tensor_attr        rknnop_rknpu2_op_tensor  = rknn_custom_op_tensor
 *   rknnop_rknpu2_tensor_mem  = rknn_tensor_mem         rknnop_rknpu2_op_attr    = rknn_custom_op_attr
 *   rknnop_rknpu2_op_context  = rknn_custom_op_context  rknnop_rknpu2_custom_op  = rknn_custom_op
 * (pinned against Rockchip's headers by tests/rknpu2/plugin_header_layout.c), so a pointer to one may be
 * handed where the other is expected, and this header may be included beside Rockchip's.
 *
 * rknnop_rknpu2_infer and rknnop_rknpu2_compute run the op without librknnrt: the node's attributes are
 * passed in (an absent one takes the op struct's default), tensors as librknnrt hands a CPU op
 * (FLOAT32 or FLOAT16, NCHW, dims outermost first). Both return 0, or -1 with one line
 * "rknnop: <Op>: ..." in `error` (cut to error_size - 1 bytes, NUL-terminated; error may be NULL).
 *
 * Linked (-l:librkcst_<lower>.so) or opened with dlopen: the RKNNOP_RKNPU2_*_FN typedefs below are the
 * exports' pointer types for dlsym.
 */
#ifndef RKNNOP_RKNPU2_PLUGIN_H
#define RKNNOP_RKNPU2_PLUGIN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RKNNOP_RKNPU2_MAX_DIMS 16      /* RKNN_MAX_DIMS */
#define RKNNOP_RKNPU2_MAX_NAME_LEN 256 /* RKNN_MAX_NAME_LEN */

/* rknn_tensor_type: the values a plugin's tensors and attributes are typed with. */
enum {
  RKNNOP_RKNPU2_FLOAT32 = 0,
  RKNNOP_RKNPU2_FLOAT16 = 1,
  RKNNOP_RKNPU2_INT8 = 2,
  RKNNOP_RKNPU2_UINT8 = 3,
  RKNNOP_RKNPU2_INT16 = 4,
  RKNNOP_RKNPU2_UINT16 = 5,
  RKNNOP_RKNPU2_INT32 = 6,
  RKNNOP_RKNPU2_UINT32 = 7,
  RKNNOP_RKNPU2_INT64 = 8,
  RKNNOP_RKNPU2_BOOL = 9,
  RKNNOP_RKNPU2_INT4 = 10,
  RKNNOP_RKNPU2_BFLOAT16 = 11 /* RKNN_TENSOR_BFLOAT16 of RKNPU2 SDK 2.1 and later (not in 1.6.0's header) */
};

/* rknn_tensor_format */
enum { RKNNOP_RKNPU2_NCHW = 0, RKNNOP_RKNPU2_NHWC = 1, RKNNOP_RKNPU2_NC1HWC2 = 2, RKNNOP_RKNPU2_UNDEFINED = 3 };

/* rknn_target_type */
enum { RKNNOP_RKNPU2_TARGET_CPU = 1, RKNNOP_RKNPU2_TARGET_GPU = 2 };

/* rknn_tensor_attr: dims outermost first; type and fmt are the enums above (C enums: 4 bytes). */
typedef struct rknnop_rknpu2_tensor_attr {
  uint32_t index;
  uint32_t n_dims;
  uint32_t dims[RKNNOP_RKNPU2_MAX_DIMS];
  char name[RKNNOP_RKNPU2_MAX_NAME_LEN];
  uint32_t n_elems;
  uint32_t size;
  int32_t fmt;
  int32_t type;
  int32_t qnt_type; /* 0 none, 1 DFP, 2 affine asymmetric */
  int8_t fl;
  int32_t zp;
  float scale;
  uint32_t w_stride;
  uint32_t size_with_stride;
  uint8_t pass_through;
  uint32_t h_stride;
} rknnop_rknpu2_tensor_attr;

/* rknn_tensor_mem: the data is at (char*)virt_addr + offset. */
typedef struct rknnop_rknpu2_tensor_mem {
  void* virt_addr;
  uint64_t phys_addr;
  int32_t fd;
  int32_t offset;
  uint32_t size;
  uint32_t flags;
  void* priv_data;
} rknnop_rknpu2_tensor_mem;

/* rknn_custom_op_tensor */
typedef struct rknnop_rknpu2_op_tensor {
  rknnop_rknpu2_tensor_attr attr;
  rknnop_rknpu2_tensor_mem mem;
} rknnop_rknpu2_op_tensor;

/* rknn_custom_op_attr: one attribute of the model's node (ONNX INT as INT64, FLOAT as FLOAT32, INTS and
   FLOATS as arrays of those; n_elems items at data). */
typedef struct rknnop_rknpu2_op_attr {
  char name[RKNNOP_RKNPU2_MAX_NAME_LEN];
  int32_t dtype;
  uint32_t n_elems;
  void* data;
} rknnop_rknpu2_op_attr;

/* rknn_custom_op_context (librknnrt's; the plugin keeps its node's params at priv_data). */
typedef struct rknnop_rknpu2_op_context {
  int32_t target;
#if defined(__arm__)
  uint32_t internal_ctx;
#else
  uint64_t internal_ctx;
#endif
  struct {
    void* cl_context;
    void* cl_command_queue;
    void* cl_kernel;
  } gpu_ctx;
  void* priv_data;
} rknnop_rknpu2_op_context;

typedef int (*rknnop_rknpu2_op_callback)(rknnop_rknpu2_op_context* ctx, rknnop_rknpu2_op_tensor* inputs,
                                         uint32_t n_inputs, rknnop_rknpu2_op_tensor* outputs, uint32_t n_outputs);

/* rknn_custom_op: what librknnrt registers (rknn_register_custom_ops). op_type is the ONNX node's op type. */
typedef struct rknnop_rknpu2_custom_op {
  uint32_t version;
  int32_t target;
  char op_type[RKNNOP_RKNPU2_MAX_NAME_LEN];
  char cl_kernel_name[RKNNOP_RKNPU2_MAX_NAME_LEN];
  char* cl_kernel_source;
  uint64_t cl_source_size;
  char cl_build_options[RKNNOP_RKNPU2_MAX_NAME_LEN];
  rknnop_rknpu2_op_callback init;
  rknnop_rknpu2_op_callback prepare;
  rknnop_rknpu2_op_callback compute;
  rknnop_rknpu2_op_callback compute_native;
  int (*destroy)(rknnop_rknpu2_op_context* ctx);
} rknnop_rknpu2_custom_op;

/* The plugin's op, as rknn_server and applications load it (dlsym "get_rknn_custom_op"). */
rknnop_rknpu2_custom_op* get_rknn_custom_op(void);

/* Every op of the library (an rknnop plugin holds one): *count set to their number. */
const rknnop_rknpu2_custom_op* rknnop_rknpu2_ops(uint32_t* count);

/* The op's infer: from the attributes and the n_inputs input attrs (n_dims, dims, type, fmt), fills
   each output attr's n_dims, dims, n_elems, size, type and fmt. */
int rknnop_rknpu2_infer(const rknnop_rknpu2_op_attr* attrs, uint32_t n_attrs, const rknnop_rknpu2_tensor_attr* inputs,
                        uint32_t n_inputs, rknnop_rknpu2_tensor_attr* outputs, uint32_t n_outputs, char* error,
                        uint32_t error_size);

/* The op's CPU kernel on the inputs' data into the outputs' (each tensor's attr and mem filled as
   librknnrt fills them; the output attrs as rknnop_rknpu2_infer gave them). */
int rknnop_rknpu2_compute(const rknnop_rknpu2_op_attr* attrs, uint32_t n_attrs, rknnop_rknpu2_op_tensor* inputs,
                          uint32_t n_inputs, rknnop_rknpu2_op_tensor* outputs, uint32_t n_outputs, char* error,
                          uint32_t error_size);

/* The op described, one line each (static text, NUL-terminated, built from the op struct as the
   toolkit2 class is; `rknnop-run librkcst_<op>.so --describe` prints it):
     op <Name> (RKNPU2 op type '<type>')
     input <name>: <the RKNN dtypes it takes, e.g. FLOAT32 or FLOAT16>[, rank N]
     output <name>: <dtypes>[, rank N]
     attribute <name>: <ONNX type: float, int64 or ints, with what it holds>, default <value> | required
   in the op struct's order. Absent from plugins built by rknnop 0.1.0 (dlsym returns NULL). */
const char* rknnop_rknpu2_describe(void);

/* The exports' pointer types, for dlsym. */
/* (void): C's empty parameter list */
typedef rknnop_rknpu2_custom_op* (*RKNNOP_RKNPU2_GET_CUSTOM_OP_FN)(void); /* NOLINT(modernize-redundant-void-arg) */
typedef const rknnop_rknpu2_custom_op* (*RKNNOP_RKNPU2_OPS_FN)(uint32_t*);
typedef int (*RKNNOP_RKNPU2_INFER_FN)(const rknnop_rknpu2_op_attr*, uint32_t, const rknnop_rknpu2_tensor_attr*,
                                      uint32_t, rknnop_rknpu2_tensor_attr*, uint32_t, char*, uint32_t);
typedef int (*RKNNOP_RKNPU2_COMPUTE_FN)(const rknnop_rknpu2_op_attr*, uint32_t, rknnop_rknpu2_op_tensor*, uint32_t,
                                        rknnop_rknpu2_op_tensor*, uint32_t, char*, uint32_t);
typedef const char* (*RKNNOP_RKNPU2_DESCRIBE_FN)(void); /* NOLINT(modernize-redundant-void-arg) */

#ifdef __cplusplus
}
#endif

#endif /* RKNNOP_RKNPU2_PLUGIN_H */
