/* SPDX-License-Identifier: MIT */
/* Unit tests of rknnop's user-space galcore dispatcher: the command table, the answers to the
 * queries, video memory (allocate/lock/unlock/release, deferred unlock through an event queue),
 * user signals (create/signal/wait with and without timeout, across threads, auto and manual reset,
 * destroy waking a waiter), commits running their event queues, and unknown commands refused
 * loudly. No Rockchip file is needed. Each failed check prints its line; exit 1 if any failed. */
#define _GNU_SOURCE
#include "galcore.h"
#include "check.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct rknnop_gc_interface command(uint32_t code) {
  struct rknnop_gc_interface iface;
  memset(&iface, 0, sizeof iface);
  iface.command = code;
  iface.hardware_type = RKNNOP_GC_HARDWARE_VIP;
  iface.status = 12345; /* must be overwritten */
  return iface;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Runs `call` with stderr sent to a temporary file; returns what it wrote (static buffer). */
static const char* captured_stderr(void (*call)(void*), void* argument) {
  static char text[4096];
  fflush(stderr);
  FILE* file = tmpfile();
  if (!file) return "";
  int saved = dup(2);
  dup2(fileno(file), 2);
  call(argument);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(file);
  size_t n = fread(text, 1, sizeof text - 1, file);
  text[n] = 0;
  fclose(file);
  return text;
}

static void dispatch_argument(void* iface) { rknnop_galcore_dispatch(iface); }

static void test_command_table(void) {
  CHECK(strcmp(rknnop_galcore_command_name(RKNNOP_GC_VERSION), "VERSION") == 0);
  CHECK(strcmp(rknnop_galcore_command_name(RKNNOP_GC_USER_SIGNAL), "USER_SIGNAL") == 0);
  CHECK(strcmp(rknnop_galcore_command_name(RKNNOP_GC_DEVICE_MUTEX), "DEVICE_MUTEX") == 0);
  CHECK(strcmp(rknnop_galcore_command_name(RKNNOP_GC_WRITE_DATA), "WRITE_DATA") == 0);
  CHECK(strcmp(rknnop_galcore_command_name(RKNNOP_GC_GET_PROFILE_SETTING), "GET_PROFILE_SETTING") == 0);
  for (uint32_t c = 0; c < RKNNOP_GC_COMMAND_COUNT; ++c) CHECK(strcmp(rknnop_galcore_command_name(c), "?") != 0);
  CHECK(strcmp(rknnop_galcore_command_name(RKNNOP_GC_COMMAND_COUNT), "?") == 0);
}

static void test_queries(void) {
  struct rknnop_gc_interface iface = command(RKNNOP_GC_VERSION);
  rknnop_galcore_dispatch(&iface);
  CHECK(iface.status == RKNNOP_GC_STATUS_OK);
  CHECK(iface.u.version.major == 6 && iface.u.version.minor == 4 && iface.u.version.patch == 6);
  CHECK(iface.u.version.build == 351518u);

  iface = command(RKNNOP_GC_CHIP_INFO);
  rknnop_galcore_dispatch(&iface);
  CHECK(iface.status == RKNNOP_GC_STATUS_OK);
  CHECK(iface.u.chip_info.count == 1 && iface.u.chip_info.types[0] == RKNNOP_GC_HARDWARE_VIP);

  iface = command(RKNNOP_GC_QUERY_CHIP_IDENTITY);
  memset(iface.u.raw, 0xAB, sizeof iface.u.raw);
  rknnop_galcore_dispatch(&iface);
  CHECK(iface.status == RKNNOP_GC_STATUS_OK);
  CHECK(iface.u.chip_identity.chip_model == 0x8000u && iface.u.chip_identity.chip_revision == 0x7100u);
  CHECK(iface.u.chip_identity.product_id == 0x45080001u && iface.u.chip_identity.customer_id == 0x82u);
  CHECK(iface.u.chip_identity.eco_id == 0 && iface.u.chip_identity.platform_flag_bits == 0);

  iface = command(RKNNOP_GC_QUERY_VIDEO_MEMORY);
  rknnop_galcore_dispatch(&iface);
  CHECK(iface.status == RKNNOP_GC_STATUS_OK && iface.u.query_video_memory.contiguous_size > 0);
}

