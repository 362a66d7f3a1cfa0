/* SPDX-License-Identifier: MIT */
/*
 * Hostile: a toolkit-style C op whose `mode` param picks how its code misbehaves, for the tests of
 * node execution in a child process (tests/host/test_isolation.cpp, docs/isolation.md):
 *   0 copies the input to the output (a correct op)     1 kernel writes through a null pointer
 *   2 kernel calls abort()                               3 kernel never returns
 *   4 kernel allocates without bound                     5 kernel writes one byte past its output
 *   6 kernel reads one byte before its input             11 validator writes through a null pointer
 * The tensors are reached through rknnopHostGetTensorBuffer, as a kernel that trusts its sizes would.
 * List index 1 is a VX kernel (hostile.vx beside this file: it copies the input to the output, as the
 * CPU kernel does with mode 0), so that rknnop-parity takes the op. Modes of the VX kernel's own
 * initializer: 12 writes through a null pointer, 13 never returns; with 14 the shader writes through one.
 * Attacks on the tool and the machine, each of which the node runner's sandbox refuses (docs/isolation.md):
 *   20 ptrace-attaches its parent (the tool)             21 pushes a keystroke into the terminal (TIOCSTI)
 *   22 kills its parent                                  23 kills its process group (kill(0))
 *   24 forks a child that outlives the run               25 runs /bin/sh (execve)
 *   26 connects to 127.0.0.1                             27 creates a file in the current folder
 *   28 grows a memory file (memfd) to 2 GiB              29 answers with a 1 GiB reply of its own
 *   30 answers with an output whose bytes are not its shape's (5 x 7 FLOAT16, 128 MiB of data)
 *   31 closes the runner's control socket and waits (the tool stops it)
 *   32 fails when it has any capability (the runner drops root's)
 *   33 answers with a truncated reply (a string that runs past the reply's end)
 * Attacks the sandbox's second part refuses (issue 50), each on the run's input file (in.npy in the folder
 * RKNNOP_HOSTILE_MARK names) or on the tool (its pid: the runner's argv[2]):
 *   34 chmod 0666 of the input                           35 setxattr on the input
 *   36 utimensat on the input                            37 a 1 GiB System V shared memory segment
 *   38 socketpair                                        39 prlimit RLIMIT_FSIZE 0 on the tool
 *   40 setpriority 19 on the tool                        41 a system call through int 0x80 (i386's)
 *   42 sched_setaffinity of the tool                     43 a System V message queue
 *   44 chown of the input                                45 ioprio_set on the tool
 *   46 an x32 system call
 * Reads the sandbox refuses (Landlock: the library sees EACCES and the run fails with VX_FAILURE):
 *   47 the tool's /proc/PID/stat (where its terminal is named)   48 a terminal device (/dev/ptmx)
 *   49 the user's file (the run's input, by its path)
 * And: 51 writes 1 TiB of tensors into the runner's status page (its tensor_bytes, at byte 1032) and the
 * validator as its step, then fills 1 GiB and holds it a second: the tool counts the tensors itself and stops it.
 * 54 writes the validator as its step and an invented overrun as its fault text into the status page, then dies
 * of SIGSEGV (its handler reset first): the tool prints that text as the runner's report, not in its own voice.
 * 56 (as 156, in a VX runner) is 24 with a child that names itself "x\n) R 1 1 1" (a forged first line of its stat),
 * so that a watch reading that line takes it for no member of the runner's group: its 512 MiB count all the same.
 * 55 starts a thread (once per runner) that grows and shrinks the reply file (descriptor 5) between 76 MiB (the reply
 * the runner wrote, then zeros) and 1 GiB for as long as the runner lives: the tool takes the reply's size once and
 * reads no more than that (its memory stays bounded); a reply read at 76 MiB passes, so a run of --repeat races on.
 * 52 starts a thread that answers every byte on the runner's control channel (descriptor 7) at once,
 * for the runs after this one (rknnop-run --repeat): the tool then reads the reply file it emptied.
 * 53 (as 153, in a VX runner) forks a child that waits, and never returns: the child must end with the runner when the
 * tool is killed. 50 starts 2000 threads (the runner's thread cap, RLIMIT_NPROC in its user namespace, stops it short:
 * the kernel fails with VX_FAILURE). Modes 120-133 make the same attacks (20-33) from the VX kernel's initializer, in a
 * VX shader's runner. Mode 124's child holds 512 MiB: a VX runner may start processes (POCL's linker), killed with it.
 * Each returns VX_FAILURE when the call fails instead of being stopped, so a run never passes by it.
 * A constructor aborts the process when its name (/proc/self/comm) is RKNNOP_HOSTILE_ABORT_IN: a tool
 * that loads the library in its own process dies, one that loads it in rknnop-node only does not.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "VX/vx.h"
#include "VX/vx_helper.h"
#include <rknnop/host/openvx_host.h>

#define _PARAM_NUM (3)

static vx_param_description_t kernel_params[] = {
    {VX_INPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED},
    {VX_OUTPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED},
    {VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED},
};

static vx_int32 mode_of(vx_reference scalar) {
  vx_int32 mode = 0;
  if (vxCopyScalar((vx_scalar)scalar, &mode, VX_READ_ONLY, VX_MEMORY_TYPE_HOST) != VX_SUCCESS) return -1;
  return mode;
}

/* The node runner's reply file and control socket (src/host/isolate/node_wire.hpp): a forged reply, sent as
 * the runner's own, then never an answer of the runner's. */
