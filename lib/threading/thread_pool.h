// Intra-op (and inter-op) thread pool: a fixed set of workers plus the calling thread, with a
// parallel-for that splits a range into chunks sized by cost. Several threads may call
// ParallelFor on one pool at once (concurrent Run calls on one session share its pool).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ort {

class ThreadPool {
 public:
  /// `degree_of_parallelism` counts the calling thread: 1 means no worker threads.
  /// `allow_spinning` keeps idle workers busy-waiting briefly for new work (lower latency,
  /// more CPU); without it they sleep at once.
  ThreadPool(std::string name, int degree_of_parallelism, bool allow_spinning);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  const std::string& name() const { return name_; }
  /// Worker threads plus the caller.
  int DegreeOfParallelism() const { return static_cast<int>(workers_.size()) + 1; }
  bool allow_spinning() const { return allow_spinning_; }

  /// Calls fn(begin, end) over disjoint chunks covering [0, total) and returns when all are
  /// done. `cost_per_unit` is the estimated cycles of one unit; cheap ranges run inline.
  void ParallelFor(int64_t total, double cost_per_unit,
                   const std::function<void(int64_t begin, int64_t end)>& fn);

  /// Calls fn(i) for i in [0, count), each as its own task.
  void RunTasks(int64_t count, const std::function<void(int64_t index)>& fn);

  /// ParallelFor on `pool`, or inline when `pool` is null.
  static void TryParallelFor(ThreadPool* pool, int64_t total, double cost_per_unit,
                             const std::function<void(int64_t, int64_t)>& fn);

 private:
  struct Job;
  void WorkerLoop();
  void RunJob(const std::shared_ptr<Job>& job);
  static bool RunChunks(Job& job);

  std::string name_;
  bool allow_spinning_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Job>> jobs_;
  std::atomic<int> pending_jobs_{0};
  bool stopping_ = false;
};

}  // namespace ort
