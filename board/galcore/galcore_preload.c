/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD front of rknnop's user-space galcore: opening /dev/galcore (or /dev/graphics/galcore)
 * gives a descriptor of /dev/null that this library remembers (so close, dup and poll behave as on a
 * real descriptor); ioctl on it goes to rknnop_galcore_ioctl; mmap of it is refused loudly (libGAL
 * 6.4.6 maps nothing through the device: video memory comes back mapped by LOCK_VIDEO_MEMORY).
 * Everything else goes to the C library. Used as
 *   qemu-aarch64 -L <sysroot> -E LD_PRELOAD=librknnop_galcore.so -E LD_LIBRARY_PATH=<drivers> prog */
#define _GNU_SOURCE
#include "galcore.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FD 4096
static unsigned char device_fds[MAX_FD]; /* 1: this descriptor is our galcore */
static pthread_mutex_t fd_lock = PTHREAD_MUTEX_INITIALIZER;

static int is_device_path(const char* path) {
  return path && (strcmp(path, "/dev/galcore") == 0 || strcmp(path, "/dev/graphics/galcore") == 0);
}

static int is_device_fd(int fd) { return fd >= 0 && fd < MAX_FD && device_fds[fd]; }

/* Looks up the next definition of a C library function (ISO C has no object-to-function pointer
 * conversion: the pointer is copied into the function pointer's storage). */
static void next_symbol(const char* name, void* function_pointer, size_t size) {
  void* symbol = dlsym(RTLD_NEXT, name);
  if (!symbol || size != sizeof symbol) {
    fprintf(stderr, "rknnop-galcore: the C library has no %s\n", name);
    _exit(127);
  }
  memcpy(function_pointer, &symbol, size);
}
#define LOAD_NEXT(variable, name)                                      \
  do {                                                                 \
    if (!(variable)) next_symbol(name, &(variable), sizeof(variable)); \
  } while (0)

static int open_device(const char* path) {
  static int (*real_open)(const char*, int, ...);
  LOAD_NEXT(real_open, "open");
  int fd = real_open("/dev/null", O_RDWR | O_CLOEXEC);
  if (fd < 0) return fd;
  if (fd >= MAX_FD) {
    close(fd);
    errno = EMFILE;
    return -1;
  }
  pthread_mutex_lock(&fd_lock);
  device_fds[fd] = 1;
  pthread_mutex_unlock(&fd_lock);
  if (rknnop_galcore_logging()) fprintf(stderr, "rknnop-galcore: open %s -> fd %d (user-space stand-in)\n", path, fd);
  return fd;
}

#define MODE_ARGUMENT(flags, mode)           \
  do {                                       \
    if ((flags) & (O_CREAT | __O_TMPFILE)) { \
      va_list arguments;                     \
      va_start(arguments, flags);            \
      mode = va_arg(arguments, mode_t);      \
      va_end(arguments);                     \
    }                                        \
  } while (0)

int open(const char* path, int flags, ...) {
  mode_t mode = 0;
  MODE_ARGUMENT(flags, mode);
  if (is_device_path(path)) return open_device(path);
  static int (*real)(const char*, int, ...);
  LOAD_NEXT(real, "open");
  return real(path, flags, mode);
}

int open64(const char* path, int flags, ...) {
  mode_t mode = 0;
  MODE_ARGUMENT(flags, mode);
  if (is_device_path(path)) return open_device(path);
  static int (*real)(const char*, int, ...);
  LOAD_NEXT(real, "open64");
  return real(path, flags, mode);
}

int openat(int dir, const char* path, int flags, ...) {
  mode_t mode = 0;
  MODE_ARGUMENT(flags, mode);
  if (is_device_path(path)) return open_device(path);
  static int (*real)(int, const char*, int, ...);
  LOAD_NEXT(real, "openat");
  return real(dir, path, flags, mode);
}

int __open_2(const char* path, int flags) {
  if (is_device_path(path)) return open_device(path);
  static int (*real)(const char*, int);
  LOAD_NEXT(real, "__open_2");
  return real(path, flags);
}

int close(int fd) {
  static int (*real)(int);
  LOAD_NEXT(real, "close");
  if (is_device_fd(fd)) {
    pthread_mutex_lock(&fd_lock);
    device_fds[fd] = 0;
    pthread_mutex_unlock(&fd_lock);
  }
  return real(fd);
}

int dup(int fd) {
  static int (*real)(int);
  LOAD_NEXT(real, "dup");
  int copy = real(fd);
  if (copy >= 0 && copy < MAX_FD && is_device_fd(fd)) {
    pthread_mutex_lock(&fd_lock);
    device_fds[copy] = 1;
    pthread_mutex_unlock(&fd_lock);
  }
  return copy;
}

int ioctl(int fd, unsigned long request, ...) {
  va_list arguments;
  va_start(arguments, request);
  void* argument = va_arg(arguments, void*);
  va_end(arguments);
  if (is_device_fd(fd)) return rknnop_galcore_ioctl(request, argument);
  static int (*real)(int, unsigned long, ...);
  LOAD_NEXT(real, "ioctl");
  return real(fd, request, argument);
}

static void refuse_mmap(int fd, off_t offset) {
  fprintf(stderr, "rknnop-galcore: mmap of the galcore device (fd %d, offset 0x%llx) is not emulated\n", fd,
          (unsigned long long)offset);
}

void* mmap(void* address, size_t length, int protection, int flags, int fd, off_t offset) {
  if (is_device_fd(fd)) {
    refuse_mmap(fd, offset);
    errno = ENODEV;
    return MAP_FAILED;
  }
  static void* (*real)(void*, size_t, int, int, int, off_t);
  LOAD_NEXT(real, "mmap");
  return real(address, length, protection, flags, fd, offset);
}

#if !defined(__LP64__)
void* mmap64(void* address, size_t length, int protection, int flags, int fd, off64_t offset) {
  if (is_device_fd(fd)) {
    refuse_mmap(fd, (off_t)offset);
    errno = ENODEV;
    return MAP_FAILED;
  }
  static void* (*real)(void*, size_t, int, int, int, off64_t);
  LOAD_NEXT(real, "mmap64");
  return real(address, length, protection, flags, fd, offset);
}
#endif