static uint32_t allocate(uint64_t bytes, uint32_t alignment) {
  struct rknnop_gc_interface iface = command(RKNNOP_GC_ALLOCATE_LINEAR_VIDEO_MEMORY);
  iface.u.allocate_linear.bytes = bytes;
  iface.u.allocate_linear.alignment = alignment;
  rknnop_galcore_dispatch(&iface);
  CHECK(iface.status == RKNNOP_GC_STATUS_OK);
  CHECK(iface.u.allocate_linear.bytes >= bytes);
  return iface.u.allocate_linear.node;
}

static struct rknnop_gc_lock_video_memory lock(uint32_t node, int32_t* status) {
  struct rknnop_gc_interface iface = command(RKNNOP_GC_LOCK_VIDEO_MEMORY);
  iface.u.lock_video_memory.node = node;
  rknnop_galcore_dispatch(&iface);
  *status = iface.status;
  return iface.u.lock_video_memory;
}

static int32_t simple(uint32_t code, uint32_t node) {
  struct rknnop_gc_interface iface = command(code);
  if (code == RKNNOP_GC_UNLOCK_VIDEO_MEMORY)
    iface.u.unlock_video_memory.node = node;
  else
    iface.u.release_video_memory.node = node;
  rknnop_galcore_dispatch(&iface);
  return iface.status;
}

/* An event queue of `count` records, each a copy of `events[i]`, committed with EVENT_COMMIT. */
static int32_t event_commit(const struct rknnop_gc_interface* events, unsigned count) {
  struct rknnop_gc_queue_record records[8];
  CHECK(count <= 8);
  for (unsigned i = 0; i < count; ++i) {
    records[i].iface = events[i];
    records[i].next = i + 1 < count ? (uint64_t)(uintptr_t)&records[i + 1] : 0;
  }
  struct rknnop_gc_interface iface = command(RKNNOP_GC_EVENT_COMMIT);
  iface.u.event_commit.queue = count ? (uint64_t)(uintptr_t)&records[0] : 0;
  rknnop_galcore_dispatch(&iface);
  return iface.status;
}

