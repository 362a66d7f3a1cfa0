// SPDX-License-Identifier: MIT
// The context's graph thread: vxScheduleGraph queues a graph to it, vxWaitGraph waits for the run, as
// the board's driver does (its vxCreateContext starts such a thread; librknn_runtime's rknn_run
// schedules and waits: docs/runtime.md §9). A kernel therefore runs on a thread that is not the
// application's.
#pragma once

#include "objects/objects.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <unordered_set>

namespace rknnop::runtime {

class scheduler {
public:
  scheduler();
  ~scheduler();  // finishes the queued runs, then joins the thread
  scheduler(const scheduler&) = delete;
  scheduler& operator=(const scheduler&) = delete;

  // VX_ERROR_GRAPH_SCHEDULED if `g` is queued or running already.
  vx_status schedule(graph& g);
  // The run's status; VX_FAILURE if `g` was not scheduled since the last wait.
  vx_status wait(graph& g);

private:
  void loop() noexcept;

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<graph*> queue_;  // each held until its run ends
  // Ids of the graphs queued or running: a graph leaves it only after the scheduler's hold on it is
  // dropped, so that vxWaitGraph returns when the application's reference is the graph's last (its
  // release then deinitializes, on the caller's thread, as vxProcessGraph's would).
  std::unordered_set<std::uint64_t> in_flight_;
  bool stopping_ = false;
  std::thread thread_;
};

// The context's scheduler, started by its first vxScheduleGraph.
scheduler& scheduler_of(context& ctx);
// Stops and deletes the context's scheduler (the context is going).
void stop_scheduler(context& ctx) noexcept;

}  // namespace rknnop::runtime
