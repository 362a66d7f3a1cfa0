/* SPDX-License-Identifier: MIT */
/* Board-side probe of the user-space galcore: through the real libOpenVX (linked as on a board) it
 * creates a context and a graph with one user kernel (a CPU kernel: y = 2x + 1 over a float32 tensor
 * of 8 values, with a validator that sets the output's meta format), verifies and processes the
 * graph, and checks the output. Each step prints one line; the first failure names the call and its
 * status and exits 1. Run under qemu-user with librknnop_galcore.so preloaded (see
 * docs/board-emulation.md). With an argument "twice", the graph is processed twice and verified
 * again in between (the driver's lifecycle). With "nn", the graph is instead one NN node the NPU
 * would run (vxActivationLayer, ReLU on float16): the user-space galcore has no NPU, so the process
 * stops at the commit that carries the work (the galcore prints it and where it comes from); with
 * RKNNOP_GALCORE_NPU_WORK=error the commit only fails — the driver ignores that and vxProcessGraph
 * returns success, so the probe then exits 1 ("ran without an NPU"), 3 if the failure did surface.
 * With "async", each run is vxScheduleGraph + vxWaitGraph (as librknn_runtime runs graphs), and the
 * probe says on which thread the kernel ran. With "threads", the kernel copies its tensors' slabs in and
 * out from 4 threads at once, 200 rounds each, and checks every value (may the boards' libraries copy
 * on the pool, as the PC library does? docs/runtime.md §9). */
#include <rknnop/openvx.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define COUNT 8
/* "threads": a tensor of THREADS_SLABS slabs, each copied in and out by a thread of its own. */
#define THREADS_SLABS 4
#define THREADS_SLAB 1024
#define THREADS_ROUNDS 200
#define THREADS_COUNT (THREADS_SLABS * THREADS_SLAB)

static vx_size count = COUNT; /* the tensors' element count: COUNT, or THREADS_COUNT in "threads" */
static int threads_mode;
static int kernel_calls, validator_calls, initializer_calls, deinitializer_calls;
static int kernel_on_other_thread;
static pthread_t main_thread;

/* "threads": may vxCopyTensorPatch of one node's tensors run on several threads at once (issue 49: the
 * PC library copies on its pool; may the boards' library)? Each thread copies its own slab of the input
 * in, computes 2x + 1, copies it out to its slab of the output and reads it back, THREADS_ROUNDS times,
 * all threads at once (qemu-user runs guest threads on host threads in parallel). Any status but
 * success, or any value but the expected one, is reported. */
struct slab_job {
  vx_tensor input, output;
  vx_size first;
  vx_status status;
  int wrong;
};

