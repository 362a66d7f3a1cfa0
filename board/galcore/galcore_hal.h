/* SPDX-License-Identifier: MIT */
/* The galcore HAL interface as libGAL 6.4.6 (rknpu e0cb42b, "6.4.6.5.351518") uses it: one ioctl,
 * IOCTL_GCHAL_INTERFACE, whose argument is a driver-args record pointing at the interface record
 * (command code, hardware type, core index, status, engine, two flags, then a union of per-command
 * records). Written by rknnop from public facts only:
 *  - the numbers and layouts published in Vivante's open-source kernel driver of the same generation
 *    (Freescale/kernel-module-imx-gpu-viv, tag upstream/6.4.3.p4.6, hal/kernel/inc/shared/
 *    gc_hal_driver_shared.h, gc_hal_enum_shared.h; hal/kernel/inc/gc_hal_kernel_buffer.h for the event
 *    queue record; hal/os/linux/kernel/gc_hal_kernel_os.h for the driver-args record);
 *  - checked against Rockchip's binaries: libGAL.so passes in/out sizes of 424 bytes on aarch64 and on
 *    armhf (the sizes asserted below), its first command is 1 (version), and the feature database of
 *    the galcore*.ko modules (gChipInfo) names the NPU as chip 0x8000 revision 0x7100, product
 *    0x45080001, eco 0, customer 0x82.
 * Only the records the stand-in reads or writes are spelled out; each offset is asserted. */
#ifndef RKNNOP_GALCORE_HAL_H
#define RKNNOP_GALCORE_HAL_H

#include <stddef.h> /* offsetof */
#include <stdint.h> /* fixed-width fields: the layout is the same on aarch64, armhf and x86-64 */

#define RKNNOP_GC_IOCTL_INTERFACE 30000u
#define RKNNOP_GC_IOCTL_PROFILER_INTERFACE 30001u
#define RKNNOP_GC_IOCTL_TERMINATE 30002u

/* gceHAL_COMMAND_CODES (6.4.x numbering). */
enum rknnop_gc_command {
  RKNNOP_GC_CHIP_INFO = 0,
  RKNNOP_GC_VERSION = 1,
  RKNNOP_GC_QUERY_CHIP_IDENTITY = 2,
  RKNNOP_GC_QUERY_CHIP_OPTION = 3,
  RKNNOP_GC_QUERY_CHIP_FREQUENCY = 4,
  RKNNOP_GC_QUERY_VIDEO_MEMORY = 5,
  RKNNOP_GC_ALLOCATE_LINEAR_VIDEO_MEMORY = 6,
  RKNNOP_GC_WRAP_USER_MEMORY = 7,
  RKNNOP_GC_RELEASE_VIDEO_MEMORY = 8,
  RKNNOP_GC_LOCK_VIDEO_MEMORY = 9,
  RKNNOP_GC_UNLOCK_VIDEO_MEMORY = 10,
  RKNNOP_GC_BOTTOM_HALF_UNLOCK_VIDEO_MEMORY = 11,
  RKNNOP_GC_MAP_MEMORY = 12,
  RKNNOP_GC_UNMAP_MEMORY = 13,
  RKNNOP_GC_CACHE = 14,
  RKNNOP_GC_ATTACH = 15,
  RKNNOP_GC_DETACH = 16,
  RKNNOP_GC_EVENT_COMMIT = 17,
  RKNNOP_GC_COMMIT = 18,
  RKNNOP_GC_SET_TIMEOUT = 19,
  RKNNOP_GC_USER_SIGNAL = 20,
  RKNNOP_GC_SIGNAL = 21,
  RKNNOP_GC_SET_PROFILE_SETTING = 22,
  RKNNOP_GC_READ_PROFILER_REGISTER_SETTING = 23,
  RKNNOP_GC_READ_ALL_PROFILE_REGISTERS_PART1 = 24,
  RKNNOP_GC_READ_ALL_PROFILE_REGISTERS_PART2 = 25,
  RKNNOP_GC_DATABASE = 26,
  RKNNOP_GC_CONFIG_POWER_MANAGEMENT = 27,
  RKNNOP_GC_DEBUG_DUMP = 28,
  RKNNOP_GC_READ_REGISTER = 29,
  RKNNOP_GC_WRITE_REGISTER = 30,
  RKNNOP_GC_PROFILE_REGISTERS_2D = 31,
  RKNNOP_GC_GET_BASE_ADDRESS = 32,
  RKNNOP_GC_GET_FRAME_INFO = 33,
  RKNNOP_GC_SET_VIDEO_MEMORY_METADATA = 34,
  RKNNOP_GC_QUERY_COMMAND_BUFFER = 35,
  RKNNOP_GC_QUERY_RESET_TIME_STAMP = 36,
  RKNNOP_GC_CREATE_NATIVE_FENCE = 37,
  RKNNOP_GC_WAIT_NATIVE_FENCE = 38,
  RKNNOP_GC_WAIT_FENCE = 39,
  RKNNOP_GC_EXPORT_VIDEO_MEMORY = 40,
  RKNNOP_GC_NAME_VIDEO_MEMORY = 41,
  RKNNOP_GC_IMPORT_VIDEO_MEMORY = 42,
  RKNNOP_GC_DEVICE_MUTEX = 43,
  RKNNOP_GC_DEC200_TEST = 44,
  RKNNOP_GC_DEC300_READ = 45,
  RKNNOP_GC_DEC300_WRITE = 46,
  RKNNOP_GC_DEC300_FLUSH = 47,
  RKNNOP_GC_DEC300_FLUSH_WAIT = 48,
  RKNNOP_GC_SHBUF = 49,
  RKNNOP_GC_GET_GRAPHIC_BUFFER_FD = 50,
  RKNNOP_GC_UPDATE_DEBUG_CALLBACK = 51,
  RKNNOP_GC_CONFIG_CTX_FRAMEWORK = 52,
  RKNNOP_GC_ALLOCATE_NON_PAGED_MEMORY = 53,
  RKNNOP_GC_FREE_NON_PAGED_MEMORY = 54,
  RKNNOP_GC_WRITE_DATA = 55,
  RKNNOP_GC_SET_IDLE = 56,
  RKNNOP_GC_RESET = 57,
  RKNNOP_GC_COMMIT_DONE = 58,
  RKNNOP_GC_GET_VIDEO_MEMORY_FD = 59,
  RKNNOP_GC_GET_PROFILE_SETTING = 60, /* through IOCTL_GCHAL_PROFILER_INTERFACE */
  RKNNOP_GC_COMMAND_COUNT = 61
};

