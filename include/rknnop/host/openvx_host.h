/* SPDX-License-Identifier: MIT */
/*
 * Extension API of rknnop's host OpenVX runtime (libOpenVX.so built from src/runtime, CMake target
 * rknnop::openvx). The runtime implements every function of <rknnop/openvx.h> with the semantics of
 * the VeriSilicon driver on RKNN v1 boards; the calls below are what a host-side loader, a shader
 * executor or a test needs on top of that. They exist only in the host runtime, never on a board.
 *
 * Conventions of the runtime, documented here because kernels and loaders can observe them:
 * - Failed creations (vxCreate*, vxAddUserKernel, vxGetKernelByName, vxCreateGenericNode) return
 *   NULL, never an error object, and add a log entry to the context explaining why.
 *   vxGetStatus(NULL) is VX_ERROR_NO_RESOURCES (as in Khronos), a live object gives VX_SUCCESS and
 *   anything else (released, foreign or garbage pointer) VX_ERROR_INVALID_REFERENCE.
 * - Every handle is looked up in a registry of live objects before use, so a released handle
 *   gives VX_ERROR_INVALID_REFERENCE (-12) instead of a crash (unless its address was reused).
 * - vxReleaseContext frees every object still alive in the context (graphs are deinitialized first).
 *   Other objects count the application's references apart from the runtime's (a node holds its
 *   parameters, a graph its nodes): releasing more than the application owns is refused with -12,
 *   and vxRelease* NULLs the handle on success. vxRemoveKernel also releases the caller's handle.
 * - Meta formats exist only during the validator call. VX_NODE_STATUS is VX_FAILURE until the
 *   node has run. Parameters whose kernel table type is a scalar value type (VX_TYPE_INT32...)
 *   take a scalar of exactly that type; VX_TYPE_REFERENCE takes anything.
 * - vxVerifyGraph orders nodes by data flow, runs each validator with one meta format per
 *   parameter, gives virtual outputs the shape/type from their meta format (others must match
 *   it), allocates, then runs the initializers. Failures return the first error with a log entry.
 * - Memory types: VX_MEMORY_TYPE_HOST, and also the literal 0 that VSI's own ovxlib and the
 *   RKNN-Toolkit guide pass to vxCopyTensorPatch; anything else is VX_ERROR_INVALID_PARAMETERS.
 * - vxCopyTensorPatch: number_of_dims must equal the tensor's rank, view_start[i] < view_end[i] <=
 *   dims[i], and every user stride of a dimension whose view extent exceeds 1 must be at least the
 *   element size (any order, any gaps). Kernels may copy virtual tensors once the graph is verified.
 *   Copies may run on several threads at once, of one tensor too (the PC library's kernel glue copies
 *   the slabs of a large tensor on its thread pool during the node); patches written at once must not
 *   overlap.
 * - vxSetNodeUniform stores count * 4 bytes (one 32-bit word per element) unless the shader
 *   executor's uniform_size callback returns another size (a VXC_512Bits uniform is 64 bytes per
 *   element, which only the shader source can tell). Set the executor before vxVerifyGraph: the
 *   initializer, which sets the uniforms, runs inside it.
 * - A kernel added with a NULL function is a shader kernel: processing its node calls the context's
 *   shader executor, or fails with VX_ERROR_NOT_SUPPORTED (and a log entry) when none is set.
 * - Log entries are kept per context (the last 4096); RKNNOP_VX_LOG=1 in the environment also
 *   echoes each one to stderr.
 */
#ifndef RKNNOP_HOST_OPENVX_HOST_H
#define RKNNOP_HOST_OPENVX_HOST_H

#include <rknnop/openvx.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef RKNNOP_HOST_API
#define RKNNOP_HOST_API
#endif

/* --- Khronos mode -------------------------------------------------------------------------------
 * Off by default (VSI semantics). When on, vxQueryTensor and vxSetMetaFormatAttribute use vx_size
 * for VX_TENSOR_NUMBER_OF_DIMS (size must be sizeof(vx_size)), and vxQueryTensor for VX_TENSOR_DIMS
 * (one vx_size per dimension; size must be >= ndims * sizeof(vx_size), as in the Khronos sample
 * implementation), for kernels compiled against Khronos headers. vxSetMetaFormatAttribute reads
 * VX_TENSOR_DIMS as size / sizeof(vx_size) vx_size values in both modes, as the boards' driver does
 * (docs/runtime.md §9). vxCreateTensor takes vx_size sizes in both modes. */
