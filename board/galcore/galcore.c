/* SPDX-License-Identifier: MIT */
/* rknnop's user-space galcore: the HAL commands a CPU-only OpenVX graph needs, answered without a
 * kernel driver. See galcore.h; the command table is documented in docs/board-emulation.md. */
#define _GNU_SOURCE
#include "galcore.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* ---- names and counters ---------------------------------------------------------------------- */

static const char* const command_names[RKNNOP_GC_COMMAND_COUNT] = {
    "CHIP_INFO",
    "VERSION",
    "QUERY_CHIP_IDENTITY",
    "QUERY_CHIP_OPTION",
    "QUERY_CHIP_FREQUENCY",
    "QUERY_VIDEO_MEMORY",
    "ALLOCATE_LINEAR_VIDEO_MEMORY",
    "WRAP_USER_MEMORY",
    "RELEASE_VIDEO_MEMORY",
    "LOCK_VIDEO_MEMORY",
    "UNLOCK_VIDEO_MEMORY",
    "BOTTOM_HALF_UNLOCK_VIDEO_MEMORY",
    "MAP_MEMORY",
    "UNMAP_MEMORY",
    "CACHE",
    "ATTACH",
    "DETACH",
    "EVENT_COMMIT",
    "COMMIT",
    "SET_TIMEOUT",
    "USER_SIGNAL",
    "SIGNAL",
    "SET_PROFILE_SETTING",
    "READ_PROFILER_REGISTER_SETTING",
    "READ_ALL_PROFILE_REGISTERS_PART1",
    "READ_ALL_PROFILE_REGISTERS_PART2",
    "DATABASE",
    "CONFIG_POWER_MANAGEMENT",
    "DEBUG_DUMP",
    "READ_REGISTER",
    "WRITE_REGISTER",
    "PROFILE_REGISTERS_2D",
    "GET_BASE_ADDRESS",
    "GET_FRAME_INFO",
    "SET_VIDEO_MEMORY_METADATA",
    "QUERY_COMMAND_BUFFER",
    "QUERY_RESET_TIME_STAMP",
    "CREATE_NATIVE_FENCE",
    "WAIT_NATIVE_FENCE",
    "WAIT_FENCE",
    "EXPORT_VIDEO_MEMORY",
    "NAME_VIDEO_MEMORY",
    "IMPORT_VIDEO_MEMORY",
    "DEVICE_MUTEX",
    "DEC200_TEST",
    "DEC300_READ",
    "DEC300_WRITE",
    "DEC300_FLUSH",
    "DEC300_FLUSH_WAIT",
    "SHBUF",
    "GET_GRAPHIC_BUFFER_FD",
    "UPDATE_DEBUG_CALLBACK",
    "CONFIG_CTX_FRAMEWORK",
    "ALLOCATE_NON_PAGED_MEMORY",
    "FREE_NON_PAGED_MEMORY",
    "WRITE_DATA",
    "SET_IDLE",
    "RESET",
    "COMMIT_DONE",
    "GET_VIDEO_MEMORY_FD",
    "GET_PROFILE_SETTING",
};

const char* rknnop_galcore_command_name(uint32_t command) {
  return command < RKNNOP_GC_COMMAND_COUNT ? command_names[command] : "?";
}

static unsigned long command_counts[RKNNOP_GC_COMMAND_COUNT + 1];
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

unsigned long rknnop_galcore_command_count(uint32_t command) {
  pthread_mutex_lock(&count_lock);
  unsigned long n = command_counts[command < RKNNOP_GC_COMMAND_COUNT ? command : RKNNOP_GC_COMMAND_COUNT];
  pthread_mutex_unlock(&count_lock);
  return n;
}

static volatile int log_state; /* read once from the environment, then only set_log changes it */
static pthread_once_t log_once = PTHREAD_ONCE_INIT;

static void read_log_environment(void) {
  const char* env = getenv("RKNNOP_GALCORE_LOG");
  log_state = env && *env && strcmp(env, "0") != 0;
}

void rknnop_galcore_set_log(int on) {
  pthread_once(&log_once, read_log_environment);
  log_state = on ? 1 : 0;
}

int rknnop_galcore_logging(void) {
  pthread_once(&log_once, read_log_environment);
  return log_state;
}

#define GC_LOG(...)                                                                \
  do {                                                                             \
    if (rknnop_galcore_logging()) fprintf(stderr, "rknnop-galcore: " __VA_ARGS__); \
  } while (0)

/* ---- the chip: the RK1808 / RV1126 NPU as the galcore modules' feature database names it ------- */

