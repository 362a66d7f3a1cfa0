/* SPDX-License-Identifier: MIT */
/* One custom-op node through a board's real libOpenVX.so.1.2, registered the way librknn_runtime
 * registers an op library (docs/abi.md, docs/board-emulation.md §4): dlopen(RTLD_LAZY), dlsym
 * "vx_kernel_<Name>_list", the chosen descriptor's enumeration overwritten with 0xfff03080, then
 * vxAddUserKernel with the descriptor's name, function, numParams, validate, initialize and
 * deinitialize, vxAddParameterToKernel for each entry of its parameter table, vxFinalizeKernel.
 *
 *   vx_board_run LIB.so NAME [--kernel-index K] [-i in.npy]... [-o SHAPE=out.npy]...
 *                [-s TYPE=VALUE]... [-a TYPE=V1,V2,...]...
 *
 * Parameters are passed in the kernel's order: the inputs (-i, float16 .npy), then the outputs
 * (-o, float16 tensors of the NumPy SHAPE, e.g. 1,64,64,3), then scalars (-s) and arrays (-a) in
 * the order given. TYPE: int8, uint8, int16, uint16, int32, uint32, int64, float32, bool (vx_bool,
 * 4 bytes), bool8 (1 byte); `-s uint8=0` is what librknn_runtime passes for a VX_TYPE_BOOL param.
 * The graph is verified and processed once; each output is read back into its .npy file.
 * Every failure is one line naming the OpenVX call and its status; exit 1 (2: usage). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rknnop/openvx.h>

#include "npy.h"

#define MAX_PARAMS 32
#define MAX_TENSOR_BYTES (1u << 30)
#define RKNN_KERNEL_ENUMERATION ((vx_enum)0xfff03080)

typedef struct param_arg {
  char kind;        /* 'i', 'o', 's', 'a' */
  const char* text; /* the argument after the option */
} param_arg;

static int vx_failed(const char* call, vx_status status) {
  fprintf(stderr, "rknnop-board: %s failed: %d\n", call, (int)status);
  return 1;
}

static int parse_type(const char* name, vx_enum* type, size_t* size) {
  static const struct {
    const char* name;
    vx_enum type;
    size_t size;
  } table[] = {{"int8", VX_TYPE_INT8, 1},     {"uint8", VX_TYPE_UINT8, 1},     {"int16", VX_TYPE_INT16, 2},
               {"uint16", VX_TYPE_UINT16, 2}, {"int32", VX_TYPE_INT32, 4},     {"uint32", VX_TYPE_UINT32, 4},
               {"int64", VX_TYPE_INT64, 8},   {"float32", VX_TYPE_FLOAT32, 4}, {"bool", VX_TYPE_BOOL, 4},
               {"bool8", VX_TYPE_BOOL8, 1}};
  for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
    if (strcmp(name, table[i].name) == 0) {
      *type = table[i].type;
      *size = table[i].size;
      return 0;
    }
  return -1;
}

/* One value of `type` from `text` into `out` (8 bytes at most). */
static int parse_value(vx_enum type, const char* text, unsigned char* out, const char** end) {
  char* e;
  errno = 0;
  if (type == VX_TYPE_FLOAT32) {
    float v = strtof(text, &e);
    memcpy(out, &v, 4);
  } else if (type == VX_TYPE_BOOL || type == VX_TYPE_BOOL8) {
    int v;
    if (!strncmp(text, "true", 4)) {
      v = 1;
      e = (char*)text + 4;
    } else if (!strncmp(text, "false", 5)) {
      v = 0;
      e = (char*)text + 5;
    } else {
      v = (int)strtol(text, &e, 10);
    }
    if (type == VX_TYPE_BOOL8)
      out[0] = (unsigned char)(v != 0);
    else {
      vx_bool b = v ? vx_true_e : vx_false_e;
      memcpy(out, &b, 4);
    }
  } else if (type == VX_TYPE_INT64) {
    long long v = strtoll(text, &e, 10);
    memcpy(out, &v, 8);
  } else if (type == VX_TYPE_UINT32) {
    unsigned long v = strtoul(text, &e, 10);
    vx_uint32 u = (vx_uint32)v;
    memcpy(out, &u, 4);
  } else if (type == VX_TYPE_INT8 || type == VX_TYPE_UINT8) {
    long v = strtol(text, &e, 10);
    out[0] = (unsigned char)v;
  } else if (type == VX_TYPE_INT16 || type == VX_TYPE_UINT16) {
    long v = strtol(text, &e, 10);
    uint16_t h = (uint16_t)v;
    memcpy(out, &h, 2);
  } else {
    long v = strtol(text, &e, 10);
    vx_int32 i = (vx_int32)v;
    memcpy(out, &i, 4);
  }
  if (e == text || errno) return -1;
  *end = e;
  return 0;
}

