/* SPDX-License-Identifier: MIT */
/* The shared LD_PRELOAD front of rknnop's user-space devices: see device_front.h. */
#define _GNU_SOURCE
#include "device_front.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FD 4096
static unsigned char device_fds[MAX_FD]; /* 1: this descriptor is the device */
static pthread_mutex_t fd_lock = PTHREAD_MUTEX_INITIALIZER;

int rknnop_device_fd(int fd) { return fd >= 0 && fd < MAX_FD && device_fds[fd]; }

static void mark(int fd, unsigned char value) {
  pthread_mutex_lock(&fd_lock);
  device_fds[fd] = value;
  pthread_mutex_unlock(&fd_lock);
}

/* (ISO C has no object-to-function pointer conversion: the pointer is copied into its storage.) */
void rknnop_device_next(const char* name, void* function_pointer, size_t size) {
  void* symbol = dlsym(RTLD_NEXT, name);
  if (!symbol || size != sizeof symbol) {
    fprintf(stderr, "%s: the C library has no %s\n", rknnop_device.tag, name);
    _exit(127);
  }
  memcpy(function_pointer, &symbol, size);
}

static int open_device(const char* path) {
  static int (*real_open)(const char*, int, ...);
  RKNNOP_LOAD_NEXT(real_open, "open");
  int fd = real_open("/dev/null", O_RDWR | O_CLOEXEC);
  if (fd < 0) return fd;
  if (fd >= MAX_FD) {
    close(fd);
    errno = EMFILE;
    return -1;
  }
  mark(fd, 1);
  if (rknnop_device.logging())
    fprintf(stderr, "%s: open %s -> fd %d (user-space stand-in)\n", rknnop_device.tag, path, fd);
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
  if (rknnop_device.is_path(path)) return open_device(path);
  static int (*real)(const char*, int, ...);
  RKNNOP_LOAD_NEXT(real, "open");
  return real(path, flags, mode);
}

int open64(const char* path, int flags, ...) {
  mode_t mode = 0;
  MODE_ARGUMENT(flags, mode);
  if (rknnop_device.is_path(path)) return open_device(path);
  static int (*real)(const char*, int, ...);
  RKNNOP_LOAD_NEXT(real, "open64");
  return real(path, flags, mode);
}

int openat(int dir, const char* path, int flags, ...) {
  mode_t mode = 0;
  MODE_ARGUMENT(flags, mode);
  if (rknnop_device.is_path(path)) return open_device(path);
  static int (*real)(int, const char*, int, ...);
  RKNNOP_LOAD_NEXT(real, "openat");
  return real(dir, path, flags, mode);
}

int __open_2(const char* path, int flags) {
  if (rknnop_device.is_path(path)) return open_device(path);
  static int (*real)(const char*, int);
  RKNNOP_LOAD_NEXT(real, "__open_2");
  return real(path, flags);
}

int close(int fd) {
  static int (*real)(int);
  RKNNOP_LOAD_NEXT(real, "close");
  if (rknnop_device_fd(fd)) mark(fd, 0);
  return real(fd);
}

int dup(int fd) {
  static int (*real)(int);
  RKNNOP_LOAD_NEXT(real, "dup");
  int copy = real(fd);
  if (copy >= 0 && copy < MAX_FD && rknnop_device_fd(fd)) mark(copy, 1);
  return copy;
}

int ioctl(int fd, unsigned long request, ...) {
  va_list arguments;
  va_start(arguments, request);
  void* argument = va_arg(arguments, void*);
  va_end(arguments);
  if (rknnop_device_fd(fd)) return rknnop_device.ioctl(request, argument);
  static int (*real)(int, unsigned long, ...);
  RKNNOP_LOAD_NEXT(real, "ioctl");
  return real(fd, request, argument);
}