/* gceSTATUS values the stand-in returns. */
enum rknnop_gc_status {
  RKNNOP_GC_STATUS_OK = 0,
  RKNNOP_GC_STATUS_INVALID_ARGUMENT = -1,
  RKNNOP_GC_STATUS_INVALID_OBJECT = -2,
  RKNNOP_GC_STATUS_OUT_OF_MEMORY = -3,
  RKNNOP_GC_STATUS_NOT_SUPPORTED = -13,
  RKNNOP_GC_STATUS_TIMEOUT = -15,
  RKNNOP_GC_STATUS_NOT_FOUND = -19,
  RKNNOP_GC_STATUS_INVALID_REQUEST = -21
};

/* gceUSER_SIGNAL_COMMAND_CODES. */
enum rknnop_gc_user_signal_command {
  RKNNOP_GC_USER_SIGNAL_CREATE = 0,
  RKNNOP_GC_USER_SIGNAL_DESTROY = 1,
  RKNNOP_GC_USER_SIGNAL_SIGNAL = 2,
  RKNNOP_GC_USER_SIGNAL_WAIT = 3,
  RKNNOP_GC_USER_SIGNAL_MAP = 4,
  RKNNOP_GC_USER_SIGNAL_UNMAP = 5
};

#define RKNNOP_GC_INFINITE 0xFFFFFFFFu
/* gceHARDWARE_TYPE: invalid, 3D2D, 3D, 2D, VIP, VG. */
#define RKNNOP_GC_HARDWARE_VIP 4u
/* gcvCORE_COUNT without DEC: major + 7 further 3D cores + 2D + VG. */
#define RKNNOP_GC_CORE_COUNT 10

/* DRIVER_ARGS: the ioctl argument. */
struct rknnop_gc_driver_args {
  uint64_t input;
  uint64_t input_size;
  uint64_t output;
  uint64_t output_size;
};

struct rknnop_gc_version {
  int32_t major, minor, patch;
  uint32_t build;
};

