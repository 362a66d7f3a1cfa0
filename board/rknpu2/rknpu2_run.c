/* SPDX-License-Identifier: MIT */
/* A small RKNPU2 application for the PC under qemu-arm (scripts/rknpu2-run.sh builds and runs it):
 * loads an .rknn model with Rockchip's librknnrt, registers the custom ops of the --plugin libraries
 * (each one's get_rknn_custom_op()) in one rknn_register_custom_ops call, sets the inputs from
 * float32 .npy files, runs once and writes the outputs (want_float) as float32 .npy. --record DIR
 * wraps each op's compute and writes what every call was handed and returned. Exit status: 0, 1 a
 * failed call (named on stderr), 2 usage. Docs: docs/rknpu2-emulation.md. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "rknn_api.h"
#include "rknn_custom_op.h"

#define MAX_IO 16
#define MAX_PLUGINS 16
#define MAX_NODES 64
#define MAX_MODEL_BYTES (512u << 20)
#define MAX_INPUT_BYTES (1u << 30)

static const char* usage_text =
    "usage: rknpu2_run [--plugin librkcst_X.so ...] MODEL.rknn -i 0=a.npy [-i 1=b.npy] -o 0=o0.npy [-o 1=...] "
    "[--record DIR]\n";

static int usage(const char* problem) {
  fprintf(stderr, "rknpu2-run: %s\n%s", problem, usage_text);
  return 2;
}

/* ---- recording ---- */

typedef struct recorded_op {
  rknn_custom_op op; /* as registered (compute replaced) */
  int (*original_compute)(rknn_custom_op_context*, rknn_custom_op_tensor*, uint32_t, rknn_custom_op_tensor*, uint32_t);
  const rknn_custom_op_context* nodes[MAX_NODES]; /* by first appearance */
  unsigned calls[MAX_NODES];
  unsigned n_nodes;
} recorded_op;

static recorded_op ops[MAX_PLUGINS];
static unsigned n_ops;
static const char* record_dir;

static const char* type_name(rknn_tensor_type type) {
  switch (type) {
    case RKNN_TENSOR_FLOAT32: return "FLOAT32";
    case RKNN_TENSOR_FLOAT16: return "FLOAT16";
    case RKNN_TENSOR_INT8: return "INT8";
    case RKNN_TENSOR_UINT8: return "UINT8";
    case RKNN_TENSOR_INT16: return "INT16";
    case RKNN_TENSOR_UINT16: return "UINT16";
    case RKNN_TENSOR_INT32: return "INT32";
    case RKNN_TENSOR_UINT32: return "UINT32";
    case RKNN_TENSOR_INT64: return "INT64";
    case RKNN_TENSOR_BOOL: return "BOOL";
    default: return "unknown";
  }
}

static const char* format_name(rknn_tensor_format fmt) {
  switch (fmt) {
    case RKNN_TENSOR_NCHW: return "NCHW";
    case RKNN_TENSOR_NHWC: return "NHWC";
    case RKNN_TENSOR_NC1HWC2: return "NC1HWC2";
    case RKNN_TENSOR_UNDEFINED: return "UNDEFINED";
    default: return "unknown";
  }
}

/* The .npy dtype of a tensor type and its size; NULL when it has none. */
static const char* npy_descr(rknn_tensor_type type, size_t* itemsize) {
  switch (type) {
    case RKNN_TENSOR_FLOAT32: *itemsize = 4; return "<f4";
    case RKNN_TENSOR_FLOAT16: *itemsize = 2; return "<f2";
    case RKNN_TENSOR_INT8: *itemsize = 1; return "|i1";
    case RKNN_TENSOR_UINT8: *itemsize = 1; return "|u1";
    case RKNN_TENSOR_INT16: *itemsize = 2; return "<i2";
    case RKNN_TENSOR_UINT16: *itemsize = 2; return "<u2";
    case RKNN_TENSOR_INT32: *itemsize = 4; return "<i4";
    case RKNN_TENSOR_UINT32: *itemsize = 4; return "<u4";
    case RKNN_TENSOR_INT64: *itemsize = 8; return "<i8";
    case RKNN_TENSOR_BOOL: *itemsize = 1; return "|b1";
    default: *itemsize = 0; return NULL;
  }
}

