#include "lib/threading/thread_pool.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <system_error>
#include <utility>

#include "lib/common/logging.h"

#if defined(__linux__)
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace ort {
namespace {

// Below this many estimated cycles a range runs inline: waking a worker costs more.
constexpr double kMinParallelCycles = 40000.0;
// Each claimed range should be worth at least this many cycles so claiming stays cheap.
constexpr double kMinChunkCycles = 10000.0;
// Each thread owns one contiguous share of the units (the same share on every call of the same
// size), so a kernel's thread reads the same weights and writes the same outputs run after run
// and consecutive ops over the same layout find their inputs in the local cache. This matters
// when the host makes moving cache lines between the two vCPUs slow (seen here for minutes at
// a time, ppocr at 2 threads then as slow as at 1): fixed shares ran ppocr and bert 5-8% faster
// there than chunks handed out in turn, and no slower otherwise. An owner claims
// 1 / kOwnerClaimShare of what is left of its share at a time (down to the grain); a thread
// whose share is done steals half of what is left of another's from the back, so a slowed
// thread holds little at the end.
constexpr int64_t kOwnerClaimShare = 4;
// Shares are packed as two 32-bit bounds in one atomic; larger ranges are claimed in blocks.
constexpr int64_t kMaxPackedUnits = int64_t{1} << 31;
// Pause iterations a thread spins before it sleeps (a few tens of microseconds): enough to bridge
// the serial gaps between one operator's parallel loop and the next. Spinning much longer makes
// a waiting worker look CPU-bound to the scheduler (and to a hypervisor's pause-loop detection),
// so when the machine is shared it is descheduled just as work arrives: on this 2-core VM with a
// busy neighbour, 20000 iterations made squeezenet at 2 threads ~1.5x slower than 2000, and
// without one the two are equal.
constexpr int kSpinIterations = 2000;

uint64_t PackRange(int64_t begin, int64_t end) {
  return static_cast<uint64_t>(begin) << 32 | static_cast<uint64_t>(end);
}
int64_t RangeBegin(uint64_t range) { return static_cast<int64_t>(range >> 32); }
int64_t RangeEnd(uint64_t range) { return static_cast<int64_t>(range & 0xffffffffu); }

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// The stats being profiled on this thread; null (the common case) when profiling is off.
thread_local ParallelStats* tls_stats = nullptr;
// Which pool this thread is a worker of, and its worker index: they pick its share of a
// parallel-for and its profiling stats slot.
thread_local const ThreadPool* tls_pool = nullptr;
thread_local int tls_worker = -1;

}  // namespace

std::vector<int> AllowedCpus() {
  std::vector<int> cpus;
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
    }
  }
#endif
  return cpus;
}

bool PinCurrentThread(int cpu) {
#if defined(__linux__)
  if (cpu < 0 || cpu >= CPU_SETSIZE) return false;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof(set), &set) == 0;
#else
  (void)cpu;
  return false;
#endif
}

int64_t CurrentThreadId() {
  thread_local const int64_t id = [] {
#if defined(__linux__)
    return static_cast<int64_t>(::syscall(SYS_gettid));
#else
    return static_cast<int64_t>(std::hash<std::thread::id>()(std::this_thread::get_id()));
#endif
  }();
  return id;
}

ParallelStats::ParallelStats(int thread_slots)
    : thread_slots_(std::max(thread_slots, 1)),
      chunks_(std::make_unique<std::atomic<int64_t>[]>(static_cast<size_t>(thread_slots_))) {}

int64_t ParallelStats::total_chunks() const {
  int64_t total = 0;
  for (int slot = 0; slot < thread_slots_; ++slot) total += chunks(slot);
  return total;
}

void ParallelStats::RecordChunk(int slot) {
  // A pool larger than the stats were sized for (another pool reached from the node) still
  // counts its chunks, on the caller's slot.
  if (slot >= thread_slots_) slot = 0;
  chunks_[slot].fetch_add(1, std::memory_order_relaxed);
}