static void test_memory(void) {
  unsigned live = rknnop_galcore_live_nodes();
  uint32_t a = allocate(100, 0), b = allocate(1 << 20, 65536), c = allocate(4096, 8);
  CHECK(a && b && c && a != b && b != c && a != c);
  CHECK(rknnop_galcore_live_nodes() == live + 3);

  int32_t status;
  struct rknnop_gc_lock_video_memory la = lock(a, &status);
  CHECK(status == RKNNOP_GC_STATUS_OK);
  struct rknnop_gc_lock_video_memory lb = lock(b, &status);
  CHECK(status == RKNNOP_GC_STATUS_OK);
  CHECK(la.memory != 0 && lb.memory != 0 && la.address != lb.address);
  CHECK(lb.address % 65536 == 0 && lb.memory % 65536 == 0);
  CHECK(la.physical_address == la.address);
  /* The memory is the process's own: written and read back through the logical address. */
  unsigned char* bytes = (unsigned char*)(uintptr_t)lb.memory;
  bytes[0] = 0x5A;
  bytes[(1 << 20) - 1] = 0xA5;
  CHECK(bytes[0] == 0x5A && bytes[(1 << 20) - 1] == 0xA5);
  /* GPU address ranges do not overlap. */
  CHECK(la.address + 4096 <= lb.address || lb.address + (1u << 20) <= la.address);

  /* A direct unlock is deferred (asynchroneous back), the queued one unlocks. */
  struct rknnop_gc_interface unlock = command(RKNNOP_GC_UNLOCK_VIDEO_MEMORY);
  unlock.u.unlock_video_memory.node = a;
  rknnop_galcore_dispatch(&unlock);
  CHECK(unlock.status == RKNNOP_GC_STATUS_OK && unlock.u.unlock_video_memory.asynchroneous == 1);
  CHECK(unlock.u.unlock_video_memory.bytes == 4096);
  CHECK(event_commit(&unlock, 1) == RKNNOP_GC_STATUS_OK);
  /* Now a is unlocked: a further queued unlock is an error, and the commit reports it. */
  CHECK(event_commit(&unlock, 1) == RKNNOP_GC_STATUS_INVALID_OBJECT);
  /* Unlocking a node never locked, or unknown, fails. */
  CHECK(simple(RKNNOP_GC_UNLOCK_VIDEO_MEMORY, c) == RKNNOP_GC_STATUS_INVALID_OBJECT);
  CHECK(simple(RKNNOP_GC_UNLOCK_VIDEO_MEMORY, 999999) == RKNNOP_GC_STATUS_INVALID_OBJECT);

  /* Release: at once when unlocked, at the last unlock when locked. */
  CHECK(simple(RKNNOP_GC_RELEASE_VIDEO_MEMORY, a) == RKNNOP_GC_STATUS_OK);
  CHECK(rknnop_galcore_live_nodes() == live + 2);
  CHECK(simple(RKNNOP_GC_RELEASE_VIDEO_MEMORY, a) == RKNNOP_GC_STATUS_INVALID_OBJECT);
  lock(a, &status);
  CHECK(status == RKNNOP_GC_STATUS_INVALID_OBJECT);
  CHECK(simple(RKNNOP_GC_RELEASE_VIDEO_MEMORY, b) == RKNNOP_GC_STATUS_OK);
  CHECK(rknnop_galcore_live_nodes() == live + 2); /* b still locked */
  lock(b, &status);
  CHECK(status == RKNNOP_GC_STATUS_INVALID_OBJECT); /* no new lock on a released node */
  unlock.u.unlock_video_memory.node = b;
  CHECK(event_commit(&unlock, 1) == RKNNOP_GC_STATUS_OK);
  CHECK(rknnop_galcore_live_nodes() == live + 1);
  CHECK(simple(RKNNOP_GC_RELEASE_VIDEO_MEMORY, c) == RKNNOP_GC_STATUS_OK);
  CHECK(rknnop_galcore_live_nodes() == live);

  /* Bad requests. */
  struct rknnop_gc_interface bad = command(RKNNOP_GC_ALLOCATE_LINEAR_VIDEO_MEMORY);
  bad.u.allocate_linear.bytes = 0;
  rknnop_galcore_dispatch(&bad);
  CHECK(bad.status == RKNNOP_GC_STATUS_INVALID_ARGUMENT);
  bad.u.allocate_linear.bytes = 4096;
  bad.u.allocate_linear.alignment = 3 * 4096;
  rknnop_galcore_dispatch(&bad);
  CHECK(bad.status == RKNNOP_GC_STATUS_INVALID_ARGUMENT);

  /* MAP_MEMORY gives writable memory, UNMAP takes it back. */
  struct rknnop_gc_interface map = command(RKNNOP_GC_MAP_MEMORY);
  map.u.map_memory.bytes = 712;
  rknnop_galcore_dispatch(&map);
  CHECK(map.status == RKNNOP_GC_STATUS_OK && map.u.map_memory.logical != 0);
  if (map.u.map_memory.logical) ((unsigned char*)(uintptr_t)map.u.map_memory.logical)[711] = 1;
  struct rknnop_gc_interface unmap = command(RKNNOP_GC_UNMAP_MEMORY);
  unmap.u.unmap_memory.bytes = 712;
  unmap.u.unmap_memory.logical = map.u.map_memory.logical;
  rknnop_galcore_dispatch(&unmap);
  CHECK(unmap.status == RKNNOP_GC_STATUS_OK);
}

/* The fake GPU addresses live below 4 GiB: once they reach the top, freed ranges are reused, never
 * one still in use. */
