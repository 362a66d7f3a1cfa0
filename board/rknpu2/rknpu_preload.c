/* SPDX-License-Identifier: MIT */
/* rknnop's user-space /dev/rknpu: an LD_PRELOAD library that lets Rockchip's RKNPU2 runtime
 * (librknnrt) run on a PC under qemu-user. Opening /dev/rknpu gives a descriptor of /dev/null that
 * this library remembers; ioctl on it answers the misc-device interface (type 'r': ACTION, SUBMIT,
 * MEM_CREATE/MAP/DESTROY/SYNC); memory objects are memfds the runtime maps, filled with a seeded
 * pattern of finite float16 values. NPU tasks (SUBMIT) are accepted, not executed. mkdir/mknod under
 * /dev are refused, so a runtime that misses the device never creates nodes. Docs:
 * docs/rknpu2-emulation.md. Environment:
 *   RKNNOP_RKNPU_SOC         RK3588 (default), RK3566_RK3568, RK3562 or RK3576: the hardware version
 *   RKNNOP_RKNPU_HW_VERSION  a hardware version to answer instead (hex or decimal)
 *   RKNNOP_RKNPU_SEED        the fill pattern's seed (default 1)
 *   RKNNOP_RKNPU_LOG=1       one line on stderr per ioctl, mmap and refused call */
#define _GNU_SOURCE
#include "device_front.h"
#include "rknpu_standin.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_OBJECTS 4096

typedef struct memory_object {
  int fd; /* the memfd (the handle); -1: slot free */
  uint64_t size;
  uint64_t dma_addr;
} memory_object;

static memory_object objects[MAX_OBJECTS];
static int objects_ready;
static uint64_t next_dma_addr = RKNPU_STANDIN_DMA_BASE;
static uint32_t pattern_state;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int logging(void) {
  static int value = -1;
  if (value < 0) {
    const char* text = getenv("RKNNOP_RKNPU_LOG");
    value = text && *text && strcmp(text, "0") != 0;
  }
  return value;
}

static int is_device_path(const char* path) { return path && strcmp(path, RKNPU_STANDIN_DEVICE) == 0; }

int rknpu_standin_hw_version(const char* soc, uint32_t* value) {
  if (!soc || !*soc || strcmp(soc, "RK3588") == 0)
    *value = RKNPU_STANDIN_HW_RK3588;
  else if (strcmp(soc, "RK3566_RK3568") == 0 || strcmp(soc, "RK3566") == 0 || strcmp(soc, "RK3568") == 0)
    *value = RKNPU_STANDIN_HW_RK3566_RK3568;
  else if (strcmp(soc, "RK3562") == 0)
    *value = RKNPU_STANDIN_HW_RK3562;
  else
    return -1;
  return 0;
}

/* ACTION flags 0: the selected SoC's hardware version. A SoC without a known one (RK3576) gets
 * RK3588's, said once: failing the request makes librknnrt 1.6.0 crash in rknn_init. */
static uint32_t hw_version(void) {
  const char* text = getenv("RKNNOP_RKNPU_HW_VERSION");
  if (text && *text) {
    char* end;
    unsigned long parsed = strtoul(text, &end, 0);
    if (*end == '\0' && parsed <= UINT32_MAX) return (uint32_t)parsed;
  }
  const char* soc = getenv("RKNNOP_RKNPU_SOC");
  uint32_t value;
  if (!(text && *text) && rknpu_standin_hw_version(soc, &value) == 0) return value;
  static int said;
  if (!said)
    fprintf(stderr,
            text && *text ? "rknnop-rknpu: RKNNOP_RKNPU_HW_VERSION=%s is not a 32-bit number: answering RK3588's "
                            "hardware version 0x%x\n"
                          : "rknnop-rknpu: RKNNOP_RKNPU_SOC=%s has no known hardware version (known: RK3588, "
                            "RK3566_RK3568, RK3562): answering RK3588's 0x%x (set RKNNOP_RKNPU_HW_VERSION)\n",
            text && *text ? text : soc, RKNPU_STANDIN_HW_RK3588);
  said = 1;
  return RKNPU_STANDIN_HW_RK3588;
}