static void answer_chip_identity(struct rknnop_gc_chip_identity* id) {
  memset(id, 0, sizeof *id);
  id->chip_model = 0x8000u;
  id->chip_revision = 0x7100u;
  id->product_id = 0x45080001u;
  id->eco_id = 0;
  id->customer_id = 0x82u;
  id->gpu_core_count = 1;
  id->cluster_avail_mask = 1;
  id->stream_count = 16;
  id->pixel_pipes = 1;
  id->resolve_pipes = 1;
  id->instruction_count = 512;
  id->num_constants = 320;
  id->varyings_count = 16;
}

static void answer_chip_info(struct rknnop_gc_chip_info* info) {
  memset(info, 0, sizeof *info);
  info->count = 1;
  info->types[0] = RKNNOP_GC_HARDWARE_VIP;
  info->ids[0] = 0;
  info->core_indexes[0] = 0;
}

/* ---- video memory: nodes backed by anonymous mappings, fake 32-bit GPU addresses --------------- */

struct node {
  int used;
  int released;     /* release requested while still locked: freed at the last unlock */
  void* mapping;    /* what mmap returned */
  size_t map_bytes; /* its length */
  void* logical;    /* aligned start handed out */
  uint64_t bytes;
  uint32_t address; /* the fake GPU address */
  unsigned locks;
};

static pthread_mutex_t memory_lock = PTHREAD_MUTEX_INITIALIZER;
static struct node* nodes;
static unsigned node_capacity;
static unsigned live_nodes;
static uint64_t next_address = 0x10000000u; /* grows to 4 GiB, then freed ranges are reused */

unsigned rknnop_galcore_live_nodes(void) {
  pthread_mutex_lock(&memory_lock);
  unsigned n = live_nodes;
  pthread_mutex_unlock(&memory_lock);
  return n;
}

static struct node* find_node(uint64_t handle) {
  if (handle == 0 || handle > node_capacity) return NULL;
  struct node* n = &nodes[handle - 1];
  return n->used ? n : NULL;
}

static void free_node(struct node* n) {
  munmap(n->mapping, n->map_bytes);
  memset(n, 0, sizeof *n);
  --live_nodes;
}

static const uint64_t address_base = 0x10000000u, address_limit = 0xFFFFF000u;

/* The lowest aligned GPU address from address_base where `bytes` and a guard page fit between the
 * live nodes; 0 if none. Used once the growing address reaches the 4 GiB limit (memory_lock held). */
static uint64_t find_address_gap(uint64_t bytes, uint64_t alignment) {
  uint64_t candidate = address_base;
  for (int moved = 1; moved;) {
    moved = 0;
    candidate = (candidate + alignment - 1) & ~(alignment - 1);
    if (candidate + bytes > address_limit) return 0;
    for (unsigned i = 0; i < node_capacity; ++i) {
      const struct node* n = &nodes[i];
      if (!n->used) continue;
      uint64_t start = n->address, end = n->address + n->bytes + 4096;
      if (candidate < end && start < candidate + bytes + 4096) { /* overlaps: go past it */
        candidate = end;
        moved = 1;
        break;
      }
    }
  }
  return candidate;
}

static int32_t allocate_linear(struct rknnop_gc_allocate_linear* a) {
  uint64_t alignment = a->alignment > 4096 ? a->alignment : 4096;
  if ((alignment & (alignment - 1)) != 0 || a->bytes == 0 || a->bytes > (1ull << 31))
    return RKNNOP_GC_STATUS_INVALID_ARGUMENT;
  uint64_t bytes = (a->bytes + 4095) & ~4095ull;
  size_t map_bytes = (size_t)(bytes + alignment - 4096);
  pthread_mutex_lock(&memory_lock);
  uint64_t address = (next_address + alignment - 1) & ~(alignment - 1);
  if (address + bytes > address_limit) address = find_address_gap(bytes, alignment); /* wrapped: reuse */
  if (address == 0) {
    pthread_mutex_unlock(&memory_lock);
    fprintf(stderr, "rknnop-galcore: ALLOCATE_LINEAR_VIDEO_MEMORY: the 4 GiB fake GPU address space is used up\n");
    return RKNNOP_GC_STATUS_OUT_OF_MEMORY;
  }
  unsigned slot = 0;
  while (slot < node_capacity && nodes[slot].used) ++slot;
  if (slot == node_capacity) {
    unsigned capacity = node_capacity ? node_capacity * 2 : 256;
    struct node* grown = realloc(nodes, capacity * sizeof *grown);
    if (!grown) {
      pthread_mutex_unlock(&memory_lock);
      return RKNNOP_GC_STATUS_OUT_OF_MEMORY;
    }
    memset(grown + node_capacity, 0, (capacity - node_capacity) * sizeof *grown);
    nodes = grown;
    node_capacity = capacity;
  }
  void* mapping = mmap(NULL, map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) {
    pthread_mutex_unlock(&memory_lock);
    return RKNNOP_GC_STATUS_OUT_OF_MEMORY;
  }
  uintptr_t start = ((uintptr_t)mapping + alignment - 1) & ~(uintptr_t)(alignment - 1);
  struct node* n = &nodes[slot];
  *n = (struct node){.used = 1,
                     .mapping = mapping,
                     .map_bytes = map_bytes,
                     .logical = (void*)start,
                     .bytes = bytes,
                     .address = (uint32_t)address};
  next_address = address + bytes + 4096; /* a guard gap between nodes */
  ++live_nodes;
  pthread_mutex_unlock(&memory_lock);
  a->bytes = bytes;
  a->node = slot + 1;
  return RKNNOP_GC_STATUS_OK;
}

