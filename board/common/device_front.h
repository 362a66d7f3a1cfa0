/* SPDX-License-Identifier: MIT */
/* The LD_PRELOAD front that rknnop's user-space devices share (board/galcore: /dev/galcore for RKNN
 * v1's driver libraries; board/rknpu2: /dev/rknpu for librknnrt). Opening the device gives a
 * descriptor of /dev/null that the front remembers (so close, dup and poll behave as on a real
 * descriptor), and ioctl on it goes to the device's own handler; everything else goes to the C
 * library. Each device's preload file defines `rknnop_device` (below) and whatever else it
 * interposes (mmap, mkdir, ...), with rknnop_device_fd and RKNNOP_LOAD_NEXT from here. */
#ifndef RKNNOP_BOARD_DEVICE_FRONT_H
#define RKNNOP_BOARD_DEVICE_FRONT_H

#include <stddef.h>

struct rknnop_device_description {
  const char* tag;                  /* log prefix, e.g. "rknnop-galcore" */
  int (*is_path)(const char* path); /* 1: this path opens the device */
  int (*ioctl)(unsigned long request, void* argument);
  int (*logging)(void); /* 1: log opens */
};
extern const struct rknnop_device_description rknnop_device; /* defined by the device's preload file */

/* 1 when fd is a descriptor of the device. */
int rknnop_device_fd(int fd);

/* Looks up the C library's next definition of `name` into a function pointer, or exits 127 naming it. */
void rknnop_device_next(const char* name, void* function_pointer, size_t size);
#define RKNNOP_LOAD_NEXT(variable, name)                                      \
  do {                                                                        \
    if (!(variable)) rknnop_device_next(name, &(variable), sizeof(variable)); \
  } while (0)

#endif