static void record_tensor(const char* stem, const char* kind, uint32_t k, const rknn_custom_op_tensor* t) {
  char path[4096], error[512];
  size_t itemsize;
  const char* descr = npy_descr(t->attr.type, &itemsize);
  if ((size_t)snprintf(path, sizeof path, "%s/%s.%s%u.npy", record_dir, stem, kind, k) >= sizeof path) {
    fprintf(stderr, "rknpu2-run: --record: path of %s.%s%u too long\n", stem, kind, k);
    return;
  }
  if (!descr || !t->mem.virt_addr || t->attr.n_dims > RKNN_MAX_DIMS) {
    fprintf(stderr, "rknpu2-run: --record: %s: tensor type %d, %u dims, data %p: not recorded\n", path, t->attr.type,
            t->attr.n_dims, t->mem.virt_addr);
    return;
  }
  uint64_t shape[RKNN_MAX_DIMS], count = 1;
  for (uint32_t d = 0; d < t->attr.n_dims; ++d) count *= shape[d] = t->attr.dims[d];
  uint64_t bytes = count * itemsize;
  if (count != t->attr.n_elems || (t->mem.size && bytes + (uint64_t)t->mem.offset > t->mem.size)) {
    fprintf(stderr, "rknpu2-run: --record: %s: dims give %llu elements, n_elems %u, memory %u bytes at offset %d\n",
            path, (unsigned long long)count, t->attr.n_elems, t->mem.size, t->mem.offset);
    return;
  }
  const char* data = (const char*)t->mem.virt_addr + t->mem.offset;
  if (npy_write(path, descr, shape, t->attr.n_dims, data, (size_t)bytes, error, sizeof error) != 0)
    fprintf(stderr, "rknpu2-run: --record: %s\n", error);
}

static void describe(char* text, size_t size, const rknn_custom_op_tensor* tensors, uint32_t n) {
  size_t used = 0;
  text[0] = '\0';
  for (uint32_t k = 0; k < n && used < size; ++k) {
    const rknn_tensor_attr* a = &tensors[k].attr;
    int w = snprintf(text + used, size - used, "%s%s %s [", k ? ", " : "", type_name(a->type), format_name(a->fmt));
    used += w > 0 ? (size_t)w : 0;
    for (uint32_t d = 0; d < a->n_dims && d < RKNN_MAX_DIMS && used < size; ++d) {
      w = snprintf(text + used, size - used, "%s%u", d ? "," : "", a->dims[d]);
      used += w > 0 ? (size_t)w : 0;
    }
    if (used < size) {
      w = snprintf(text + used, size - used, "]");
      used += w > 0 ? (size_t)w : 0;
    }
  }
}

static int record_call(unsigned slot, rknn_custom_op_context* context, rknn_custom_op_tensor* inputs, uint32_t n_inputs,
                       rknn_custom_op_tensor* outputs, uint32_t n_outputs) {
  recorded_op* op = &ops[slot];
  unsigned node = 0;
  while (node < op->n_nodes && op->nodes[node] != context) ++node;
  if (node == op->n_nodes && node < MAX_NODES) op->nodes[op->n_nodes++] = context;
  unsigned call = node < MAX_NODES ? op->calls[node]++ : 0;
  char stem[256];
  snprintf(stem, sizeof stem, "%s-%u.%u", op->op.op_type, node, call);
  for (uint32_t k = 0; k < n_inputs; ++k) record_tensor(stem, "in", k, &inputs[k]);
  int status = op->original_compute(context, inputs, n_inputs, outputs, n_outputs);
  for (uint32_t k = 0; k < n_outputs; ++k) record_tensor(stem, "out", k, &outputs[k]);
  char in_text[1024], out_text[1024];
  describe(in_text, sizeof in_text, inputs, n_inputs);
  describe(out_text, sizeof out_text, outputs, n_outputs);
  fprintf(stderr, "rknpu2-run: %s-%u call %u: %u inputs (%s), %u outputs (%s), compute returned %d\n", op->op.op_type,
          node, call, n_inputs, in_text, n_outputs, out_text, status);
  return status;
}