struct rknnop_gc_chip_info {
  int32_t count;
  uint32_t types[RKNNOP_GC_CORE_COUNT];
  uint32_t ids[RKNNOP_GC_CORE_COUNT];
  uint32_t core_indexes[RKNNOP_GC_CORE_COUNT];
};

struct rknnop_gc_query_video_memory {
  uint32_t internal_phys_name;
  uint64_t internal_size;
  uint32_t external_phys_name;
  uint64_t external_size;
  uint32_t contiguous_phys_name;
  uint64_t contiguous_size;
};

struct rknnop_gc_chip_identity {
  uint32_t chip_model, chip_revision, chip_date, chip_features;
  uint32_t chip_minor_features[7];
  uint32_t stream_count, pixel_pipes, resolve_pipes, instruction_count, num_constants, varyings_count;
  uint32_t gpu_core_count, cluster_avail_mask, product_id, chip_flags, eco_id, customer_id;
  uint64_t sram_bases[2];
  uint32_t sram_sizes[2];
  uint64_t platform_flag_bits;
};

struct rknnop_gc_chip_options {
  uint32_t gpu_profiler, allow_fast_clear, power_management, enable_mmu, allow_compression;
  uint32_t small_batch, usc_l1_cache_ratio, usc_attrib_cache_ratio, user_cluster_mask;
  uint32_t sram_gpu_virt_addrs[2], sram_sizes[2], sram_count;
  uint64_t ext_sram_cpu_phys_addrs[2], ext_sram_gpu_phys_addrs[2];
  uint32_t ext_sram_gpu_virt_addrs[2], ext_sram_gpu_phys_names[2], ext_sram_sizes[2], ext_sram_count;
  uint32_t secure_mode, enable_nntp_parallel, enable_swtiling_phase1, has_shader;
};

struct rknnop_gc_chip_frequency {
  uint32_t mc_clock, sh_clock;
};

struct rknnop_gc_allocate_linear {
  uint64_t bytes;
  uint32_t alignment, type, flag, pool;
  int32_t sram_index, ext_sram_index;
  uint32_t node;
};

struct rknnop_gc_release_video_memory {
  uint32_t node;
};

struct rknnop_gc_lock_video_memory {
  uint32_t node, cacheable, address;
  uint64_t memory;
  uint32_t gid;
  uint64_t physical_address;
};

struct rknnop_gc_unlock_video_memory {
  uint64_t node;
  uint32_t type, pool;
  uint64_t bytes;
  uint32_t asynchroneous;
};

struct rknnop_gc_bottom_half_unlock {
  uint32_t node, type;
};

struct rknnop_gc_map_memory {
  uint32_t phys_name;
  uint64_t bytes, logical;
};

struct rknnop_gc_unmap_memory {
  uint32_t phys_name;
  uint64_t bytes, logical;
};

struct rknnop_gc_cache {
  uint32_t operation;
  uint64_t process, logical, bytes;
  uint32_t node;
};

struct rknnop_gc_attach {
  uint32_t context;
  uint64_t max_state;
  uint32_t num_states, map;
  uint64_t logicals[2];
  uint32_t bytes;
};

struct rknnop_gc_detach {
  uint32_t context;
};

struct rknnop_gc_event_commit {
  uint64_t queue;
};

struct rknnop_gc_command_location {
  uint32_t priority, channel_id, video_mem_node, address;
  uint64_t logical;
  uint32_t start_offset, size, reserved_head, reserved_tail;
  uint64_t patch_head;
  uint32_t exit_index, entry_pipe, exit_pipe;
  uint64_t next;
};

struct rknnop_gc_subcommit {
  uint32_t core_id;
  uint64_t delta, context, queue;
  struct rknnop_gc_command_location command_buffer;
  uint64_t next;
};

struct rknnop_gc_commit {
  struct rknnop_gc_subcommit sub_commit;
  uint32_t shared, context_switched;
  uint64_t commit_stamp;
};

struct rknnop_gc_user_signal {
  uint32_t command;
  int32_t id;
  uint32_t manual_reset, wait, state;
};

struct rknnop_gc_signal {
  uint64_t signal, aux_signal, process;
  uint32_t from_where;
};

struct rknnop_gc_flat_mapping_range {
  uint64_t start, end;
  uint32_t size, flag;
};