/* "d0,d1,...=FILE": the NumPy shape (outermost first) and the file. */
static int parse_shape(const char* text, uint64_t* shape, uint32_t* ndim, const char** file) {
  *ndim = 0;
  const char* p = text;
  for (;;) {
    char* e;
    errno = 0;
    unsigned long v = strtoul(p, &e, 10);
    if (e == p || errno || v == 0 || v > (1ul << 30) || *ndim == 6) return -1;
    shape[(*ndim)++] = v;
    if (*e == ',') {
      p = e + 1;
    } else if (*e == '=' && e[1]) {
      *file = e + 1;
      return 0;
    } else {
      return -1;
    }
  }
}

/* Copies a whole float16 tensor from or to `data` (NumPy order = VX dims reversed, dense). */
static vx_status copy_tensor(vx_tensor t, const uint64_t* shape, uint32_t ndim, void* data, vx_enum usage) {
  vx_size start[6] = {0}, end[6], stride[6];
  size_t step = 2;
  for (uint32_t d = 0; d < ndim; ++d) {
    end[d] = (vx_size)shape[ndim - 1 - d];
    stride[d] = step;
    step *= end[d];
  }
  return vxCopyTensorPatch(t, ndim, start, end, stride, data, usage, VX_MEMORY_TYPE_HOST);
}

static void usage(void) {
  fprintf(stderr,
          "usage: vx_board_run LIB.so NAME [--kernel-index K] [-i in.npy]... [-o SHAPE=out.npy]...\n"
          "                    [-s TYPE=VALUE]... [-a TYPE=V1,V2,...]...\n");
}