/* xorshift32 (Marsaglia): the fill pattern's generator. */
static uint32_t next_random(uint32_t* state) {
  uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

uint16_t rknpu_standin_next_half(uint32_t* state) {
  uint32_t r = next_random(state);
  /* Exponent field 0..16: |value| < 4 (subnormals and zero included); never 31 (Inf/NaN). */
  uint32_t exponent = (r >> 10) % 17u;
  return (uint16_t)(((r >> 31) << 15) | (exponent << 10) | (r & 0x3ffu));
}

void rknpu_standin_fill(void* memory, size_t bytes, uint32_t* state) {
  unsigned char* p = memory;
  for (size_t i = 0; i < bytes; i += 2) {
    uint16_t half = rknpu_standin_next_half(state);
    p[i] = (unsigned char)(half & 0xff);
    if (i + 1 < bytes) p[i + 1] = (unsigned char)(half >> 8);
  }
}

static void init_objects(void) {
  if (objects_ready) return;
  for (int i = 0; i < MAX_OBJECTS; ++i) objects[i].fd = -1;
  const char* seed = getenv("RKNNOP_RKNPU_SEED");
  pattern_state = seed && *seed ? (uint32_t)strtoul(seed, NULL, 0) : 1u;
  if (pattern_state == 0) pattern_state = 1; /* xorshift's only fixed point */
  objects_ready = 1;
}

static int fail_errno(int error) {
  errno = error;
  return -1;
}

static int object_of_handle(uint32_t handle) {
  for (int i = 0; i < MAX_OBJECTS; ++i)
    if (objects[i].fd >= 0 && (uint32_t)objects[i].fd == handle) return i;
  return -1;
}

static int object_of_obj_addr(uint64_t obj_addr) {
  if (obj_addr < RKNPU_STANDIN_OBJ_BASE) return -1;
  uint64_t index = (obj_addr - RKNPU_STANDIN_OBJ_BASE) / RKNPU_STANDIN_OBJ_STRIDE;
  if (index >= MAX_OBJECTS || objects[index].fd < 0) return -1;
  return (int)index;
}

static int mem_create(struct rknpu_standin_mem_create* args) {
  if (args->size == 0 || args->size > RKNPU_STANDIN_MAX_OBJECT) return fail_errno(EINVAL);
  int slot = -1;
  for (int i = 0; i < MAX_OBJECTS && slot < 0; ++i)
    if (objects[i].fd < 0) slot = i;
  if (slot < 0) return fail_errno(ENOMEM);
  int fd = memfd_create("rknnop-rknpu", MFD_CLOEXEC);
  if (fd < 0) return -1;
  if (ftruncate(fd, (off_t)args->size) != 0) {
    int error = errno;
    close(fd);
    return fail_errno(error);
  }
  void* memory = mmap(NULL, (size_t)args->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (memory == MAP_FAILED) {
    int error = errno;
    close(fd);
    return fail_errno(error);
  }
  rknpu_standin_fill(memory, (size_t)args->size, &pattern_state);
  munmap(memory, (size_t)args->size);
  objects[slot].fd = fd;
  objects[slot].size = args->size;
  objects[slot].dma_addr = next_dma_addr;
  next_dma_addr += (args->size + 0xfffu) & ~(uint64_t)0xfffu;
  args->handle = (uint32_t)fd;
  args->obj_addr = RKNPU_STANDIN_OBJ_BASE + (uint64_t)slot * RKNPU_STANDIN_OBJ_STRIDE;
  args->dma_addr = objects[slot].dma_addr;
  return 0;
}

static int mem_destroy(const struct rknpu_standin_mem_destroy* args) {
  int slot = object_of_handle(args->handle);
  if (slot < 0) slot = object_of_obj_addr(args->obj_addr);
  if (slot < 0) return fail_errno(EINVAL);
  /* The handle is a descriptor the process holds (a dma-buf fd on a board): left open. */
  objects[slot].fd = -1;
  return 0;
}

static void say_submit_once(void) {
  static int said;
  if (said) return;
  said = 1;
  fprintf(stderr,
          "rknnop-rknpu: NPU tasks (SUBMIT) are not executed on the PC: tensors NPU layers write keep the stand-in's "
          "fill pattern\n");
}

static const char* command_name(unsigned nr) {
  static const char* const names[] = {"ACTION", "SUBMIT", "MEM_CREATE", "MEM_MAP", "MEM_DESTROY", "MEM_SYNC"};
  return nr < sizeof names / sizeof names[0] ? names[nr] : "unknown";
}

static int dispatch(unsigned long request, void* argument) {
  unsigned nr = _IOC_NR(request), size = _IOC_SIZE(request);
  if (_IOC_TYPE(request) != RKNPU_STANDIN_IOC_TYPE || !argument) return fail_errno(ENOTTY);
  switch (nr) {
    case RKNPU_STANDIN_ACTION: {
      if (size < sizeof(struct rknpu_standin_action)) return fail_errno(EINVAL);
      struct rknpu_standin_action* action = argument;
      if (action->flags == RKNPU_STANDIN_GET_HW_VERSION)
        action->value = hw_version();
      else if (action->flags == RKNPU_STANDIN_GET_DRV_VERSION)
        action->value = RKNPU_STANDIN_DRIVER_VERSION;
      return 0;
    }
    case RKNPU_STANDIN_SUBMIT: {
      if (size < sizeof(struct rknpu_standin_submit)) return fail_errno(EINVAL);
      struct rknpu_standin_submit* submit = argument;
      say_submit_once();
      submit->task_counter = submit->task_number;
      return 0;
    }
    case RKNPU_STANDIN_MEM_CREATE:
      if (size < sizeof(struct rknpu_standin_mem_create)) return fail_errno(EINVAL);
      return mem_create(argument);
    case RKNPU_STANDIN_MEM_MAP: {
      if (size < sizeof(struct rknpu_standin_mem_map)) return fail_errno(EINVAL);
      struct rknpu_standin_mem_map* map = argument;
      int slot = object_of_handle(map->handle);
      if (slot < 0) return fail_errno(EINVAL);
      map->offset = (uint64_t)slot * RKNPU_STANDIN_MAP_STRIDE;
      return 0;
    }
    case RKNPU_STANDIN_MEM_DESTROY:
      if (size < sizeof(struct rknpu_standin_mem_destroy)) return fail_errno(EINVAL);
      return mem_destroy(argument);
    case RKNPU_STANDIN_MEM_SYNC: return 0; /* one coherent memory on the PC */
    default: return fail_errno(ENOTTY);
  }
}

int rknpu_standin_ioctl(unsigned long request, void* argument) {
  pthread_mutex_lock(&lock);
  init_objects();
  int status = dispatch(request, argument);
  int error = errno;
  pthread_mutex_unlock(&lock);
  if (logging()) {
    char detail[160] = "";
    unsigned nr = _IOC_NR(request);
    if (status == 0 && nr == RKNPU_STANDIN_ACTION) {
      const struct rknpu_standin_action* a = argument;
      snprintf(detail, sizeof detail, " flags %u value 0x%x", a->flags, a->value);
    } else if (status == 0 && nr == RKNPU_STANDIN_MEM_CREATE) {
      const struct rknpu_standin_mem_create* m = argument;
      snprintf(detail, sizeof detail, " flags 0x%x size %llu -> handle %u obj_addr 0x%llx dma_addr 0x%llx", m->flags,
               (unsigned long long)m->size, m->handle, (unsigned long long)m->obj_addr,
               (unsigned long long)m->dma_addr);
    } else if (status == 0 && nr == RKNPU_STANDIN_MEM_MAP) {
      const struct rknpu_standin_mem_map* m = argument;
      snprintf(detail, sizeof detail, " handle %u -> offset 0x%llx", m->handle, (unsigned long long)m->offset);
    } else if (status == 0 && nr == RKNPU_STANDIN_SUBMIT) {
      const struct rknpu_standin_submit* s = argument;
      snprintf(detail, sizeof detail, " flags 0x%x timeout %u task_start %u task_number %u core_mask 0x%x", s->flags,
               s->timeout, s->task_start, s->task_number, s->core_mask);
    }
    fprintf(stderr, "rknnop-rknpu: ioctl 0x%08lx ('%c' nr %u %s, %u bytes)%s -> %d%s%s\n", request,
            (char)_IOC_TYPE(request), nr, command_name(nr), (unsigned)_IOC_SIZE(request), detail, status,
            status ? " " : "", status ? strerror(error) : "");
  }
  errno = error;
  return status;
}

/* ---- the C library front (open/close/dup/ioctl: board/common/device_front.c) ---- */

const struct rknnop_device_description rknnop_device = {"rknnop-rknpu", is_device_path, rknpu_standin_ioctl, logging};

/* mmap of the device at an offset MEM_MAP gave maps that object's memfd (the DRM-style path); mmap
 * of a handle (the memfd itself) needs nothing from here. */
static void* map_device(void* address, size_t length, int protection, int flags, int fd, uint64_t offset) {
  pthread_mutex_lock(&lock);
  init_objects();
  uint64_t slot = offset / RKNPU_STANDIN_MAP_STRIDE;
  int object_fd = slot < MAX_OBJECTS && offset % RKNPU_STANDIN_MAP_STRIDE == 0 ? objects[slot].fd : -1;
  pthread_mutex_unlock(&lock);
  if (logging())
    fprintf(stderr, "rknnop-rknpu: mmap device fd %d offset 0x%llx -> memfd %d\n", fd, (unsigned long long)offset,
            object_fd);
  if (object_fd < 0) {
    errno = EINVAL;
    return MAP_FAILED;
  }
  static void* (*real)(void*, size_t, int, int, int, off_t);
  RKNNOP_LOAD_NEXT(real, "mmap");
  return real(address, length, protection, flags, object_fd, 0);
}

void* mmap(void* address, size_t length, int protection, int flags, int fd, off_t offset) {
  if (rknnop_device_fd(fd)) return map_device(address, length, protection, flags, fd, (uint64_t)offset);
  static void* (*real)(void*, size_t, int, int, int, off_t);
  RKNNOP_LOAD_NEXT(real, "mmap");
  return real(address, length, protection, flags, fd, offset);
}

#if !defined(__LP64__)
void* mmap64(void* address, size_t length, int protection, int flags, int fd, off64_t offset) {
  if (rknnop_device_fd(fd)) return map_device(address, length, protection, flags, fd, (uint64_t)offset);
  static void* (*real)(void*, size_t, int, int, int, off64_t);
  RKNNOP_LOAD_NEXT(real, "mmap64");
  return real(address, length, protection, flags, fd, offset);
}
#endif

/* ---- refused: creating anything under /dev ---- */

int rknpu_standin_is_under_dev(int dir, const char* path) {
  if (!path) return 0;
  char absolute[2 * PATH_MAX + 2];
  if (path[0] == '/') {
    if ((size_t)snprintf(absolute, sizeof absolute, "%s", path) >= sizeof absolute) return 1;
  } else {
    char base[PATH_MAX];
    if (dir == AT_FDCWD) {
      if (!getcwd(base, sizeof base)) return 1; /* unknown: refuse */
    } else {
      char link[64];
      snprintf(link, sizeof link, "/proc/self/fd/%d", dir);
      ssize_t n = readlink(link, base, sizeof base - 1);
      if (n < 0) return 1;
      base[n] = '\0';
    }
    if ((size_t)snprintf(absolute, sizeof absolute, "%s/%s", base, path) >= sizeof absolute) return 1;
  }
  /* "/dev", "/dev/...", and spellings with repeated slashes or "." and ".." that lead there. */
  const char* p = absolute;
  while (*p == '/' || (p[0] == '.' && (p[1] == '/' || p[1] == '\0'))) ++p;
  if (strstr(absolute, "..")) return 1; /* not resolved here: refuse to be safe */
  return strncmp(p, "dev", 3) == 0 && (p[3] == '\0' || p[3] == '/');
}

static int refuse(const char* call, int dir, const char* path) {
  static int said;
  if (!said || logging())
    fprintf(stderr, "rknnop-rknpu: refused %s %s%s: nothing is created under /dev\n", call,
            dir == AT_FDCWD || (path && path[0] == '/') ? "" : "(relative) ", path ? path : "(null)");
  said = 1;
  return fail_errno(EPERM);
}

int mkdir(const char* path, mode_t mode) {
  if (rknpu_standin_is_under_dev(AT_FDCWD, path)) return refuse("mkdir", AT_FDCWD, path);
  static int (*real)(const char*, mode_t);
  RKNNOP_LOAD_NEXT(real, "mkdir");
  return real(path, mode);
}

int mkdirat(int dir, const char* path, mode_t mode) {
  if (rknpu_standin_is_under_dev(dir, path)) return refuse("mkdirat", dir, path);
  static int (*real)(int, const char*, mode_t);
  RKNNOP_LOAD_NEXT(real, "mkdirat");
  return real(dir, path, mode);
}

int mknod(const char* path, mode_t mode, dev_t device) {
  if (rknpu_standin_is_under_dev(AT_FDCWD, path)) return refuse("mknod", AT_FDCWD, path);
  static int (*real)(const char*, mode_t, dev_t);
  RKNNOP_LOAD_NEXT(real, "mknod");
  return real(path, mode, device);
}

int mknodat(int dir, const char* path, mode_t mode, dev_t device) {
  if (rknpu_standin_is_under_dev(dir, path)) return refuse("mknodat", dir, path);
  static int (*real)(int, const char*, mode_t, dev_t);
  RKNNOP_LOAD_NEXT(real, "mknodat");
  return real(dir, path, mode, device);
}

/* glibc before 2.33 exported mknod as __xmknod / __xmknodat (librknnrt 1.6.0 imports __xmknod);
 * paths outside /dev go on to the C library's mknod. */
int __xmknod(int version, const char* path, mode_t mode, dev_t* device);
int __xmknod(int version, const char* path, mode_t mode, dev_t* device) {
  (void)version;
  if (rknpu_standin_is_under_dev(AT_FDCWD, path)) return refuse("mknod", AT_FDCWD, path);
  return mknod(path, mode, device ? *device : 0);
}

int __xmknodat(int version, int dir, const char* path, mode_t mode, dev_t* device);
int __xmknodat(int version, int dir, const char* path, mode_t mode, dev_t* device) {
  (void)version;
  if (rknpu_standin_is_under_dev(dir, path)) return refuse("mknodat", dir, path);
  return mknodat(dir, path, mode, device ? *device : 0);
}