static void* copy_slab_rounds(void* argument) {
  struct slab_job* job = argument;
  static _Thread_local float values[THREADS_SLAB], back[THREADS_SLAB];
  vx_size start[1] = {job->first}, end[1] = {job->first + THREADS_SLAB}, stride[1] = {sizeof(float)};
  for (int round = 0; round < THREADS_ROUNDS && job->status == VX_SUCCESS && !job->wrong; ++round) {
    job->status = vxCopyTensorPatch(job->input, 1, start, end, stride, values, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
    if (job->status != VX_SUCCESS) break;
    for (int i = 0; i < THREADS_SLAB; ++i) {
      if (values[i] != (float)(job->first + (vx_size)i) - 3.5f) job->wrong = 1;
      values[i] = 2.0f * values[i] + 1.0f;
    }
    job->status = vxCopyTensorPatch(job->output, 1, start, end, stride, values, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
    if (job->status != VX_SUCCESS) break;
    job->status = vxCopyTensorPatch(job->output, 1, start, end, stride, back, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
    if (job->status != VX_SUCCESS) break;
    if (memcmp(back, values, sizeof values) != 0) job->wrong = 1;
  }
  return NULL;
}

static vx_status copy_on_threads(const vx_reference* parameters) {
  struct slab_job jobs[THREADS_SLABS];
  pthread_t threads[THREADS_SLABS];
  for (int t = 0; t < THREADS_SLABS; ++t) {
    jobs[t] =
        (struct slab_job){(vx_tensor)parameters[0], (vx_tensor)parameters[1], (vx_size)t * THREADS_SLAB, VX_SUCCESS, 0};
    if (pthread_create(&threads[t], NULL, copy_slab_rounds, &jobs[t]) != 0) return VX_FAILURE;
  }
  vx_status status = VX_SUCCESS;
  for (int t = 0; t < THREADS_SLABS; ++t) {
    pthread_join(threads[t], NULL);
    if (jobs[t].status != VX_SUCCESS || jobs[t].wrong) {
      printf("kernel: thread %d: vxCopyTensorPatch status %d, %s values\n", t, jobs[t].status,
             jobs[t].wrong ? "wrong" : "right");
      status = jobs[t].status != VX_SUCCESS ? jobs[t].status : VX_FAILURE;
    }
  }
  if (status == VX_SUCCESS)
    printf(
        "kernel: %d threads x %d rounds of vxCopyTensorPatch (read, write, read back) on slabs of %d values: all "
        "right\n",
        THREADS_SLABS, THREADS_ROUNDS, THREADS_SLAB);
  return status;
}

static vx_status VX_CALLBACK twice_plus_one(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  (void)node;
  ++kernel_calls;
  if (!pthread_equal(pthread_self(), main_thread)) kernel_on_other_thread = 1;
  if (num != 2) return VX_FAILURE;
  if (threads_mode) return copy_on_threads(parameters);
  float values[COUNT];
  vx_size start[1] = {0}, end[1] = {COUNT}, stride[1] = {sizeof(float)};
  vx_status status =
      vxCopyTensorPatch((vx_tensor)parameters[0], 1, start, end, stride, values, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (status != VX_SUCCESS) {
    printf("kernel: vxCopyTensorPatch(read) = %d\n", status);
    return status;
  }
  for (int i = 0; i < COUNT; ++i) values[i] = 2.0f * values[i] + 1.0f;
  status =
      vxCopyTensorPatch((vx_tensor)parameters[1], 1, start, end, stride, values, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  if (status != VX_SUCCESS) printf("kernel: vxCopyTensorPatch(write) = %d\n", status);
  return status;
}

static vx_status VX_CALLBACK validate(vx_node node, const vx_reference parameters[], vx_uint32 num,
                                      vx_meta_format metas[]) {
  (void)node;
  (void)parameters;
  ++validator_calls;
  if (num != 2) return VX_FAILURE;
  vx_uint32 rank = 1;
  vx_size dims[1] = {count};
  vx_enum type = VX_TYPE_FLOAT32;
  vx_status status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_NUMBER_OF_DIMS, &rank, sizeof rank);
  if (status == VX_SUCCESS) status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DIMS, dims, sizeof dims);
  if (status == VX_SUCCESS) status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DATA_TYPE, &type, sizeof type);
  if (status != VX_SUCCESS) printf("validator: vxSetMetaFormatAttribute = %d\n", status);
  return status;
}

static vx_status VX_CALLBACK initialize(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  (void)node, (void)parameters, (void)num;
  ++initializer_calls;
  return VX_SUCCESS;
}

static vx_status VX_CALLBACK deinitialize(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  (void)node, (void)parameters, (void)num;
  ++deinitializer_calls;
  return VX_SUCCESS;
}

#define STEP(call)                           \
  do {                                       \
    vx_status step_status = (call);          \
    printf("%s = %d\n", #call, step_status); \
    if (step_status != VX_SUCCESS) return 1; \
  } while (0)

#define OBJECT(variable, call)                                                                                      \
  do {                                                                                                              \
    variable = (call);                                                                                              \
    vx_status object_status = variable ? vxGetStatus((vx_reference)variable) : VX_FAILURE;                          \
    printf("%s: %s (status %d)\n", #call, variable&& object_status == VX_SUCCESS ? "ok" : "FAILED", object_status); \
    if (object_status != VX_SUCCESS) return 1;                                                                      \
  } while (0)

/* OpenVX 1.2 asynchronous graph execution (not in rknnop/openvx.h; exported by libOpenVX.so.1.2). */
VX_API_ENTRY vx_status VX_API_CALL vxScheduleGraph(vx_graph graph);
VX_API_ENTRY vx_status VX_API_CALL vxWaitGraph(vx_graph graph);

/* From the Khronos NN extension (vx_khr_nn.h): exported by the board's libOpenVX.so.1.2. */
VX_API_ENTRY vx_node VX_API_CALL vxActivationLayer(vx_graph graph, vx_tensor inputs, vx_enum function, vx_float32 a,
                                                   vx_float32 b, vx_tensor outputs);
#define PROBE_NN_ACTIVATION_RELU ((0x1D << 12) + 2) /* VX_ENUM_BASE(VX_ID_KHRONOS, activation type) + 2 */

static int run_nn_node(vx_context context) {
  vx_graph graph;
  OBJECT(graph, vxCreateGraph(context));
  vx_size dims[4] = {4, 4, 2, 1};
  vx_tensor input, output;
  OBJECT(input, vxCreateTensor(context, 4, dims, VX_TYPE_FLOAT16, 0));
  OBJECT(output, vxCreateTensor(context, 4, dims, VX_TYPE_FLOAT16, 0));
  vx_node node;
  OBJECT(node, vxActivationLayer(graph, input, PROBE_NN_ACTIVATION_RELU, 0.0f, 0.0f, output));
  vx_status verified = vxVerifyGraph(graph);
  printf("vxVerifyGraph(graph) = %d\n", verified);
  vx_status processed = verified == VX_SUCCESS ? vxProcessGraph(graph) : verified;
  if (verified == VX_SUCCESS) printf("vxProcessGraph(graph) = %d\n", processed);
  vxReleaseNode(&node);
  vxReleaseTensor(&input);
  vxReleaseTensor(&output);
  vxReleaseGraph(&graph);
  vxReleaseContext(&context);
  if (processed == VX_SUCCESS) {
    printf("galcore graph probe: the NN node ran without an NPU (a commit was not refused)\n");
    return 1;
  }
  printf("galcore graph probe: the NN node failed as it must without an NPU\n");
  return 3;
}

int main(int argc, char** argv) {
  int twice = argc > 1 && strcmp(argv[1], "twice") == 0;
  int nn = argc > 1 && strcmp(argv[1], "nn") == 0;
  int async = argc > 1 && strcmp(argv[1], "async") == 0;
  threads_mode = argc > 1 && strcmp(argv[1], "threads") == 0;
  if (threads_mode) count = THREADS_COUNT;
  main_thread = pthread_self();
  vx_context context;
  OBJECT(context, vxCreateContext());
  if (nn) return run_nn_node(context);
  vx_graph graph;
  OBJECT(graph, vxCreateGraph(context));
  vx_kernel kernel;
  OBJECT(kernel, vxAddUserKernel(context, "com.rknnop.galcore_probe", VX_KERNEL_BASE(VX_ID_DEFAULT, 3) + 7,
                                 twice_plus_one, 2, validate, initialize, deinitialize));
  STEP(vxAddParameterToKernel(kernel, 0, VX_INPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED));
  STEP(vxAddParameterToKernel(kernel, 1, VX_OUTPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED));
  STEP(vxFinalizeKernel(kernel));
  vx_size dims[1] = {count};
  vx_tensor input, output;
  OBJECT(input, vxCreateTensor(context, 1, dims, VX_TYPE_FLOAT32, 0));
  OBJECT(output, vxCreateTensor(context, 1, dims, VX_TYPE_FLOAT32, 0));
  vx_node node;
  OBJECT(node, vxCreateGenericNode(graph, kernel));
  STEP(vxSetParameterByIndex(node, 0, (vx_reference)input));
  STEP(vxSetParameterByIndex(node, 1, (vx_reference)output));
  static float values[THREADS_COUNT], result[THREADS_COUNT];
  for (vx_size i = 0; i < count; ++i) values[i] = (float)i - 3.5f;
  vx_size start[1] = {0}, end[1] = {count}, stride[1] = {sizeof(float)};
  STEP(vxCopyTensorPatch(input, 1, start, end, stride, values, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST));
  STEP(vxVerifyGraph(graph));
  for (int round = 0; round < (twice || async ? 2 : 1); ++round) {
    if (async) {
      STEP(vxScheduleGraph(graph));
      STEP(vxWaitGraph(graph));
    } else {
      STEP(vxProcessGraph(graph));
    }
    STEP(vxCopyTensorPatch(output, 1, start, end, stride, result, VX_READ_ONLY, VX_MEMORY_TYPE_HOST));
    for (vx_size i = 0; i < count; ++i) {
      if (result[i] != 2.0f * values[i] + 1.0f) {
        printf("output[%d] = %g, expected %g\n", (int)i, (double)result[i], 2.0 * values[i] + 1.0);
        return 1;
      }
    }
    printf("round %d: output checked (%d values)\n", round, (int)count);
    if (twice && round == 0) STEP(vxVerifyGraph(graph));
  }
  STEP(vxReleaseNode(&node));
  STEP(vxReleaseGraph(&graph));
  STEP(vxReleaseTensor(&input));
  STEP(vxReleaseTensor(&output));
  STEP(vxReleaseKernel(&kernel));
  STEP(vxReleaseContext(&context));
  printf("calls: validator %d, initializer %d, kernel %d, deinitializer %d\n", validator_calls, initializer_calls,
         kernel_calls, deinitializer_calls);
  printf("kernel ran on %s\n", kernel_on_other_thread ? "another thread than main's" : "the main thread");
  /* The driver's behaviour these modes show (issue 29 part 1), checked: a second vxVerifyGraph of a
   * verified graph runs neither validator nor initializer; vxScheduleGraph runs the kernel on the
   * driver's own thread. */
  if (validator_calls != 1 || initializer_calls != 1 || deinitializer_calls != 1 ||
      kernel_calls != (twice || async ? 2 : 1)) {
    printf("galcore graph probe: unexpected callback counts\n");
    return 1;
  }
  if (async && !kernel_on_other_thread) {
    printf("galcore graph probe: vxScheduleGraph ran the kernel on the caller's thread\n");
    return 1;
  }
  printf("galcore graph probe: ok\n");
  return 0;
}
