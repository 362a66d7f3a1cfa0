/* SPDX-License-Identifier: MIT */
/* What a user's board application does with an RKNN v1 model, through Rockchip's librknn_runtime:
 *
 *   rknn_board_run MODEL.rknn [-i INDEX=in.npy]... [-o INDEX=out.npy]... [--want-float] [--threads]
 *
 * rknn_init on the model, rknn_query for the inputs and outputs (printed to stderr), rknn_inputs_set
 * from .npy files (a file whose dtype is the model tensor's is passed through unconverted, as the
 * model's float16 tensors are; another dtype is converted by the runtime, as on the board),
 * rknn_run, rknn_outputs_get to .npy files (the model's dtype; --want-float: float32 converted by
 * the runtime), rknn_outputs_release, rknn_destroy. Every input must be given; outputs not named are
 * fetched and dropped. --threads prints the process's thread count (/proc/self/task) and how many of
 * them are rknnop's parallel_for workers (by name) before rknn_init, around rknn_run and after
 * rknn_destroy (after rknn_run and rknn_destroy: once settled, at most 5 s). A failure is one line naming the runtime
 * call and its code; exit status 1 (2 for a usage error). Built against rknpu's rknn/include/rknn_runtime.h (not part
 * of rknnop). */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "npy.h"
#include "rknn_runtime.h"

#define MAX_MODEL_BYTES (512u << 20)
#define MAX_TENSOR_BYTES (1u << 30)
#define MAX_PORTS 64

/* Threads of this process (entries of /proc/self/task; under qemu-user: the guest's threads and
 * qemu's own), for --threads; *workers: those named "rknnop-worker", the kernels' parallel_for
 * workers (rknnop::detail::thread_pool::worker_name). */
static int thread_count(int* workers) {
  *workers = 0;
  DIR* d = opendir("/proc/self/task");
  if (!d) return -1;
  int n = 0;
  for (struct dirent* e; (e = readdir(d)) != NULL;) {
    if (e->d_name[0] == '.') continue;
    ++n;
    char path[64], name[32] = {0};
    snprintf(path, sizeof path, "/proc/self/task/%.20s/comm", e->d_name);
    FILE* f = fopen(path, "r");
    if (!f) continue;
    if (fgets(name, sizeof name, f) && strcmp(name, "rknnop-worker\n") == 0) ++*workers;
    fclose(f);
  }
  closedir(d);
  return n;
}

/* Prints the counts once `settled` holds, or after 5 s: a new worker names itself when it starts,
 * and under qemu-user a joined thread's host thread leaves /proc/self/task a moment after the join. */
static void print_threads(const char* when, int (*settled)(int total, int workers, int before), int before) {
  int workers = 0, total = thread_count(&workers);
  for (int waited_ms = 0; settled && !settled(total, workers, before) && waited_ms < 5000; ++waited_ms) {
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
    total = thread_count(&workers);
  }
  fprintf(stderr, "rknnop-board: threads: %d %s (rknnop workers: %d)\n", total, when, workers);
}
static int some_worker(int total, int workers, int before) {
  (void)total, (void)before;
  return workers > 0;
}
static int back_to_before(int total, int workers, int before) { return workers == 0 && total <= before; }

static const char* error_name(int code) {
  switch (code) {
    case RKNN_SUCC: return "RKNN_SUCC";
    case RKNN_ERR_FAIL: return "RKNN_ERR_FAIL";
    case RKNN_ERR_TIMEOUT: return "RKNN_ERR_TIMEOUT";
    case RKNN_ERR_DEVICE_UNAVAILABLE: return "RKNN_ERR_DEVICE_UNAVAILABLE";
    case RKNN_ERR_MALLOC_FAIL: return "RKNN_ERR_MALLOC_FAIL";
    case RKNN_ERR_PARAM_INVALID: return "RKNN_ERR_PARAM_INVALID";
    case RKNN_ERR_MODEL_INVALID: return "RKNN_ERR_MODEL_INVALID";
    case RKNN_ERR_CTX_INVALID: return "RKNN_ERR_CTX_INVALID";
    case RKNN_ERR_INPUT_INVALID: return "RKNN_ERR_INPUT_INVALID";
    case RKNN_ERR_OUTPUT_INVALID: return "RKNN_ERR_OUTPUT_INVALID";
    case RKNN_ERR_DEVICE_UNMATCH: return "RKNN_ERR_DEVICE_UNMATCH";
    case RKNN_ERR_INCOMPATILE_PRE_COMPILE_MODEL: return "RKNN_ERR_INCOMPATILE_PRE_COMPILE_MODEL";
    case RKNN_ERR_INCOMPATILE_OPTIMIZATION_LEVEL_VERSION: return "RKNN_ERR_INCOMPATILE_OPTIMIZATION_LEVEL_VERSION";
    case RKNN_ERR_TARGET_PLATFORM_UNMATCH: return "RKNN_ERR_TARGET_PLATFORM_UNMATCH";
    case RKNN_ERR_NON_PRE_COMPILED_MODEL_ON_MINI_DRIVER: return "RKNN_ERR_NON_PRE_COMPILED_MODEL_ON_MINI_DRIVER";
    default: return "unknown code";
  }
}