ScopedParallelStats::ScopedParallelStats(ParallelStats* stats) : previous_(tls_stats) {
  tls_stats = stats;
}

ScopedParallelStats::~ScopedParallelStats() { tls_stats = previous_; }

struct ThreadPool::Job {
  std::function<void(int64_t, int64_t)> fn;
  ParallelStats* stats = nullptr;  // the submitting thread's stats, for the workers to fill
  int64_t total = 0;
  int64_t block = 1;  // indices per unit (1 unless total exceeds kMaxPackedUnits)
  int64_t units = 0;  // ceil(total / block)
  int64_t grain = 1;  // fewest units a claim takes
  int shares = 1;     // one per thread slot
  std::unique_ptr<std::atomic<uint64_t>[]> ranges;  // unclaimed [begin, end) of each share
  std::atomic<int64_t> finished{0};                 // units done
};

ThreadPool::ThreadPool(std::string name, int degree_of_parallelism, bool allow_spinning,
                       std::vector<int> worker_cpus)
    : name_(std::move(name)),
      allow_spinning_(allow_spinning),
      worker_cpus_(std::move(worker_cpus)) {
  const int workers = std::max(0, degree_of_parallelism - 1);
  worker_tids_ = std::make_unique<std::atomic<int64_t>[]>(static_cast<size_t>(workers));
  workers_.reserve(workers);
  try {
    for (int i = 0; i < workers; ++i) workers_.emplace_back([this, i] { WorkerLoop(i); });
  } catch (const std::system_error&) {
    // Out of threads: the started workers stop and are joined, so the pool unwinds cleanly.
    StopWorkers();
    throw;
  }
  // Wait until every worker has published its id, so profiles can always name all of them.
  for (int i = 0; i < workers; ++i) worker_tids_[i].wait(0, std::memory_order_acquire);
}

std::vector<int64_t> ThreadPool::WorkerThreadIds() const {
  std::vector<int64_t> ids(workers_.size());
  for (size_t i = 0; i < ids.size(); ++i) ids[i] = worker_tids_[i].load(std::memory_order_acquire);
  return ids;
}

int ThreadPool::CurrentSlot() const { return tls_pool == this ? tls_worker + 1 : 0; }

ThreadPool::~ThreadPool() { StopWorkers(); }

void ThreadPool::StopWorkers() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& worker : workers_) worker.join();
  workers_.clear();
}

void ThreadPool::RunChunks(Job& job) {
  ParallelStats* const stats = job.stats;
  const int slot = CurrentSlot();
  ParallelStats* previous = nullptr;
  // Parallel-fors nested inside a chunk count towards the same node.
  if (stats != nullptr) previous = std::exchange(tls_stats, stats);
  const int own = slot % job.shares;
  auto run = [&](int64_t begin, int64_t end) {
    job.fn(begin * job.block, std::min(job.total, end * job.block));
    // Recorded before `finished` is released, so the caller sees every count once it joins.
    if (stats != nullptr) stats->RecordChunk(slot);
    if (job.finished.fetch_add(end - begin, std::memory_order_acq_rel) + (end - begin) ==
        job.units) {
      job.finished.notify_all();
    }
  };
  // The own share from the front, in shrinking pieces.
  std::atomic<uint64_t>& mine = job.ranges[own];
  for (uint64_t range = mine.load(std::memory_order_relaxed);
       RangeBegin(range) < RangeEnd(range);) {
    const int64_t begin = RangeBegin(range), end = RangeEnd(range);
    const int64_t size =
        std::min(end - begin, std::max(job.grain, (end - begin) / kOwnerClaimShare));
    if (mine.compare_exchange_weak(range, PackRange(begin + size, end),
                                   std::memory_order_relaxed)) {
      run(begin, begin + size);
      range = mine.load(std::memory_order_relaxed);
    }
  }
  // Then other shares from the back, until every share is claimed.
  for (bool found = true; found;) {
    found = false;
    for (int i = 1; i < job.shares; ++i) {
      std::atomic<uint64_t>& victim = job.ranges[(own + i) % job.shares];
      uint64_t range = victim.load(std::memory_order_relaxed);
      while (RangeBegin(range) < RangeEnd(range)) {
        const int64_t begin = RangeBegin(range), end = RangeEnd(range);
        const int64_t size = std::min(end - begin, std::max(job.grain, (end - begin) / 2));
        if (victim.compare_exchange_weak(range, PackRange(begin, end - size),
                                         std::memory_order_relaxed)) {
          run(end - size, end);
          found = true;
          break;
        }
      }
    }
  }
  if (stats != nullptr) tls_stats = previous;
}

