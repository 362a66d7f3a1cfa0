/* SPDX-License-Identifier: MIT */
#include "npy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPY_MAX_HEADER 65536u

static int fail(char* error, size_t size, const char* format, ...) {
  va_list args;
  va_start(args, format);
  (void)vsnprintf(error, size, format, args);
  va_end(args);
  return -1;
}

static size_t itemsize_of(const char* descr) {
  if (strlen(descr) != 3) return 0;
  if (descr[0] != '<' && descr[0] != '|') return 0;
  if (descr[1] != 'f' && descr[1] != 'i' && descr[1] != 'u' && descr[1] != 'b') return 0;
  if (descr[2] != '1' && descr[2] != '2' && descr[2] != '4' && descr[2] != '8') return 0;
  size_t n = (size_t)(descr[2] - '0');
  if (descr[0] == '|' && n != 1) return 0;
  if (descr[1] == 'f' && n == 1) return 0;
  return n;
}

/* The value after 'key': in the header dict, or NULL. */
static const char* find_key(const char* header, const char* key) {
  char quoted[32];
  (void)snprintf(quoted, sizeof quoted, "'%s'", key);
  const char* p = strstr(header, quoted);
  if (!p) return NULL;
  p += strlen(quoted);
  while (*p == ' ') ++p;
  if (*p != ':') return NULL;
  ++p;
  while (*p == ' ') ++p;
  return p;
}

int npy_read(const char* path, uint64_t max_bytes, npy_array* out, char* error, size_t error_size) {
  memset(out, 0, sizeof *out);
  FILE* f = fopen(path, "rb");
  if (!f) return fail(error, error_size, "rknnop-board: %s: cannot open (%s)", path, strerror(errno));
  unsigned char magic[12];
  char* header = NULL;
  int status = -1;
  if (fread(magic, 1, 10, f) != 10 || memcmp(magic, "\x93NUMPY", 6) != 0) {
    fail(error, error_size, "rknnop-board: %s: not a .npy file (no \\x93NUMPY magic)", path);
    goto done;
  }
  size_t header_len;
  if (magic[6] == 1) {
    header_len = (size_t)magic[8] | ((size_t)magic[9] << 8);
  } else if (magic[6] == 2 || magic[6] == 3) {
    if (fread(magic + 10, 1, 2, f) != 2) {
      fail(error, error_size, "rknnop-board: %s: truncated header", path);
      goto done;
    }
    header_len = (size_t)magic[8] | ((size_t)magic[9] << 8) | ((size_t)magic[10] << 16) | ((size_t)magic[11] << 24);
  } else {
    fail(error, error_size, "rknnop-board: %s: .npy format version %u is not 1, 2 or 3", path, magic[6]);
    goto done;
  }
  if (header_len > NPY_MAX_HEADER) {
    fail(error, error_size, "rknnop-board: %s: header of %zu bytes (at most %u)", path, header_len, NPY_MAX_HEADER);
    goto done;
  }
  header = malloc(header_len + 1);
  if (!header || fread(header, 1, header_len, f) != header_len) {
    fail(error, error_size, "rknnop-board: %s: truncated header", path);
    goto done;
  }
  header[header_len] = '\0';
  const char* d = find_key(header, "descr");
  if (!d || (*d != '\'' && *d != '"')) {
    fail(error, error_size, "rknnop-board: %s: header has no 'descr'", path);
    goto done;
  }
  const char* end = strchr(d + 1, *d);
  if (!end || (size_t)(end - d - 1) >= sizeof out->descr) {
    fail(error, error_size, "rknnop-board: %s: 'descr' is not a simple dtype", path);
    goto done;
  }
  memcpy(out->descr, d + 1, (size_t)(end - d - 1));
  out->descr[end - d - 1] = '\0';
  if (out->descr[0] == '=') out->descr[0] = '<';
  out->itemsize = itemsize_of(out->descr);
  if (out->itemsize == 0) {
    fail(error, error_size, "rknnop-board: %s: dtype '%s' is not supported (little-endian f2/f4/f8/i/u/b)", path,
         out->descr);
    goto done;
  }
  const char* fo = find_key(header, "fortran_order");
  if (!fo || strncmp(fo, "False", 5) != 0) {
    fail(error, error_size, "rknnop-board: %s: only C order (fortran_order: False) is supported", path);
    goto done;
  }
  const char* s = find_key(header, "shape");
  if (!s || *s != '(') {
    fail(error, error_size, "rknnop-board: %s: header has no 'shape' tuple", path);
    goto done;
  }
  ++s;
  out->count = 1;
  for (;;) {
    while (*s == ' ' || *s == ',') ++s;
    if (*s == ')') break;
    if (*s < '0' || *s > '9') {
      fail(error, error_size, "rknnop-board: %s: bad 'shape'", path);
      goto done;
    }
    if (out->ndim == NPY_MAX_DIMS) {
      fail(error, error_size, "rknnop-board: %s: more than %d dimensions", path, NPY_MAX_DIMS);
      goto done;
    }
    char* next;
    unsigned long long v = strtoull(s, &next, 10);
    if (v > (1ull << 32)) {
      fail(error, error_size, "rknnop-board: %s: dimension %llu too large", path, v);
      goto done;
    }
    out->shape[out->ndim++] = v;
    out->count *= v;
    if (out->count > max_bytes) {
      fail(error, error_size, "rknnop-board: %s: more than %llu elements", path, (unsigned long long)max_bytes);
      goto done;
    }
    s = next;
  }
  uint64_t bytes = out->count * out->itemsize;
  if (bytes > max_bytes) {
    fail(error, error_size, "rknnop-board: %s: %llu bytes of data (at most %llu)", path, (unsigned long long)bytes,
         (unsigned long long)max_bytes);
    goto done;
  }
  out->data = malloc(bytes ? (size_t)bytes : 1);
  if (!out->data || fread(out->data, 1, (size_t)bytes, f) != bytes) {
    fail(error, error_size, "rknnop-board: %s: holds fewer than the %llu data bytes its header gives", path,
         (unsigned long long)bytes);
    goto done;
  }
  if (fgetc(f) != EOF) {
    fail(error, error_size, "rknnop-board: %s: bytes after the %llu data bytes its header gives", path,
         (unsigned long long)bytes);
    goto done;
  }
  status = 0;
done:
  free(header);
  fclose(f);
  if (status != 0) npy_free(out);
  return status;
}