static void put_bytes(int fd, const void* data, size_t size) {
  if (write(fd, data, size) != (ssize_t)size) _exit(9);
}
static void put_u64(int fd, uint64_t v) { put_bytes(fd, &v, sizeof v); }
static void put_string(int fd, const char* text) {
  put_u64(fd, strlen(text));
  put_bytes(fd, text, strlen(text));
}
static void forge_reply(int mode) {
  const uint32_t magic = 0x524e4b52, zero32 = 0, dims[2] = {5, 7};
  const int32_t type = VX_TYPE_FLOAT16;
  const uint8_t ok = 1, flags[4] = {0, 1, 0, 0};
  const char go = 1;
  if (ftruncate(5, 0) != 0 || lseek(5, 0, SEEK_SET) != 0) _exit(9);
  if (mode == 29) {
    if (ftruncate(5, (off_t)1 << 30) != 0) _exit(9);
  } else if (mode == 33) {
    put_bytes(5, &magic, 4);
    put_bytes(5, &ok, 1);
    put_u64(5, 1000); /* the descriptor's list symbol: 1000 bytes, of which 3 follow */
    put_bytes(5, "vx_", 3);
  } else {
    put_bytes(5, &magic, 4);
    put_bytes(5, &ok, 1);
    put_string(5, "vx_kernel_Hostile_list"); /* the descriptor */
    put_u64(5, 2);
    put_bytes(5, &zero32, 4);
    put_string(5, "hostile_cpu");
    put_bytes(5, &zero32, 4);
    put_bytes(5, flags, 4);
    put_bytes(5, &zero32, 4);
    put_u64(5, 0);
    put_u64(5, 0); /* steps */
    put_u64(5, 1); /* outputs */
    put_string(5, "output");
    put_bytes(5, &type, 4);
    put_u64(5, 2);
    put_bytes(5, dims, sizeof dims);
    put_u64(5, (uint64_t)128 << 20);
    if (ftruncate(5, lseek(5, 0, SEEK_CUR) + ((off_t)128 << 20)) != 0) _exit(9);
  }
  if (send(7, &go, 1, MSG_NOSIGNAL) != 1) _exit(9);
  for (;;) pause();
}

/* The run's input file: RKNNOP_HOSTILE_MARK/in.npy. */
static const char* input_file(void) {
  static char path[4096];
  const char* mark = getenv("RKNNOP_HOSTILE_MARK");
  snprintf(path, sizeof path, "%s/in.npy", mark != NULL ? mark : ".");
  return path;
}

