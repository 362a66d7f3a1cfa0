// SPDX-License-Identifier: MIT
// The node runner's sandbox (docs/isolation.md, "What a hostile library can do"): set up once, before
// the runner loads the op's library. Layers, each independent of the others: no capabilities (as
// root), no new privileges, no core files, a Landlock domain (writes only beneath the run's own
// folder, no TCP, no signals or abstract sockets out of the domain) and a seccomp filter whose refusals
// stop the runner with SIGSYS after naming the call in the status page.
#include "sandbox.hpp"

#include <array>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <string>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>
#include <vector>

#if RKNNOP_NODE_HAS_SECCOMP
#include <seccomp.h>
#endif

namespace rknnop_node {

namespace {

// The runner's threads and processes (RLIMIT_NPROC in its user namespace): POCL's and LLVM's threads
// and a VX runner's linker need a few dozen.
constexpr rlim_t runner_thread_cap = 256;

std::string fmt_errno(const std::string& text, int error_number) { return text + std::strerror(error_number); }

void add_missing(std::string& missing, const std::string& layer) {
  if (!missing.empty()) missing += "; ";
  missing += layer;
}

// --- capabilities: root in the runner gains nothing over the user ---------------------------------

bool drop_capabilities() noexcept {
  for (int cap = 0; cap <= 63; ++cap)
    if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL) return false;
  (void)::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  std::array<__user_cap_data_struct, 2> none{};
  return ::syscall(SYS_capset, &header, none.data()) == 0;
}

// --- namespaces: other processes, System V objects and the network are not there to reach ----------

// Writes `text` to /proc/self/`file` (a user namespace's maps).
bool write_proc_self(const char* file, const std::string& text) noexcept {
  const int fd = ::open((std::string("/proc/self/") + file).c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

// The runner's guardian: a process forked before the sandbox (so before the library), in the runner's
// process group, that waits for the runner's death (PR_SET_PDEATHSIG) and then kills the group whole:
// the processes a VX runner started (its linker, or a library's child, which can leave neither the group
// nor be hidden from it: setsid and setpgid are refused) end with the runner however it ended, the
// tool's death included (before, a child outlived a tool killed with SIGKILL, SIGTERM, SIGHUP or
// SIGINT). It runs no code of the library's and is outside its sandbox, which cannot signal it. A pid namespace would
// do it too, but a process that unshares one can no longer start threads, and the tool would no longer see the runner
// by its pid.
bool start_guardian() noexcept {
  const pid_t runner = ::getpid();
  const pid_t guardian = ::fork();
  if (guardian == 0) {
    // The runner's death seen through a pidfd (PR_SET_PDEATHSIG's signal would come from inside the
    // runner's Landlock domain, whose signal scope refuses it), else by its parent changing.
    const int runner_fd = static_cast<int>(::syscall(SYS_pidfd_open, runner, 0));
    (void)::prctl(PR_SET_NAME, "rknnop-guardian", 0, 0, 0);
    for (int fd = 0; fd < 1024; ++fd)
      if (fd != runner_fd) ::close(fd);
    while (::getppid() == runner) {
      pollfd p{runner_fd, POLLIN, 0};
      if (runner_fd >= 0 ? ::poll(&p, 1, 1000) > 0 : (::usleep(100000), false)) break;
    }
    ::kill(-runner, SIGKILL);  // the group, this process last
    ::_exit(0);
  }
  return guardian > 0;
}

// A root runner becomes an unprivileged user (rknnop::host::runner_unprivileged_id, nobody's) before
// its user namespace: the kernel exempts the real root user from RLIMIT_NPROC whatever namespace it is
// in (a map cannot change that: the exemption is of kernel uid 0), and nobody reads the files only root
// may. Its guardian, forked before, stays root to kill its group. The parent's death signal, which a
// change of user clears, is set again.
bool leave_root(std::string& missing) noexcept {
  const pid_t parent = ::getppid();
  constexpr auto id = static_cast<uid_t>(rknnop::host::runner_unprivileged_id);
  if (::setgroups(0, nullptr) != 0 || ::setresgid(id, id, id) != 0 || ::setresuid(id, id, id) != 0) {
    add_missing(missing, fmt_errno("leaving root for an unprivileged user (", errno) + ")");
    return false;
  }
  (void)::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(0);  // the tool ended meanwhile
  return true;
}

// Every mount read-only (mount_setattr, recursively), `writable` (bound onto itself first) excepted.
bool read_only_but(const std::string& writable) noexcept {
#if defined(SYS_mount_setattr)
  struct {
    std::uint64_t attr_set = 0, attr_clr = 0, propagation = 0, userns_fd = 0;
  } attributes;
  constexpr std::uint64_t mount_attr_rdonly = 0x1;
  constexpr unsigned at_recursive = 0x8000;
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return false;
  if (!writable.empty() && ::mount(writable.c_str(), writable.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0)
    return false;
  attributes.attr_set = mount_attr_rdonly;
  if (::syscall(SYS_mount_setattr, AT_FDCWD, "/", at_recursive, &attributes, sizeof attributes) != 0) return false;
  attributes.attr_set = 0;
  attributes.attr_clr = mount_attr_rdonly;
  return writable.empty() ||
         ::syscall(SYS_mount_setattr, AT_FDCWD, writable.c_str(), at_recursive, &attributes, sizeof attributes) == 0;
#else
  (void)writable;
  errno = ENOSYS;
  return false;
#endif
}

// The runner's own user, ipc, net and mount namespaces: other processes' System V objects and the
// network are not there to reach, and what it makes there ends with it. Each namespace the kernel
// refuses is named; the others, and the other layers, still hold. Returns whether the user namespace
// was made.
bool enter_namespaces(const std::string& writable, std::string& missing) {
  const uid_t uid = ::geteuid();
  const gid_t gid = ::getegid();
  const bool user = ::unshare(CLONE_NEWUSER) == 0;
  // A runner that left root is not dumpable, so its /proc files are root's: dumpable while it writes
  // its maps, and not again after.
  const bool dumpable = ::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 1;
  if (user && !dumpable) (void)::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
  if (!user) {
    add_missing(missing, fmt_errno("a user namespace (", errno) + ")");
  } else if (!write_proc_self("setgroups", "deny") ||
             !write_proc_self("uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1") ||
             !write_proc_self("gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1")) {
    add_missing(missing, fmt_errno("the user namespace's identity map (", errno) + ")");
  }
  if (user && !dumpable) (void)::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  constexpr std::pair<int, const char*> others[] = {
      {CLONE_NEWIPC, "an ipc namespace ("}, {CLONE_NEWNET, "a net namespace ("}, {CLONE_NEWNS, "a mount namespace ("}};
  bool mounts = user;
  for (const auto& [flag, name] : others)
    if (::unshare(flag) != 0) {
      add_missing(missing, fmt_errno(name, errno) + ")");
      if (flag == CLONE_NEWNS) mounts = false;
    }
  // In its own mount namespace every file system is read-only to it but its kernel-cache folder: no
  // file's mode, owner, attributes or times can change (EROFS), whichever call a library (or a VX
  // runner's linker, which chmods what it links) makes.
  if (mounts && !read_only_but(writable)) add_missing(missing, fmt_errno("read-only mounts (", errno) + ")");
  return user;
}

// --- Landlock (raw system calls: glibc has no wrappers; the constants of newer ABIs are the kernel's) -

constexpr std::uint64_t ll_execute = 1U << 0, ll_read_file = 1U << 2, ll_read_dir = 1U << 3;
constexpr std::uint64_t ll_write_file = 1U << 1, ll_remove_dir = 1U << 4, ll_remove_file = 1U << 5,
                        ll_make_char = 1U << 6, ll_make_dir = 1U << 7, ll_make_reg = 1U << 8, ll_make_sock = 1U << 9,
                        ll_make_fifo = 1U << 10, ll_make_block = 1U << 11, ll_make_sym = 1U << 12, ll_refer = 1U << 13,
                        ll_truncate = 1U << 14, ll_ioctl_dev = 1U << 15;
constexpr std::uint64_t ll_net_bind_tcp = 1U << 0, ll_net_connect_tcp = 1U << 1;
constexpr std::uint64_t ll_scope_abstract_unix = 1U << 0, ll_scope_signal = 1U << 1;
constexpr int ll_rule_path_beneath = 1;
constexpr unsigned ll_create_ruleset_version = 1U << 0;

struct ll_ruleset_attr {
  std::uint64_t handled_access_fs = 0;
  std::uint64_t handled_access_net = 0;
  std::uint64_t scoped = 0;
};
struct __attribute__((packed)) ll_path_beneath {
  std::uint64_t allowed_access = 0;
  std::int32_t parent_fd = -1;
};

#if defined(SYS_landlock_create_ruleset)
long ll_abi() noexcept { return ::syscall(SYS_landlock_create_ruleset, nullptr, 0, ll_create_ruleset_version); }
#else
long ll_abi() noexcept {
  errno = ENOSYS;
  return -1;
}
#endif

// What a node reads: the system's programs and libraries (POCL, LLVM, the linker), the loader's and
// OpenCL's configuration, the distribution's name (clang's driver in POCL picks the linker's options by
// it: without it a shader's final link fails), the devices' description (hwloc), the runner's own /proc entry and a few
// devices. Not the user's files, the terminal (/dev/pts, /dev/tty), other processes' /proc entries or /etc beyond
// these.
constexpr const char* readable_paths[] = {"/usr",
                                          "/lib",
                                          "/lib32",
                                          "/lib64",
                                          "/libx32",
                                          "/bin",
                                          "/sbin",
                                          "/opt",
                                          "/etc/ld.so.cache",
                                          "/etc/ld.so.conf",
                                          "/etc/ld.so.conf.d",
                                          "/etc/OpenCL",
                                          "/etc/localtime",
                                          "/etc/alternatives",
                                          "/etc/debian_version",
                                          "/etc/os-release",
                                          "/etc/lsb-release",
                                          "/etc/locale.alias",
                                          "/proc/self",
                                          "/proc/cpuinfo",
                                          "/proc/meminfo",
                                          "/proc/stat",
                                          "/proc/sys/vm/overcommit_memory",
                                          "/proc/sys/kernel/osrelease",
                                          "/sys/devices",
                                          "/sys/kernel/mm",
                                          "/sys/fs/cgroup",
                                          "/sys/bus",
                                          "/sys/class",
                                          "/dev/null",
                                          "/dev/zero",
                                          "/dev/urandom",
                                          "/dev/random"};

// Reads only of readable_paths, the op's op.yml (RKNNOP_NODE_OP_YML, from the tool) and `writable`;
// writes only beneath `writable` (and to /dev/null), no TCP bind or connect, no signal or abstract
// socket out of the domain; what the kernel's ABI lacks is added to `missing`.
void restrict_with_landlock(const std::string& writable, std::string& missing) {
#if defined(SYS_landlock_create_ruleset)
  const long abi = ll_abi();
  if (abi < 1) {
    add_missing(missing, fmt_errno("Landlock (the kernel offers none: ", errno) + ")");
    return;
  }
  ll_ruleset_attr attr;
  attr.handled_access_fs = ll_execute | ll_read_file | ll_read_dir | ll_write_file | ll_remove_dir | ll_remove_file |
                           ll_make_char | ll_make_dir | ll_make_reg | ll_make_sock | ll_make_fifo | ll_make_block |
                           ll_make_sym;
  if (abi >= 2) attr.handled_access_fs |= ll_refer;
  if (abi >= 3) attr.handled_access_fs |= ll_truncate;
  if (abi >= 5) attr.handled_access_fs |= ll_ioctl_dev;
  if (abi >= 4) attr.handled_access_net = ll_net_bind_tcp | ll_net_connect_tcp;
  if (abi >= 6) attr.scoped = ll_scope_abstract_unix | ll_scope_signal;
  if (abi < 4) add_missing(missing, "Landlock's TCP rules (ABI 4; the kernel has " + std::to_string(abi) + ")");
  if (abi < 6) add_missing(missing, "Landlock's signal scope (ABI 6; the kernel has " + std::to_string(abi) + ")");
  const int ruleset = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0));
  if (ruleset < 0) {
    add_missing(missing, fmt_errno("Landlock (landlock_create_ruleset: ", errno) + ")");
    return;
  }
  const auto allow = [&](const char* path, std::uint64_t access) {
    ll_path_beneath rule;
    rule.allowed_access = access & attr.handled_access_fs;
    rule.parent_fd = ::open(path, O_PATH | O_CLOEXEC);
    if (rule.parent_fd < 0) return false;
    // A file's rule takes a file's rights only (Landlock refuses a directory's on it).
    struct stat st {};
    if (::fstat(rule.parent_fd, &st) == 0 && !S_ISDIR(st.st_mode))
      rule.allowed_access &= ll_execute | ll_write_file | ll_read_file | ll_truncate | ll_ioctl_dev;
    const long added = ::syscall(SYS_landlock_add_rule, ruleset, ll_rule_path_beneath, &rule, 0);
    ::close(rule.parent_fd);
    return added == 0;
  };
  constexpr std::uint64_t read = ll_execute | ll_read_file | ll_read_dir;
  for (const char* path : readable_paths) (void)allow(path, read);  // one a system lacks is left out
  if (const char* op_yml = std::getenv("RKNNOP_NODE_OP_YML"); op_yml != nullptr && *op_yml != '\0')
    (void)allow(op_yml, ll_read_file);
  (void)allow("/dev/null", read | ll_write_file | ll_truncate);
  if (!writable.empty() && !allow(writable.c_str(), attr.handled_access_fs & ~ll_ioctl_dev))
    add_missing(missing, "write access to " + writable + " (the run's folder could not be added)");
  if (::syscall(SYS_landlock_restrict_self, ruleset, 0) != 0)
    add_missing(missing, fmt_errno("Landlock (landlock_restrict_self: ", errno) + ")");
  ::close(ruleset);
#else
  (void)writable;
  add_missing(missing, "Landlock (this rknnop-node was built without it)");
#endif
}

// --- seccomp ----------------------------------------------------------------------------------------

#if RKNNOP_NODE_HAS_SECCOMP
// The refused calls' names, prepared before the filter for the async-signal-safe SIGSYS handler.
struct refused_name {
  int number = -1;
  std::array<char, 64> name{};
};
std::array<refused_name, 160> refused_names{};
std::size_t refused_count = 0;
char* refused_out = nullptr;
std::size_t refused_capacity = 0;

void remember(int number, const char* name) noexcept {
  for (std::size_t i = 0; i < refused_count; ++i)
    if (refused_names[i].number == number) return;
  if (refused_count >= refused_names.size()) return;
  refused_name& r = refused_names[refused_count++];
  r.number = number;
  std::strncpy(r.name.data(), name, r.name.size() - 1);
}

extern "C" void on_refused(int, siginfo_t* info, void*) {
  // SA_RESETHAND restored the default action: the raise below ends the runner with SIGSYS, which the
  // parent reports with the name written here.
  if (refused_out != nullptr && refused_capacity > 1) {
    const char* name = "a system call";
    for (std::size_t i = 0; i < refused_count; ++i)
      if (refused_names[i].number == info->si_syscall) name = refused_names[i].name.data();
    std::size_t n = 0;
    for (; name[n] != '\0' && n + 1 < refused_capacity; ++n) refused_out[n] = name[n];
    refused_out[n] = '\0';
  }
  ::raise(SIGSYS);
}

// An argument comparison, as libseccomp's SCMP_A<n>_64 and SCMP_A<n>_32 macros build it (they are C
// compound literals, which C++ compilers warn about).
scmp_arg_cmp arg64(unsigned arg, scmp_compare op, scmp_datum_t a, scmp_datum_t b = 0) {
  scmp_arg_cmp compare{};
  compare.arg = arg;
  compare.op = op;
  compare.datum_a = a;
  compare.datum_b = b;
  return compare;
}
scmp_arg_cmp arg32(unsigned arg, scmp_compare op, scmp_datum_t a, scmp_datum_t b = 0) {
  return arg64(arg, op, static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b));
}

// One rule: `name` refused (trapped) when the comparisons hold; false when libseccomp refuses the rule.
template <class... Compare>
bool refuse(scmp_filter_ctx filter, const char* name, const char* shown, Compare... compare) {
  const int number = ::seccomp_syscall_resolve_name(name);
  if (number == __NR_SCMP_ERROR) return true;  // no such call on this architecture
  if (number >= 0) remember(number, shown);
  return ::seccomp_rule_add(filter, SCMP_ACT_TRAP, number, static_cast<unsigned>(sizeof...(Compare)), compare...) == 0;
}

// `name` refused when its argument `arg` (a pid) is neither 0 (itself) nor `self`: libseccomp takes one
// comparison of an argument per rule, so the pids above `self` are one rule and those from 1 to
// self - 1 a rule per aligned block of that range.
bool refuse_other_pids(scmp_filter_ctx filter, const char* name, const char* shown, unsigned arg, std::uint32_t self) {
  bool ok = refuse(filter, name, shown, arg32(arg, SCMP_CMP_GT, self));
  for (std::uint64_t low = 1; low < self;) {
    std::uint64_t block = 1;
    while (low % (block * 2) == 0 && low + block * 2 - 1 < self) block *= 2;
    ok &= refuse(filter, name, shown, arg32(arg, SCMP_CMP_MASKED_EQ, ~(block - 1) & 0xffffffffU, low));
    low += block;
  }
  return ok;
}

// After the library is loaded (the loader copies a container's library into a memory file first): no
// more memory files, whose pages the runner's resident set does not show (the parent counts those
// made before, by the library's constructors, with its resident memory).
bool refuse_memory_files(std::string& missing) {
  scmp_filter_ctx filter = ::seccomp_init(SCMP_ACT_ALLOW);
  const bool ok = filter != nullptr && refuse(filter, "memfd_create", "memfd_create") && ::seccomp_load(filter) == 0;
  if (filter != nullptr) ::seccomp_release(filter);
  if (!ok) add_missing(missing, "seccomp's memfd_create rule");
  return ok;
}

bool install_seccomp(const rknnop::host::runner_sandbox_request& settings, std::string& missing) {
  scmp_filter_ctx filter = ::seccomp_init(SCMP_ACT_ALLOW);
  if (filter == nullptr) {
    add_missing(missing, "seccomp (seccomp_init failed)");
    return false;
  }
  // A call of another architecture (i386's int 0x80 on x86-64, x32) kills the whole process, not just
  // its thread (which left the runner deadlocked until the time limit); the tool names it.
  if (::seccomp_attr_set(filter, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) != 0)
    add_missing(missing, "seccomp's rule for calls of another architecture");
  const auto self = static_cast<scmp_datum_t>(::getpid());
  bool ok = true;
  // Other processes: no tracing, no reading or writing their memory, no signals but to itself.
#if !RKNNOP_SANITIZED_BUILD
  ok &= refuse(filter, "ptrace", "ptrace");
#endif
  ok &= refuse(filter, "process_vm_readv", "process_vm_readv");
  ok &= refuse(filter, "process_vm_writev", "process_vm_writev");
  ok &= refuse(filter, "kill", "kill (of a process other than itself)", arg32(0, SCMP_CMP_NE, self));
  ok &= refuse(filter, "tgkill", "tgkill (of a process other than itself)", arg32(0, SCMP_CMP_NE, self));
  ok &= refuse(filter, "tkill", "tkill");
  ok &= refuse(filter, "rt_sigqueueinfo", "rt_sigqueueinfo (to another process)", arg32(0, SCMP_CMP_NE, self));
  ok &= refuse(filter, "rt_tgsigqueueinfo", "rt_tgsigqueueinfo (to another process)", arg32(0, SCMP_CMP_NE, self));
  for (const char* name : {"pidfd_open", "pidfd_send_signal", "pidfd_getfd"}) ok &= refuse(filter, name, name);
  // Its own session and process group, which the parent kills whole; its SIGSYS handler stays.
  ok &= refuse(filter, "setsid", "setsid");
  ok &= refuse(filter, "setpgid", "setpgid");
  ok &= refuse(filter, "prctl", "prctl(PR_SET_PDEATHSIG)", arg32(0, SCMP_CMP_EQ, unsigned{PR_SET_PDEATHSIG}));
  // The SIGSYS handler stays: a later sigaction for SIGSYS (LLVM's crash handlers in POCL install one;
  // a library could, to hide a refusal) succeeds without effect.
  ok &= ::seccomp_rule_add(filter, SCMP_ACT_ERRNO(0), SCMP_SYS(rt_sigaction), 1,
                           arg32(0, SCMP_CMP_EQ, unsigned{SIGSYS})) == 0;
  // Processes and programs: threads only (clone with CLONE_THREAD). A VX shader's runner keeps them:
  // POCL links each compiled kernel with the system linker (vfork + execve); its children inherit
  // this filter and the Landlock domain.
#if !RKNNOP_SANITIZED_BUILD
  if (!settings.processes) {
    ok &= refuse(filter, "clone", "clone (a process, not a thread)",
                 arg64(0, SCMP_CMP_MASKED_EQ, unsigned{CLONE_THREAD}, 0));
    ok &= ::seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) == 0;  // glibc falls back to clone
    for (const char* name : {"fork", "vfork", "execve", "execveat"}) ok &= refuse(filter, name, name);
  }
#endif
  // A CPU kernel's runner writes no file (its reply goes to a descriptor it has): opening one to write
  // is named here; Landlock refuses it in a VX shader's runner, beyond its own folder, with EACCES.
  if (!settings.processes) {
    for (const unsigned flag : {unsigned{O_WRONLY}, unsigned{O_RDWR}, unsigned{O_CREAT}, unsigned{O_TRUNC}}) {
      ok &= refuse(filter, "open", "open (a file to write)", arg32(1, SCMP_CMP_MASKED_EQ, flag, flag));
      ok &= refuse(filter, "openat", "open (a file to write)", arg32(2, SCMP_CMP_MASKED_EQ, flag, flag));
    }
    ok &= refuse(filter, "creat", "creat");
    ok &= ::seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0) == 0;
  }
  // The network, and io_uring (its operations bypass this filter); socketpair (its buffers hold memory
  // outside the runner's resident set).
  for (const char* name : {"socket", "socketpair", "connect", "io_uring_setup"}) ok &= refuse(filter, name, name);
  // Files' permissions, owners, extended attributes and times: a kernel cannot make a file setuid, open
  // one to others, or leave a secret in an attribute or a time stamp (Landlock does not handle them).
  // A VX runner's linker chmods the library it links, in the kernel-cache folder: there the read-only
  // mounts refuse a mode change elsewhere.
  if (!settings.processes)
    for (const char* name : {"chmod", "fchmod", "fchmodat", "fchmodat2"}) ok &= refuse(filter, name, "chmod");
  for (const char* name : {"chown", "fchown", "lchown", "fchownat", "chown32", "fchown32", "lchown32"})
    ok &= refuse(filter, name, "chown");
  for (const char* name : {"setxattr", "lsetxattr", "fsetxattr", "setxattrat", "removexattr", "lremovexattr",
                           "fremovexattr", "removexattrat"})
    ok &= refuse(filter, name, "setxattr (an extended attribute)");
  for (const char* name : {"utime", "utimes", "utimensat", "futimesat", "utimensat_time64"})
    ok &= refuse(filter, name, "utimensat (a file's times)");
  // System V IPC: its objects outlive the runner and are reachable by other processes.
  for (const char* name : {"shmget", "shmat", "shmctl", "shmdt", "msgget", "msgsnd", "msgrcv", "msgctl", "semget",
                           "semop", "semctl", "semtimedop", "ipc"})
    ok &= refuse(filter, name, "System V IPC (shmget, msgget, semget...)");
  // Limits, priorities and CPUs: its own only (pid 0 or its own).
  const auto own = static_cast<std::uint32_t>(self);
  ok &= refuse_other_pids(filter, "prlimit64", "prlimit64 (of another process)", 0, own);
  ok &=
      refuse(filter, "setpriority", "setpriority (of another process)", arg32(0, SCMP_CMP_NE, unsigned{PRIO_PROCESS}));
  ok &= refuse_other_pids(filter, "setpriority", "setpriority (of another process)", 1, own);
  for (const char* name : {"sched_setscheduler", "sched_setparam", "sched_setaffinity", "sched_setattr"})
    ok &= refuse_other_pids(filter, name, name, 0, own);
  constexpr unsigned ioprio_who_process = 1;
  ok &= refuse(filter, "ioprio_set", "ioprio_set (of another process)", arg32(0, SCMP_CMP_NE, ioprio_who_process));
  ok &= refuse_other_pids(filter, "ioprio_set", "ioprio_set (of another process)", 1, own);
  // The terminal: no keystrokes pushed into its input, no line discipline or mode changes.
  for (const auto request :
       {TIOCSTI, TIOCSETD, TCSETS, TCSETSW, TCSETSF, TCSETA, TCSETAW, TCSETAF, TIOCLINUX, TIOCSCTTY})
    ok &= ::seccomp_rule_add(filter, SCMP_ACT_TRAP, SCMP_SYS(ioctl), 1,
                             arg32(1, SCMP_CMP_EQ, static_cast<std::uint32_t>(request))) == 0;
  // TCSETS2, TCSETSW2, TCSETSF2 (struct termios2, whose size the C library's headers do not give):
  // matched without their size field.
  const unsigned long without_size = ~(static_cast<unsigned long>(_IOC_SIZEMASK) << _IOC_SIZESHIFT) & 0xffffffffUL;
  for (const unsigned number : {0x2BU, 0x2CU, 0x2DU})
    ok &= ::seccomp_rule_add(filter, SCMP_ACT_TRAP, SCMP_SYS(ioctl), 1,
                             arg32(1, SCMP_CMP_MASKED_EQ, without_size, _IOC(_IOC_WRITE, 'T', number, 0))) == 0;
  remember(SCMP_SYS(ioctl), "a terminal ioctl (TIOCSTI, TCSETS, TIOCSETD...)");
  // The kernel's own state.
  for (const char* name : {"mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "bpf", "perf_event_open",
                           "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load", "reboot",
                           "keyctl", "add_key", "request_key", "userfaultfd"})
    ok &= refuse(filter, name, name);
  if (!ok) {
    ::seccomp_release(filter);
    add_missing(missing, "seccomp (a rule was refused by libseccomp)");
    return false;
  }
  struct sigaction action {};
  action.sa_sigaction = on_refused;
  action.sa_flags = static_cast<int>(SA_SIGINFO | SA_ONSTACK | SA_RESETHAND);
  sigemptyset(&action.sa_mask);
  (void)::sigaction(SIGSYS, &action, nullptr);
  const int loaded = ::seccomp_load(filter);
  ::seccomp_release(filter);
  if (loaded != 0) {
    add_missing(missing, fmt_errno("seccomp (seccomp_load: ", -loaded) + ")");
    return false;
  }
  return true;
}
#endif

}  // namespace