static void test_address_reuse(void) {
  int32_t status;
  uint32_t kept = allocate(8192, 0);
  struct rknnop_gc_lock_video_memory kept_lock = lock(kept, &status);
  CHECK(status == RKNNOP_GC_STATUS_OK);
  for (int round = 0; round < 24; ++round) { /* 24 x 256 MiB: more than the 3.75 GiB of addresses */
    uint32_t big = allocate(256u << 20, 0);
    struct rknnop_gc_lock_video_memory l = lock(big, &status);
    CHECK(status == RKNNOP_GC_STATUS_OK);
    CHECK(l.address >= 0x10000000u && (uint64_t)l.address + (256u << 20) <= 0xFFFFF000u);
    CHECK(l.address + (256u << 20) <= kept_lock.address || kept_lock.address + 8192u <= l.address);
    struct rknnop_gc_interface unlock = command(RKNNOP_GC_UNLOCK_VIDEO_MEMORY);
    unlock.u.unlock_video_memory.node = big;
    CHECK(event_commit(&unlock, 1) == RKNNOP_GC_STATUS_OK);
    CHECK(simple(RKNNOP_GC_RELEASE_VIDEO_MEMORY, big) == RKNNOP_GC_STATUS_OK);
  }
  struct rknnop_gc_interface unlock = command(RKNNOP_GC_UNLOCK_VIDEO_MEMORY);
  unlock.u.unlock_video_memory.node = kept;
  CHECK(event_commit(&unlock, 1) == RKNNOP_GC_STATUS_OK);
  CHECK(simple(RKNNOP_GC_RELEASE_VIDEO_MEMORY, kept) == RKNNOP_GC_STATUS_OK);
}

/* ---- signals ---- */

static int32_t signal_op(uint32_t sub, int32_t id, uint32_t wait, uint32_t state, uint32_t manual_reset) {
  struct rknnop_gc_interface iface = command(RKNNOP_GC_USER_SIGNAL);
  iface.u.user_signal = (struct rknnop_gc_user_signal){
      .command = sub, .id = id, .manual_reset = manual_reset, .wait = wait, .state = state};
  rknnop_galcore_dispatch(&iface);
  if (sub == RKNNOP_GC_USER_SIGNAL_CREATE) return iface.status == RKNNOP_GC_STATUS_OK ? iface.u.user_signal.id : -1000;
  return iface.status;
}

struct delayed_signal {
  int32_t id;
  unsigned delay_ms;
  int use_event_queue; /* signal through an EVENT_COMMIT SIGNAL record, as libGAL's events do */
  int destroy;         /* destroy instead of signal */
  int32_t status;
};

static void* signal_later(void* argument) {
  struct delayed_signal* d = argument;
  usleep(d->delay_ms * 1000u);
  if (d->destroy) {
    d->status = signal_op(RKNNOP_GC_USER_SIGNAL_DESTROY, d->id, 0, 0, 0);
  } else if (d->use_event_queue) {
    struct rknnop_gc_interface event = command(RKNNOP_GC_SIGNAL);
    event.u.signal.signal = (uint64_t)d->id;
    d->status = event_commit(&event, 1);
  } else {
    d->status = signal_op(RKNNOP_GC_USER_SIGNAL_SIGNAL, d->id, 0, 1, 0);
  }
  return NULL;
}