/* One trampoline per registered op (the callback's arguments do not name the op). */
#define RKNPU2_RUN_TRAMPOLINE(slot)                                                           \
  static int compute_##slot(rknn_custom_op_context* c, rknn_custom_op_tensor* i, uint32_t ni, \
                            rknn_custom_op_tensor* o, uint32_t no) {                          \
    return record_call(slot, c, i, ni, o, no);                                                \
  }
RKNPU2_RUN_TRAMPOLINE(0)
RKNPU2_RUN_TRAMPOLINE(1)
RKNPU2_RUN_TRAMPOLINE(2)
RKNPU2_RUN_TRAMPOLINE(3)
RKNPU2_RUN_TRAMPOLINE(4)
RKNPU2_RUN_TRAMPOLINE(5)
RKNPU2_RUN_TRAMPOLINE(6)
RKNPU2_RUN_TRAMPOLINE(7)
RKNPU2_RUN_TRAMPOLINE(8)
RKNPU2_RUN_TRAMPOLINE(9)
RKNPU2_RUN_TRAMPOLINE(10)
RKNPU2_RUN_TRAMPOLINE(11)
RKNPU2_RUN_TRAMPOLINE(12)
RKNPU2_RUN_TRAMPOLINE(13)
RKNPU2_RUN_TRAMPOLINE(14)
RKNPU2_RUN_TRAMPOLINE(15)
#undef RKNPU2_RUN_TRAMPOLINE
typedef int (*compute_function)(rknn_custom_op_context*, rknn_custom_op_tensor*, uint32_t, rknn_custom_op_tensor*,
                                uint32_t);
static const compute_function trampolines[MAX_PLUGINS] = {
    compute_0, compute_1, compute_2,  compute_3,  compute_4,  compute_5,  compute_6,  compute_7,
    compute_8, compute_9, compute_10, compute_11, compute_12, compute_13, compute_14, compute_15};

/* ---- the run ---- */

typedef struct io_file {
  unsigned index;
  const char* path;
} io_file;

static int parse_io(const char* text, io_file* out) {
  const char* equals = strchr(text, '=');
  if (!equals || equals == text || !equals[1]) return -1;
  char* end;
  unsigned long index = strtoul(text, &end, 10);
  if (end != equals || index >= MAX_IO) return -1;
  out->index = (unsigned)index;
  out->path = equals + 1;
  return 0;
}

static void* read_model(const char* path, uint32_t* size) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "rknpu2-run: %s: cannot open (%s)\n", path, strerror(errno));
    return NULL;
  }
  void* data = NULL;
  long length = -1;
  if (fseek(f, 0, SEEK_END) == 0) length = ftell(f);
  if (length <= 0 || (unsigned long)length > MAX_MODEL_BYTES || fseek(f, 0, SEEK_SET) != 0) {
    fprintf(stderr, "rknpu2-run: %s: size %ld (expected 1 to %u bytes)\n", path, length, MAX_MODEL_BYTES);
  } else if (!(data = malloc((size_t)length)) || fread(data, 1, (size_t)length, f) != (size_t)length) {
    fprintf(stderr, "rknpu2-run: %s: read failed\n", path);
    free(data);
    data = NULL;
  } else {
    *size = (uint32_t)length;
  }
  fclose(f);
  return data;
}

static int load_plugins(const char* const* paths, unsigned n) {
  for (unsigned p = 0; p < n; ++p) {
    void* library = dlopen(paths[p], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      fprintf(stderr, "rknpu2-run: dlopen %s: %s\n", paths[p], dlerror());
      return -1;
    }
    get_custom_op_func get = NULL;
    void* symbol = dlsym(library, "get_rknn_custom_op");
    if (symbol) memcpy(&get, &symbol, sizeof get);
    rknn_custom_op* op = get ? get() : NULL;
    if (!op) {
      fprintf(stderr, "rknpu2-run: %s: %s\n", paths[p],
              get ? "get_rknn_custom_op() returned NULL" : "no get_rknn_custom_op");
      return -1;
    }
    if (!op->compute) {
      fprintf(stderr, "rknpu2-run: %s: op %.*s has no compute\n", paths[p], RKNN_MAX_NAME_LEN, op->op_type);
      return -1;
    }
    ops[n_ops].op = *op;
    ops[n_ops].original_compute = op->compute;
    if (record_dir) ops[n_ops].op.compute = trampolines[n_ops];
    ++n_ops;
  }
  return 0;
}

