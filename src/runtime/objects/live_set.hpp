// SPDX-License-Identifier: MIT
#pragma once
// The set of live object addresses behind every handle check (is_live), with lookups that take no
// lock: every OpenVX call checks its handles, and a mutex there cost each call two atomic
// read-modify-writes. Writers (object creation and release) take a mutex.
//
// An open-addressing table of atomic slots with linear probing. Erasing leaves a tombstone, and an
// insert reuses the first tombstone on its probe path, so neither moves a key nor empties a slot on
// another key's probe path: a lookup racing with them sees its key or not, as if it ran just before
// or after. Only a rebuild moves keys; it bumps `version_` to odd before and to even after, and a
// lookup that saw the version change repeats (after a few tries it takes the mutex). A rebuild into
// a larger table leaves the old one allocated (`retired_`), since a lookup may still be reading it;
// tables only grow, so the retired ones add up to less than the current one.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace rknnop::runtime {

class live_set {
public:
  live_set() : current_(new table(min_slots)) {}
  live_set(const live_set&) = delete;
  live_set& operator=(const live_set&) = delete;
  ~live_set() { delete current_.load(std::memory_order_relaxed); }

  bool contains(const void* key) const noexcept {
    if (key == nullptr || key == tombstone()) return false;  // the two slot markers are never keys
    for (int attempt = 0; attempt < 3; ++attempt) {
      const std::uint64_t before = version_.load(std::memory_order_acquire);
      if (before & 1) continue;  // a rebuild is under way
      // find's acquire loads keep this second read of the version after them: a slot a rebuild
      // wrote (a release store, after its odd version) makes it see that version or a later one.
      const bool found = find(*current_.load(std::memory_order_acquire), key);
      if (version_.load(std::memory_order_relaxed) == before) return found;
    }
    std::lock_guard lock(mutex_);  // rebuilds keep racing: wait for the current one
    return find(*current_.load(std::memory_order_relaxed), key);
  }

  // Keys are unique: an address is inserted when its object is created and erased when it dies.
  void insert(const void* key) {
    std::lock_guard lock(mutex_);
    table* t = current_.load(std::memory_order_relaxed);
    if (2 * (t->used + 1) > t->slots.size()) t = rebuild(live_ + 1);  // may throw std::bad_alloc
    const std::size_t mask = t->slots.size() - 1;
    for (std::size_t i = hash(key) & mask;; i = (i + 1) & mask) {
      const void* at = t->slots[i].load(std::memory_order_relaxed);
      if (at == nullptr || at == tombstone()) {
        if (at == nullptr) ++t->used;
        t->slots[i].store(key, std::memory_order_release);
        ++live_;
        return;
      }
    }
  }

  void erase(const void* key) noexcept {
    std::lock_guard lock(mutex_);
    table& t = *current_.load(std::memory_order_relaxed);
    const std::size_t mask = t.slots.size() - 1;
    for (std::size_t i = hash(key) & mask, n = 0; n <= mask; i = (i + 1) & mask, ++n) {
      const void* at = t.slots[i].load(std::memory_order_relaxed);
      if (at == nullptr) return;
      if (at == key) {
        t.slots[i].store(tombstone(), std::memory_order_release);
        --live_;
        return;
      }
    }
  }

  std::size_t size() const noexcept {
    std::lock_guard lock(mutex_);
    return live_;
  }

private:
  static constexpr std::size_t min_slots = 64;

  struct table {
    explicit table(std::size_t n) : slots(n) {}
    std::vector<std::atomic<const void*>> slots;  // a power of two; nullptr: never used
    std::size_t used = 0;                         // slots holding a key or a tombstone
  };

  // The address of a static byte: never an object's (objects live on the heap).
  static const void* tombstone() noexcept {
    static const char marker = 0;
    return &marker;
  }

  static std::size_t hash(const void* key) noexcept {
    const auto k = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(key));
    return static_cast<std::size_t>((k >> 4) * 0x9E3779B97F4A7C15ull >> 20);  // objects are 16-aligned
  }

  static bool find(const table& t, const void* key) noexcept {
    const std::size_t mask = t.slots.size() - 1;
    for (std::size_t i = hash(key) & mask, n = 0; n <= mask; i = (i + 1) & mask, ++n) {
      const void* at = t.slots[i].load(std::memory_order_acquire);
      if (at == key) return true;
      if (at == nullptr) return false;
    }
    return false;
  }

  // Room for `live` keys at most a quarter full; in place when the size stays, else a new table.
  table* rebuild(std::size_t live) {
    table* old = current_.load(std::memory_order_relaxed);
    std::size_t n = min_slots;
    while (n < 4 * live) n *= 2;
    std::vector<const void*> keys;
    keys.reserve(live_);
    for (const auto& slot : old->slots) {
      const void* at = slot.load(std::memory_order_relaxed);
      if (at != nullptr && at != tombstone()) keys.push_back(at);
    }
    std::unique_ptr<table> fresh;
    if (n != old->slots.size()) {
      fresh = std::make_unique<table>(n);
      retired_.reserve(retired_.size() + 1);
    }
    version_.fetch_add(1, std::memory_order_relaxed);  // odd: lookups will repeat
    // Release stores: a lookup that reads one also sees the odd version (see contains).
    table* t = fresh ? fresh.get() : old;
    if (!fresh) {
      for (auto& slot : t->slots) slot.store(nullptr, std::memory_order_release);
      t->used = 0;
    }
    const std::size_t mask = t->slots.size() - 1;
    for (const void* key : keys) {
      std::size_t i = hash(key) & mask;
      while (t->slots[i].load(std::memory_order_relaxed) != nullptr) i = (i + 1) & mask;
      t->slots[i].store(key, std::memory_order_release);
      ++t->used;
    }
    if (fresh) {
      current_.store(fresh.release(), std::memory_order_release);
      retired_.emplace_back(old);
    }
    version_.fetch_add(1, std::memory_order_release);  // even: done
    return t;
  }

  mutable std::mutex mutex_;
  std::atomic<std::uint64_t> version_{0};
  std::atomic<table*> current_;
  std::vector<std::unique_ptr<table>> retired_;  // lookups may still read them
  std::size_t live_ = 0;
};

}  // namespace rknnop::runtime