static void test_signals(void) {
  unsigned live = rknnop_galcore_live_signals();
  int32_t s = signal_op(RKNNOP_GC_USER_SIGNAL_CREATE, 0, 0, 0, 0);
  CHECK(s > 0);
  CHECK(rknnop_galcore_live_signals() == live + 1);
  /* Not signaled: a zero wait and a short wait time out. */
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_WAIT, s, 0, 0, 0) == RKNNOP_GC_STATUS_TIMEOUT);
  double start = now_ms();
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_WAIT, s, 50, 0, 0) == RKNNOP_GC_STATUS_TIMEOUT);
  CHECK(now_ms() - start >= 45.0); /* it did wait */
  /* Signaled: the wait succeeds once (auto reset), then times out again. */
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_SIGNAL, s, 0, 1, 0) == RKNNOP_GC_STATUS_OK);
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_WAIT, s, 0, 0, 0) == RKNNOP_GC_STATUS_OK);
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_WAIT, s, 0, 0, 0) == RKNNOP_GC_STATUS_TIMEOUT);
  /* Signal then reset (state 0): not signaled. */
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_SIGNAL, s, 0, 1, 0) == RKNNOP_GC_STATUS_OK);
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_SIGNAL, s, 0, 0, 0) == RKNNOP_GC_STATUS_OK);
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_WAIT, s, 0, 0, 0) == RKNNOP_GC_STATUS_TIMEOUT);

  /* Across threads: an infinite wait ends when another thread signals, directly or by an event. */
  for (int by_event = 0; by_event < 2; ++by_event) {
    struct delayed_signal d = {.id = s, .delay_ms = 30, .use_event_queue = by_event};
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, signal_later, &d) == 0);
    CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_WAIT, s, RKNNOP_GC_INFINITE, 0, 0) == RKNNOP_GC_STATUS_OK);
    pthread_join(thread, NULL);
    CHECK(d.status == RKNNOP_GC_STATUS_OK);
  }
  /* A timed wait also ends early when signaled. */
  {
    struct delayed_signal d = {.id = s, .delay_ms = 20};
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, signal_later, &d) == 0);
    CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_WAIT, s, 10000, 0, 0) == RKNNOP_GC_STATUS_OK);
    pthread_join(thread, NULL);
  }

  /* Manual reset: stays signaled for every waiter until reset. */
  int32_t m = signal_op(RKNNOP_GC_USER_SIGNAL_CREATE, 0, 0, 0, 1);
  CHECK(m > 0 && m != s);
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_SIGNAL, m, 0, 1, 0) == RKNNOP_GC_STATUS_OK);
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_WAIT, m, 0, 0, 0) == RKNNOP_GC_STATUS_OK);
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_WAIT, m, 0, 0, 0) == RKNNOP_GC_STATUS_OK);
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_SIGNAL, m, 0, 0, 0) == RKNNOP_GC_STATUS_OK);
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_WAIT, m, 0, 0, 0) == RKNNOP_GC_STATUS_TIMEOUT);

  /* Destroying a signal wakes its waiter with an error; the id is then unknown. */
  {
    struct delayed_signal d = {.id = m, .delay_ms = 20, .destroy = 1};
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, signal_later, &d) == 0);
    CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_WAIT, m, RKNNOP_GC_INFINITE, 0, 0) == RKNNOP_GC_STATUS_INVALID_ARGUMENT);
    pthread_join(thread, NULL);
    CHECK(d.status == RKNNOP_GC_STATUS_OK);
  }
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_SIGNAL, m, 0, 1, 0) == RKNNOP_GC_STATUS_INVALID_ARGUMENT);
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_DESTROY, m, 0, 0, 0) == RKNNOP_GC_STATUS_INVALID_ARGUMENT);
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_WAIT, 99999, 0, 0, 0) == RKNNOP_GC_STATUS_INVALID_ARGUMENT);
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_DESTROY, s, 0, 0, 0) == RKNNOP_GC_STATUS_OK);
  CHECK(rknnop_galcore_live_signals() == live);

  /* Many signals (the table grows) keep working. */
  int32_t ids[300];
  for (int i = 0; i < 300; ++i) ids[i] = signal_op(RKNNOP_GC_USER_SIGNAL_CREATE, 0, 0, 0, 0);
  for (int i = 0; i < 300; ++i) CHECK(ids[i] > 0);
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_SIGNAL, ids[299], 0, 1, 0) == RKNNOP_GC_STATUS_OK);
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_WAIT, ids[299], 0, 0, 0) == RKNNOP_GC_STATUS_OK);
  for (int i = 0; i < 300; ++i) CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_DESTROY, ids[i], 0, 0, 0) == RKNNOP_GC_STATUS_OK);
  CHECK(rknnop_galcore_live_signals() == live);
}

