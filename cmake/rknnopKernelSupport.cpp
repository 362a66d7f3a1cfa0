// SPDX-License-Identifier: MIT
// Linked into every kernel library by rknnop_add_op (hidden, never exported).
//
// Kernel libraries are built with -fno-exceptions, yet libstdc++'s headers still call its
// std::__throw_* helpers (string_view::substr, vector growth, operator new...). Left to the static
// libstdc++, each of them drags in the whole exception runtime, and GCC 12's is built against a
// newer glibc than the boards' 2.28 (pthread_once@GLIBC_2.34, _dl_find_object@GLIBC_2.35). Defining
// the helpers here keeps that runtime out: a failed library precondition prints one line and aborts,
// which is what -fno-exceptions means anyway. The global operator new/delete are defined here for the
// same reason (libstdc++'s throw bad_alloc themselves); the version script keeps them local, so the
// process's own operator new is untouched.
#include <cstddef>  // std::size_t
#include <cstdio>   // std::fputs
#include <cstdlib>  // std::abort, std::malloc, std::free, std::aligned_alloc
#include <new>      // std::align_val_t, std::nothrow_t

namespace {
[[noreturn]] __attribute__((visibility("hidden"))) void rknnop_kernel_library_error(const char* what) noexcept {
  std::fputs("rknnop: C++ standard library error in a kernel library (built without exceptions): ", stderr);
  std::fputs(what ? what : "(no message)", stderr);
  std::fputs("\n", stderr);
  std::abort();
}
}  // namespace

// libstdc++ only: libc++ (clang's -stdlib=libc++, host libraries) declares its own helpers with
// default visibility, defines some inline, and has no exception runtime of that kind to keep out.
#if defined(__GLIBCXX__)
#define RKNNOP_DETAIL_THROW(signature, what) \
  [[noreturn]] __attribute__((visibility("hidden"))) void signature { rknnop_kernel_library_error(what); }

namespace std {
RKNNOP_DETAIL_THROW(__throw_bad_exception(), "bad_exception")
RKNNOP_DETAIL_THROW(__throw_bad_alloc(), "bad_alloc (out of memory)")
RKNNOP_DETAIL_THROW(__throw_bad_array_new_length(), "bad_array_new_length")
RKNNOP_DETAIL_THROW(__throw_bad_cast(), "bad_cast")
RKNNOP_DETAIL_THROW(__throw_bad_typeid(), "bad_typeid")
RKNNOP_DETAIL_THROW(__throw_logic_error(const char* s), s)
RKNNOP_DETAIL_THROW(__throw_domain_error(const char* s), s)
RKNNOP_DETAIL_THROW(__throw_invalid_argument(const char* s), s)
RKNNOP_DETAIL_THROW(__throw_length_error(const char* s), s)
RKNNOP_DETAIL_THROW(__throw_out_of_range(const char* s), s)
RKNNOP_DETAIL_THROW(__throw_out_of_range_fmt(const char* s, ...), s)  // the format is printed unexpanded
RKNNOP_DETAIL_THROW(__throw_runtime_error(const char* s), s)
RKNNOP_DETAIL_THROW(__throw_range_error(const char* s), s)
RKNNOP_DETAIL_THROW(__throw_overflow_error(const char* s), s)
RKNNOP_DETAIL_THROW(__throw_underflow_error(const char* s), s)
RKNNOP_DETAIL_THROW(__throw_bad_function_call(), "bad_function_call")
}  // namespace std
#undef RKNNOP_DETAIL_THROW
#endif  // __GLIBCXX__

// Local to this library whatever links it (rknnop_add_op's version script does it too; a Makefile
// build may have none): a visibility attribute cannot be put on the replaceable operators (<new>
// declares them default), so the assembler marks their symbols hidden. "m"/"j": size_t's mangling.
#if defined(__GNUC__) && defined(__ELF__)
#if __SIZEOF_SIZE_T__ == 8
#define RKNNOP_DETAIL_SIZE "m"
#else
#define RKNNOP_DETAIL_SIZE "j"
#endif
__asm__(".hidden _Znw" RKNNOP_DETAIL_SIZE "\n.hidden _Zna" RKNNOP_DETAIL_SIZE
        "\n"
        ".hidden _Znw" RKNNOP_DETAIL_SIZE "St11align_val_t\n.hidden _Zna" RKNNOP_DETAIL_SIZE
        "St11align_val_t\n"
        ".hidden _Znw" RKNNOP_DETAIL_SIZE "RKSt9nothrow_t\n.hidden _Zna" RKNNOP_DETAIL_SIZE
        "RKSt9nothrow_t\n"
        ".hidden _Znw" RKNNOP_DETAIL_SIZE
        "St11align_val_tRKSt9nothrow_t\n"
        ".hidden _Zna" RKNNOP_DETAIL_SIZE
        "St11align_val_tRKSt9nothrow_t\n"
        ".hidden _ZdlPv\n.hidden _ZdaPv\n.hidden _ZdlPv" RKNNOP_DETAIL_SIZE "\n.hidden _ZdaPv" RKNNOP_DETAIL_SIZE
        "\n"
        ".hidden _ZdlPvSt11align_val_t\n.hidden _ZdaPvSt11align_val_t\n"
        ".hidden _ZdlPv" RKNNOP_DETAIL_SIZE "St11align_val_t\n.hidden _ZdaPv" RKNNOP_DETAIL_SIZE
        "St11align_val_t\n"
        ".hidden _ZdlPvRKSt9nothrow_t\n.hidden _ZdaPvRKSt9nothrow_t\n"
        ".hidden _ZdlPvSt11align_val_tRKSt9nothrow_t\n.hidden _ZdaPvSt11align_val_tRKSt9nothrow_t\n");
#undef RKNNOP_DETAIL_SIZE
#endif

namespace {
void* rknnop_allocate(std::size_t size, std::size_t align) noexcept {
  if (size == 0) size = 1;
  if (align <= alignof(std::max_align_t)) return std::malloc(size);
  return std::aligned_alloc(align, (size + align - 1) / align * align);
}
void* rknnop_allocate_or_die(std::size_t size, std::size_t align) noexcept {
  void* p = rknnop_allocate(size, align);
  if (!p) rknnop_kernel_library_error("operator new: out of memory");
  return p;
}
}  // namespace
void* operator new(std::size_t n) { return rknnop_allocate_or_die(n, 0); }
void* operator new[](std::size_t n) { return rknnop_allocate_or_die(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) { return rknnop_allocate_or_die(n, std::size_t(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return rknnop_allocate_or_die(n, std::size_t(a)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return rknnop_allocate(n, 0); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return rknnop_allocate(n, 0); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return rknnop_allocate(n, std::size_t(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return rknnop_allocate(n, std::size_t(a));
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