int npy_write(const char* path, const char* descr, const uint64_t* shape, uint32_t ndim, const void* data, size_t bytes,
              char* error, size_t error_size) {
  char dict[1024];
  int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (uint32_t i = 0; i < ndim && n > 0 && (size_t)n < sizeof dict; ++i)
    n += snprintf(dict + n, sizeof dict - (size_t)n, ndim == 1 ? "%llu," : (i ? ", %llu" : "%llu"),
                  (unsigned long long)shape[i]);
  if (n > 0 && (size_t)n < sizeof dict) n += snprintf(dict + n, sizeof dict - (size_t)n, "), }");
  if (n <= 0 || (size_t)n + 64 >= sizeof dict) return fail(error, error_size, "rknnop-board: %s: shape too long", path);
  size_t total = 10 + (size_t)n + 1;
  size_t pad = (64 - total % 64) % 64;
  memset(dict + n, ' ', pad);
  dict[(size_t)n + pad] = '\n';
  size_t header_len = (size_t)n + pad + 1;
  unsigned char preamble[10] = {
      0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(header_len & 0xff), (unsigned char)(header_len >> 8)};
  FILE* f = fopen(path, "wb");
  if (!f) return fail(error, error_size, "rknnop-board: %s: cannot create (%s)", path, strerror(errno));
  int ok = fwrite(preamble, 1, 10, f) == 10 && fwrite(dict, 1, header_len, f) == header_len &&
           fwrite(data, 1, bytes, f) == bytes;
  if (fclose(f) != 0) ok = 0;
  if (!ok) return fail(error, error_size, "rknnop-board: %s: write failed", path);
  return 0;
}

void npy_free(npy_array* a) {
  free(a->data);
  a->data = NULL;
}
