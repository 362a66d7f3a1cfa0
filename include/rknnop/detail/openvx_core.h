/* SPDX-License-Identifier: MIT */
/*
 * Part of <rknnop/openvx.h>: what the vendors declare in <VX/vx.h> (types, constants, functions).
 * The kernel-table types are in <rknnop/detail/openvx_helper.h>, as the vendors keep them in
 * <VX/vx_helper.h>; rknnop's VX/ compatibility headers include the two parts separately.
 */
#ifndef RKNNOP_DETAIL_OPENVX_CORE_H
#define RKNNOP_DETAIL_OPENVX_CORE_H

#include <stddef.h> /* size_t */
#include <stdint.h> /* fixed-width types */

#ifdef __cplusplus
extern "C" {
#endif

#define RKNNOP_OWN_OPENVX_DECLARATIONS 1

#ifndef VX_API_ENTRY
#define VX_API_ENTRY
#endif
#ifndef VX_API_CALL
#define VX_API_CALL
#endif
#ifndef VX_CALLBACK
#define VX_CALLBACK
#endif

typedef char vx_char;
typedef uint8_t vx_uint8;
typedef uint16_t vx_uint16;
typedef uint32_t vx_uint32;
typedef uint64_t vx_uint64;
typedef int8_t vx_int8;
typedef int16_t vx_int16;
typedef int32_t vx_int32;
typedef int64_t vx_int64;
typedef float vx_float32;
typedef double vx_float64;
typedef uint16_t vx_float16;
typedef size_t vx_size;
typedef int32_t vx_enum;
typedef vx_enum vx_status;
typedef vx_enum vx_type_e;
typedef enum vx_bool_e { vx_false_e = 0, vx_true_e = 1 } vx_bool;

typedef struct _vx_reference* vx_reference;
typedef struct _vx_context* vx_context;
typedef struct _vx_graph* vx_graph;
typedef struct _vx_node* vx_node;
typedef struct _vx_kernel* vx_kernel;
typedef struct _vx_parameter* vx_parameter;
typedef struct _vx_scalar* vx_scalar;
typedef struct _vx_array* vx_array;
typedef struct _vx_tensor* vx_tensor;
typedef struct _vx_meta_format* vx_meta_format;

#define VX_MAX_KERNEL_NAME 256
#define VX_MAX_WORK_ITEM_DIMENSIONS 3

#define VX_ID_KHRONOS 0x000
#define VX_ID_VIVANTE 0x007
#define VX_ID_DEFAULT 0xFFF
#define VX_ENUM_BASE(vendor, id) (((vendor) << 20) | ((id) << 12))
#define VX_ATTRIBUTE_BASE(vendor, object) (((vendor) << 20) | ((object) << 8))
#define VX_KERNEL_BASE(vendor, lib) (((vendor) << 20) | ((lib) << 12))

/* vx_type_e */
#define VX_TYPE_INVALID 0x000
#define VX_TYPE_CHAR 0x001
#define VX_TYPE_INT8 0x002
#define VX_TYPE_UINT8 0x003
#define VX_TYPE_INT16 0x004
#define VX_TYPE_UINT16 0x005
#define VX_TYPE_INT32 0x006
#define VX_TYPE_UINT32 0x007
#define VX_TYPE_INT64 0x008
#define VX_TYPE_UINT64 0x009
#define VX_TYPE_FLOAT32 0x00A
#define VX_TYPE_FLOAT64 0x00B
#define VX_TYPE_ENUM 0x00C
#define VX_TYPE_SIZE 0x00D
#define VX_TYPE_DF_IMAGE 0x00E
#define VX_TYPE_FLOAT16 0x00F
#define VX_TYPE_BOOL 0x010
#define VX_TYPE_BOOL8 0x011 /* VSI only */
#define VX_TYPE_REFERENCE 0x800
#define VX_TYPE_CONTEXT 0x801
#define VX_TYPE_GRAPH 0x802
#define VX_TYPE_NODE 0x803
#define VX_TYPE_KERNEL 0x804
#define VX_TYPE_PARAMETER 0x805
#define VX_TYPE_SCALAR 0x80D
#define VX_TYPE_ARRAY 0x80E
#define VX_TYPE_IMAGE 0x80F
#define VX_TYPE_META_FORMAT 0x812
#define VX_TYPE_TENSOR 0x815

/* vx_status_e */
#define VX_SUCCESS 0
#define VX_FAILURE (-1)
#define VX_ERROR_NOT_IMPLEMENTED (-2)
#define VX_ERROR_NOT_SUPPORTED (-3)
#define VX_ERROR_NOT_SUFFICIENT (-4)
#define VX_ERROR_NOT_ALLOCATED (-5)
#define VX_ERROR_NOT_COMPATIBLE (-6)
#define VX_ERROR_NO_RESOURCES (-7)
#define VX_ERROR_NO_MEMORY (-8)
#define VX_ERROR_OPTIMIZED_AWAY (-9)
#define VX_ERROR_INVALID_PARAMETERS (-10)
#define VX_ERROR_INVALID_MODULE (-11)
#define VX_ERROR_INVALID_REFERENCE (-12)
#define VX_ERROR_INVALID_LINK (-13)
#define VX_ERROR_INVALID_FORMAT (-14)
#define VX_ERROR_INVALID_DIMENSION (-15)
#define VX_ERROR_INVALID_VALUE (-16)
#define VX_ERROR_INVALID_TYPE (-17)
#define VX_ERROR_INVALID_GRAPH (-18)
#define VX_ERROR_INVALID_NODE (-19)
#define VX_ERROR_GRAPH_SCHEDULED (-21)

/* vx_direction_e, vx_parameter_state_e */
#define VX_INPUT 0
#define VX_OUTPUT 1
#define VX_BIDIRECTIONAL 2
#define VX_PARAMETER_STATE_REQUIRED 0x8000
#define VX_PARAMETER_STATE_OPTIONAL 0x8001

/* vx_accessor_e, vx_memory_type_e */
#define VX_READ_ONLY 0x11001
#define VX_WRITE_ONLY 0x11002
#define VX_READ_AND_WRITE 0x11003
#define VX_MEMORY_TYPE_NONE 0xE000
#define VX_MEMORY_TYPE_HOST 0xE001

/* attributes */
#define VX_REFERENCE_COUNT 0x80000
#define VX_REFERENCE_TYPE 0x80001
#define VX_NODE_STATUS 0x80300
#define VX_NODE_LOCAL_DATA_SIZE 0x80303
#define VX_NODE_LOCAL_DATA_PTR 0x80304
#define VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS 0x780300 /* VSI only */
#define VX_SCALAR_TYPE 0x80D00
#define VX_ARRAY_ITEMTYPE 0x80E00
#define VX_ARRAY_NUMITEMS 0x80E01
#define VX_ARRAY_CAPACITY 0x80E02
#define VX_ARRAY_ITEMSIZE 0x80E03
#define VX_TENSOR_NUMBER_OF_DIMS 0x81500
#define VX_TENSOR_DIMS 0x81501
#define VX_TENSOR_DATA_TYPE 0x81502
#define VX_TENSOR_FIXED_POINT_POSITION 0x81503

typedef vx_status(VX_CALLBACK* vx_kernel_f)(vx_node node, const vx_reference* parameters, vx_uint32 num);
typedef vx_status(VX_CALLBACK* vx_kernel_initialize_f)(vx_node node, const vx_reference* parameters, vx_uint32 num);
typedef vx_status(VX_CALLBACK* vx_kernel_deinitialize_f)(vx_node node, const vx_reference* parameters, vx_uint32 num);
typedef vx_status(VX_CALLBACK* vx_kernel_validate_f)(vx_node node, const vx_reference parameters[], vx_uint32 num,
                                                     vx_meta_format metas[]);

typedef struct _vx_kernel_execution_parameters {
  vx_uint32 workDim;
  vx_size globalWorkOffset[VX_MAX_WORK_ITEM_DIMENSIONS];
  vx_size globalWorkScale[VX_MAX_WORK_ITEM_DIMENSIONS];
  vx_size localWorkSize[VX_MAX_WORK_ITEM_DIMENSIONS];
  vx_size globalWorkSize[VX_MAX_WORK_ITEM_DIMENSIONS];
} vx_kernel_execution_parameters_t;

/* Objects and references */
VX_API_ENTRY vx_context VX_API_CALL vxCreateContext(void);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseContext(vx_context* context);
VX_API_ENTRY vx_context VX_API_CALL vxGetContext(vx_reference reference);
VX_API_ENTRY vx_status VX_API_CALL vxGetStatus(vx_reference reference);
VX_API_ENTRY vx_status VX_API_CALL vxQueryReference(vx_reference ref, vx_enum attribute, void* ptr, vx_size size);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseReference(vx_reference* ref_ptr);
VX_API_ENTRY vx_status VX_API_CALL vxRetainReference(vx_reference ref);
VX_API_ENTRY void VX_API_CALL vxAddLogEntry(vx_reference ref, vx_status status, const char* message, ...);

/* Tensors. Creation takes the rank and sizes as vx_size, as Khronos 1.2 and the boards' libOpenVX
 * (which loads 8-byte sizes on aarch64); queries of VX_TENSOR_DIMS answer vx_uint32 (VSI). */
VX_API_ENTRY vx_tensor VX_API_CALL vxCreateTensor(vx_context context, vx_size number_of_dims, const vx_size* dims,
                                                  vx_enum data_format, vx_int8 fixed_point_position);
VX_API_ENTRY vx_tensor VX_API_CALL vxCreateVirtualTensor(vx_graph graph, vx_size number_of_dims, const vx_size* dims,
                                                         vx_enum data_format, vx_int8 fixed_point_position);
VX_API_ENTRY vx_status VX_API_CALL vxQueryTensor(vx_tensor tensor, vx_enum attribute, void* ptr, vx_size size);
VX_API_ENTRY vx_status VX_API_CALL vxCopyTensorPatch(vx_tensor tensor, vx_size number_of_dims,
                                                     const vx_size* view_start, const vx_size* view_end,
                                                     const vx_size* user_stride, void* user_ptr, vx_enum usage,
                                                     vx_enum user_memory_type);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseTensor(vx_tensor* tensor);

/* Scalars */
VX_API_ENTRY vx_scalar VX_API_CALL vxCreateScalar(vx_context context, vx_enum data_type, const void* ptr);
VX_API_ENTRY vx_status VX_API_CALL vxQueryScalar(vx_scalar scalar, vx_enum attribute, void* ptr, vx_size size);
VX_API_ENTRY vx_status VX_API_CALL vxCopyScalar(vx_scalar scalar, void* user_ptr, vx_enum usage, vx_enum user_mem_type);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseScalar(vx_scalar* scalar);

/* Arrays */
VX_API_ENTRY vx_array VX_API_CALL vxCreateArray(vx_context context, vx_enum item_type, vx_size capacity);
VX_API_ENTRY vx_status VX_API_CALL vxAddArrayItems(vx_array arr, vx_size count, const void* ptr, vx_size stride);
VX_API_ENTRY vx_status VX_API_CALL vxQueryArray(vx_array arr, vx_enum attribute, void* ptr, vx_size size);
VX_API_ENTRY vx_status VX_API_CALL vxCopyArrayRange(vx_array array, vx_size range_start, vx_size range_end,
                                                    vx_size user_stride, void* user_ptr, vx_enum usage,
                                                    vx_enum user_memory_type);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseArray(vx_array* arr);

/* User kernels */
VX_API_ENTRY vx_kernel VX_API_CALL vxAddUserKernel(vx_context context, const vx_char name[VX_MAX_KERNEL_NAME],
                                                   vx_enum enumeration, vx_kernel_f func_ptr, vx_uint32 numParams,
                                                   vx_kernel_validate_f validate, vx_kernel_initialize_f init,
                                                   vx_kernel_deinitialize_f deinit);
VX_API_ENTRY vx_status VX_API_CALL vxAddParameterToKernel(vx_kernel kernel, vx_uint32 index, vx_enum dir,
                                                          vx_enum data_type, vx_enum state);
VX_API_ENTRY vx_status VX_API_CALL vxFinalizeKernel(vx_kernel kernel);
VX_API_ENTRY vx_kernel VX_API_CALL vxGetKernelByName(vx_context context, const vx_char* name);
VX_API_ENTRY vx_status VX_API_CALL vxRemoveKernel(vx_kernel kernel);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseKernel(vx_kernel* kernel);

/* Graphs and nodes */
VX_API_ENTRY vx_graph VX_API_CALL vxCreateGraph(vx_context context);
VX_API_ENTRY vx_status VX_API_CALL vxVerifyGraph(vx_graph graph);
VX_API_ENTRY vx_status VX_API_CALL vxProcessGraph(vx_graph graph);
VX_API_ENTRY vx_status VX_API_CALL vxScheduleGraph(vx_graph graph);
VX_API_ENTRY vx_status VX_API_CALL vxWaitGraph(vx_graph graph);
VX_API_ENTRY vx_status VX_API_CALL vxAddParameterToGraph(vx_graph graph, vx_parameter parameter);
VX_API_ENTRY vx_status VX_API_CALL vxSetGraphParameterByIndex(vx_graph graph, vx_uint32 index, vx_reference value);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseGraph(vx_graph* graph);
VX_API_ENTRY vx_node VX_API_CALL vxCreateGenericNode(vx_graph graph, vx_kernel kernel);
VX_API_ENTRY vx_status VX_API_CALL vxSetParameterByIndex(vx_node node, vx_uint32 index, vx_reference value);
VX_API_ENTRY vx_parameter VX_API_CALL vxGetParameterByIndex(vx_node node, vx_uint32 index);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseParameter(vx_parameter* param);
VX_API_ENTRY vx_status VX_API_CALL vxQueryNode(vx_node node, vx_enum attribute, void* ptr, vx_size size);
VX_API_ENTRY vx_status VX_API_CALL vxSetNodeAttribute(vx_node node, vx_enum attribute, const void* ptr, vx_size size);
VX_API_ENTRY vx_status VX_API_CALL vxReleaseNode(vx_node* node);
VX_API_ENTRY vx_status VX_API_CALL vxSetNodeUniform(vx_node node, const vx_char* name, vx_size count,
                                                    void* value); /* VSI only */

/* Meta formats (validators) */
VX_API_ENTRY vx_status VX_API_CALL vxSetMetaFormatAttribute(vx_meta_format meta, vx_enum attribute, const void* ptr,
                                                            vx_size size);

#ifdef __cplusplus
}
#endif

#endif /* RKNNOP_DETAIL_OPENVX_CORE_H */
