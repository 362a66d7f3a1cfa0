/* SPDX-License-Identifier: MIT */
/* <rknnop/rknpu2_plugin.h> from C11: opens an rknnop RKNPU2 plugin (the LeakyRelu example's
 * librkcst_leakyrelu.so, argv[1]) with dlopen and calls its five exports through the header's types:
 * get_rknn_custom_op and rknnop_rknpu2_ops name the op, rknnop_rknpu2_infer gives the output's attr,
 * rknnop_rknpu2_compute gives x >= 0 ? x : alpha * x (worked out here), and a bad alpha is one line
 * "rknnop: LeakyRelu: ..." cut to the caller's buffer, and rknnop_rknpu2_describe is the op's description (the
 * text written out here). Exit 0 when every check holds. */
#include <rknnop/rknpu2_plugin.h>

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond, ...)                                           \
  do {                                                             \
    if (!(cond)) {                                                 \
      fprintf(stderr, "call_plugin: %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                                \
      fputc('\n', stderr);                                         \
      ++failures;                                                  \
    }                                                              \
  } while (0)

static rknnop_rknpu2_op_attr float_attr(const char* name, float* value) {
  rknnop_rknpu2_op_attr attr;
  memset(&attr, 0, sizeof attr);
  strncpy(attr.name, name, sizeof attr.name - 1);
  attr.dtype = RKNNOP_RKNPU2_FLOAT32;
  attr.n_elems = 1;
  attr.data = value;
  return attr;
}

static rknnop_rknpu2_tensor_attr nchw_float32(const char* name, uint32_t n, uint32_t c, uint32_t h, uint32_t w) {
  rknnop_rknpu2_tensor_attr attr;
  memset(&attr, 0, sizeof attr);
  strncpy(attr.name, name, sizeof attr.name - 1);
  attr.n_dims = 4;
  attr.dims[0] = n, attr.dims[1] = c, attr.dims[2] = h, attr.dims[3] = w;
  attr.n_elems = n * c * h * w;
  attr.size = attr.n_elems * (uint32_t)sizeof(float);
  attr.size_with_stride = attr.size;
  attr.fmt = RKNNOP_RKNPU2_NCHW;
  attr.type = RKNNOP_RKNPU2_FLOAT32;
  return attr;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: call_plugin librkcst_leakyrelu.so\n");
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "call_plugin: dlopen %s: %s\n", argv[1], dlerror());
    return 1;
  }
  /* POSIX: a function pointer through a void* (the usual dlsym idiom, spelled without a cast warning). */
  RKNNOP_RKNPU2_GET_CUSTOM_OP_FN get_op;
  RKNNOP_RKNPU2_OPS_FN ops;
  RKNNOP_RKNPU2_INFER_FN infer;
  RKNNOP_RKNPU2_COMPUTE_FN compute;
  RKNNOP_RKNPU2_DESCRIBE_FN describe;
  void* sym;
  sym = dlsym(lib, "get_rknn_custom_op"), memcpy(&get_op, &sym, sizeof sym);
  sym = dlsym(lib, "rknnop_rknpu2_ops"), memcpy(&ops, &sym, sizeof sym);
  sym = dlsym(lib, "rknnop_rknpu2_infer"), memcpy(&infer, &sym, sizeof sym);
  sym = dlsym(lib, "rknnop_rknpu2_compute"), memcpy(&compute, &sym, sizeof sym);
  sym = dlsym(lib, "rknnop_rknpu2_describe"), memcpy(&describe, &sym, sizeof sym);
  if (!get_op || !ops || !infer || !compute || !describe) {
    fprintf(stderr, "call_plugin: %s lacks one of the five exports\n", argv[1]);
    return 1;
  }

  /* The op as librknnrt registers it. */
  rknnop_rknpu2_custom_op* op = get_op();
  CHECK(op != NULL, "get_rknn_custom_op returned NULL");
  if (!op) return 1;
  CHECK(strcmp(op->op_type, "LeakyRelu") == 0, "op_type '%s', expected 'LeakyRelu'", op->op_type);
  CHECK(op->version == 1 && op->target == RKNNOP_RKNPU2_TARGET_CPU, "version %u target %d", (unsigned)op->version,
        (int)op->target);
  CHECK(op->init && op->compute && op->destroy, "a callback is missing");
  uint32_t count = 0;
  const rknnop_rknpu2_custom_op* list = ops(&count);
  CHECK(count == 1 && list == op, "rknnop_rknpu2_ops: %u ops at %p, expected 1 at %p", (unsigned)count,
        (const void*)list, (void*)op);

  /* The description: LeakyRelu's struct (examples/leaky_relu) as its lines say it, twice the same text. */
  const char* text = describe();
  const char* expected_text =
      "op LeakyRelu (RKNPU2 op type 'LeakyRelu')\n"
      "input features: FLOAT32 or FLOAT16\n"
      "output activations: FLOAT32 or FLOAT16\n"
      "attribute alpha: float, default 0.2\n";
  CHECK(text && strcmp(text, expected_text) == 0, "rknnop_rknpu2_describe gave '%s'", text ? text : "(null)");
  CHECK(describe() == text, "rknnop_rknpu2_describe: a second call gave another text");

  /* infer: the output's attr from the input's (LeakyRelu: same dims and type). */
  float alpha = 0.5f;
  rknnop_rknpu2_op_attr attrs[1];
  attrs[0] = float_attr("alpha", &alpha);
  rknnop_rknpu2_tensor_attr in_attr = nchw_float32("features", 1, 2, 2, 3);
  rknnop_rknpu2_tensor_attr out_attr;
  memset(&out_attr, 0, sizeof out_attr);
  char error[256] = "";
  int status = infer(attrs, 1, &in_attr, 1, &out_attr, 1, error, sizeof error);
  CHECK(status == 0, "rknnop_rknpu2_infer: %d (%s)", status, error);
  CHECK(out_attr.n_dims == 4 && out_attr.dims[0] == 1 && out_attr.dims[1] == 2 && out_attr.dims[2] == 2 &&
            out_attr.dims[3] == 3,
        "infer gave %u dims %u,%u,%u,%u", (unsigned)out_attr.n_dims, (unsigned)out_attr.dims[0],
        (unsigned)out_attr.dims[1], (unsigned)out_attr.dims[2], (unsigned)out_attr.dims[3]);
  CHECK(out_attr.type == RKNNOP_RKNPU2_FLOAT32 && out_attr.n_elems == 12 && out_attr.size == 48,
        "infer gave type %d, %u elements, %u bytes", (int)out_attr.type, (unsigned)out_attr.n_elems,
        (unsigned)out_attr.size);

  /* compute on NCHW float32 data. */
  float x[12], y[12], expected[12];
  for (int i = 0; i < 12; ++i) {
    x[i] = (float)(i - 6) * 0.75f;
    expected[i] = x[i] >= 0.0f ? x[i] : 0.5f * x[i]; /* exact: a power-of-two scale */
    y[i] = -1000.0f;
  }
  rknnop_rknpu2_op_tensor in, out;
  memset(&in, 0, sizeof in), memset(&out, 0, sizeof out);
  in.attr = in_attr, in.mem.virt_addr = x, in.mem.size = sizeof x;
  out.attr = out_attr, out.mem.virt_addr = y, out.mem.size = sizeof y;
  status = compute(attrs, 1, &in, 1, &out, 1, error, sizeof error);
  CHECK(status == 0, "rknnop_rknpu2_compute: %d (%s)", status, error);
  for (int i = 0; i < 12; ++i)
    CHECK(y[i] == expected[i], "y[%d] = %g, expected %g", i, (double)y[i], (double)expected[i]);

  /* An absent attribute takes the struct's default (alpha 0.2f). */
  status = compute(NULL, 0, &in, 1, &out, 1, error, sizeof error);
  CHECK(status == 0, "compute without attributes: %d (%s)", status, error);
  CHECK(y[0] == 0.2f * x[0] && y[11] == x[11], "default alpha: y[0] = %g (expected %g)", (double)y[0],
        (double)(0.2f * x[0]));

  /* The kernel's refusal: one line in the caller's buffer. */
  alpha = -0.5f;
  status = compute(attrs, 1, &in, 1, &out, 1, error, sizeof error);
  CHECK(status == -1, "compute with alpha -0.5 returned %d", status);
  CHECK(strncmp(error, "rknnop: LeakyRelu: ", 19) == 0 && strstr(error, "alpha must be >= 0, got -0.5") &&
            !strchr(error, '\n'),
        "the error line is '%s'", error);
  char tiny[8];
  memset(tiny, 'x', sizeof tiny);
  status = compute(attrs, 1, &in, 1, &out, 1, tiny, sizeof tiny);
  CHECK(status == -1 && memcmp(tiny, "rknnop:", 7) == 0 && tiny[7] == '\0', "a short buffer: '%.8s'", tiny);

  /* Two values for a scalar param: the message names the param. */
  float two[2] = {0.5f, 0.25f};
  attrs[0] = float_attr("alpha", two);
  attrs[0].n_elems = 2;
  status = infer(attrs, 1, &in_attr, 1, &out_attr, 1, error, sizeof error);
  CHECK(status == -1 && strstr(error, "rknnop: LeakyRelu: ") == error && strstr(error, "'alpha'"),
        "two alphas: %d '%s'", status, error);
  /* Wrong counts. */
  status = infer(NULL, 0, &in_attr, 1, &out_attr, 2, error, sizeof error);
  CHECK(status == -1 && strstr(error, "output"), "two outputs: %d '%s'", status, error);

  dlclose(lib);
  if (failures) {
    fprintf(stderr, "call_plugin: %d checks failed\n", failures);
    return 1;
  }
  printf(
      "call_plugin: %s: get_rknn_custom_op, rknnop_rknpu2_ops, rknnop_rknpu2_infer, rknnop_rknpu2_compute, "
      "rknnop_rknpu2_describe: all checks hold\n",
      argv[1]);
  return 0;
}
