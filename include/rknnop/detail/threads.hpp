// SPDX-License-Identifier: MIT
#pragma once

// Layer 7 of detail/ (docs/architecture.md §1): threads. The library's worker pool behind
// rknnop::parallel_for (<rknnop/parallel.hpp>), and the hooks the CPU kernel's initializer and
// deinitializer and the library's unload call. pthread_create/pthread_join, GCC atomic builtins and
// Linux futexes: nothing of libstdc++ (std::thread and std::mutex would need it on the boards), no
// exception, few imports (ResizeArea's board library has a size budget: tests/board_abi).
//
// One pool per kernel library (everything here is hidden): at most cores - 1 workers, created on the
// first parallel_for that needs them and kept between calls; joined when the library's last
// initialised CPU node is deinitialised, and when the library is unloaded (RKNNOP_EXPORT_OP's
// destructor function). A library that never calls parallel_for never references a pthread function:
// the hooks reach the pool through a pointer the pool sets when it starts its first worker.

#include <rknnop/config.hpp>

#include <linux/futex.h>  // FUTEX_WAIT_PRIVATE, FUTEX_WAKE_PRIVATE
#include <pthread.h>      // pthread_create, pthread_join
#include <signal.h>       // SIG_SETMASK
#include <sys/prctl.h>    // PR_SET_NAME
#include <sys/syscall.h>  // SYS_futex, SYS_getpid, SYS_prctl, SYS_rt_sigprocmask
#include <unistd.h>       // sysconf, syscall

#include <climits>  // INT_MAX