/* The tool's pid, as its runner's command line gives it (--rknnop-node PID): in a pid namespace the
 * runner's parent is not there to see. */
static pid_t tool_pid(void) {
  char line[256] = {0};
  const int fd = open("/proc/self/cmdline", O_RDONLY);
  ssize_t got = fd >= 0 ? read(fd, line, sizeof line - 1) : -1;
  size_t at = 0;
  int field = 0;
  if (fd >= 0) close(fd);
  for (; got > 0 && at < (size_t)got && field < 2; ++at)
    if (line[at] == '\0') ++field;
  return field == 2 && at < (size_t)got ? (pid_t)atoi(line + at) : getppid();
}

static void* sleeper(void* unused) {
  (void)unused;
  for (;;) pause();
  return NULL;
}

static void* answerer(void* unused) {
  char byte;
  (void)unused;
  while (recv(7, &byte, 1, 0) == 1)
    if (send(7, &byte, 1, MSG_NOSIGNAL) != 1) break;
  return NULL;
}

static void* reply_grower(void* unused) {
  (void)unused;
  for (;;) {
    if (ftruncate(5, (off_t)76 << 20) != 0 || ftruncate(5, (off_t)1 << 30) != 0) break;
  }
  return NULL;
}

static int attack(int mode) {
  switch (mode) {
    case 34: return chmod(input_file(), 0666) == 0;
    case 35: return setxattr(input_file(), "user.secret", "x", 1, 0) == 0;
    case 36: {
      const struct timespec times[2] = {{1, 0}, {1, 0}};
      return utimensat(AT_FDCWD, input_file(), times, 0) == 0;
    }
    case 37: {
      const int id = shmget(IPC_PRIVATE, (size_t)1 << 30, IPC_CREAT | 0666);
      char* at = id >= 0 ? (char*)shmat(id, NULL, 0) : (char*)-1;
      size_t i;
      if (at == (char*)-1) return 0;
      for (i = 0; i < ((size_t)1 << 30); i += 4096) at[i] = 1;
      return 1;
    }
    case 38: {
      int ends[2];
      return socketpair(AF_UNIX, SOCK_STREAM, 0, ends) == 0;
    }
    case 39: {
      const struct rlimit none = {0, 0};
      return prlimit(tool_pid(), RLIMIT_FSIZE, &none, NULL) == 0;
    }
    case 40: return setpriority(PRIO_PROCESS, (id_t)tool_pid(), 19) == 0;
    case 41: {
#if defined(__x86_64__)
      long result = 20; /* i386's getpid */
      __asm__ volatile("int $0x80" : "+a"(result) : : "memory");
      return result > 0;
#else
      return 0;
#endif
    }
    case 42: {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(0, &one);
      return sched_setaffinity(tool_pid(), sizeof one, &one) == 0;
    }
    case 43: return msgget(IPC_PRIVATE, IPC_CREAT | 0666) >= 0;
    case 44: return chown(input_file(), 65534, 65534) == 0;
    case 45: return syscall(SYS_ioprio_set, 1, tool_pid(), (3 << 13) | 7) == 0;
    case 47:
    case 48:
    case 49: {
      char path[64];
      const char* name = path;
      int fd;
      if (mode == 47) snprintf(path, sizeof path, "/proc/%d/stat", (int)tool_pid());
      if (mode == 48) name = "/dev/ptmx";
      if (mode == 49) name = input_file();
      fd = open(name, O_RDONLY | O_NOCTTY);
      if (fd >= 0) close(fd);
      return fd >= 0;
    }
    case 50: {
      pthread_t thread;
      int started = 0;
      while (started < 2000 && pthread_create(&thread, NULL, sleeper, NULL) == 0) ++started;
      return started == 2000;
    }
    case 51: {
      const uint64_t forged = (uint64_t)1 << 40;
      const uint32_t validator = 2;
      char* block;
      size_t i;
      if (pwrite(6, &forged, sizeof forged, 1032) != (ssize_t)sizeof forged) return 0;
      if (pwrite(6, &validator, sizeof validator, 0) != (ssize_t)sizeof validator) return 0;
      block = (char*)malloc((size_t)1 << 30);
      if (block == NULL) return 0;
      for (i = 0; i < ((size_t)1 << 30); i += 4096) block[i] = 1;
      usleep(1000000); /* held: the tool's watch looks every 50 ms */
      free(block);
      return 1;
    }
    case 52: {
      static int started = 0;
      pthread_t thread;
      if (!started) started = pthread_create(&thread, NULL, answerer, NULL) == 0;
      return started;
    }
    case 54: {
      static const char invented[] = "the access at byte 9 of output 'output' is 1 byte(s) past its end";
      const uint32_t validator = 2, length = (uint32_t)(sizeof invented - 1);
      if (pwrite(6, &validator, 4, 0) != 4 || pwrite(6, &length, 4, 4) != 4 ||
          pwrite(6, invented, sizeof invented - 1, 8) != (ssize_t)(sizeof invented - 1))
        return 0;
      signal(SIGSEGV, SIG_DFL);
      raise(SIGSEGV);
      return 0;
    }
    case 55: {
      static int started = 0;
      pthread_t thread;
      if (!started) started = pthread_create(&thread, NULL, reply_grower, NULL) == 0;
      return started;
    }
    case 53: {
      const pid_t child = fork();
      if (child == 0)
        for (;;) pause();
      if (child < 0) return 0;
      for (;;) pause();
    }
    case 46:
#if defined(__x86_64__)
      return syscall(0x40000000L | 39) > 0; /* x32's getpid */
#else
      return 0;
#endif
    case 20: return ptrace(PTRACE_ATTACH, getppid(), NULL, NULL) == 0;
    case 21: return ioctl(0, TIOCSTI, "x") == 0;
    case 22: return kill(getppid(), SIGKILL) == 0;
    case 23: return kill(0, SIGKILL) == 0;
    case 24:
    case 56: {
      const pid_t child = fork();
      if (child == 0) {
        if (mode == 56) prctl(PR_SET_NAME, "x\n) R 1 1 1", 0, 0, 0); /* a forged first line of its stat */
        /* mmap, not malloc: the runner has threads (POCL's), and the child of a fork only calls what
         * is async-signal-safe */
        char* hold = (char*)mmap(NULL, (size_t)512 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        size_t at;
        if (hold != MAP_FAILED)
          for (at = 0; at < ((size_t)512 << 20); at += 4096) hold[at] = 1;
        for (;;) pause();
      }
      return child > 0;
    }
    case 25: {
      char* const argv[] = {(char*)"sh", (char*)"-c", (char*)"exit 0", NULL};
      return execv("/bin/sh", argv) == 0;
    }
    case 26: {
      struct sockaddr_in to;
      const int s = socket(AF_INET, SOCK_STREAM, 0);
      memset(&to, 0, sizeof to);
      to.sin_family = AF_INET;
      to.sin_port = htons(9);
      to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      return s >= 0 && (connect(s, (struct sockaddr*)&to, sizeof to) == 0 || errno == ECONNREFUSED);
    }
    case 27: {
      const int fd = open("hostile-was-here", O_WRONLY | O_CREAT | O_TRUNC, 0644);
      return fd >= 0 && write(fd, "x", 1) == 1;
    }
    case 28: {
      const int fd = (int)syscall(SYS_memfd_create, "hostile", 0);
      return fd >= 0 && ftruncate(fd, (off_t)2 << 30) == 0 && fallocate(fd, 0, 0, (off_t)2 << 30) == 0;
    }
    case 29:
    case 30:
    case 33: forge_reply(mode); return 0;
    case 32: { /* succeeds only without capabilities (root's are dropped in the runner) */
      char line[128];
      int none = 0;
      FILE* status = fopen("/proc/self/status", "r");
      while (status != NULL && fgets(line, sizeof line, status) != NULL)
        if (strcmp(line, "CapEff:\t0000000000000000\n") == 0) none = 1;
      if (status != NULL) fclose(status);
      return none;
    }
    case 31:
      close(7); /* the control socket: the tool stops the runner, as its own act */
      for (;;) pause();
    default: return 1;
  }
}

static vx_status VX_CALLBACK hostile_kernel(vx_node node, const vx_reference* parameters, uint32_t num) {
  rknnop_host_tensor_buffer in, out;
  volatile unsigned char sink = 0;
  (void)node;
  if (num != _PARAM_NUM) return VX_ERROR_INVALID_PARAMETERS;
  if (rknnopHostGetTensorBuffer((vx_tensor)parameters[0], VX_READ_ONLY, &in) != VX_SUCCESS ||
      rknnopHostGetTensorBuffer((vx_tensor)parameters[1], VX_WRITE_ONLY, &out) != VX_SUCCESS)
    return VX_FAILURE;
  switch (mode_of(parameters[2])) {
    case 1: *(volatile int*)(size_t)0 = 1; break;
    case 2: abort();
    case 3:
      for (;;) sink = (unsigned char)(sink + 1);
    case 4:
      for (;;) {
        unsigned char* block = (unsigned char*)malloc((size_t)64 << 20);
        if (block == NULL) break;
        memset(block, 0x5a, (size_t)64 << 20);
      }
      break;
    case 5: ((volatile unsigned char*)out.data)[out.size_in_bytes] = 1; break;
    case 6: sink = ((volatile unsigned char*)in.data)[-1]; break;
    default:
      if (!attack(mode_of(parameters[2]))) return VX_FAILURE;
      break;
  }
  memcpy(out.data, in.data, in.size_in_bytes < out.size_in_bytes ? in.size_in_bytes : out.size_in_bytes);
  return sink == 255 ? VX_FAILURE : VX_SUCCESS;
}

/* The output has the input's dims and type. */
static vx_status VX_CALLBACK hostile_validator(vx_node node, const vx_reference parameters[], uint32_t num,
                                               vx_meta_format metas[]) {
  vx_uint32 dim_num = 0, dims[6], i;
  vx_size sizes[6];
  vx_enum dtype = 0;
  vx_status status;
  (void)node;
  if (num != _PARAM_NUM) return VX_ERROR_INVALID_PARAMETERS;
  if (mode_of(parameters[2]) == 11) *(volatile int*)(size_t)0 = 1;
  status = vxQueryTensor((vx_tensor)parameters[0], VX_TENSOR_NUMBER_OF_DIMS, &dim_num, sizeof(vx_uint32));
  if (status != VX_SUCCESS || dim_num == 0 || dim_num > 6) return VX_ERROR_INVALID_DIMENSION;
  status = vxQueryTensor((vx_tensor)parameters[0], VX_TENSOR_DIMS, dims, sizeof(vx_uint32) * dim_num);
  if (status == VX_SUCCESS) status = vxQueryTensor((vx_tensor)parameters[0], VX_TENSOR_DATA_TYPE, &dtype, sizeof dtype);
  if (status == VX_SUCCESS)
    status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_NUMBER_OF_DIMS, &dim_num, sizeof(vx_uint32));
  for (i = 0; i < dim_num; ++i) sizes[i] = dims[i];
  if (status == VX_SUCCESS)
    status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DIMS, sizes, sizeof(vx_size) * dim_num);
  if (status == VX_SUCCESS) status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DATA_TYPE, &dtype, sizeof dtype);
  return status;
}