int main(int argc, char** argv) {
  const char* lib_path = NULL;
  const char* name = NULL;
  unsigned kernel_index = 0;
  param_arg params[MAX_PARAMS];
  unsigned n_params = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--kernel-index") && i + 1 < argc) {
      kernel_index = (unsigned)strtoul(argv[++i], NULL, 10);
    } else if ((!strcmp(argv[i], "-i") || !strcmp(argv[i], "-o") || !strcmp(argv[i], "-s") || !strcmp(argv[i], "-a")) &&
               i + 1 < argc) {
      if (n_params == MAX_PARAMS) {
        fprintf(stderr, "rknnop-board: more than %d parameters\n", MAX_PARAMS);
        return 2;
      }
      params[n_params].kind = argv[i][1];
      params[n_params++].text = argv[++i];
    } else if (argv[i][0] != '-' && !lib_path) {
      lib_path = argv[i];
    } else if (argv[i][0] != '-' && !name) {
      name = argv[i];
    } else {
      usage();
      return 2;
    }
  }
  if (!lib_path || !name || strlen(name) > 200) {
    usage();
    return 2;
  }
  /* The order librknn_runtime keeps: inputs, outputs, then params. */
  for (unsigned i = 1; i < n_params; ++i) {
    int rank = params[i].kind == 'i' ? 0 : params[i].kind == 'o' ? 1 : 2;
    int previous = params[i - 1].kind == 'i' ? 0 : params[i - 1].kind == 'o' ? 1 : 2;
    if (rank < previous) {
      fprintf(stderr, "rknnop-board: give the inputs (-i), then the outputs (-o), then params (-s, -a)\n");
      return 2;
    }
  }

  void* lib = dlopen(lib_path, RTLD_LAZY);
  if (!lib) {
    fprintf(stderr, "rknnop-board: dlopen(%s) failed: %s\n", lib_path, dlerror());
    return 1;
  }
  char symbol[256];
  (void)snprintf(symbol, sizeof symbol, "vx_kernel_%s_list", name);
  vx_kernel_description_t** list = (vx_kernel_description_t**)dlsym(lib, symbol);
  if (!list) {
    fprintf(stderr, "rknnop-board: dlsym(%s) failed: %s\n", symbol, dlerror());
    return 1;
  }
  for (unsigned k = 0; k <= kernel_index; ++k)
    if (!list[k]) {
      fprintf(stderr, "rknnop-board: %s has %u descriptors, no index %u\n", symbol, k, kernel_index);
      return 1;
    }
  vx_kernel_description_t* desc = list[kernel_index];
  desc->enumeration = RKNN_KERNEL_ENUMERATION;
  if (!desc->function) {
    fprintf(stderr, "rknnop-board: %s[%u] ('%.255s') has no CPU function (a shader kernel needs the NPU)\n", symbol,
            kernel_index, desc->name);
    return 1;
  }
  if (desc->numParams != n_params) {
    fprintf(stderr, "rknnop-board: %s[%u] ('%.255s') takes %u parameters, %u given\n", symbol, kernel_index, desc->name,
            desc->numParams, n_params);
    return 1;
  }

  int status = 1;
  vx_context context = vxCreateContext();
  vx_status s = vxGetStatus((vx_reference)context);
  if (!context || s != VX_SUCCESS) return vx_failed("vxCreateContext", s);
  vx_kernel kernel = vxAddUserKernel(context, desc->name, desc->enumeration, desc->function, desc->numParams,
                                     desc->validate, desc->initialize, desc->deinitialize);
  s = vxGetStatus((vx_reference)kernel);
  if (!kernel || s != VX_SUCCESS) {
    vx_failed("vxAddUserKernel", s);
    goto release_context;
  }
  for (vx_uint32 p = 0; p < desc->numParams; ++p) {
    s = vxAddParameterToKernel(kernel, p, desc->parameters[p].direction, desc->parameters[p].data_type,
                               desc->parameters[p].state);
    if (s != VX_SUCCESS) {
      vx_failed("vxAddParameterToKernel", s);
      goto release_kernel;
    }
  }
  s = vxFinalizeKernel(kernel);
  if (s != VX_SUCCESS) {
    vx_failed("vxFinalizeKernel", s);
    goto release_kernel;
  }
  vx_graph graph = vxCreateGraph(context);
  s = vxGetStatus((vx_reference)graph);
  if (!graph || s != VX_SUCCESS) {
    vx_failed("vxCreateGraph", s);
    goto release_kernel;
  }
  vx_node node = vxCreateGenericNode(graph, kernel);
  s = vxGetStatus((vx_reference)node);
  if (!node || s != VX_SUCCESS) {
    vx_failed("vxCreateGenericNode", s);
    goto release_graph;
  }

  vx_reference refs[MAX_PARAMS] = {0};
  npy_array arrays[MAX_PARAMS];
  uint64_t out_shape[MAX_PARAMS][6];
  uint32_t out_ndim[MAX_PARAMS] = {0};
  const char* out_file[MAX_PARAMS] = {0};
  memset(arrays, 0, sizeof arrays);
  char error[512];
  for (unsigned p = 0; p < n_params; ++p) {
    const char* text = params[p].text;
    if (params[p].kind == 'i' || params[p].kind == 'o') {
      uint64_t* shape = out_shape[p];
      uint32_t ndim;
      if (params[p].kind == 'i') {
        if (npy_read(text, MAX_TENSOR_BYTES, &arrays[p], error, sizeof error) != 0) {
          fprintf(stderr, "%s\n", error);
          goto release_refs;
        }
        if (strcmp(arrays[p].descr, "<f2") != 0 || arrays[p].ndim == 0 || arrays[p].ndim > 6) {
          fprintf(stderr, "rknnop-board: %s: expected float16 (<f2) of rank 1 to 6, got %s of rank %u\n", text,
                  arrays[p].descr, arrays[p].ndim);
          goto release_refs;
        }
        ndim = arrays[p].ndim;
        memcpy(shape, arrays[p].shape, ndim * sizeof *shape);
      } else if (parse_shape(text, shape, &ndim, &out_file[p]) != 0) {
        fprintf(stderr, "rknnop-board: -o %s: expected SHAPE=FILE.npy (SHAPE d0,d1,... of 1 to 6 dims)\n", text);
        goto release_refs;
      }
      out_ndim[p] = ndim;
      /* One vx_size per dimension, as the board's libOpenVX reads them (8 bytes on aarch64:
       * vxCreateTensor, 0x9b338 in the aarch64 libOpenVX.so.1.2 of rknpu e0cb42b). */
      vx_size sizes[6];
      for (uint32_t d = 0; d < ndim; ++d) sizes[d] = (vx_size)shape[ndim - 1 - d];
      vx_tensor t = vxCreateTensor(context, ndim, sizes, VX_TYPE_FLOAT16, 0);
      s = vxGetStatus((vx_reference)t);
      if (!t || s != VX_SUCCESS) {
        vx_failed("vxCreateTensor", s);
        goto release_refs;
      }
      refs[p] = (vx_reference)t;
    } else {
      const char* eq = strchr(text, '=');
      char type_name[16];
      vx_enum type;
      size_t size;
      if (!eq || (size_t)(eq - text) >= sizeof type_name) {
        fprintf(stderr, "rknnop-board: -%c %s: expected TYPE=VALUE\n", params[p].kind, text);
        goto release_refs;
      }
      memcpy(type_name, text, (size_t)(eq - text));
      type_name[eq - text] = '\0';
      if (parse_type(type_name, &type, &size) != 0) {
        fprintf(stderr, "rknnop-board: -%c %s: unknown type %s\n", params[p].kind, text, type_name);
        goto release_refs;
      }
      unsigned char values[64 * 8];
      size_t count = 0;
      const char* v = eq + 1;
      for (;;) {
        const char* end;
        if (count == 64 || parse_value(type, v, values + count * size, &end) != 0) {
          fprintf(stderr, "rknnop-board: -%c %s: bad value\n", params[p].kind, text);
          goto release_refs;
        }
        ++count;
        if (*end == ',' && params[p].kind == 'a') {
          v = end + 1;
        } else if (*end == '\0') {
          break;
        } else {
          fprintf(stderr, "rknnop-board: -%c %s: bad value\n", params[p].kind, text);
          goto release_refs;
        }
      }
      if (params[p].kind == 's') {
        vx_scalar sc = vxCreateScalar(context, type, values);
        s = vxGetStatus((vx_reference)sc);
        if (!sc || s != VX_SUCCESS) {
          vx_failed("vxCreateScalar", s);
          goto release_refs;
        }
        refs[p] = (vx_reference)sc;
      } else {
        vx_array a = vxCreateArray(context, type, count);
        s = vxGetStatus((vx_reference)a);
        if (!a || s != VX_SUCCESS) {
          vx_failed("vxCreateArray", s);
          goto release_refs;
        }
        refs[p] = (vx_reference)a;
        s = vxAddArrayItems(a, count, values, size);
        if (s != VX_SUCCESS) {
          vx_failed("vxAddArrayItems", s);
          goto release_refs;
        }
      }
    }
    s = vxSetParameterByIndex(node, p, refs[p]);
    if (s != VX_SUCCESS) {
      vx_failed("vxSetParameterByIndex", s);
      goto release_refs;
    }
  }
  s = vxVerifyGraph(graph);
  if (s != VX_SUCCESS) {
    vx_failed("vxVerifyGraph", s);
    goto release_refs;
  }
  /* Inputs written after the verification: the driver allocates the tensors' memory there (a copy
   * into a tensor before vxVerifyGraph fails with -12 on the board's libOpenVX). */
  for (unsigned p = 0; p < n_params; ++p) {
    if (params[p].kind != 'i') continue;
    s = copy_tensor((vx_tensor)refs[p], out_shape[p], out_ndim[p], arrays[p].data, VX_WRITE_ONLY);
    if (s != VX_SUCCESS) {
      vx_failed("vxCopyTensorPatch(VX_WRITE_ONLY)", s);
      goto release_refs;
    }
  }
  s = vxProcessGraph(graph);
  if (s != VX_SUCCESS) {
    vx_failed("vxProcessGraph", s);
    goto release_refs;
  }
  status = 0;
  for (unsigned p = 0; p < n_params && status == 0; ++p) {
    if (params[p].kind != 'o') continue;
    uint64_t count = 1;
    for (uint32_t d = 0; d < out_ndim[p]; ++d) count *= out_shape[p][d];
    if (count * 2 > MAX_TENSOR_BYTES) {
      fprintf(stderr, "rknnop-board: output %u: too large\n", p);
      status = 1;
      break;
    }
    void* data = malloc((size_t)count * 2);
    if (!data) {
      status = 1;
      break;
    }
    s = copy_tensor((vx_tensor)refs[p], out_shape[p], out_ndim[p], data, VX_READ_ONLY);
    if (s != VX_SUCCESS) {
      status = vx_failed("vxCopyTensorPatch(VX_READ_ONLY)", s);
    } else if (npy_write(out_file[p], "<f2", out_shape[p], out_ndim[p], data, (size_t)count * 2, error, sizeof error) !=
               0) {
      fprintf(stderr, "%s\n", error);
      status = 1;
    }
    free(data);
  }
release_refs:
  for (unsigned p = 0; p < n_params; ++p) {
    npy_free(&arrays[p]);
    if (refs[p]) (void)vxReleaseReference(&refs[p]);
  }
  (void)vxReleaseNode(&node);
release_graph:
  (void)vxReleaseGraph(&graph);
release_kernel:
  (void)vxReleaseKernel(&kernel);
release_context:
  s = vxReleaseContext(&context);
  if (s != VX_SUCCESS && status == 0) status = vx_failed("vxReleaseContext", s);
  return status;
}
