#include "lib/threading/thread_pool.h"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace ort {
namespace {

// Below this many estimated cycles a range runs inline: waking a worker costs more.
constexpr double kMinParallelCycles = 40000.0;
// Each chunk should be worth at least this many cycles so chunk claiming stays cheap.
constexpr double kMinChunkCycles = 10000.0;
// Chunks per thread, so uneven chunk costs still balance.
constexpr int64_t kChunksPerThread = 4;
constexpr int kSpinIterations = 20000;

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

}  // namespace

struct ThreadPool::Job {
  std::function<void(int64_t, int64_t)> fn;
  int64_t total = 0;
  int64_t chunk = 1;
  int64_t chunk_count = 0;
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> finished{0};
};

ThreadPool::ThreadPool(std::string name, int degree_of_parallelism, bool allow_spinning)
    : name_(std::move(name)), allow_spinning_(allow_spinning) {
  const int workers = std::max(0, degree_of_parallelism - 1);
  workers_.reserve(workers);
  for (int i = 0; i < workers; ++i) workers_.emplace_back([this] { WorkerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& worker : workers_) worker.join();
}

bool ThreadPool::RunChunks(Job& job) {
  bool ran = false;
  for (;;) {
    const int64_t index = job.next.fetch_add(1, std::memory_order_relaxed);
    if (index >= job.chunk_count) return ran;
    const int64_t begin = index * job.chunk;
    const int64_t end = std::min(job.total, begin + job.chunk);
    job.fn(begin, end);
    ran = true;
    if (job.finished.fetch_add(1, std::memory_order_acq_rel) + 1 == job.chunk_count) {
      job.finished.notify_all();
    }
  }
}

void ThreadPool::WorkerLoop() {
  for (;;) {
    if (allow_spinning_) {
      for (int i = 0; i < kSpinIterations && pending_jobs_.load(std::memory_order_acquire) == 0;
           ++i) {
        CpuRelax();
      }
    }
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job = jobs_.front();
    }
    RunJob(job);
  }
}

void ThreadPool::RunJob(const std::shared_ptr<Job>& job) {
  RunChunks(*job);
  // Every chunk is claimed: take the job off the queue so idle workers stop looking at it.
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = std::find(jobs_.begin(), jobs_.end(), job);
  if (it != jobs_.end()) {
    jobs_.erase(it);
    pending_jobs_.fetch_sub(1, std::memory_order_release);
  }
}

void ThreadPool::ParallelFor(int64_t total, double cost_per_unit,
                             const std::function<void(int64_t, int64_t)>& fn) {
  if (total <= 0) return;
  const double total_cost = static_cast<double>(total) * std::max(cost_per_unit, 1.0);
  const int64_t threads = DegreeOfParallelism();
  if (threads == 1 || total == 1 || total_cost < kMinParallelCycles) {
    fn(0, total);
    return;
  }
  const auto by_cost = static_cast<int64_t>(total_cost / kMinChunkCycles);
  const int64_t chunk_count = std::clamp<int64_t>(by_cost, threads, threads * kChunksPerThread);
  auto job = std::make_shared<Job>();
  job->fn = fn;
  job->total = total;
  job->chunk = (total + std::min(chunk_count, total) - 1) / std::min(chunk_count, total);
  job->chunk_count = (total + job->chunk - 1) / job->chunk;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(job);
    pending_jobs_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  RunJob(job);
  // Wait for chunks other threads are still running.
  for (int spin = 0; job->finished.load(std::memory_order_acquire) < job->chunk_count; ++spin) {
    if (spin < kSpinIterations) {
      CpuRelax();
    } else {
      const int64_t seen = job->finished.load(std::memory_order_acquire);
      if (seen < job->chunk_count) job->finished.wait(seen, std::memory_order_acquire);
    }
  }
}

void ThreadPool::RunTasks(int64_t count, const std::function<void(int64_t)>& fn) {
  ParallelFor(count, kMinParallelCycles, [&fn](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) fn(i);
  });
}

void ThreadPool::TryParallelFor(ThreadPool* pool, int64_t total, double cost_per_unit,
                                const std::function<void(int64_t, int64_t)>& fn) {
  if (pool == nullptr) {
    if (total > 0) fn(0, total);
    return;
  }
  pool->ParallelFor(total, cost_per_unit, fn);
}

}  // namespace ort
