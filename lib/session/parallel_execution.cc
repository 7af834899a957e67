// Parallel mode: nodes run on the inter-op pool as soon as every node producing their inputs has
// finished. Each value is released when the last of its readers is done, whichever thread that
// is; the allocation plan's sharing and memory patterns assume one order, so they are not used.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>

#include "lib/session/session_state.h"

namespace ort {

void SessionState::PlanDependencies() {
  std::vector<int> producer(slot_count_, -1);
  for (size_t position = 0; position < plans_.size(); ++position) {
    for (int slot : plans_[position].outputs) producer[slot] = static_cast<int>(position);
  }
  reader_counts_.assign(slot_count_, 0);
  for (size_t position = 0; position < plans_.size(); ++position) {
    NodePlan& plan = plans_[position];
    for (int slot : plan.inputs) {
      if (slot >= 0) plan.read_slots.push_back(slot);
    }
    plan.read_slots.insert(plan.read_slots.end(), plan.implicit_inputs.begin(),
                           plan.implicit_inputs.end());
    std::sort(plan.read_slots.begin(), plan.read_slots.end());
    plan.read_slots.erase(std::unique(plan.read_slots.begin(), plan.read_slots.end()),
                          plan.read_slots.end());
    std::vector<size_t> producers;
    for (int slot : plan.read_slots) {
      ++reader_counts_[slot];
      if (producer[slot] >= 0) producers.push_back(static_cast<size_t>(producer[slot]));
    }
    std::sort(producers.begin(), producers.end());
    producers.erase(std::unique(producers.begin(), producers.end()), producers.end());
    plan.producer_count = static_cast<int>(producers.size());
    for (size_t from : producers) plans_[from].consumers.push_back(position);
  }
}

namespace {

// Shared by the inter-op tasks of one run.
struct ParallelRun {
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<size_t> ready;
  std::vector<int> waiting_for;  // producers not yet finished, by node
  size_t remaining = 0;
  Status error;
  std::unique_ptr<std::atomic<int>[]> readers_left;  // by slot
};

}  // namespace

Status SessionState::RunParallel(const RunContext& run, std::vector<const Value*>& slots,
                                 std::vector<Value>& values) const {
  ParallelRun state;
  state.remaining = plans_.size();
  state.readers_left = std::make_unique<std::atomic<int>[]>(slot_count_);
  for (int slot = 0; slot < slot_count_; ++slot) state.readers_left[slot] = reader_counts_[slot];
  for (size_t position = 0; position < plans_.size(); ++position) {
    state.waiting_for.push_back(plans_[position].producer_count);
    if (plans_[position].producer_count == 0) state.ready.push_back(position);
  }

  auto release = [&](int slot) {
    if (kept_[slot]) return;
    values[slot] = Value();
    slots[slot] = nullptr;
  };
  // Each task takes ready nodes until every node ran or one failed; a task with nothing ready
  // waits for a running node to finish, so no task waits without one running.
  auto work = [&](int64_t) {
    std::unique_lock lock(state.mutex);
    for (;;) {
      state.changed.wait(
          lock, [&] { return !state.ready.empty() || state.remaining == 0 || !state.error.ok(); });
      if (state.remaining == 0 || !state.error.ok()) return;
      const size_t position = state.ready.front();
      state.ready.pop_front();
      lock.unlock();

      const NodePlan& plan = plans_[position];
      Status status = run.Terminated() ? ORT_ERROR(kRuntimeError, "the run was terminated")
                                       : ExecuteNode(plan, run, slots, values, nullptr);
      if (status.ok()) {
        for (int slot : plan.read_slots) {
          if (state.readers_left[slot].fetch_sub(1, std::memory_order_acq_rel) == 1) release(slot);
        }
        for (int slot : plan.outputs) {
          if (reader_counts_[slot] == 0) release(slot);
        }
      }

      lock.lock();
      --state.remaining;
      if (!status.ok()) {
        if (state.error.ok()) state.error = std::move(status);
      } else {
        for (size_t consumer : plan.consumers) {
          if (--state.waiting_for[consumer] == 0) state.ready.push_back(consumer);
        }
      }
      state.changed.notify_all();
    }
  };
  ThreadPool& pool = *run.inter_op_pool;
  pool.RunTasks(pool.DegreeOfParallelism(), work);
  return state.error;
}

}  // namespace ort