struct rknnop_gc_get_base_address {
  uint32_t base_address, flat_mapping_range_count;
  struct rknnop_gc_flat_mapping_range ranges[16];
};

struct rknnop_gc_set_timeout {
  uint32_t timeout;
};

struct rknnop_gc_interface {
  uint32_t command, hardware_type, core_index;
  int32_t status;
  uint32_t engine, ignore_tls, commit_mutex;
  union {
    uint8_t raw[392];
    uint64_t align;
    struct rknnop_gc_version version;
    struct rknnop_gc_chip_info chip_info;
    struct rknnop_gc_query_video_memory query_video_memory;
    struct rknnop_gc_chip_identity chip_identity;
    struct rknnop_gc_chip_options chip_options;
    struct rknnop_gc_chip_frequency chip_frequency;
    struct rknnop_gc_allocate_linear allocate_linear;
    struct rknnop_gc_release_video_memory release_video_memory;
    struct rknnop_gc_lock_video_memory lock_video_memory;
    struct rknnop_gc_unlock_video_memory unlock_video_memory;
    struct rknnop_gc_bottom_half_unlock bottom_half_unlock;
    struct rknnop_gc_map_memory map_memory;
    struct rknnop_gc_unmap_memory unmap_memory;
    struct rknnop_gc_cache cache;
    struct rknnop_gc_attach attach;
    struct rknnop_gc_detach detach;
    struct rknnop_gc_event_commit event_commit;
    struct rknnop_gc_commit commit;
    struct rknnop_gc_user_signal user_signal;
    struct rknnop_gc_signal signal;
    struct rknnop_gc_get_base_address get_base_address;
    struct rknnop_gc_set_timeout set_timeout;
  } u;
};

/* gcsHAL_PROFILER_INTERFACE (IOCTL_GCHAL_PROFILER_INTERFACE): the same 32-byte head, a smaller union;
 * libGAL passes 392 bytes. GET_PROFILE_SETTING's answer starts with the "enabled" flag. */
struct rknnop_gc_profiler_interface {
  uint32_t command, hardware_type, core_index;
  int32_t status;
  uint32_t engine, ignore_tls, commit_mutex;
  union {
    uint8_t raw[360];
    uint64_t align;
    uint32_t profile_enabled;
  } u;
};

/* gcsQUEUE: one record of an event queue (linked by user-space pointers). */
struct rknnop_gc_queue_record {
  uint64_t next;
  struct rknnop_gc_interface iface;
};

/* The layout facts, asserted (identical on aarch64, armhf and x86-64: all fields fixed-width, 64-bit
 * fields 8-aligned by both ABIs). */
#ifdef __cplusplus
#define RKNNOP_GC_CHECK(cond) static_assert(cond, "rknnop: galcore layout: " #cond)
#else
#define RKNNOP_GC_CHECK(cond) _Static_assert(cond, "rknnop: galcore layout: " #cond)
#endif
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_interface) == 424);
RKNNOP_GC_CHECK(offsetof(struct rknnop_gc_interface, u) == 32);
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_chip_info) == 124);
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_query_video_memory) == 48);
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_chip_identity) == 128);
RKNNOP_GC_CHECK(offsetof(struct rknnop_gc_chip_identity, customer_id) == 88);
RKNNOP_GC_CHECK(offsetof(struct rknnop_gc_chip_identity, platform_flag_bits) == 120);
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_chip_options) == 136);
RKNNOP_GC_CHECK(offsetof(struct rknnop_gc_chip_options, has_shader) == 128);
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_allocate_linear) == 40);
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_lock_video_memory) == 40);
RKNNOP_GC_CHECK(offsetof(struct rknnop_gc_lock_video_memory, physical_address) == 32);
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_unlock_video_memory) == 32);
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_map_memory) == 24);
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_attach) == 48);
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_command_location) == 72);
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_subcommit) == 112);
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_commit) == 128);
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_user_signal) == 20);
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_signal) == 32);
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_get_base_address) == 392);
RKNNOP_GC_CHECK(offsetof(struct rknnop_gc_queue_record, iface) == 8);
RKNNOP_GC_CHECK(sizeof(struct rknnop_gc_profiler_interface) == 392);
#undef RKNNOP_GC_CHECK

#endif