static int32_t lock_node(struct rknnop_gc_lock_video_memory* l) {
  pthread_mutex_lock(&memory_lock);
  struct node* n = find_node(l->node);
  if (!n || n->released) {
    pthread_mutex_unlock(&memory_lock);
    return RKNNOP_GC_STATUS_INVALID_OBJECT;
  }
  ++n->locks;
  l->address = n->address;
  l->memory = (uint64_t)(uintptr_t)n->logical;
  l->gid = 0;
  l->physical_address = n->address;
  pthread_mutex_unlock(&memory_lock);
  return RKNNOP_GC_STATUS_OK;
}

static int32_t unlock_node(uint64_t handle, uint64_t* bytes) {
  pthread_mutex_lock(&memory_lock);
  struct node* n = find_node(handle);
  if (!n || n->locks == 0) {
    pthread_mutex_unlock(&memory_lock);
    return RKNNOP_GC_STATUS_INVALID_OBJECT;
  }
  if (bytes) *bytes = n->bytes;
  if (--n->locks == 0 && n->released) free_node(n);
  pthread_mutex_unlock(&memory_lock);
  return RKNNOP_GC_STATUS_OK;
}

static int32_t release_node(uint32_t handle) {
  pthread_mutex_lock(&memory_lock);
  struct node* n = find_node(handle);
  if (!n || n->released) {
    pthread_mutex_unlock(&memory_lock);
    return RKNNOP_GC_STATUS_INVALID_OBJECT;
  }
  if (n->locks == 0)
    free_node(n);
  else
    n->released = 1;
  pthread_mutex_unlock(&memory_lock);
  return RKNNOP_GC_STATUS_OK;
}

/* MAP_MEMORY: the kernel maps a physical range it names into the process; here the process gets
 * zeroed private memory of that size (nothing else shares it: no hardware reads it). */