RKNNOP_HOST_API vx_status rknnopHostSetKhronosMode(vx_context context, vx_bool enabled);
RKNNOP_HOST_API vx_status rknnopHostGetKhronosMode(vx_context context, vx_bool* enabled);

/* --- Nodes ------------------------------------------------------------------------------------ */
/* Copies the execution parameters set by the kernel's initializer. *was_set (may be NULL) tells
 * whether the initializer set any; if not, *params is all zeros. */
RKNNOP_HOST_API vx_status rknnopHostGetExecutionParameters(vx_node node, vx_kernel_execution_parameters_t* params,
                                                           vx_bool* was_set);
/* Uniforms set with vxSetNodeUniform, in the order first set (setting a name again replaces it).
 * The returned pointers stay valid until the node is released or the uniform is set again. */
RKNNOP_HOST_API vx_status rknnopHostGetNodeUniformCount(vx_node node, vx_uint32* count);
RKNNOP_HOST_API vx_status rknnopHostGetNodeUniform(vx_node node, vx_uint32 index, const vx_char** name,
                                                   const void** data, vx_size* size_in_bytes);

/* Each callback step of a node, as the runtime ran it: the validator and initializer (vxVerifyGraph),
 * the kernel function or shader executor (vxProcessGraph), the deinitializer (re-verify or release of
 * the graph; the node stays queryable while the application holds it). */
typedef enum rknnop_host_step_e {
  RKNNOP_HOST_STEP_VALIDATE = 0,
  RKNNOP_HOST_STEP_INITIALIZE = 1,
  RKNNOP_HOST_STEP_KERNEL = 2,
  RKNNOP_HOST_STEP_DEINITIALIZE = 3
} rknnop_host_step_e;
/* The step's last run: *called (may be NULL) whether it ran, *status (may be NULL) what it returned
 * (VX_SUCCESS if it did not run). */
RKNNOP_HOST_API vx_status rknnopHostGetNodeStep(vx_node node, vx_enum step, vx_bool* called, vx_status* status);
/* The log entries added while the step's callback ran, one message per line (no "[status]"
 * prefix; line breaks inside a message become spaces); *required_size (may be NULL) receives the
 * size needed including the NUL. */
RKNNOP_HOST_API vx_status rknnopHostGetNodeStepLog(vx_node node, vx_enum step, vx_char* buffer, vx_size size,
                                                   vx_size* required_size);

/* Node local data (VX_NODE_LOCAL_DATA_SIZE / _PTR) follows the board driver's rules (docs/runtime.md
 * §9): a pointer still set when a node is destroyed must be a block the runtime allocated for a size
 * set without a pointer. Anything else (a kernel's malloc'd block) the board's driver would free with
 * its own allocator, corrupting the heap; the runtime logs it, does not free it, and counts it here
 * (process-wide, since the program started), so that a test can fail on it. */
RKNNOP_HOST_API vx_uint32 rknnopHostGetForeignLocalDataCount(void);

/* --- Log ------------------------------------------------------------------------------------------
 * Messages are NUL-terminated and truncated to fit. */
/* The last entry added for ref (a context: the last entry of the whole context). VX_FAILURE if
 * there is none. */
RKNNOP_HOST_API vx_status rknnopHostGetLastLogEntry(vx_reference ref, vx_status* status, vx_char* message,
                                                    vx_size message_size);
/* The whole log of the context, one "[status] message\n" line per entry. *required_size (may be
 * NULL) receives the size needed including the NUL; buffer may be NULL to ask for it. */
RKNNOP_HOST_API vx_status rknnopHostGetLog(vx_context context, vx_char* buffer, vx_size size, vx_size* required_size);
RKNNOP_HOST_API vx_status rknnopHostGetLogEntryCount(vx_context context, vx_uint32* count);
RKNNOP_HOST_API vx_status rknnopHostClearLog(vx_context context);