std::string confine_runner(const rknnop::host::runner_sandbox_request& settings) {
  std::string missing;
  if (settings.library_loaded) {
#if RKNNOP_NODE_HAS_SECCOMP
    (void)refuse_memory_files(missing);
#endif
    return missing;
  }
  const rlimit no_core{0, 0};
  (void)::setrlimit(RLIMIT_CORE, &no_core);  // a crash writes no core file in the user's folder
  if (!start_guardian()) add_missing(missing, fmt_errno("the guardian that ends its processes with it (", errno) + ")");
  const bool root = ::geteuid() == 0 && !leave_root(missing);
  const bool user_namespace = enter_namespaces(settings.writable_folder, missing);
  // Threads and processes: a cap, counted in the user namespace (so the user's other processes do not
  // count). The kernel exempts uid 0 from RLIMIT_NPROC: a root runner has left root above.
  if (user_namespace && !root) {
    const rlimit threads{runner_thread_cap, runner_thread_cap};
    if (::setrlimit(RLIMIT_NPROC, &threads) != 0)
      add_missing(missing, fmt_errno("the thread cap (RLIMIT_NPROC: ", errno) + ")");
  }
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) add_missing(missing, fmt_errno("no_new_privs (", errno) + ")");
  // In its own user namespace the runner holds every capability there: dropped, as root's are.
  if ((root || user_namespace) && !drop_capabilities())
    add_missing(missing, fmt_errno("dropping root's capabilities (", errno) + ")");
  restrict_with_landlock(settings.writable_folder, missing);
#if RKNNOP_NODE_HAS_SECCOMP
  refused_out = settings.refused;
  refused_capacity = settings.refused_capacity;
  (void)install_seccomp(settings, missing);
#else
  add_missing(missing, "seccomp (this rknnop-node was built without libseccomp)");
#endif
  return missing;
}

}  // namespace rknnop_node
