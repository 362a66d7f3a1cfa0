// SPDX-License-Identifier: MIT
#include "api.hpp"

#include "objects/live_set.hpp"
#include "objects/reference.hpp"
#include "objects/objects.hpp"
#include "graph/scheduler.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace rknnop::runtime {
namespace {

// Never destroyed: objects may be released from static destructors of the application.
live_set& the_registry() noexcept {
  static live_set* r = new live_set;
  return *r;
}

std::atomic<std::uint64_t> next_id{1};

void unregister(const reference* obj) noexcept { the_registry().erase(obj); }

void destroy(reference* obj) noexcept {
  unregister(obj);
  if (obj->owner != nullptr) obj->owner->forget_child(obj);
  obj->drop_holds();
  delete obj;
}

bool echo_log_to_stderr() noexcept {
  static const bool echo = [] {
    const char* v = std::getenv("RKNNOP_VX_LOG");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  return echo;
}

}  // namespace

reference::reference(vx_enum object_type, context* owner_context)
    : type(object_type), owner(owner_context), id(next_id.fetch_add(1)) {}

bool is_live(const void* handle) noexcept { return handle != nullptr && the_registry().contains(handle); }

reference* find(const void* handle, vx_enum type) noexcept {
  if (!is_live(handle)) return nullptr;
  // Only dereferenced once known to be live: a stale or foreign pointer is never read.
  reference* obj = from_handle(handle);
  if (type != VX_TYPE_REFERENCE && obj->type != type) return nullptr;
  return obj;
}

void adopt(reference* obj) {
  try {
    the_registry().insert(obj);
    if (obj->owner != nullptr) obj->owner->add_child(obj);
  } catch (...) {
    unregister(obj);
    delete obj;
    throw;
  }
}

void hold(reference* obj) noexcept { obj->total.fetch_add(1, std::memory_order_relaxed); }

void unhold(reference* obj) noexcept {
  if (obj->total.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy(obj);
}

vx_status release_external(reference* obj) noexcept {
  std::uint32_t owned = obj->external.load();
  do {
    if (owned == 0) return VX_ERROR_INVALID_REFERENCE;
  } while (!obj->external.compare_exchange_weak(owned, owned - 1));
  if (obj->type == VX_TYPE_CONTEXT) {
    // Children hold no count on their context: the application's last release ends it.
    if (owned == 1) static_cast<context*>(obj)->teardown();
    return VX_SUCCESS;
  }
  unhold(obj);
  return VX_SUCCESS;
}

context::context() : reference(VX_TYPE_CONTEXT, nullptr) {}

void context::add_child(reference* child) {
  std::lock_guard lock(mutex);
  children.insert(child);
}

void context::forget_child(reference* child) noexcept {
  std::lock_guard lock(mutex);
  if (!tearing_down) children.erase(child);
}

void context::teardown() noexcept {
  stop_scheduler(*this);  // the scheduled runs end first: they use the objects
  unregister(this);
  // Deinitializers are the application's code and may still use the objects: run them first.
  std::vector<graph*> graphs;
  try {
    std::lock_guard lock(mutex);
    for (reference* child : children)
      if (child->type == VX_TYPE_GRAPH) graphs.push_back(static_cast<graph*>(child));
  } catch (...) {
    graphs.clear();  // out of memory: skip the deinitializers rather than leak everything
  }
  for (graph* g : graphs) g->deinitialize_nodes();

  std::unordered_set<reference*> doomed;
  {
    std::lock_guard lock(mutex);
    tearing_down = true;
    doomed.swap(children);
    for (auto& entry : kernels) doomed.insert(entry.second);
    kernels.clear();
  }
  for (reference* obj : doomed) unregister(obj);
  for (reference* obj : doomed)  // while every kernel is alive: a foreign block is reported by name
    if (obj->type == VX_TYPE_NODE) static_cast<node*>(obj)->release_local_data();
  for (reference* obj : doomed) delete obj;
  delete this;
}

void context::add_log(const reference* about, vx_status status, std::string message) noexcept {
  if (echo_log_to_stderr()) std::fprintf(stderr, "[rknnop openvx] %d: %s\n", static_cast<int>(status), message.c_str());
  try {
    std::lock_guard lock(mutex);
    if (log.size() == max_log_entries) log.pop_front();
    log.push_back(log_entry{about != nullptr ? about->id : id, status, std::move(message)});
    ++logged;
  } catch (...) {
    // Losing a log entry under memory pressure is better than failing the call that logs.
  }
}

std::string context::log_since(std::uint64_t first) {
  std::lock_guard lock(mutex);
  const std::uint64_t added = logged > first ? logged - first : 0;
  const std::size_t count = static_cast<std::size_t>(std::min<std::uint64_t>(added, log.size()));
  std::string text;
  for (std::size_t i = log.size() - count; i < log.size(); ++i) {
    if (!text.empty()) text += '\n';
    std::string message = log[i].message;
    std::replace(message.begin(), message.end(), '\n', ' ');  // one line per entry
    text += message;
  }
  return text;
}

kernel* context::find_kernel(const std::string& name) {
  std::lock_guard lock(mutex);
  auto it = kernels.find(name);
  return it == kernels.end() ? nullptr : it->second;
}

bool context::add_kernel(kernel* k) {
  std::lock_guard lock(mutex);
  if (!kernels.emplace(k->name, k).second) return false;
  hold(k);
  return true;
}

bool context::remove_kernel(kernel* k) noexcept {
  {
    std::lock_guard lock(mutex);
    auto it = kernels.find(k->name);
    if (it == kernels.end() || it->second != k) return false;
    kernels.erase(it);
  }
  unhold(k);
  return true;
}

namespace {
// Never throws, so va_start/va_end always pair up in the callers.
std::string vformat(const char* format, std::va_list args) noexcept {
  if (format == nullptr) return {};
  try {
    std::va_list copy;
    va_copy(copy, args);
    const int needed = std::vsnprintf(nullptr, 0, format, copy);
    va_end(copy);
    if (needed <= 0) return {};
    std::string text(static_cast<std::size_t>(needed), '\0');
    std::vsnprintf(text.data(), text.size() + 1, format, args);
    return text;
  } catch (...) {
    return {};
  }
}
}  // namespace

void log_to(const reference* about, vx_status status, const char* format, ...) noexcept {
  if (about == nullptr) return;
  context* ctx =
      about->type == VX_TYPE_CONTEXT ? const_cast<context*>(static_cast<const context*>(about)) : about->owner;
  if (ctx == nullptr) return;
  std::va_list args;
  va_start(args, format);
  std::string text = vformat(format, args);
  va_end(args);
  ctx->add_log(about, status, std::move(text));
}

void add_log_entry_v(reference* about, vx_status status, const char* format, std::va_list args) noexcept {
  context* ctx = context_of(about);
  if (ctx == nullptr) return;
  ctx->add_log(about, status, vformat(format, args));
}

}  // namespace rknnop::runtime