static int set_inputs(rknn_context ctx, const rknn_input_output_num* counts, const io_file* files, unsigned n,
                      npy_array* arrays) {
  rknn_input inputs[MAX_IO];
  memset(inputs, 0, sizeof inputs);
  char error[512];
  for (unsigned i = 0; i < n; ++i) {
    if (files[i].index >= counts->n_input) {
      fprintf(stderr, "rknpu2-run: -i %u=%s: the model has %u inputs\n", files[i].index, files[i].path,
              counts->n_input);
      return -1;
    }
    rknn_tensor_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.index = files[i].index;
    int ret = rknn_query(ctx, RKNN_QUERY_INPUT_ATTR, &attr, sizeof attr);
    if (ret != RKNN_SUCC) {
      fprintf(stderr, "rknpu2-run: rknn_query(RKNN_QUERY_INPUT_ATTR, %u) failed: %d\n", attr.index, ret);
      return -1;
    }
    if (npy_read(files[i].path, MAX_INPUT_BYTES, &arrays[i], error, sizeof error) != 0) {
      fprintf(stderr, "rknpu2-run: %s\n", error);
      return -1;
    }
    if (strcmp(arrays[i].descr, "<f4") != 0 || arrays[i].count != attr.n_elems) {
      fprintf(stderr, "rknpu2-run: %s: %s with %llu elements; input %u wants float32 (<f4) with %u elements\n",
              files[i].path, arrays[i].descr, (unsigned long long)arrays[i].count, attr.index, attr.n_elems);
      return -1;
    }
    inputs[i].index = attr.index;
    inputs[i].buf = arrays[i].data;
    inputs[i].size = (uint32_t)(arrays[i].count * 4);
    inputs[i].pass_through = 0;
    inputs[i].type = RKNN_TENSOR_FLOAT32;
    inputs[i].fmt = attr.fmt;
  }
  int ret = rknn_inputs_set(ctx, n, inputs);
  if (ret != RKNN_SUCC) {
    fprintf(stderr, "rknpu2-run: rknn_inputs_set failed: %d\n", ret);
    return -1;
  }
  return 0;
}

static int get_outputs(rknn_context ctx, const rknn_input_output_num* counts, const io_file* files, unsigned n) {
  rknn_output outputs[MAX_IO];
  memset(outputs, 0, sizeof outputs);
  for (uint32_t o = 0; o < counts->n_output; ++o) {
    outputs[o].index = o;
    outputs[o].want_float = 1;
  }
  int ret = rknn_outputs_get(ctx, counts->n_output, outputs, NULL);
  if (ret != RKNN_SUCC) {
    fprintf(stderr, "rknpu2-run: rknn_outputs_get failed: %d\n", ret);
    return -1;
  }
  int status = 0;
  for (unsigned i = 0; i < n && status == 0; ++i) {
    rknn_tensor_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.index = files[i].index;
    ret = rknn_query(ctx, RKNN_QUERY_OUTPUT_ATTR, &attr, sizeof attr);
    if (files[i].index >= counts->n_output || ret != RKNN_SUCC) {
      fprintf(stderr, "rknpu2-run: rknn_query(RKNN_QUERY_OUTPUT_ATTR, %u) failed: %d (the model has %u outputs)\n",
              files[i].index, ret, counts->n_output);
      status = -1;
      break;
    }
    uint64_t shape[RKNN_MAX_DIMS];
    for (uint32_t d = 0; d < attr.n_dims && d < RKNN_MAX_DIMS; ++d) shape[d] = attr.dims[d];
    const rknn_output* out = &outputs[files[i].index];
    if ((uint64_t)attr.n_elems * 4 != out->size) {
      fprintf(stderr, "rknpu2-run: output %u: %u bytes, expected %u float32 elements\n", attr.index, out->size,
              attr.n_elems);
      status = -1;
      break;
    }
    char error[512];
    if (npy_write(files[i].path, "<f4", shape, attr.n_dims, out->buf, out->size, error, sizeof error) != 0) {
      fprintf(stderr, "rknpu2-run: %s\n", error);
      status = -1;
    }
  }
  rknn_outputs_release(ctx, counts->n_output, outputs);
  return status;
}