#include <cstddef>  // std::size_t
#include <cstdlib>  // std::getenv

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::detail {
// What every kernel library has, threads or not.
struct thread_hooks {
  using hook = void (*)() noexcept;
  static inline constinit hook release = nullptr;  // set by the pool's first worker
  static inline constinit long nodes = 0;          // CPU nodes initialised and not yet deinitialised

  static void node_initialized() noexcept { __atomic_add_fetch(&nodes, 1, __ATOMIC_ACQ_REL); }
  // The last node of the library going joins the workers (a later run starts them again). The VSI
  // driver also calls a deinitializer from the node's destructor, after the graph's own call and for
  // nodes never initialised (docs/runtime.md §9): the count stops at 0, so such extra calls can
  // only join idle workers early, never leave the count below the nodes still initialised.
  static void node_deinitialized() noexcept {
    long n = __atomic_load_n(&nodes, __ATOMIC_ACQUIRE);
    while (n > 0 && !__atomic_compare_exchange_n(&nodes, &n, n - 1, true, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {}
    if (n <= 1) unload();
  }
  // Joins every worker (the library is being unloaded, or its last node went).
  static void unload() noexcept {
    if (const hook f = __atomic_load_n(&release, __ATOMIC_ACQUIRE)) f();
  }
};

// The pool of one library. Every word shared between threads is read and written with atomic
// builtins (compare-exchange for the read-modify-writes: one helper on AArch64); futexes only put a
// thread to sleep until a word changes. 32-bit words: what a futex waits on. Control code, compiled
// for size by GCC (every board library using it carries it).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("Os")
#endif
class thread_pool {
public:
  static constexpr unsigned max_threads = 256;  // RKNNOP_THREADS above it is ignored; workers < it
  using chunk_function = void (*)(void* context, std::size_t chunk) noexcept;

  // Online cores (at least 1), read once.
  static unsigned cores() noexcept {
    unsigned c = __atomic_load_n(&cores_, __ATOMIC_RELAXED);
    if (!c) {
      const long n = sysconf(_SC_NPROCESSORS_ONLN);
      c = n < 1 ? 1u : n > long(max_threads) ? max_threads : unsigned(n);
      __atomic_store_n(&cores_, c, __ATOMIC_RELAXED);
    }
    return c;
  }

  // The number of ranges work is split into: this thread's limit (MindSpore's context, see
  // thread_limit), else set_threads', else RKNNOP_THREADS (a decimal 1..256; 1 turns threads off),
  // else the online cores.
  static unsigned threads() noexcept {
    if (const unsigned limit = thread_limit::of_this_thread()) return limit;
    unsigned t = __atomic_load_n(&threads_, __ATOMIC_RELAXED);
    if (!t) {
      t = cores();
      if (const char* e = std::getenv("RKNNOP_THREADS")) {  // digits only: no locale, no strtol
        unsigned v = 0;
        const char* p = e;
        for (; *p >= '0' && *p <= '9' && v <= max_threads; ++p) v = v * 10 + unsigned(*p - '0');
        if (p != e && !*p && v >= 1 && v <= max_threads) t = v;
      }
      __atomic_store_n(&threads_, t, __ATOMIC_RELAXED);
    }
    return t;
  }
  // For tests: the thread count from now on; 0 reads RKNNOP_THREADS and the cores again.
  static void set_threads(unsigned n) noexcept {
    __atomic_store_n(&threads_, n > max_threads ? max_threads : n, __ATOMIC_RELAXED);
  }

  class thread_limit {
  public:
    explicit thread_limit(unsigned n) noexcept {
      if (!n) return;
      const unsigned long self = pthread_self();
      for (slot& s : slots_) {
        unsigned long expected = 0;
        if (__atomic_load_n(&s.owner, __ATOMIC_RELAXED)) continue;
        if (__atomic_compare_exchange_n(&s.owner, &expected, self, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
          __atomic_store_n(&s.limit, n > max_threads ? max_threads : n, __ATOMIC_RELAXED);
          slot_ = &s;
          return;
        }
      }
    }
    thread_limit(const thread_limit&) = delete;
    thread_limit& operator=(const thread_limit&) = delete;
    ~thread_limit() {
      if (!slot_) return;
      __atomic_store_n(&slot_->limit, 0u, __ATOMIC_RELAXED);
      __atomic_store_n(&slot_->owner, 0ul, __ATOMIC_RELEASE);
    }
    // This thread's limit, or 0; through a pointer that enable() sets, so that a library without
    // limits never scans the slots (nor references pthread_self).
    static unsigned of_this_thread() noexcept {
      const hook h = __atomic_load_n(&hook_, __ATOMIC_RELAXED);
      return h ? h() : 0;
    }
    // Called by a backend that uses limits, before its first limit.
    static void enable() noexcept { __atomic_store_n(&hook_, &lookup, __ATOMIC_RELAXED); }

  private:
    using hook = unsigned (*)() noexcept;
    static unsigned lookup() noexcept {
      const unsigned long self = pthread_self();
      for (const slot& s : slots_)
        if (__atomic_load_n(&s.owner, __ATOMIC_ACQUIRE) == self) return __atomic_load_n(&s.limit, __ATOMIC_RELAXED);
      return 0;
    }
    struct slot {
      unsigned long owner;  // pthread_t (an unsigned long on Linux), 0 when free
      unsigned limit;
    };
    static inline constinit slot slots_[16] = {};
    static inline constinit hook hook_ = nullptr;
    slot* slot_ = nullptr;
  };

  // Runs fn(context, k) for every k < chunks, on the workers and the calling thread, and returns
  // when all are done. Chunks are taken in any order by any thread. When another thread of the
  // process is in a run, or no worker can be started, the calling thread runs them all.
  [[gnu::noinline]] static void run(std::size_t chunks, chunk_function fn, void* context) noexcept {
    job j{fn, context, chunks, 0};
    if (!try_hold()) {
      work(j);
      return;
    }
    const unsigned wanted = unsigned(chunks < cores() ? chunks : cores()) - 1;
    if (workers_ < wanted) start_workers(wanted);
    __atomic_store_n(&current_, &j, __ATOMIC_SEQ_CST);
    add(&generation_, 1);
    if (workers_) futex(&generation_, FUTEX_WAKE_PRIVATE, INT_MAX);
    work(j);
    // A worker counts itself in active_ before it looks at current_: once current_ is null and
    // active_ is 0, every chunk is done and no worker touches `j` any more.
    // The last ranges usually end within microseconds of this thread's: poll before sleeping.
    __atomic_store_n(&current_, nullptr, __ATOMIC_SEQ_CST);
    for (unsigned i = 0; i < spins && __atomic_load_n(&active_, __ATOMIC_SEQ_CST); ++i) pause();
    for (int a; (a = __atomic_load_n(&active_, __ATOMIC_SEQ_CST)) != 0;) futex(&active_, FUTEX_WAIT_PRIVATE, a);
    let_go();
  }

  // The workers started and not joined (for tests).
  static unsigned workers() noexcept { return __atomic_load_n(&workers_, __ATOMIC_ACQUIRE); }
  // Counts the runs handed to the workers (and the stops): RKNNOP_PROFILE tells whether a call ran one.
  static int generation() noexcept { return __atomic_load_n(&generation_, __ATOMIC_ACQUIRE); }

  // Each worker's thread name (/proc/<pid>/task/<tid>/comm): tests and the board runner count the
  // pools' own workers by it, not the process's threads (qemu-user and drivers start their own).
  static constexpr char worker_name[] = "rknnop-worker";

  // Stops and joins every worker (the next run starts them again), after a run in progress.
  RKNNOP_DETAIL_COLD static void release() noexcept {
    add(&releasing_, 1);
    while (!try_hold()) futex(&busy_, FUTEX_WAIT_PRIVATE, 1);
    add(&releasing_, -1);
    // In a fork()ed child the workers are the parent's, and not there to join.
    const bool ours = workers_ && pid_ == syscall(SYS_getpid);
    if (ours) {
      __atomic_store_n(&stop_, 1, __ATOMIC_SEQ_CST);
      add(&generation_, 1);
      futex(&generation_, FUTEX_WAKE_PRIVATE, INT_MAX);
    }
    for (unsigned i = 0; ours && i < workers_; ++i) pthread_join(handles_[i], nullptr);
    __atomic_store_n(&stop_, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&workers_, 0u, __ATOMIC_RELEASE);
    let_go();
  }

private:
  struct job {
    chunk_function fn;
    void* context;
    std::size_t chunks;
    std::size_t next;  // the next chunk to take
  };

  template <class T>
  static T add(T* word, T delta) noexcept {  // an atomic add, as compare-exchange
    T v = __atomic_load_n(word, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(word, &v, T(v + delta), false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {}
    return T(v + delta);
  }
  static long futex(int* word, int op, int value) noexcept {
    return syscall(SYS_futex, word, op, value, nullptr, nullptr, 0);
  }
  static void work(job& j) noexcept {
    for (std::size_t k; (k = add(&j.next, std::size_t{1}) - 1) < j.chunks;) j.fn(j.context, k);
  }
  // busy_: 1 while a run or a release holds the workers.
  static bool try_hold() noexcept {
    int idle = 0;
    return __atomic_compare_exchange_n(&busy_, &idle, 1, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
  }
  static void let_go() noexcept {
    __atomic_store_n(&busy_, 0, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&releasing_, __ATOMIC_SEQ_CST)) futex(&busy_, FUTEX_WAKE_PRIVATE, INT_MAX);
  }

  // Holding busy_. A worker that cannot be created is simply not there: the caller takes its chunks.
  RKNNOP_DETAIL_COLD static void start_workers(unsigned wanted) noexcept {
    const int pid = int(syscall(SYS_getpid));
    if (pid_ != pid) workers_ = 0;  // a fork()ed child: the parent's workers are not here
    pid_ = pid;
    // Workers take no signal (the process's own threads handle them) but glibc's internal 32 and 33
    // (setuid() in a threaded process waits for every thread to take 33). New threads inherit this
    // thread's mask: set it around pthread_create, with the system call (pthread_sigmask is in
    // libpthread before glibc 2.32).
    unsigned long long all = ~0ull & ~(3ull << 31), old = 0;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, &old, sizeof all);
    while (workers_ < wanted && pthread_create(&handles_[workers_], nullptr, &worker_main, nullptr) == 0)
      __atomic_store_n(&workers_, workers_ + 1, __ATOMIC_RELEASE);
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, nullptr, sizeof old);
    __atomic_store_n(&thread_hooks::release, &release, __ATOMIC_RELEASE);
  }

  static void* worker_main(void*) noexcept {
    // The system call, not pthread_setname_np (in libpthread before glibc 2.34: one more import).
    syscall(SYS_prctl, PR_SET_NAME, worker_name, 0, 0, 0);
    for (;;) {
      const int seen = __atomic_load_n(&generation_, __ATOMIC_SEQ_CST);
      add(&active_, 1);
      if (job* j = __atomic_load_n(&current_, __ATOMIC_SEQ_CST)) work(*j);
      if (add(&active_, -1) == 0) futex(&active_, FUTEX_WAKE_PRIVATE, 1);
      if (__atomic_load_n(&stop_, __ATOMIC_SEQ_CST)) return nullptr;
      // The next run: a short poll (a kernel calling parallel_for in a loop, or the next node,
      // finds the worker awake), then asleep.
      for (unsigned i = 0; i < spins && __atomic_load_n(&generation_, __ATOMIC_ACQUIRE) == seen; ++i) pause();
      while (__atomic_load_n(&generation_, __ATOMIC_SEQ_CST) == seen) futex(&generation_, FUTEX_WAIT_PRIVATE, seen);
    }
  }
  // Polls before sleeping on a futex (x86 pause, ARM yield: tens of microseconds in all).
  static constexpr unsigned spins = 4096;
  static void pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
  }

  static inline constinit job* current_ = nullptr;  // the run workers may join (null between runs)
  static inline constinit int generation_ = 0;      // counts runs and stops: idle workers wait on it
  static inline constinit int active_ = 0;          // workers between looking at current_ and done
  static inline constinit int busy_ = 0;
  static inline constinit int releasing_ = 0;  // release() calls waiting for busy_
  static inline constinit int stop_ = 0;
  static inline constinit unsigned workers_ = 0;  // started and not joined (changed holding busy_)
  static inline constinit int pid_ = 0;           // the process that started them
  static inline constinit pthread_t handles_[max_threads] = {};
  static inline constinit unsigned cores_ = 0;
  static inline constinit unsigned threads_ = 0;
};

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif
}  // namespace rknnop::detail

RKNNOP_DETAIL_END_HIDDEN
