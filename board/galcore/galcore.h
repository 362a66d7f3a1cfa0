/* SPDX-License-Identifier: MIT */
/* rknnop's user-space stand-in for the galcore kernel driver: answers libGAL's HAL commands for a
 * graph that does no NPU work (queries, video memory backed by ordinary memory, user signals, events
 * and commits completed at once). galcore_preload.c routes /dev/galcore to it inside a qemu-user
 * process; the unit tests call it directly. */
#ifndef RKNNOP_GALCORE_H
#define RKNNOP_GALCORE_H

#include "galcore_hal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Answers one interface record: sets iface->status (0 or a negative gceSTATUS) and fills the
 * command's outputs. An unknown or unsupported command prints
 * "rknnop-galcore: unhandled HAL command N (NAME)" to stderr and gets RKNNOP_GC_STATUS_NOT_SUPPORTED.
 * A COMMIT whose command buffer holds NPU work (anything but the cache flushes of a CPU-only graph)
 * is named on stderr with its caller chain and stops the process (abort), as the driver would ignore
 * a failed commit; RKNNOP_GALCORE_NPU_WORK=error makes it fail with RKNNOP_GC_STATUS_NOT_SUPPORTED only.
 * Thread-safe; a user-signal wait blocks only its caller. */
void rknnop_galcore_dispatch(struct rknnop_gc_interface* iface);

/* Handles one ioctl of the device: IOCTL_GCHAL_INTERFACE with a driver-args record. Returns 0, or -1
 * with errno set (EINVAL for a bad record, ENOTTY for another request). */
int rknnop_galcore_ioctl(unsigned long request, void* argument);

/* The gceHAL_COMMAND_CODES name of a command ("?" when out of range). */
const char* rknnop_galcore_command_name(uint32_t command);

/* How many commands of each code were answered (successfully or not) since the start. */
unsigned long rknnop_galcore_command_count(uint32_t command);

/* Logging of every command to stderr: on when RKNNOP_GALCORE_LOG is set to a non-empty value other
 * than "0", or after rknnop_galcore_set_log(1). */
void rknnop_galcore_set_log(int on);
int rknnop_galcore_logging(void);

/* Number of live video-memory nodes and user signals (for tests and the exit report). */
unsigned rknnop_galcore_live_nodes(void);
unsigned rknnop_galcore_live_signals(void);

#ifdef __cplusplus
}
#endif

#endif