static void test_commit(void) {
  int32_t s = signal_op(RKNNOP_GC_USER_SIGNAL_CREATE, 0, 0, 0, 0);
  int32_t t = signal_op(RKNNOP_GC_USER_SIGNAL_CREATE, 0, 0, 0, 0);
  struct rknnop_gc_queue_record first, second;
  memset(&first, 0, sizeof first);
  memset(&second, 0, sizeof second);
  first.iface = command(RKNNOP_GC_SIGNAL);
  first.iface.u.signal.signal = (uint64_t)s;
  first.next = (uint64_t)(uintptr_t)&second;
  second.iface = command(RKNNOP_GC_SIGNAL);
  second.iface.u.signal.signal = (uint64_t)t;

  /* Two sub-commits: the first carries no queue, the chained second one the two signals. */
  struct rknnop_gc_subcommit chained;
  memset(&chained, 0, sizeof chained);
  chained.queue = (uint64_t)(uintptr_t)&first;
  /* A command buffer as libGAL writes it for a CPU-only graph: 32 reserved bytes, cache flushes,
   * 8 reserved bytes. */
  static uint32_t buffer[18] = {0,    0,          0, 0,          0,     0,          0,     0, 0x0801028a,
                                0x11, 0x08010e13, 2, 0x08010e03, 0xc23, 0x08010e03, 0xc23, 0, 0};
  struct rknnop_gc_interface iface = command(RKNNOP_GC_COMMIT);
  struct rknnop_gc_command_location* cb = &iface.u.commit.sub_commit.command_buffer;
  cb->logical = (uint64_t)(uintptr_t)buffer;
  cb->size = sizeof buffer;
  cb->reserved_head = 32;
  cb->reserved_tail = 8;
  iface.u.commit.sub_commit.next = (uint64_t)(uintptr_t)&chained;
  rknnop_galcore_dispatch(&iface);
  CHECK(iface.status == RKNNOP_GC_STATUS_OK);
  uint64_t stamp = iface.u.commit.commit_stamp;
  CHECK(stamp > 0);
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_WAIT, s, 0, 0, 0) == RKNNOP_GC_STATUS_OK);
  CHECK(signal_op(RKNNOP_GC_USER_SIGNAL_WAIT, t, 0, 0, 0) == RKNNOP_GC_STATUS_OK);
  rknnop_galcore_dispatch(&iface);
  CHECK(iface.u.commit.commit_stamp == stamp + 1);

  /* NPU work (a state the stand-in does not know, or another command) is refused, loudly. */
  struct rknnop_gc_interface npu = iface;
  npu.u.commit.sub_commit.next = 0;
  buffer[10] = 0x08010400; /* LOAD_STATE 0x0400 */
  const char* text = captured_stderr(dispatch_argument, &npu);
  CHECK(npu.status == RKNNOP_GC_STATUS_NOT_SUPPORTED);
  CHECK(strstr(text, "LOAD_STATE 0x0400 = 0x00000002 at byte 40 of the buffer: NPU work is not emulated") != NULL);
  buffer[10] = 0x40000000; /* another opcode */
  npu = iface;
  npu.u.commit.sub_commit.next = 0;
  text = captured_stderr(dispatch_argument, &npu);
  CHECK(npu.status == RKNNOP_GC_STATUS_NOT_SUPPORTED);
  CHECK(strstr(text, "command 0x40000000 (opcode 8) at byte 40 of the buffer: NPU work is not emulated") != NULL);
  buffer[10] = 0x08010e13;
  cb->reserved_head = 80; /* head and tail larger than the buffer */
  npu = iface;
  npu.u.commit.sub_commit.next = 0;
  text = captured_stderr(dispatch_argument, &npu);
  CHECK(npu.status == RKNNOP_GC_STATUS_INVALID_ARGUMENT);
  cb->reserved_head = 32;

  /* A queue record that fails stops the commit with its status. */
  second.iface.u.signal.signal = 77777;
  iface = command(RKNNOP_GC_EVENT_COMMIT);
  iface.u.event_commit.queue = (uint64_t)(uintptr_t)&first;
  rknnop_galcore_dispatch(&iface);
  CHECK(iface.status == RKNNOP_GC_STATUS_INVALID_ARGUMENT);
  /* A queue that loops is refused, not followed for ever. */
  second.iface.u.signal.signal = (uint64_t)t;
  second.next = (uint64_t)(uintptr_t)&first;
  text = captured_stderr(dispatch_argument, &iface);
  CHECK(iface.status == RKNNOP_GC_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(text, "rknnop-galcore: EVENT_COMMIT: event queue longer than 65536 records") != NULL);
  signal_op(RKNNOP_GC_USER_SIGNAL_DESTROY, s, 0, 0, 0);
  signal_op(RKNNOP_GC_USER_SIGNAL_DESTROY, t, 0, 0, 0);
}

