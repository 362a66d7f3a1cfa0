/* SPDX-License-Identifier: MIT */
/* The RKNPU misc-device interface as rknnop's stand-in answers it (facts of Rockchip's driver
 * interface, measured against librknnrt 1.6.0: docs/rknpu2-emulation.md). Every field that carries an
 * address is 64 bits wide, so the layouts are the same for 32- and 64-bit processes. */
#ifndef RKNNOP_RKNPU_STANDIN_H
#define RKNNOP_RKNPU_STANDIN_H

#include <stddef.h>
#include <stdint.h>

#define RKNPU_STANDIN_DEVICE "/dev/rknpu"
#define RKNPU_STANDIN_IOC_TYPE 'r'

/* ioctl numbers (_IOWR('r', nr, struct)) */
enum {
  RKNPU_STANDIN_ACTION = 0,
  RKNPU_STANDIN_SUBMIT = 1,
  RKNPU_STANDIN_MEM_CREATE = 2,
  RKNPU_STANDIN_MEM_MAP = 3,
  RKNPU_STANDIN_MEM_DESTROY = 4,
  RKNPU_STANDIN_MEM_SYNC = 5,
};

/* ACTION's flags that ask for a value; the other actions (power, nice, iommu, ...) just succeed. */
enum { RKNPU_STANDIN_GET_HW_VERSION = 0, RKNPU_STANDIN_GET_DRV_VERSION = 1 };

struct rknpu_standin_action {
  uint32_t flags;
  uint32_t value;
};

/* The leading fields the stand-in reads or writes; the runtime passes more (the subcore tasks). */
struct rknpu_standin_submit {
  uint32_t flags;
  uint32_t timeout;
  uint32_t task_start;
  uint32_t task_number;
  uint32_t task_counter; /* written: tasks completed */
  int32_t priority;
  uint64_t task_obj_addr;
  uint64_t regcfg_obj_addr;
  uint64_t task_base_addr;
  uint64_t user_data;
  uint32_t core_mask;
  int32_t fence_fd;
};

struct rknpu_standin_mem_create {
  uint32_t handle; /* written: the memory's descriptor (a memfd here) */
  uint32_t flags;
  uint64_t size;
  uint64_t obj_addr; /* written: the object's identity (a kernel address on a board) */
  uint64_t dma_addr; /* written: the NPU's address of the memory */
  uint64_t sram_size;
};

struct rknpu_standin_mem_map {
  uint32_t handle;
  uint32_t reserved;
  uint64_t offset; /* written: the mmap offset on the device's descriptor */
};

struct rknpu_standin_mem_destroy {
  uint32_t handle;
  uint32_t reserved;
  uint64_t obj_addr;
};

/* Hardware versions by SoC (ACTION flags 0), as librknnrt 1.6.0 maps them to platforms. It knows no
 * RK3576 (its models' platform "RKNPU f2" is unknown to it): RK3588's is answered for that SoC. */
#define RKNPU_STANDIN_HW_RK3588 0x46495245u
#define RKNPU_STANDIN_HW_RK3566_RK3568 0u
#define RKNPU_STANDIN_HW_RK3562 0x54524549u
/* Driver version (ACTION flags 1): major * 10000 + minor * 100 + patch. */
#define RKNPU_STANDIN_DRIVER_VERSION 906u

#define RKNPU_STANDIN_OBJ_BASE 0xffffff8000100000ull
#define RKNPU_STANDIN_OBJ_STRIDE 0x1000ull
#define RKNPU_STANDIN_MAP_STRIDE 0x100000000ull
#define RKNPU_STANDIN_DMA_BASE 0x10000000ull
#define RKNPU_STANDIN_MAX_OBJECT (1ull << 31)

/* The hardware version answered for a SoC name (NULL or "": RK3588): 0 with *value set, -1 for a
 * name without a known version (RK3576, or one the stand-in does not know). */
int rknpu_standin_hw_version(const char* soc, uint32_t* value);
/* The fill pattern: the next float16 (bits) of a xorshift32 state; finite, |value| < 4. */
uint16_t rknpu_standin_next_half(uint32_t* state);
void rknpu_standin_fill(void* memory, size_t bytes, uint32_t* state);
/* 1 when mkdir/mknod of `path` (relative to `dir`, or AT_FDCWD) would create something under /dev. */
int rknpu_standin_is_under_dev(int dir, const char* path);
/* The device's ioctl (as the preloaded front calls it). */
int rknpu_standin_ioctl(unsigned long request, void* argument);

#endif