static int32_t map_memory(struct rknnop_gc_map_memory* m) {
  if (m->bytes == 0 || m->bytes > (1ull << 30)) return RKNNOP_GC_STATUS_INVALID_ARGUMENT;
  void* p = mmap(NULL, (size_t)m->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return RKNNOP_GC_STATUS_OUT_OF_MEMORY;
  m->logical = (uint64_t)(uintptr_t)p;
  return RKNNOP_GC_STATUS_OK;
}

static int32_t unmap_memory(const struct rknnop_gc_unmap_memory* m) {
  if (m->logical == 0 || m->bytes == 0) return RKNNOP_GC_STATUS_INVALID_ARGUMENT;
  return munmap((void*)(uintptr_t)m->logical, (size_t)m->bytes) == 0 ? RKNNOP_GC_STATUS_OK
                                                                     : RKNNOP_GC_STATUS_INVALID_ARGUMENT;
}

/* ---- user signals: real condition variables ------------------------------------------------- */

struct signal {
  int used;
  int manual_reset;
  int state;
  unsigned waiters;
  pthread_cond_t changed;
};

static pthread_mutex_t signal_lock = PTHREAD_MUTEX_INITIALIZER;
/* Slots of individually allocated signals: a condition variable never moves. A slot is reused only
 * when its signal is destroyed and no thread still waits on it. */
static struct signal** signals;
static unsigned signal_capacity;
static unsigned live_signals;

unsigned rknnop_galcore_live_signals(void) {
  pthread_mutex_lock(&signal_lock);
  unsigned n = live_signals;
  pthread_mutex_unlock(&signal_lock);
  return n;
}

static struct signal* find_signal(int64_t id) {
  if (id <= 0 || id > (int64_t)signal_capacity) return NULL;
  struct signal* s = signals[id - 1];
  return s && s->used ? s : NULL;
}

static int32_t create_signal(struct rknnop_gc_user_signal* u) {
  pthread_mutex_lock(&signal_lock);
  unsigned slot = 0;
  while (slot < signal_capacity && signals[slot] && (signals[slot]->used || signals[slot]->waiters)) ++slot;
  if (slot == signal_capacity) {
    unsigned capacity = signal_capacity ? signal_capacity * 2 : 64;
    struct signal** grown = realloc(signals, capacity * sizeof *grown);
    if (!grown) {
      pthread_mutex_unlock(&signal_lock);
      return RKNNOP_GC_STATUS_OUT_OF_MEMORY;
    }
    memset(grown + signal_capacity, 0, (capacity - signal_capacity) * sizeof *grown);
    signals = grown;
    signal_capacity = capacity;
  }
  if (!signals[slot]) {
    signals[slot] = calloc(1, sizeof(struct signal));
    if (!signals[slot]) {
      pthread_mutex_unlock(&signal_lock);
      return RKNNOP_GC_STATUS_OUT_OF_MEMORY;
    }
    pthread_cond_init(&signals[slot]->changed, NULL);
  }
  struct signal* s = signals[slot];
  s->used = 1;
  s->manual_reset = u->manual_reset != 0;
  s->state = 0;
  ++live_signals;
  u->id = (int32_t)(slot + 1);
  pthread_mutex_unlock(&signal_lock);
  return RKNNOP_GC_STATUS_OK;
}

static int32_t set_signal(int64_t id, int state) {
  pthread_mutex_lock(&signal_lock);
  struct signal* s = find_signal(id);
  if (!s) {
    pthread_mutex_unlock(&signal_lock);
    return RKNNOP_GC_STATUS_INVALID_ARGUMENT;
  }
  s->state = state != 0;
  if (s->state) pthread_cond_broadcast(&s->changed);
  pthread_mutex_unlock(&signal_lock);
  return RKNNOP_GC_STATUS_OK;
}

static int32_t wait_signal(int64_t id, uint32_t milliseconds) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += milliseconds / 1000;
  deadline.tv_nsec += (long)(milliseconds % 1000) * 1000000L;
  if (deadline.tv_nsec >= 1000000000L) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000L;
  }
  pthread_mutex_lock(&signal_lock);
  struct signal* s = find_signal(id);
  if (!s) {
    pthread_mutex_unlock(&signal_lock);
    return RKNNOP_GC_STATUS_INVALID_ARGUMENT;
  }
  int32_t status = RKNNOP_GC_STATUS_OK;
  ++s->waiters;
  while (!s->state && s->used) {
    if (milliseconds == 0) {
      status = RKNNOP_GC_STATUS_TIMEOUT;
      break;
    }
    if (milliseconds == RKNNOP_GC_INFINITE) {
      pthread_cond_wait(&s->changed, &signal_lock);
    } else if (pthread_cond_timedwait(&s->changed, &signal_lock, &deadline) == ETIMEDOUT && !s->state) {
      status = RKNNOP_GC_STATUS_TIMEOUT;
      break;
    }
  }
  if (status == RKNNOP_GC_STATUS_OK && !s->used) status = RKNNOP_GC_STATUS_INVALID_ARGUMENT;
  if (status == RKNNOP_GC_STATUS_OK && !s->manual_reset) s->state = 0;
  --s->waiters;
  pthread_mutex_unlock(&signal_lock);
  return status;
}

static int32_t destroy_signal(int64_t id) {
  pthread_mutex_lock(&signal_lock);
  struct signal* s = find_signal(id);
  if (!s) {
    pthread_mutex_unlock(&signal_lock);
    return RKNNOP_GC_STATUS_INVALID_ARGUMENT;
  }
  s->used = 0;
  --live_signals;
  pthread_cond_broadcast(&s->changed); /* a waiter wakes and reports the signal gone */
  pthread_mutex_unlock(&signal_lock);
  return RKNNOP_GC_STATUS_OK;
}

static int32_t user_signal(struct rknnop_gc_user_signal* u) {
  switch (u->command) {
    case RKNNOP_GC_USER_SIGNAL_CREATE: return create_signal(u);
    case RKNNOP_GC_USER_SIGNAL_DESTROY: return destroy_signal(u->id);
    case RKNNOP_GC_USER_SIGNAL_SIGNAL: return set_signal(u->id, (int)u->state);
    case RKNNOP_GC_USER_SIGNAL_WAIT: return wait_signal(u->id, u->wait);
    default:
      fprintf(stderr, "rknnop-galcore: unhandled USER_SIGNAL sub-command %u\n", u->command);
      return RKNNOP_GC_STATUS_NOT_SUPPORTED;
  }
}