/* --- Tensors -------------------------------------------------------------------------------------
 * "Written" is set by vxCopyTensorPatch(VX_WRITE_ONLY) and by rknnopHostGetTensorBuffer with a
 * writing usage, and cleared by rknnopHostResetTensorWritten; a loader uses it to report a kernel
 * that wrote nothing to an output. */
RKNNOP_HOST_API vx_status rknnopHostTensorWasWritten(vx_tensor tensor, vx_bool* written);
RKNNOP_HOST_API vx_status rknnopHostResetTensorWritten(vx_tensor tensor);

/* Process-wide, for tensors allocated afterwards: with guard pages on, each tensor buffer is mapped on
 * its own, between two inaccessible pages, and ends exactly at the second one, so a kernel reading or
 * writing past its end (or before its start) faults at the first byte out instead of corrupting the
 * heap. Costs a mapping per tensor; rknnop-node (the tools' child process) turns it on. */
RKNNOP_HOST_API vx_status rknnopHostSetGuardPages(vx_bool enabled);

/* Per context: the bytes its tensor buffers may hold together (0, the default: no limit). A tensor
 * whose buffer would pass it is not allocated: vxCreateTensor returns NULL, vxVerifyGraph
 * VX_ERROR_NO_MEMORY for a virtual output, each with a log entry naming the parameter, its bytes,
 * dims and type, and the limit. Checked before the memory is taken; a released tensor gives its bytes
 * back. The tools set it from their memory budget (docs/memory-budget.md). *in_use and *limit (either
 * may be NULL) receive what the context's tensors hold now and the limit. */
RKNNOP_HOST_API vx_status rknnopHostSetTensorMemoryLimit(vx_context context, vx_size bytes);
RKNNOP_HOST_API vx_status rknnopHostGetTensorMemory(vx_context context, vx_size* in_use, vx_size* limit);

/* A tensor's storage, without copying: dense, dims innermost first, strides in bytes. */
typedef struct rknnop_host_tensor_buffer {
  void* data;
  vx_size size_in_bytes;
  vx_uint32 num_dims;
  vx_uint32 dims[6];
  vx_size strides[6];
  vx_enum data_type;
  vx_int8 fixed_point_position;
} rknnop_host_tensor_buffer;
/* usage: VX_READ_ONLY, VX_WRITE_ONLY or VX_READ_AND_WRITE (the last two mark the tensor written).
 * VX_ERROR_NOT_ALLOCATED for a virtual tensor whose graph has not been verified yet. */
RKNNOP_HOST_API vx_status rknnopHostGetTensorBuffer(vx_tensor tensor, vx_enum usage, rknnop_host_tensor_buffer* buffer);

/* --- Shader executor -----------------------------------------------------------------------------
 * Runs nodes of shader kernels (kernels added with a NULL function). */
typedef struct rknnop_host_kernel_info {
  const vx_char* name; /* the kernel name, i.e. the shader's __kernel function */
  vx_enum enumeration;
  vx_uint32 num_params;
  const vx_param_description_t* params; /* num_params entries */
  /* NULL when the initializer set no execution parameters */
  const vx_kernel_execution_parameters_t* execution_parameters;
} rknnop_host_kernel_info;

typedef vx_status (*rknnop_host_shader_execute_f)(void* user, vx_node node, const rknnop_host_kernel_info* info,
                                                  const vx_reference* params, vx_uint32 num);
/* Bytes to store for vxSetNodeUniform(node, uniform_name, count, value); return 0 for the default
 * count * 4. */
typedef vx_size (*rknnop_host_uniform_size_f)(void* user, vx_node node, const vx_char* kernel_name,
                                              const vx_char* uniform_name, vx_size count);
/* execute NULL removes the executor; uniform_size may be NULL. */
RKNNOP_HOST_API vx_status rknnopHostSetShaderExecutor(vx_context context, rknnop_host_shader_execute_f execute,
                                                      rknnop_host_uniform_size_f uniform_size, void* user);

#ifdef __cplusplus
}
#endif

#endif /* RKNNOP_HOST_OPENVX_HOST_H */
