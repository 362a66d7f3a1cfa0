/* SPDX-License-Identifier: MIT */
/* The LD_PRELOAD front of rknnop's user-space galcore, as libGAL uses the device: run with
 * librknnop_galcore.so preloaded (CTest sets LD_PRELOAD; under qemu-user, -E LD_PRELOAD=). Without it,
 * opening /dev/galcore fails on a machine without the NPU driver, and the test says so (exit 1). */
#define _GNU_SOURCE
#include "galcore_hal.h"
#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static int version(int fd, struct rknnop_gc_interface* iface) {
  memset(iface, 0, sizeof *iface);
  iface->command = RKNNOP_GC_VERSION;
  iface->status = 999;
  struct rknnop_gc_driver_args args = {.input = (uint64_t)(uintptr_t)iface,
                                       .input_size = sizeof *iface,
                                       .output = (uint64_t)(uintptr_t)iface,
                                       .output_size = sizeof *iface};
  return ioctl(fd, RKNNOP_GC_IOCTL_INTERFACE, &args);
}

int main(void) {
  int fd = open("/dev/galcore", O_RDWR);
  if (fd < 0) {
    printf("open(/dev/galcore) failed (%s): is librknnop_galcore.so preloaded?\n", strerror(errno));
    return 1;
  }
  struct rknnop_gc_interface iface;
  CHECK(version(fd, &iface) == 0);
  CHECK(iface.status == RKNNOP_GC_STATUS_OK && iface.u.version.major == 6 && iface.u.version.build == 351518u);

  /* A duplicate of the descriptor is the device too; after close, the number is not. */
  int copy = dup(fd);
  CHECK(copy >= 0);
  CHECK(version(copy, &iface) == 0 && iface.status == RKNNOP_GC_STATUS_OK);
  CHECK(close(copy) == 0);

  /* The device's mmap is refused loudly, not faked. */
  errno = 0;
  void* mapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  CHECK(mapped == MAP_FAILED && errno == ENODEV);
  /* Ordinary mmap still works. */
  void* anonymous = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(anonymous != MAP_FAILED);
  if (anonymous != MAP_FAILED) munmap(anonymous, 4096);

  /* The other path name, and openat. */
  int other = open("/dev/graphics/galcore", O_RDWR);
  CHECK(other >= 0);
  CHECK(version(other, &iface) == 0 && iface.status == RKNNOP_GC_STATUS_OK);
  close(other);
  int at = openat(AT_FDCWD, "/dev/galcore", O_RDWR);
  CHECK(at >= 0);
  close(at);

  /* Other descriptors keep their real behaviour: an interface ioctl on /dev/null fails as usual
   * (ENOTTY natively; qemu-user refuses an ioctl it does not know with ENOSYS), the record untouched. */
  int null = open("/dev/null", O_RDWR);
  CHECK(null >= 0);
  errno = 0;
  CHECK(version(null, &iface) == -1 && errno != 0 && iface.status == 999);
  close(null);

  CHECK(close(fd) == 0);
  /* A closed device descriptor number reused by another file is that file again. */
  int reused = open("/dev/null", O_RDWR);
  errno = 0;
  CHECK(version(reused, &iface) == -1 && errno != 0 && iface.status == 999);
  close(reused);

  if (failures) {
    printf("test_galcore_preload: %d check(s) failed\n", failures);
    return 1;
  }
  printf("test_galcore_preload: all checks passed\n");
  return 0;
}