static void dispatch(struct rknnop_gc_interface* iface, int from_queue);

/* ---- events and commits --------------------------------------------------------------------- */

static pthread_mutex_t commit_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t commit_stamp;
static uint32_t next_context = 1;

/* Runs an event queue at once: the GPU "finished" everything before it. Records are user-space
 * pointers; the chain length is bounded so a corrupt chain cannot loop for ever. */
static int32_t run_event_queue(uint64_t queue, const char* from) {
  unsigned count = 0;
  for (uint64_t at = queue; at != 0; ++count) {
    if (count == 65536) {
      fprintf(stderr, "rknnop-galcore: %s: event queue longer than 65536 records (a loop?)\n", from);
      return RKNNOP_GC_STATUS_INVALID_ARGUMENT;
    }
    struct rknnop_gc_queue_record* record = (struct rknnop_gc_queue_record*)(uintptr_t)at;
    GC_LOG("  %s event: %s\n", from, rknnop_galcore_command_name(record->iface.command));
    dispatch(&record->iface, 1);
    if (record->iface.status < 0) return record->iface.status;
    at = record->next;
  }
  return RKNNOP_GC_STATUS_OK;
}

/* What a CPU-only graph's commits hold, as libGAL 6.4.6 writes them on every variant (seen with
 * RKNNOP_GALCORE_LOG=1): between the reserved head and tail, only LOAD_STATE commands (opcode 1 in
 * bits 31..27, count in 25..16, state address in 15..0, then the values, padded to 64 bits) to the
 * states 0x0E03 (cache flush), 0x0E13 and 0x028A, and NOPs (opcode 3). Anything else is work for
 * the NPU, which the stand-in cannot do: it is named on stderr and the process stops (see
 * refuse_npu_work), instead of "completing" work whose results would silently be missing. */
static int known_state(uint32_t address) { return address == 0x0E03u || address == 0x0E13u || address == 0x028Au; }

static int32_t check_commands(const struct rknnop_gc_command_location* cb) {
  if (cb->size == 0) return RKNNOP_GC_STATUS_OK;
  if (!cb->logical || (uint64_t)cb->reserved_head + cb->reserved_tail > cb->size || cb->size % 4 != 0 ||
      cb->reserved_head % 8 != 0) {
    fprintf(stderr, "rknnop-galcore: COMMIT: command buffer location out of shape (size %u, head %u, tail %u)\n",
            cb->size, cb->reserved_head, cb->reserved_tail);
    return RKNNOP_GC_STATUS_INVALID_ARGUMENT;
  }
  const uint32_t* words = (const uint32_t*)(uintptr_t)(cb->logical + cb->start_offset + cb->reserved_head);
  uint32_t count = (cb->size - cb->reserved_head - cb->reserved_tail) / 4;
  for (uint32_t i = 0; i < count;) {
    uint32_t opcode = words[i] >> 27;
    if (opcode == 3) { /* NOP */
      i += 2;
      continue;
    }
    if (opcode != 1) {
      fprintf(stderr,
              "rknnop-galcore: COMMIT: command 0x%08x (opcode %u) at byte %u of the buffer: NPU work is not emulated\n",
              words[i], opcode, cb->reserved_head + 4 * i);
      return RKNNOP_GC_STATUS_NOT_SUPPORTED;
    }
    uint32_t states = (words[i] >> 16) & 0x3FFu;
    uint32_t address = words[i] & 0xFFFFu;
    if (states == 0) states = 1024;
    for (uint32_t k = 0; k < states; ++k) {
      if (!known_state(address + k)) {
        fprintf(
            stderr,
            "rknnop-galcore: COMMIT: LOAD_STATE 0x%04x = 0x%08x at byte %u of the buffer: NPU work is not emulated\n",
            address + k, i + 1 + k < count ? words[i + 1 + k] : 0u, cb->reserved_head + 4 * i);
        return RKNNOP_GC_STATUS_NOT_SUPPORTED;
      }
    }
    i += (1 + states + 1) & ~1u; /* header and values, 64-bit aligned */
  }
  return RKNNOP_GC_STATUS_OK;
}

/* Where a refused commit comes from: the caller's frames as library+offset (symbol), so the docs can
 * name the driver function. */
