/* SPDX-License-Identifier: MIT */
/* A stand-in kernel library for the board import check: it imports vxQueryTensor, which every
 * board's driver exports, and with RKNNOP_IMPORT_MISSING also a vx function no driver exports. */
typedef int vx_status;
vx_status vxQueryTensor(void* tensor, int attribute, void* ptr, unsigned long size);
#ifdef RKNNOP_IMPORT_MISSING
vx_status vxQueryTensorCompressedLayout(void* tensor);
#endif

static vx_status probe(void* t) {
  vx_status s = vxQueryTensor(t, 0, 0, 0);
#ifdef RKNNOP_IMPORT_MISSING
  if (s == 0) s = vxQueryTensorCompressedLayout(t);
#endif
  return s;
}

__attribute__((visibility("default"))) void* vx_kernel_Probe_list[] = {(void*)&probe, 0};