int main(int argc, char** argv) {
  const char* plugins[MAX_PLUGINS];
  unsigned n_plugins = 0, n_in = 0, n_out = 0;
  io_file in_files[MAX_IO], out_files[MAX_IO];
  const char* model_path = NULL;
  for (int a = 1; a < argc; ++a) {
    const char* arg = argv[a];
    int has_value = a + 1 < argc;
    if (strcmp(arg, "--plugin") == 0) {
      if (!has_value || n_plugins == MAX_PLUGINS) return usage("--plugin needs a library (at most 16)");
      plugins[n_plugins++] = argv[++a];
    } else if (strcmp(arg, "--record") == 0) {
      if (!has_value) return usage("--record needs a folder");
      record_dir = argv[++a];
    } else if (strcmp(arg, "-i") == 0 || strcmp(arg, "-o") == 0) {
      int input = arg[1] == 'i';
      io_file* files = input ? in_files : out_files;
      unsigned* count = input ? &n_in : &n_out;
      if (!has_value || *count == MAX_IO || parse_io(argv[a + 1], &files[*count]) != 0)
        return usage("-i/-o take INDEX=FILE.npy (index below 16)");
      ++*count;
      ++a;
    } else if (arg[0] == '-') {
      return usage("unknown option");
    } else if (model_path) {
      return usage("more than one model");
    } else {
      model_path = arg;
    }
  }
  if (!model_path) return usage("no model");

  uint32_t model_size = 0;
  void* model = read_model(model_path, &model_size);
  if (!model) return 1;
  int status = 1;
  rknn_context ctx = 0;
  npy_array arrays[MAX_IO];
  memset(arrays, 0, sizeof arrays);
  rknn_input_output_num counts;
  int ret = rknn_init(&ctx, model, model_size, 0, NULL);
  if (ret != RKNN_SUCC) {
    fprintf(stderr, "rknpu2-run: rknn_init failed: %d\n", ret);
    free(model);
    return 1;
  }
  if (load_plugins(plugins, n_plugins) != 0) goto done;
  if (n_ops) {
    rknn_custom_op registered[MAX_PLUGINS];
    for (unsigned k = 0; k < n_ops; ++k) registered[k] = ops[k].op;
    ret = rknn_register_custom_ops(ctx, registered, n_ops);
    if (ret != RKNN_SUCC) {
      fprintf(stderr, "rknpu2-run: rknn_register_custom_ops failed: %d\n", ret);
      goto done;
    }
  }
  ret = rknn_query(ctx, RKNN_QUERY_IN_OUT_NUM, &counts, sizeof counts);
  if (ret != RKNN_SUCC) {
    fprintf(stderr, "rknpu2-run: rknn_query(RKNN_QUERY_IN_OUT_NUM) failed: %d\n", ret);
    goto done;
  }
  if (counts.n_input > MAX_IO || counts.n_output > MAX_IO) {
    fprintf(stderr, "rknpu2-run: the model has %u inputs and %u outputs (at most %d each)\n", counts.n_input,
            counts.n_output, MAX_IO);
    goto done;
  }
  if (set_inputs(ctx, &counts, in_files, n_in, arrays) != 0) goto done;
  ret = rknn_run(ctx, NULL);
  if (ret != RKNN_SUCC) {
    fprintf(stderr, "rknpu2-run: rknn_run failed: %d\n", ret);
    goto done;
  }
  if (get_outputs(ctx, &counts, out_files, n_out) != 0) goto done;
  status = 0;
done:
  for (unsigned i = 0; i < MAX_IO; ++i) npy_free(&arrays[i]);
  ret = rknn_destroy(ctx);
  if (ret != RKNN_SUCC && status == 0) {
    fprintf(stderr, "rknpu2-run: rknn_destroy failed: %d\n", ret);
    status = 1;
  }
  free(model);
  return status;
}