static void print_caller(const void* address) {
  Dl_info info;
  if (dladdr(address, &info) && info.dli_fname) {
    const char* name = strrchr(info.dli_fname, '/');
    fprintf(stderr, "rknnop-galcore:   from %s+0x%lx%s%s\n", name ? name + 1 : info.dli_fname,
            (unsigned long)((uintptr_t)address - (uintptr_t)info.dli_fbase), info.dli_sname ? " " : "",
            info.dli_sname ? info.dli_sname : "");
  }
}

static void print_callers(void) {
#if defined(__aarch64__)
  /* The vendor libraries have no unwind tables but keep AArch64 frame records ({previous x29, x30}
   * at x29): walk them while they stay inside this thread's stack and go up. */
  pthread_attr_t attributes;
  void* stack = NULL;
  size_t stack_size = 0;
  if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
    pthread_attr_getstack(&attributes, &stack, &stack_size);
    pthread_attr_destroy(&attributes);
  }
  uintptr_t low = (uintptr_t)stack, high = low + stack_size;
  const uintptr_t* frame = (const uintptr_t*)__builtin_frame_address(0);
  for (int depth = 0; depth < 24 && frame; ++depth) {
    uintptr_t at = (uintptr_t)frame;
    if (at < low || at + 16 > high || at % 8 != 0) break;
    uintptr_t previous = frame[0], return_address = frame[1];
    if (return_address) print_caller((const void*)(return_address - 4));
    if (previous <= at) break;
    frame = (const uintptr_t*)previous;
  }
#else
  void* frames[16];
  int count = backtrace(frames, 16);
  for (int i = 1; i < count; ++i) print_caller(frames[i]);
#endif
}

/* NPU work: the driver ignores a failed commit (vxProcessGraph still returns success), so the
 * process is stopped unless RKNNOP_GALCORE_NPU_WORK=error asks for the failed status only. */
static void refuse_npu_work(void) {
  print_callers();
  const char* policy = getenv("RKNNOP_GALCORE_NPU_WORK");
  if (policy && strcmp(policy, "error") == 0) return;
  fprintf(stderr,
          "rknnop-galcore: stopping: the graph needs the NPU, which the user-space galcore does not emulate "
          "(RKNNOP_GALCORE_NPU_WORK=error: fail the commit only)\n");
  fflush(stderr);
  abort();
}

static int32_t commit(struct rknnop_gc_commit* c) {
  unsigned count = 0;
  for (struct rknnop_gc_subcommit* sub = &c->sub_commit; sub;
       sub = (struct rknnop_gc_subcommit*)(uintptr_t)sub->next, ++count) {
    if (count == 64) return RKNNOP_GC_STATUS_INVALID_ARGUMENT;
    const struct rknnop_gc_command_location* cb = &sub->command_buffer;
    GC_LOG("  COMMIT core %u: command buffer node %u address 0x%x offset %u size %u head %u tail %u, queue 0x%llx\n",
           sub->core_id, cb->video_mem_node, cb->address, cb->start_offset, cb->size, cb->reserved_head,
           cb->reserved_tail, (unsigned long long)sub->queue);
    if (rknnop_galcore_logging() && cb->logical && cb->size) {
      /* The commands themselves, for the log (nothing executes them). */
      const uint32_t* words = (const uint32_t*)(uintptr_t)(cb->logical + cb->start_offset);
      unsigned n = cb->size / 4 < 32 ? cb->size / 4 : 32;
      fprintf(stderr, "rknnop-galcore:   commands:");
      for (unsigned i = 0; i < n; ++i) fprintf(stderr, " %08x", words[i]);
      fprintf(stderr, "%s\n", cb->size / 4 > n ? " ..." : "");
    }
    int32_t status = check_commands(cb);
    if (status == RKNNOP_GC_STATUS_NOT_SUPPORTED) refuse_npu_work();
    if (status < 0) return status;
    status = run_event_queue(sub->queue, "COMMIT");
    if (status < 0) return status;
  }
  pthread_mutex_lock(&commit_lock);
  c->commit_stamp = ++commit_stamp;
  pthread_mutex_unlock(&commit_lock);
  return RKNNOP_GC_STATUS_OK;
}

/* ---- the dispatcher -------------------------------------------------------------------------- */

static int32_t unhandled(const struct rknnop_gc_interface* iface) {
  fprintf(stderr, "rknnop-galcore: unhandled HAL command %u (%s)\n", iface->command,
          rknnop_galcore_command_name(iface->command));
  return RKNNOP_GC_STATUS_NOT_SUPPORTED;
}

