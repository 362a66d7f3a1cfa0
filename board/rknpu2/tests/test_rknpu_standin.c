/* SPDX-License-Identifier: MIT */
/* The user-space /dev/rknpu seen through the C library, with librknnop_rknpu.so preloaded: the
 * device opens, ACTION answers the SoCs' hardware versions, MEM_CREATE gives a mappable memfd full
 * of finite float16 values, SUBMIT completes, and mkdir/mknod under /dev are refused with EPERM.
 * The refused paths' parent does not exist, so even without the stand-in nothing would be created. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "rknpu_standin.h"

static int failures;
#define CHECK(condition)                                                           \
  do {                                                                             \
    if (!(condition)) {                                                            \
      fprintf(stderr, "test_rknpu_standin:%d: %s failed\n", __LINE__, #condition); \
      ++failures;                                                                  \
    }                                                                              \
  } while (0)

#define IOC(nr, type) _IOWR(RKNPU_STANDIN_IOC_TYPE, nr, type)

static uint32_t hw_version_for(int fd, const char* soc) {
  setenv("RKNNOP_RKNPU_SOC", soc, 1);
  struct rknpu_standin_action action = {RKNPU_STANDIN_GET_HW_VERSION, 0xdeadbeefu};
  int status = ioctl(fd, IOC(RKNPU_STANDIN_ACTION, struct rknpu_standin_action), &action);
  unsetenv("RKNNOP_RKNPU_SOC");
  return status == 0 ? action.value : 0xffffffffu;
}

static int finite_half(uint16_t h) { return ((h >> 10) & 0x1f) != 0x1f; }

int main(void) {
  int fd = open(RKNPU_STANDIN_DEVICE, O_RDWR);
  if (fd < 0) {
    fprintf(stderr, "test_rknpu_standin: open %s: %s (is librknnop_rknpu.so preloaded?)\n", RKNPU_STANDIN_DEVICE,
            strerror(errno));
    return 1;
  }
  struct rknpu_standin_action action = {RKNPU_STANDIN_GET_HW_VERSION, 0};
  if (ioctl(fd, IOC(RKNPU_STANDIN_ACTION, struct rknpu_standin_action), &action) != 0) {
    fprintf(stderr, "test_rknpu_standin: ACTION on %s failed: the stand-in is not preloaded\n", RKNPU_STANDIN_DEVICE);
    return 1;
  }
  CHECK(action.value == RKNPU_STANDIN_HW_RK3588);
  CHECK(hw_version_for(fd, "RK3588") == 0x46495245u);
  CHECK(hw_version_for(fd, "RK3566_RK3568") == 0u);
  CHECK(hw_version_for(fd, "RK3562") == 0x54524549u);
  CHECK(hw_version_for(fd, "RK3576") == 0x46495245u); /* no known version: RK3588's, said once */
  action.flags = RKNPU_STANDIN_GET_DRV_VERSION;
  CHECK(ioctl(fd, IOC(RKNPU_STANDIN_ACTION, struct rknpu_standin_action), &action) == 0);
  CHECK(action.value == RKNPU_STANDIN_DRIVER_VERSION);
  action.flags = 19; /* power on: succeeds */
  CHECK(ioctl(fd, IOC(RKNPU_STANDIN_ACTION, struct rknpu_standin_action), &action) == 0);

  /* Memory: a memfd of the size asked, finite halves, mostly non-zero. */
  struct rknpu_standin_mem_create create = {0, 2, 4097, 0, 0, 0};
  CHECK(ioctl(fd, IOC(RKNPU_STANDIN_MEM_CREATE, struct rknpu_standin_mem_create), &create) == 0);
  CHECK(create.obj_addr != 0 && create.dma_addr != 0);
  struct stat st;
  CHECK(fstat((int)create.handle, &st) == 0 && st.st_size == 4097);
  const uint16_t* halves = mmap(NULL, 4096, PROT_READ, MAP_SHARED, (int)create.handle, 0);
  CHECK(halves != MAP_FAILED);
  if (halves != MAP_FAILED) {
    unsigned non_zero = 0, finite = 0;
    for (unsigned i = 0; i < 2048; ++i) {
      finite += (unsigned)finite_half(halves[i]);
      non_zero += (halves[i] & 0x7fff) != 0;
    }
    CHECK(finite == 2048);
    CHECK(non_zero > 2000);
    munmap((void*)halves, 4096);
  }
  struct rknpu_standin_mem_map map = {create.handle, 0, 1};
  CHECK(ioctl(fd, IOC(RKNPU_STANDIN_MEM_MAP, struct rknpu_standin_mem_map), &map) == 0);
  void* via_device = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, (off_t)map.offset);
  CHECK(via_device != MAP_FAILED);
  if (via_device != MAP_FAILED) munmap(via_device, 4096);

  /* SUBMIT: accepted, every task counted as done. */
  unsigned char submit_bytes[104];
  memset(submit_bytes, 0, sizeof submit_bytes);
  struct rknpu_standin_submit submit;
  memset(&submit, 0, sizeof submit);
  submit.task_number = 3;
  submit.task_obj_addr = create.obj_addr;
  memcpy(submit_bytes, &submit, sizeof submit);
  CHECK(ioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, RKNPU_STANDIN_IOC_TYPE, RKNPU_STANDIN_SUBMIT, sizeof submit_bytes),
              submit_bytes) == 0);
  memcpy(&submit, submit_bytes, sizeof submit);
  CHECK(submit.task_counter == 3);

  struct rknpu_standin_mem_destroy destroy = {create.handle, 0, create.obj_addr};
  CHECK(ioctl(fd, IOC(RKNPU_STANDIN_MEM_DESTROY, struct rknpu_standin_mem_destroy), &destroy) == 0);
  CHECK(ioctl(fd, IOC(RKNPU_STANDIN_MEM_DESTROY, struct rknpu_standin_mem_destroy), &destroy) == -1 && errno == EINVAL);
  close((int)create.handle);
  CHECK(ioctl(fd, _IOWR('x', 9, int), &action) == -1 && errno == ENOTTY);

  /* Refused: creating anything under /dev, however spelled. */
  errno = 0;
  CHECK(mkdir("/dev/rknnop-standin-test/d", 0755) == -1 && errno == EPERM);
  errno = 0;
  CHECK(mkdir("//dev/./rknnop-standin-test/d", 0755) == -1 && errno == EPERM);
  errno = 0;
  CHECK(mknod("/dev/rknnop-standin-test/card0", S_IFCHR | 0666, makedev(226, 0)) == -1 && errno == EPERM);
  errno = 0;
  CHECK(mknodat(AT_FDCWD, "/dev/rknnop-standin-test/card1", S_IFCHR | 0666, makedev(226, 1)) == -1 && errno == EPERM);
  int dev = open("/dev", O_RDONLY | O_DIRECTORY);
  CHECK(dev >= 0);
  if (dev >= 0) {
    errno = 0;
    CHECK(mkdirat(dev, "rknnop-standin-test/d", 0755) == -1 && errno == EPERM);
    close(dev);
  }
  /* Elsewhere: the C library's. */
  char folder[] = "/tmp/rknnop-standin-XXXXXX";
  CHECK(mkdtemp(folder) != NULL);
  char inner[64];
  snprintf(inner, sizeof inner, "%s/d", folder);
  CHECK(mkdir(inner, 0755) == 0);
  CHECK(rmdir(inner) == 0 && rmdir(folder) == 0);

  int copy = dup(fd);
  CHECK(copy >= 0);
  action.flags = RKNPU_STANDIN_GET_HW_VERSION;
  CHECK(ioctl(copy, IOC(RKNPU_STANDIN_ACTION, struct rknpu_standin_action), &action) == 0);
  close(copy);
  close(fd);
  if (failures) return 1;
  printf("test_rknpu_standin: all checks passed\n");
  return 0;
}