static void test_unknown_commands(void) {
  /* Commands the stand-in does not emulate: an error status and one named line on stderr. */
  const uint32_t refused[] = {RKNNOP_GC_WRAP_USER_MEMORY, RKNNOP_GC_READ_REGISTER,     RKNNOP_GC_WRITE_REGISTER,
                              RKNNOP_GC_DEVICE_MUTEX,     RKNNOP_GC_WAIT_NATIVE_FENCE, RKNNOP_GC_RESET};
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; ++i) {
    struct rknnop_gc_interface iface = command(refused[i]);
    const char* text = captured_stderr(dispatch_argument, &iface);
    CHECK(iface.status == RKNNOP_GC_STATUS_NOT_SUPPORTED);
    char expected[128];
    snprintf(expected, sizeof expected, "rknnop-galcore: unhandled HAL command %u (%s)\n", refused[i],
             rknnop_galcore_command_name(refused[i]));
    CHECK(strstr(text, expected) != NULL);
  }
  struct rknnop_gc_interface iface = command(4242);
  const char* text = captured_stderr(dispatch_argument, &iface);
  CHECK(iface.status == RKNNOP_GC_STATUS_NOT_SUPPORTED);
  CHECK(strstr(text, "rknnop-galcore: unhandled HAL command 4242 (?)") != NULL);
  CHECK(rknnop_galcore_command_count(4242) >= 1);
  /* An unknown user-signal sub-command too. */
  iface = command(RKNNOP_GC_USER_SIGNAL);
  iface.u.user_signal.command = RKNNOP_GC_USER_SIGNAL_MAP;
  text = captured_stderr(dispatch_argument, &iface);
  CHECK(iface.status == RKNNOP_GC_STATUS_NOT_SUPPORTED);
  CHECK(strstr(text, "unhandled USER_SIGNAL sub-command 4") != NULL);
}

struct ioctl_call {
  unsigned long request;
  void* argument;
  int result, error;
};

static void run_ioctl(void* argument) {
  struct ioctl_call* call = argument;
  errno = 0;
  call->result = rknnop_galcore_ioctl(call->request, call->argument);
  call->error = errno;
}

static void test_ioctl(void) {
  struct rknnop_gc_interface iface = command(RKNNOP_GC_VERSION);
  struct rknnop_gc_driver_args args = {.input = (uint64_t)(uintptr_t)&iface,
                                       .input_size = sizeof iface,
                                       .output = (uint64_t)(uintptr_t)&iface,
                                       .output_size = sizeof iface};
  CHECK(rknnop_galcore_ioctl(RKNNOP_GC_IOCTL_INTERFACE, &args) == 0);
  CHECK(iface.status == RKNNOP_GC_STATUS_OK && iface.u.version.build == 351518u);
  /* Another driver generation's size is refused, not misread. */
  args.input_size = args.output_size = 416;
  struct ioctl_call call = {RKNNOP_GC_IOCTL_INTERFACE, &args, 0, 0};
  const char* text = captured_stderr(run_ioctl, &call);
  CHECK(call.result == -1 && call.error == EINVAL);
  CHECK(strstr(text, "IOCTL_GCHAL_INTERFACE with sizes 416/416, expected 424") != NULL);
  call = (struct ioctl_call){0x1234, &args, 0, 0};
  text = captured_stderr(run_ioctl, &call);
  CHECK(call.result == -1 && call.error == ENOTTY);
  CHECK(strstr(text, "rknnop-galcore: unhandled ioctl request 4660") != NULL);
  /* The profiler ioctl: profiling reported off. */
  struct rknnop_gc_profiler_interface profiler;
  memset(&profiler, 0xFF, sizeof profiler);
  profiler.command = RKNNOP_GC_GET_PROFILE_SETTING;
  struct rknnop_gc_driver_args pargs = {.input = (uint64_t)(uintptr_t)&profiler,
                                        .input_size = sizeof profiler,
                                        .output = (uint64_t)(uintptr_t)&profiler,
                                        .output_size = sizeof profiler};
  CHECK(rknnop_galcore_ioctl(RKNNOP_GC_IOCTL_PROFILER_INTERFACE, &pargs) == 0);
  CHECK(profiler.status == RKNNOP_GC_STATUS_OK && profiler.u.profile_enabled == 0);
}

int main(void) {
  setenv("RKNNOP_GALCORE_NPU_WORK", "error", 1); /* a refused commit returns its status (no abort) */
  test_command_table();
  test_queries();
  test_memory();
  test_address_reuse();
  test_signals();
  test_commit();
  test_unknown_commands();
  test_ioctl();
  if (failures) {
    printf("test_galcore: %d check(s) failed\n", failures);
    return 1;
  }
  printf("test_galcore: all checks passed\n");
  return 0;
}