static int32_t answer(struct rknnop_gc_interface* iface, int from_queue) {
  switch (iface->command) {
    case RKNNOP_GC_VERSION:
      iface->u.version = (struct rknnop_gc_version){.major = 6, .minor = 4, .patch = 6, .build = 351518};
      return RKNNOP_GC_STATUS_OK;
    case RKNNOP_GC_CHIP_INFO: answer_chip_info(&iface->u.chip_info); return RKNNOP_GC_STATUS_OK;
    case RKNNOP_GC_QUERY_CHIP_IDENTITY: answer_chip_identity(&iface->u.chip_identity); return RKNNOP_GC_STATUS_OK;
    case RKNNOP_GC_QUERY_CHIP_OPTION: memset(&iface->u.chip_options, 0, sizeof iface->u.chip_options); return 0;
    case RKNNOP_GC_QUERY_CHIP_FREQUENCY:
      iface->u.chip_frequency = (struct rknnop_gc_chip_frequency){.mc_clock = 800000000u, .sh_clock = 800000000u};
      return RKNNOP_GC_STATUS_OK;
    case RKNNOP_GC_QUERY_VIDEO_MEMORY:
      iface->u.query_video_memory =
          (struct rknnop_gc_query_video_memory){.contiguous_phys_name = 1, .contiguous_size = 256u << 20};
      return RKNNOP_GC_STATUS_OK;
    case RKNNOP_GC_GET_BASE_ADDRESS:
      memset(&iface->u.get_base_address, 0, sizeof iface->u.get_base_address);
      return RKNNOP_GC_STATUS_OK;
    case RKNNOP_GC_ALLOCATE_LINEAR_VIDEO_MEMORY: return allocate_linear(&iface->u.allocate_linear);
    case RKNNOP_GC_RELEASE_VIDEO_MEMORY: return release_node(iface->u.release_video_memory.node);
    case RKNNOP_GC_LOCK_VIDEO_MEMORY: return lock_node(&iface->u.lock_video_memory);
    case RKNNOP_GC_UNLOCK_VIDEO_MEMORY: {
      /* As the kernel does: a direct unlock asks to be deferred (asynchroneous = 1 back), libGAL then
       * queues the same record in an event queue, and that queued unlock (run when the events are
       * committed: at once here) unlocks the node. */
      struct rknnop_gc_unlock_video_memory* u = &iface->u.unlock_video_memory;
      if (!from_queue) {
        pthread_mutex_lock(&memory_lock);
        struct node* n = find_node(u->node);
        int locked = n && n->locks > 0;
        if (n) u->bytes = n->bytes;
        pthread_mutex_unlock(&memory_lock);
        if (!locked) return RKNNOP_GC_STATUS_INVALID_OBJECT;
        u->asynchroneous = 1;
        u->pool = 0;
        return RKNNOP_GC_STATUS_OK;
      }
      return unlock_node(u->node, &u->bytes);
    }
    case RKNNOP_GC_BOTTOM_HALF_UNLOCK_VIDEO_MEMORY: return unlock_node(iface->u.bottom_half_unlock.node, NULL);
    case RKNNOP_GC_MAP_MEMORY: return map_memory(&iface->u.map_memory);
    case RKNNOP_GC_UNMAP_MEMORY: return unmap_memory(&iface->u.unmap_memory);
    case RKNNOP_GC_CACHE: return RKNNOP_GC_STATUS_OK; /* ordinary cached memory: nothing to flush */
    case RKNNOP_GC_ATTACH: {
      struct rknnop_gc_attach* a = &iface->u.attach;
      pthread_mutex_lock(&commit_lock);
      uint32_t context = next_context++;
      pthread_mutex_unlock(&commit_lock);
      *a = (struct rknnop_gc_attach){.context = context, .map = a->map};
      return RKNNOP_GC_STATUS_OK;
    }
    case RKNNOP_GC_DETACH: return RKNNOP_GC_STATUS_OK;
    case RKNNOP_GC_EVENT_COMMIT: return run_event_queue(iface->u.event_commit.queue, "EVENT_COMMIT");
    case RKNNOP_GC_COMMIT: return commit(&iface->u.commit);
    case RKNNOP_GC_SET_TIMEOUT: return RKNNOP_GC_STATUS_OK;
    case RKNNOP_GC_USER_SIGNAL: return user_signal(&iface->u.user_signal);
    case RKNNOP_GC_SIGNAL: return set_signal((int64_t)iface->u.signal.signal, 1);
    case RKNNOP_GC_DATABASE: memset(iface->u.raw + 8, 0, sizeof iface->u.raw - 8); return RKNNOP_GC_STATUS_OK;
    case RKNNOP_GC_CONFIG_POWER_MANAGEMENT: return RKNNOP_GC_STATUS_OK;
    default: return unhandled(iface);
  }
}

