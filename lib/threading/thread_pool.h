// Intra-op (and inter-op) thread pool: a fixed set of workers plus the calling thread, with a
// parallel-for that gives each thread a fixed share of the range and balances the ends by
// stealing (ranges a thread claims are its "chunks"). Several threads may call
// ParallelFor on one pool at once (concurrent Run calls on one session share its pool).
// While a ParallelStats is installed on the calling thread (profiling), the pool counts the
// parallel-for calls and chunks and which of its threads ran them.
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

/// The OS id of the calling thread (the Linux tid that `top -H` and profilers show).
int64_t CurrentThreadId();

/// The CPUs this process may run on (its affinity mask), in order; empty where not reported.
std::vector<int> AllowedCpus();

/// Restricts the calling thread to `cpu`; false where that fails or is not supported.
bool PinCurrentThread(int cpu);

/// Scheduling counts of one profiled region (one node's Compute) on one pool. Pools record into
/// it only while ScopedParallelStats installs it, from whichever thread runs the chunks, so the
/// counters are atomic. Slot 0 is the thread that called ParallelFor; slot i + 1 is worker i.
class ParallelStats {
 public:
  /// `thread_slots`: the pool's degree of parallelism (workers plus the caller).
  explicit ParallelStats(int thread_slots);

  int thread_slots() const { return thread_slots_; }
  /// Parallel-for calls that were split into chunks for the workers.
  int64_t parallel_calls() const { return parallel_calls_.load(std::memory_order_relaxed); }
  /// Parallel-for calls that ran inline as one chunk (too cheap to split, or no workers).
  int64_t inline_calls() const { return inline_calls_.load(std::memory_order_relaxed); }
  /// Chunks run by the thread in `slot`.
  int64_t chunks(int slot) const { return chunks_[slot].load(std::memory_order_relaxed); }
  int64_t total_chunks() const;

 private:
  friend class ThreadPool;
  void RecordChunk(int slot);

  int thread_slots_;
  std::atomic<int64_t> parallel_calls_{0};
  std::atomic<int64_t> inline_calls_{0};
  std::unique_ptr<std::atomic<int64_t>[]> chunks_;
};

/// Installs `stats` as the calling thread's parallel stats for the scope's lifetime (restoring
/// the previous one after). Pools reached from this thread, and chunks they hand to workers,
/// record into it.
class ScopedParallelStats {
 public:
  explicit ScopedParallelStats(ParallelStats* stats);
  ~ScopedParallelStats();
  ScopedParallelStats(const ScopedParallelStats&) = delete;
  ScopedParallelStats& operator=(const ScopedParallelStats&) = delete;

 private:
  ParallelStats* previous_;
};

class ThreadPool {
 public:
  /// `degree_of_parallelism` counts the calling thread: 1 means no worker threads.
  /// `allow_spinning` keeps idle workers busy-waiting briefly for new work (lower latency,
  /// more CPU); without it they sleep at once. With `worker_cpus`, worker i runs only on CPU
  /// worker_cpus[i % size] (a failure to pin leaves it free, with a warning).
  ThreadPool(std::string name, int degree_of_parallelism, bool allow_spinning,
             std::vector<int> worker_cpus = {});
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  const std::string& name() const { return name_; }
  /// Worker threads plus the caller.
  int DegreeOfParallelism() const { return static_cast<int>(workers_.size()) + 1; }
  bool allow_spinning() const { return allow_spinning_; }
  /// The CPUs the workers are pinned to (empty: not pinned).
  const std::vector<int>& worker_cpus() const { return worker_cpus_; }
  /// OS thread ids of the workers, in worker order; 0 for a worker that has not started yet.
  std::vector<int64_t> WorkerThreadIds() const;

  /// Calls fn(begin, end) over disjoint chunks covering [0, total) and returns when all are
  /// done. `cost_per_unit` is the estimated cycles of one unit; cheap ranges run inline.
  void ParallelFor(int64_t total, double cost_per_unit,
                   const std::function<void(int64_t begin, int64_t end)>& fn);

  /// Calls fn(i) for i in [0, count), each as its own task.
  void RunTasks(int64_t count, const std::function<void(int64_t index)>& fn);

  /// ParallelFor on `pool`, or inline when `pool` is null.
  static void TryParallelFor(ThreadPool* pool, int64_t total, double cost_per_unit,
                             const std::function<void(int64_t, int64_t)>& fn);

  /// While one is alive (a session's Run), idle workers of a spinning pool keep spinning between
  /// parallel loops instead of going to sleep after a few tens of microseconds: a small model's
  /// operators are that far apart, and waking a sleeping worker cost each of its parallel
  /// operators more than the split saved (silero VAD at 2 threads 30% slower than at 1). Out of
  /// runs they sleep as before. Scopes nest and may come from several threads; `pool` may be null.
  class ActiveScope {
   public:
    explicit ActiveScope(ThreadPool* pool);
    ~ActiveScope();
    ActiveScope(const ActiveScope&) = delete;
    ActiveScope& operator=(const ActiveScope&) = delete;

   private:
    ThreadPool* pool_;
  };

 private:
  struct Job;
  void WorkerLoop(int worker);
  /// Wakes every worker to exit and joins them.
  void StopWorkers();
  void RunJob(const std::shared_ptr<Job>& job);
  void RunChunks(Job& job);
  /// The slot of the calling thread (its share and stats slot): worker i is i + 1, any other
  /// thread 0.
  int CurrentSlot() const;

  std::string name_;
  bool allow_spinning_;
  std::vector<int> worker_cpus_;
  std::vector<std::thread> workers_;
  std::unique_ptr<std::atomic<int64_t>[]> worker_tids_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Job>> jobs_;
  std::atomic<int> pending_jobs_{0};
  std::atomic<int> active_scopes_{0};
  bool stopping_ = false;
};

}  // namespace ort