static int call_failed(const char* call, int code) {
  fprintf(stderr, "rknnop-board: %s failed: %d (%s)\n", call, code, error_name(code));
  return 1;
}

static const char* type_name(rknn_tensor_type t) {
  switch (t) {
    case RKNN_TENSOR_FLOAT32: return "float32";
    case RKNN_TENSOR_FLOAT16: return "float16";
    case RKNN_TENSOR_INT8: return "int8";
    case RKNN_TENSOR_UINT8: return "uint8";
    case RKNN_TENSOR_INT16: return "int16";
    default: return "?";
  }
}

static const char* npy_descr_of(rknn_tensor_type t) {
  switch (t) {
    case RKNN_TENSOR_FLOAT32: return "<f4";
    case RKNN_TENSOR_FLOAT16: return "<f2";
    case RKNN_TENSOR_INT8: return "|i1";
    case RKNN_TENSOR_UINT8: return "|u1";
    case RKNN_TENSOR_INT16: return "<i2";
    default: return NULL;
  }
}

static int rknn_type_of(const char* descr, rknn_tensor_type* t) {
  static const struct {
    const char* descr;
    rknn_tensor_type type;
  } table[] = {{"<f4", RKNN_TENSOR_FLOAT32},
               {"<f2", RKNN_TENSOR_FLOAT16},
               {"|i1", RKNN_TENSOR_INT8},
               {"|u1", RKNN_TENSOR_UINT8},
               {"<i2", RKNN_TENSOR_INT16}};
  for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
    if (strcmp(descr, table[i].descr) == 0) {
      *t = table[i].type;
      return 0;
    }
  return -1;
}

/* "INDEX=FILE" */
static int parse_port(const char* arg, unsigned* index, const char** file) {
  char* end;
  errno = 0;
  unsigned long v = strtoul(arg, &end, 10);
  if (end == arg || *end != '=' || errno || v >= MAX_PORTS || !end[1]) return -1;
  *index = (unsigned)v;
  *file = end + 1;
  return 0;
}

static void print_attr(const char* kind, const rknn_tensor_attr* a) {
  fprintf(stderr, "rknnop-board: %s %u '%s': dims [", kind, a->index, a->name);
  for (uint32_t d = 0; d < a->n_dims && d < RKNN_MAX_DIMS; ++d) fprintf(stderr, d ? ", %u" : "%u", a->dims[d]);
  fprintf(stderr, "], %u elements, %u bytes, %s, fmt %s, qnt %d\n", a->n_elems, a->size, type_name(a->type),
          a->fmt == RKNN_TENSOR_NCHW ? "NCHW" : "NHWC", (int)a->qnt_type);
}

/* Queries and prints the attributes of `count` inputs or outputs; 0, or -1 after saying which failed. */
static int query_attrs(rknn_context ctx, rknn_query_cmd cmd, const char* kind, rknn_tensor_attr* attrs,
                       uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    memset(&attrs[i], 0, sizeof attrs[i]);
    attrs[i].index = i;
    const int ret = rknn_query(ctx, cmd, &attrs[i], sizeof attrs[i]);
    if (ret != RKNN_SUCC) {
      call_failed(
          cmd == RKNN_QUERY_INPUT_ATTR ? "rknn_query(RKNN_QUERY_INPUT_ATTR)" : "rknn_query(RKNN_QUERY_OUTPUT_ATTR)",
          ret);
      return -1;
    }
    print_attr(kind, &attrs[i]);
  }
  return 0;
}