/* The VX kernel's work: one work-item per element (x, y, z of the dims). */
static vx_status VX_CALLBACK hostile_vx_initializer(vx_node node, const vx_reference* parameters, uint32_t num) {
  vx_kernel_execution_parameters_t shader = {3, {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}};
  vx_uint32 dim_num = 0, dims[6] = {1, 1, 1, 1, 1, 1}, i;
  volatile unsigned char sink = 0;
  if (num != _PARAM_NUM) return VX_ERROR_INVALID_PARAMETERS;
  if (mode_of(parameters[2]) >= 120 && !attack(mode_of(parameters[2]) - 100)) return VX_FAILURE;
  switch (mode_of(parameters[2])) {
    case 12: *(volatile int*)(size_t)0 = 1; break;
    case 13:
      for (;;) sink = (unsigned char)(sink + 1);
    default: break;
  }
  if (vxQueryTensor((vx_tensor)parameters[0], VX_TENSOR_NUMBER_OF_DIMS, &dim_num, sizeof(vx_uint32)) != VX_SUCCESS ||
      dim_num == 0 || dim_num > 6 ||
      vxQueryTensor((vx_tensor)parameters[0], VX_TENSOR_DIMS, dims, sizeof(vx_uint32) * dim_num) != VX_SUCCESS)
    return VX_ERROR_INVALID_DIMENSION;
  for (i = 0; i < 3; ++i) shader.globalWorkSize[i] = i < dim_num ? dims[i] : 1;
  return vxSetNodeAttribute(node, VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS, &shader, sizeof shader);
}

