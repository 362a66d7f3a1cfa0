// SPDX-License-Identifier: MIT
#include "api.hpp"

#include "graph/scheduler.hpp"

#include <utility>

namespace rknnop::runtime {

scheduler::scheduler() : thread_([this] { loop(); }) {}

scheduler::~scheduler() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.get_id() == std::this_thread::get_id())
    thread_.detach();  // a kernel released its own context: the loop ends after this run
  else
    thread_.join();
}

vx_status scheduler::schedule(graph& g) {
  std::lock_guard lock(mutex_);
  if (in_flight_.count(g.id) != 0) {
    log_to(&g, VX_ERROR_GRAPH_SCHEDULED, "vxScheduleGraph: the graph is scheduled already (vxWaitGraph first)");
    return VX_ERROR_GRAPH_SCHEDULED;
  }
  in_flight_.insert(g.id);  // may throw: nothing changed yet
  try {
    queue_.push_back(&g);
  } catch (...) {
    in_flight_.erase(g.id);
    throw;
  }
  hold(&g);
  g.scheduled = true;
  g.completed = false;
  changed_.notify_all();
  return VX_SUCCESS;
}

vx_status scheduler::wait(graph& g) {
  std::unique_lock lock(mutex_);
  if (!g.scheduled && !g.completed) {
    log_to(&g, VX_FAILURE, "vxWaitGraph: the graph was not scheduled");
    return VX_FAILURE;
  }
  changed_.wait(lock, [&] { return in_flight_.count(g.id) == 0; });
  g.completed = false;
  return g.scheduled_status;
}

void scheduler::loop() noexcept {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and every queued run done
    graph* g = queue_.front();
    queue_.pop_front();
    lock.unlock();
    const vx_status status = guarded([g] {
      std::lock_guard graph_lock(g->mutex);
      return g->process();
    });
    const std::uint64_t id = g->id;
    lock.lock();
    g->scheduled_status = status;
    g->scheduled = false;
    g->completed = true;
    lock.unlock();
    unhold(g);  // the application may have released it meanwhile: then it goes here
    lock.lock();
    in_flight_.erase(id);
    changed_.notify_all();
  }
}

scheduler& scheduler_of(context& ctx) {
  std::lock_guard lock(ctx.mutex);
  if (ctx.graph_thread == nullptr) ctx.graph_thread = new scheduler;
  return *ctx.graph_thread;
}

void stop_scheduler(context& ctx) noexcept {
  scheduler* s = nullptr;
  {
    std::lock_guard lock(ctx.mutex);
    s = std::exchange(ctx.graph_thread, nullptr);
  }
  delete s;
}

}  // namespace rknnop::runtime

using namespace rknnop::runtime;

extern "C" {

vx_status vxScheduleGraph(vx_graph graph_handle) {
  auto* g = find_as<graph>(graph_handle);
  if (g == nullptr) return VX_ERROR_INVALID_REFERENCE;
  return guarded([&] { return scheduler_of(*g->owner).schedule(*g); });
}

vx_status vxWaitGraph(vx_graph graph_handle) {
  auto* g = find_as<graph>(graph_handle);
  if (g == nullptr) return VX_ERROR_INVALID_REFERENCE;
  return guarded([&] { return scheduler_of(*g->owner).wait(*g); });
}

}  // extern "C"
