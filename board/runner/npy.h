/* SPDX-License-Identifier: MIT */
/* A small, bounded .npy reader and writer (format versions 1.0-3.0 read, 1.0 written; C order only,
 * little-endian or one-byte dtypes). Errors are one line in `error`, starting "rknnop-board:". */
#ifndef RKNNOP_BOARD_NPY_H
#define RKNNOP_BOARD_NPY_H

#include <stddef.h>
#include <stdint.h>

#define NPY_MAX_DIMS 16

typedef struct npy_array {
  char descr[8];   /* "<f2", "<f4", "|u1", "|i1", "<i2", "<i4", ... */
  size_t itemsize; /* bytes per element */
  uint32_t ndim;
  uint64_t shape[NPY_MAX_DIMS];
  uint64_t count; /* elements */
  void* data;     /* count * itemsize bytes, malloc'd */
} npy_array;

/* Reads `path` (at most `max_bytes` of data). 0 on success, else -1 with `error` filled. */
int npy_read(const char* path, uint64_t max_bytes, npy_array* out, char* error, size_t error_size);
/* Writes `data` (count * itemsize bytes) with the given dtype and shape. 0 on success. */
int npy_write(const char* path, const char* descr, const uint64_t* shape, uint32_t ndim, const void* data, size_t bytes,
              char* error, size_t error_size);
void npy_free(npy_array* a);

#endif