static void dispatch(struct rknnop_gc_interface* iface, int from_queue) {
  uint32_t command = iface->command;
  pthread_mutex_lock(&count_lock);
  ++command_counts[command < RKNNOP_GC_COMMAND_COUNT ? command : RKNNOP_GC_COMMAND_COUNT];
  pthread_mutex_unlock(&count_lock);
  GC_LOG("%u %s [%08x %08x %08x %08x %08x %08x %08x %08x]\n", command, rknnop_galcore_command_name(command),
         ((uint32_t*)iface->u.raw)[0], ((uint32_t*)iface->u.raw)[1], ((uint32_t*)iface->u.raw)[2],
         ((uint32_t*)iface->u.raw)[3], ((uint32_t*)iface->u.raw)[4], ((uint32_t*)iface->u.raw)[5],
         ((uint32_t*)iface->u.raw)[6], ((uint32_t*)iface->u.raw)[7]);
  iface->status = answer(iface, from_queue);
  if (iface->status != RKNNOP_GC_STATUS_OK)
    GC_LOG("%u %s -> status %d\n", command, rknnop_galcore_command_name(command), iface->status);
}

void rknnop_galcore_dispatch(struct rknnop_gc_interface* iface) { dispatch(iface, 0); }

/* The profiler ioctl: only "is profiling on?" is answered (no: there is no GPU to profile). */
static int profiler_ioctl(void* argument) {
  const struct rknnop_gc_driver_args* args = argument;
  if (!args || !args->input || !args->output || args->input_size != sizeof(struct rknnop_gc_profiler_interface) ||
      args->output_size != sizeof(struct rknnop_gc_profiler_interface)) {
    fprintf(stderr, "rknnop-galcore: IOCTL_GCHAL_PROFILER_INTERFACE with sizes %llu/%llu, expected %zu\n",
            args ? (unsigned long long)args->input_size : 0ull, args ? (unsigned long long)args->output_size : 0ull,
            sizeof(struct rknnop_gc_profiler_interface));
    errno = EINVAL;
    return -1;
  }
  struct rknnop_gc_profiler_interface iface;
  memcpy(&iface, (const void*)(uintptr_t)args->input, sizeof iface);
  pthread_mutex_lock(&count_lock);
  ++command_counts[iface.command < RKNNOP_GC_COMMAND_COUNT ? iface.command : RKNNOP_GC_COMMAND_COUNT];
  pthread_mutex_unlock(&count_lock);
  GC_LOG("%u %s (profiler ioctl)\n", iface.command, rknnop_galcore_command_name(iface.command));
  if (iface.command == RKNNOP_GC_GET_PROFILE_SETTING) {
    memset(&iface.u, 0, sizeof iface.u);
    iface.status = RKNNOP_GC_STATUS_OK;
  } else {
    fprintf(stderr, "rknnop-galcore: unhandled HAL command %u (%s) on the profiler ioctl\n", iface.command,
            rknnop_galcore_command_name(iface.command));
    iface.status = RKNNOP_GC_STATUS_NOT_SUPPORTED;
  }
  memcpy((void*)(uintptr_t)args->output, &iface, sizeof iface);
  return 0;
}

int rknnop_galcore_ioctl(unsigned long request, void* argument) {
  if (request == RKNNOP_GC_IOCTL_TERMINATE) return 0;
  if (request == RKNNOP_GC_IOCTL_PROFILER_INTERFACE) return profiler_ioctl(argument);
  if (request != RKNNOP_GC_IOCTL_INTERFACE) {
    fprintf(stderr, "rknnop-galcore: unhandled ioctl request %lu\n", request);
    errno = ENOTTY;
    return -1;
  }
  const struct rknnop_gc_driver_args* args = argument;
  if (!args || !args->input || !args->output || args->input_size != sizeof(struct rknnop_gc_interface) ||
      args->output_size != sizeof(struct rknnop_gc_interface)) {
    fprintf(stderr,
            "rknnop-galcore: IOCTL_GCHAL_INTERFACE with sizes %llu/%llu, expected %zu (another driver version?)\n",
            args ? (unsigned long long)args->input_size : 0ull, args ? (unsigned long long)args->output_size : 0ull,
            sizeof(struct rknnop_gc_interface));
    errno = EINVAL;
    return -1;
  }
  struct rknnop_gc_interface iface;
  memcpy(&iface, (const void*)(uintptr_t)args->input, sizeof iface);
  rknnop_galcore_dispatch(&iface);
  memcpy((void*)(uintptr_t)args->output, &iface, sizeof iface);
  return 0;
}
