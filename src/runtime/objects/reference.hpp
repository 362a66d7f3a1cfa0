// SPDX-License-Identifier: MIT
// The base of every object (reference counting, the registry of live objects that makes every
// handle checkable) and the context (kernels, children, log). The typed objects: objects.hpp.
#pragma once

#include "api.hpp"

#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <unordered_set>

namespace rknnop::runtime {

class context;

// Base of every object behind a vx_reference. Two counts as in Khronos: `external` is what the
// application owns (vxRelease* of an object it does not own is refused instead of freeing memory a
// node still uses); `total` also counts holds by other objects (a node on its parameters, a graph
// on its nodes). The object is freed when `total` reaches zero.
class reference {
public:
  reference(vx_enum type, context* owner);
  virtual ~reference() = default;
  reference(const reference&) = delete;
  reference& operator=(const reference&) = delete;

  // Releases the holds this object has on others. Called before delete on the normal path only:
  // a context teardown frees everything at once and must not cascade.
  virtual void drop_holds() noexcept {}

  const vx_enum type;
  context* const owner;    // nullptr for a context
  const std::uint64_t id;  // unique for the process: log entries survive address reuse
  std::atomic<std::uint32_t> external{1};
  std::atomic<std::uint32_t> total{1};
};

// The registry of live objects, process-wide because handles carry no context.
bool is_live(const void* handle) noexcept;
// The object behind handle if it is live and of `type` (VX_TYPE_REFERENCE: any type).
reference* find(const void* handle, vx_enum type) noexcept;
template <class T>
T* find_as(const void* handle) noexcept {
  return static_cast<T*>(find(handle, T::object_type));
}

// A handle is the address of the object's `reference` base, whatever its C handle type.
template <class Handle>
Handle to_handle(reference* obj) noexcept {
  return reinterpret_cast<Handle>(obj);
}

inline reference* from_handle(const void* handle) noexcept {
  return static_cast<reference*>(const_cast<void*>(handle));
}

// Registers a freshly constructed object (owned by `obj`'s context); deletes it if that throws.
void adopt(reference* obj);
template <class T, class... Args>
T* make(Args&&... args) {
  T* obj = new T(static_cast<Args&&>(args)...);
  adopt(obj);
  return obj;
}

void hold(reference* obj) noexcept;
void unhold(reference* obj) noexcept;
// The application's release: VX_ERROR_INVALID_REFERENCE if it owns no count on the object.
vx_status release_external(reference* obj) noexcept;
// vxReleaseXxx(&handle): validates, releases and NULLs the handle.
template <class Handle>
vx_status release_handle(Handle* handle, vx_enum type) noexcept {
  if (handle == nullptr) return VX_ERROR_INVALID_REFERENCE;
  reference* obj = find(*handle, type);
  if (obj == nullptr) return VX_ERROR_INVALID_REFERENCE;
  const vx_status status = release_external(obj);
  if (status == VX_SUCCESS) *handle = nullptr;
  return status;
}

struct log_entry {
  std::uint64_t ref_id;
  vx_status status;
  std::string message;
};

class kernel;
class graph;
class scheduler;

class context final : public reference {
public:
  static constexpr vx_enum object_type = VX_TYPE_CONTEXT;
  static constexpr std::size_t max_log_entries = 4096;

  context();

  void add_child(reference* child);
  void forget_child(reference* child) noexcept;
  // Frees every object of the context and the context itself.
  void teardown() noexcept;

  void add_log(const reference* about, vx_status status, std::string message) noexcept;
  // The messages of entries numbered `first` and later that are still in the log, one per line.
  std::string log_since(std::uint64_t first);

  // Kernels by name; the table holds a count on each kernel it lists.
  kernel* find_kernel(const std::string& name);
  bool add_kernel(kernel* k);  // false if the name is taken
  bool remove_kernel(kernel* k) noexcept;

  std::mutex mutex;  // guards every member below
  std::unordered_set<reference*> children;
  std::map<std::string, kernel*, std::less<>> kernels;
  std::deque<log_entry> log;
  std::uint64_t logged = 0;  // entries ever added: log[i] is entry number logged - log.size() + i
  bool tearing_down = false;
  rknnop_host_shader_execute_f shader_execute = nullptr;
  rknnop_host_uniform_size_f uniform_size = nullptr;
  void* shader_user = nullptr;
  scheduler* graph_thread = nullptr;  // vxScheduleGraph's thread, started by its first call

  std::atomic<bool> khronos_mode{false};
  // rknnopHostSetTensorMemoryLimit: the bytes the context's tensor buffers may hold together (0: no
  // limit), and what they hold now.
  std::atomic<vx_size> tensor_memory_limit{0};
  std::atomic<vx_size> tensor_bytes{0};
};

// printf-style log entry on the object's context; a no-op for objects without a context.
void log_to(const reference* about, vx_status status, const char* format, ...) noexcept
    __attribute__((format(printf, 3, 4)));

// vxAddLogEntry's body.
void add_log_entry_v(reference* about, vx_status status, const char* format, std::va_list args) noexcept;

inline context* context_of(reference* obj) noexcept {
  return obj->type == VX_TYPE_CONTEXT ? static_cast<context*>(obj) : obj->owner;
}

// The memory types vx*Copy* accept: HOST, and 0 which VSI's ovxlib and the toolkit guide pass.
inline bool is_host_memory(vx_enum memory_type) noexcept {
  return memory_type == VX_MEMORY_TYPE_HOST || memory_type == 0;
}

}  // namespace rknnop::runtime
