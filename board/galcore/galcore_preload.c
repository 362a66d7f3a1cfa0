/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD front of rknnop's user-space galcore: opening /dev/galcore (or /dev/graphics/galcore)
 * gives a descriptor of /dev/null that the shared front (board/common/device_front.c) remembers; ioctl
 * on it goes to rknnop_galcore_ioctl; mmap of it is refused loudly here (libGAL
 * 6.4.6 maps nothing through the device: video memory comes back mapped by LOCK_VIDEO_MEMORY).
 * Everything else goes to the C library. Used as
 *   qemu-aarch64 -L <sysroot> -E LD_PRELOAD=librknnop_galcore.so -E LD_LIBRARY_PATH=<drivers> prog */
#define _GNU_SOURCE
#include "device_front.h"
#include "galcore.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int is_device_path(const char* path) {
  return path && (strcmp(path, "/dev/galcore") == 0 || strcmp(path, "/dev/graphics/galcore") == 0);
}

const struct rknnop_device_description rknnop_device = {"rknnop-galcore", is_device_path, rknnop_galcore_ioctl,
                                                        rknnop_galcore_logging};

static void refuse_mmap(int fd, off_t offset) {
  fprintf(stderr, "rknnop-galcore: mmap of the galcore device (fd %d, offset 0x%llx) is not emulated\n", fd,
          (unsigned long long)offset);
}

void* mmap(void* address, size_t length, int protection, int flags, int fd, off_t offset) {
  if (rknnop_device_fd(fd)) {
    refuse_mmap(fd, offset);
    errno = ENODEV;
    return MAP_FAILED;
  }
  static void* (*real)(void*, size_t, int, int, int, off_t);
  RKNNOP_LOAD_NEXT(real, "mmap");
  return real(address, length, protection, flags, fd, offset);
}

#if !defined(__LP64__)
void* mmap64(void* address, size_t length, int protection, int flags, int fd, off64_t offset) {
  if (rknnop_device_fd(fd)) {
    refuse_mmap(fd, (off_t)offset);
    errno = ENODEV;
    return MAP_FAILED;
  }
  static void* (*real)(void*, size_t, int, int, int, off64_t);
  RKNNOP_LOAD_NEXT(real, "mmap64");
  return real(address, length, protection, flags, fd, offset);
}
#endif