static void* read_model(const char* path, uint32_t* size) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "rknnop-board: %s: cannot open (%s)\n", path, strerror(errno));
    return NULL;
  }
  unsigned char* data = NULL;
  size_t used = 0, capacity = 0;
  for (;;) {
    if (used == capacity) {
      if (capacity >= MAX_MODEL_BYTES) {
        fprintf(stderr, "rknnop-board: %s: larger than %u bytes\n", path, MAX_MODEL_BYTES);
        free(data);
        fclose(f);
        return NULL;
      }
      capacity = capacity ? capacity * 2 : 1u << 16;
      unsigned char* bigger = realloc(data, capacity);
      if (!bigger) {
        free(data);
        fclose(f);
        return NULL;
      }
      data = bigger;
    }
    size_t n = fread(data + used, 1, capacity - used, f);
    used += n;
    if (n == 0) break;
  }
  fclose(f);
  *size = (uint32_t)used;
  return data;
}

int main(int argc, char** argv) {
  const char* model_path = NULL;
  const char* input_files[MAX_PORTS] = {0};
  const char* output_files[MAX_PORTS] = {0};
  int want_float = 0;
  int threads = 0;
  for (int i = 1; i < argc; ++i) {
    unsigned index;
    const char* file;
    if ((!strcmp(argv[i], "-i") || !strcmp(argv[i], "-o")) && i + 1 < argc) {
      if (parse_port(argv[i + 1], &index, &file) != 0) {
        fprintf(stderr, "rknnop-board: %s %s: expected INDEX=FILE.npy (INDEX below %d)\n", argv[i], argv[i + 1],
                MAX_PORTS);
        return 2;
      }
      (argv[i][1] == 'i' ? input_files : output_files)[index] = file;
      ++i;
    } else if (!strcmp(argv[i], "--want-float")) {
      want_float = 1;
    } else if (!strcmp(argv[i], "--threads")) {
      threads = 1;
    } else if (argv[i][0] != '-' && !model_path) {
      model_path = argv[i];
    } else {
      fprintf(
          stderr,
          "usage: rknn_board_run MODEL.rknn [-i INDEX=in.npy]... [-o INDEX=out.npy]... [--want-float] [--threads]\n");
      return 2;
    }
  }
  if (!model_path) {
    fprintf(stderr,
            "usage: rknn_board_run MODEL.rknn [-i INDEX=in.npy]... [-o INDEX=out.npy]... [--want-float] [--threads]\n");
    return 2;
  }
  uint32_t model_size = 0;
  void* model = read_model(model_path, &model_size);
  if (!model) return 1;

  char error[512];
  int status = 1;
  rknn_context ctx = 0;
  int threads_before = 0, workers_before = 0;
  if (threads) threads_before = thread_count(&workers_before);
  int ret = rknn_init(&ctx, model, model_size, 0);
  if (ret != RKNN_SUCC) {
    free(model);
    return call_failed("rknn_init", ret);
  }
  rknn_sdk_version version;
  memset(&version, 0, sizeof version);
  if (rknn_query(ctx, RKNN_QUERY_SDK_VERSION, &version, sizeof version) == RKNN_SUCC)
    fprintf(stderr, "rknnop-board: api %.64s, driver %.64s\n", version.api_version, version.drv_version);

  rknn_input_output_num io;
  ret = rknn_query(ctx, RKNN_QUERY_IN_OUT_NUM, &io, sizeof io);
  if (ret != RKNN_SUCC) {
    call_failed("rknn_query(RKNN_QUERY_IN_OUT_NUM)", ret);
    goto destroy;
  }
  if (io.n_input > MAX_PORTS || io.n_output > MAX_PORTS) {
    fprintf(stderr, "rknnop-board: the model has %u inputs and %u outputs (at most %d each)\n", io.n_input, io.n_output,
            MAX_PORTS);
    goto destroy;
  }
  for (unsigned i = io.n_input; i < MAX_PORTS; ++i)
    if (input_files[i]) {
      fprintf(stderr, "rknnop-board: -i %u: the model has %u inputs\n", i, io.n_input);
      goto destroy;
    }
  for (unsigned i = io.n_output; i < MAX_PORTS; ++i)
    if (output_files[i]) {
      fprintf(stderr, "rknnop-board: -o %u: the model has %u outputs\n", i, io.n_output);
      goto destroy;
    }

  rknn_tensor_attr in_attr[MAX_PORTS], out_attr[MAX_PORTS];
  rknn_input inputs[MAX_PORTS];
  rknn_output outputs[MAX_PORTS];
  npy_array arrays[MAX_PORTS];
  memset(inputs, 0, sizeof inputs);
  memset(outputs, 0, sizeof outputs);
  memset(arrays, 0, sizeof arrays);
  if (query_attrs(ctx, RKNN_QUERY_INPUT_ATTR, "input", in_attr, io.n_input) != 0 ||
      query_attrs(ctx, RKNN_QUERY_OUTPUT_ATTR, "output", out_attr, io.n_output) != 0)
    goto release_inputs;

  for (uint32_t i = 0; i < io.n_input; ++i) {
    if (!input_files[i]) {
      fprintf(stderr, "rknnop-board: input %u ('%s') not given (-i %u=FILE.npy)\n", i, in_attr[i].name, i);
      goto release_inputs;
    }
    if (npy_read(input_files[i], MAX_TENSOR_BYTES, &arrays[i], error, sizeof error) != 0) {
      fprintf(stderr, "%s\n", error);
      goto release_inputs;
    }
    rknn_tensor_type type;
    if (rknn_type_of(arrays[i].descr, &type) != 0) {
      fprintf(stderr, "rknnop-board: %s: dtype %s is none the runtime takes (float32, float16, int8, uint8, int16)\n",
              input_files[i], arrays[i].descr);
      goto release_inputs;
    }
    if (arrays[i].count != in_attr[i].n_elems) {
      fprintf(stderr, "rknnop-board: %s: %llu elements, input %u ('%s') has %u\n", input_files[i],
              (unsigned long long)arrays[i].count, i, in_attr[i].name, in_attr[i].n_elems);
      goto release_inputs;
    }
    inputs[i].index = i;
    inputs[i].buf = arrays[i].data;
    inputs[i].size = (uint32_t)(arrays[i].count * arrays[i].itemsize);
    inputs[i].pass_through = type == in_attr[i].type;
    inputs[i].type = type;
    inputs[i].fmt = in_attr[i].fmt;
  }
  ret = rknn_inputs_set(ctx, io.n_input, inputs);
  if (ret != RKNN_SUCC) {
    call_failed("rknn_inputs_set", ret);
    goto release_inputs;
  }
  if (threads) {
    fprintf(stderr, "rknnop-board: threads: %d before rknn_init (rknnop workers: %d)\n", threads_before,
            workers_before);
    print_threads("before rknn_run", NULL, 0);
  }
  ret = rknn_run(ctx, NULL);
  if (ret != RKNN_SUCC) {
    call_failed("rknn_run", ret);
    goto release_inputs;
  }
  if (threads) print_threads("after rknn_run", some_worker, 0);
  for (uint32_t i = 0; i < io.n_output; ++i) {
    outputs[i].index = i;
    outputs[i].want_float = (uint8_t)want_float;
  }
  ret = rknn_outputs_get(ctx, io.n_output, outputs, NULL);
  if (ret != RKNN_SUCC) {
    call_failed("rknn_outputs_get", ret);
    goto release_inputs;
  }
  status = 0;
  for (uint32_t i = 0; i < io.n_output && status == 0; ++i) {
    if (!output_files[i]) continue;
    const char* descr = want_float ? "<f4" : npy_descr_of(out_attr[i].type);
    size_t itemsize = want_float ? 4 : (size_t)(descr ? descr[2] - '0' : 0);
    if (!descr || (uint64_t)out_attr[i].n_elems * itemsize != outputs[i].size) {
      fprintf(stderr, "rknnop-board: output %u: rknn_outputs_get gave %u bytes for %u elements of %s\n", i,
              outputs[i].size, out_attr[i].n_elems, want_float ? "float32" : type_name(out_attr[i].type));
      status = 1;
      break;
    }
    /* rknn_tensor_attr lists dims innermost first; NumPy's shape is outermost first. */
    uint64_t shape[RKNN_MAX_DIMS];
    uint32_t ndim = out_attr[i].n_dims <= RKNN_MAX_DIMS ? out_attr[i].n_dims : RKNN_MAX_DIMS;
    for (uint32_t d = 0; d < ndim; ++d) shape[d] = out_attr[i].dims[ndim - 1 - d];
    if (npy_write(output_files[i], descr, shape, ndim, outputs[i].buf, outputs[i].size, error, sizeof error) != 0) {
      fprintf(stderr, "%s\n", error);
      status = 1;
    }
  }
  ret = rknn_outputs_release(ctx, io.n_output, outputs);
  if (ret != RKNN_SUCC) status = call_failed("rknn_outputs_release", ret);
release_inputs:
  for (uint32_t i = 0; i < MAX_PORTS; ++i) npy_free(&arrays[i]);
destroy:
  ret = rknn_destroy(ctx);
  if (ret != RKNN_SUCC) status = call_failed("rknn_destroy", ret);
  if (threads) print_threads("after rknn_destroy", back_to_before, threads_before);
  free(model);
  return status;
}