/* RKNNOP_HOSTILE_MEMFD_MIB=N: the constructor fills a memory file of N MiB (before the runner refuses
 * memfd_create), which counts with the runner's memory.
 * RKNNOP_HOSTILE_FORGE_LOAD=1: in rknnop-node, the constructor answers the load request itself with a
 * descriptor of 0 parameters (op.yml declares 3), and never returns. */
static void forge_load_reply(void) {
  const uint32_t magic = 0x524e4b52, zero32 = 0;
  const uint8_t ok = 1, flags[4] = {0, 1, 0, 0};
  const char go = 1;
  if (ftruncate(5, 0) != 0 || lseek(5, 0, SEEK_SET) != 0) _exit(9);
  put_bytes(5, &magic, 4);
  put_bytes(5, &ok, 1);
  put_string(5, "vx_kernel_Hostile_list");
  put_u64(5, 2);
  put_bytes(5, &zero32, 4);
  put_string(5, "hostile_cpu");
  put_bytes(5, &zero32, 4);
  put_bytes(5, flags, 4);
  put_bytes(5, &zero32, 4); /* numParams 0, and an empty table */
  put_u64(5, 0);
  if (send(7, &go, 1, MSG_NOSIGNAL) != 1) _exit(9);
  for (;;) pause();
}