void ThreadPool::WorkerLoop(int worker) {
  tls_pool = this;
  tls_worker = worker;
  if (!worker_cpus_.empty()) {
    const int cpu = worker_cpus_[static_cast<size_t>(worker) % worker_cpus_.size()];
    if (!PinCurrentThread(cpu)) {
      ORT_LOG_WARNING("{} pool: could not pin worker {} to CPU {}", name_, worker, cpu);
    }
  }
  worker_tids_[worker].store(CurrentThreadId(), std::memory_order_release);
  worker_tids_[worker].notify_all();
  for (;;) {
    if (allow_spinning_) {
      for (int i = 0; pending_jobs_.load(std::memory_order_acquire) == 0;) {
        if (i < kSpinIterations) {
          ++i;
        } else if (active_scopes_.load(std::memory_order_relaxed) == 0) {
          break;
        }
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
  ParallelStats* const stats = tls_stats;
  if (threads == 1 || total == 1 || total_cost < kMinParallelCycles) {
    if (stats != nullptr) {
      stats->inline_calls_.fetch_add(1, std::memory_order_relaxed);
      stats->RecordChunk(CurrentSlot());
    }
    fn(0, total);
    return;
  }
  auto job = std::make_shared<Job>();
  job->fn = fn;
  job->stats = stats;
  if (stats != nullptr) stats->parallel_calls_.fetch_add(1, std::memory_order_relaxed);
  job->total = total;
  job->block = (total + kMaxPackedUnits - 1) / kMaxPackedUnits;
  job->units = (total + job->block - 1) / job->block;
  const double cost_per_block = std::max(cost_per_unit, 1.0) * static_cast<double>(job->block);
  job->grain = std::clamp<int64_t>(static_cast<int64_t>(kMinChunkCycles / cost_per_block), 1,
                                   (job->units + threads - 1) / threads);
  job->shares = static_cast<int>(threads);
  job->ranges = std::make_unique<std::atomic<uint64_t>[]>(static_cast<size_t>(threads));
  for (int64_t share = 0; share < threads; ++share) {
    job->ranges[share].store(
        PackRange(share * job->units / threads, (share + 1) * job->units / threads),
        std::memory_order_relaxed);
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(job);
    pending_jobs_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  RunJob(job);
  // Wait for chunks other threads are still running.
  for (int spin = 0; job->finished.load(std::memory_order_acquire) < job->units; ++spin) {
    if (spin < kSpinIterations) {
      CpuRelax();
    } else {
      const int64_t seen = job->finished.load(std::memory_order_acquire);
      if (seen < job->units) job->finished.wait(seen, std::memory_order_acquire);
    }
  }
}

void ThreadPool::RunTasks(int64_t count, const std::function<void(int64_t)>& fn) {
  ParallelFor(count, kMinParallelCycles, [&fn](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) fn(i);
  });
}

ThreadPool::ActiveScope::ActiveScope(ThreadPool* pool) : pool_(pool) {
  if (pool_ != nullptr) pool_->active_scopes_.fetch_add(1, std::memory_order_relaxed);
}

ThreadPool::ActiveScope::~ActiveScope() {
  if (pool_ != nullptr) pool_->active_scopes_.fetch_sub(1, std::memory_order_relaxed);
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