__attribute__((constructor)) static void hostile_constructor(void) {
  const char* victim = getenv("RKNNOP_HOSTILE_ABORT_IN");
  const char* forge = getenv("RKNNOP_HOSTILE_FORGE_LOAD");
  char name[64] = {0};
  FILE* comm;
  const char* hold = getenv("RKNNOP_HOSTILE_MEMFD_MIB");
  if (hold != NULL && *hold != '\0') { /* a memory file made while loading, kept open and filled */
    const int fd = (int)syscall(SYS_memfd_create, "hostile-constructor", 0);
    if (fd >= 0 && fallocate(fd, 0, 0, (off_t)atoi(hold) << 20) != 0) close(fd);
  }
  if (forge != NULL && strcmp(forge, "1") == 0) {
    comm = fopen("/proc/self/comm", "r");
    if (comm != NULL && fgets(name, sizeof name, comm) != NULL && strncmp(name, "rknnop-node", 11) == 0)
      forge_load_reply();
    if (comm != NULL) fclose(comm);
  }
  if (victim == NULL || *victim == '\0') return;
  comm = fopen("/proc/self/comm", "r");
  if (comm == NULL) return;
  if (fgets(name, sizeof name, comm) != NULL) {
    name[strcspn(name, "\n")] = '\0';
    if (strcmp(name, victim) == 0) abort();
  }
  fclose(comm);
}

static vx_kernel_description_t hostile_cpu = {
    0, "hostile_cpu", hostile_kernel, kernel_params, _PARAM_NUM, hostile_validator, NULL, NULL, NULL, NULL};

static vx_kernel_description_t hostile_vx = {
    1, "hostile_vx", NULL, kernel_params, _PARAM_NUM, hostile_validator, NULL, NULL, hostile_vx_initializer, NULL};

__attribute__((visibility("default")))
vx_kernel_description_t* vx_kernel_Hostile_list[] = {&hostile_cpu, &hostile_vx, NULL};
