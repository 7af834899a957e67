#include <catch2/catch.hpp>

#if defined(__linux__)
#include <sched.h>
#endif

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "lib/threading/thread_pool.h"

namespace ort {

TEST_CASE("ParallelFor covers every index exactly once", "[threading]") {
  ThreadPool pool("test", 3, true);
  for (int64_t total : {1, 7, 1000, 100000}) {
    std::vector<std::atomic<int>> hits(total);
    pool.ParallelFor(total, 1000.0, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) hits[i].fetch_add(1);
    });
    for (int64_t i = 0; i < total; ++i) REQUIRE(hits[i].load() == 1);
  }
}

TEST_CASE("A thread claims its own share from the front, then steals from the back",
          "[threading]") {
  ThreadPool pool("shares", 2, true);
  // Keep the pool's only worker inside another caller's parallel-for, so this thread runs the
  // next one alone and its claims come in a fixed order.
  std::atomic<int> blocked{0};
  std::atomic<bool> release{false};
  std::thread other([&] {
    pool.ParallelFor(2, 1e6, [&](int64_t, int64_t) {
      blocked.fetch_add(1);
      while (!release.load()) std::this_thread::yield();
    });
  });
  while (blocked.load() < 2) std::this_thread::yield();
  std::vector<std::pair<int64_t, int64_t>> ranges;
  pool.ParallelFor(1000, 1000.0,
                   [&](int64_t begin, int64_t end) { ranges.emplace_back(begin, end); });
  release = true;
  other.join();
  // Own share [0, 500) from the front, a quarter of what is left each time down to the grain
  // (10 units of 1000 cycles), then the worker's share [500, 1000) half at a time from the back.
  REQUIRE(ranges.size() > 4);
  CHECK(ranges[0] == std::make_pair<int64_t, int64_t>(0, 125));
  CHECK(ranges[1] == std::make_pair<int64_t, int64_t>(125, 218));
  size_t i = 1;
  for (; i < ranges.size() && ranges[i].first == ranges[i - 1].second; ++i) {
    CHECK(ranges[i].second - ranges[i].first <= ranges[i - 1].second - ranges[i - 1].first);
  }
  REQUIRE(i < ranges.size());
  CHECK(ranges[i - 1].second == 500);
  CHECK(ranges[i - 1].second - ranges[i - 1].first <= 10);
  CHECK(ranges[i] == std::make_pair<int64_t, int64_t>(750, 1000));
  CHECK(ranges.back().first == 500);
  int64_t covered = 0;
  for (const auto& range : ranges) covered += range.second - range.first;
  CHECK(covered == 1000);
}

TEST_CASE("Several threads may share one pool", "[threading]") {
  ThreadPool pool("shared", 2, false);
  std::atomic<int64_t> sum{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c) {
    callers.emplace_back([&] {
      for (int repeat = 0; repeat < 50; ++repeat) {
        pool.ParallelFor(1000, 500.0, [&](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i) sum.fetch_add(i);
        });
      }
    });
  }
  for (auto& caller : callers) caller.join();
  CHECK(sum.load() == 4 * 50 * (999 * 1000 / 2));
}

TEST_CASE("Nested ParallelFor completes", "[threading]") {
  ThreadPool pool("nested", 2, true);
  std::atomic<int> count{0};
  pool.ParallelFor(8, 1e6, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      pool.ParallelFor(100, 1e5, [&](int64_t b, int64_t e) { count.fetch_add(int(e - b)); });
    }
  });
  CHECK(count.load() == 800);
}

TEST_CASE("A null pool runs inline", "[threading]") {
  int64_t covered = 0;
  ThreadPool::TryParallelFor(nullptr, 10, 1.0, [&](int64_t b, int64_t e) { covered += e - b; });
  CHECK(covered == 10);
}

#if defined(__linux__)
namespace {

// The CPUs thread `tid` may run on.
std::vector<int> ThreadCpus(int64_t tid) {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(static_cast<pid_t>(tid), sizeof(set), &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

}  // namespace

TEST_CASE("Pinned workers run only on their CPU", "[threading]") {
  const std::vector<int> allowed = AllowedCpus();
  REQUIRE_FALSE(allowed.empty());
  CHECK(ThreadCpus(CurrentThreadId()) == allowed);
  // Three workers over the allowed CPUs, wrapping.
  ThreadPool pool("pinned", 4, false, allowed);
  const std::vector<int64_t> workers = pool.WorkerThreadIds();
  REQUIRE(workers.size() == 3);
  for (size_t i = 0; i < workers.size(); ++i) {
    CHECK(ThreadCpus(workers[i]) == std::vector<int>{allowed[i % allowed.size()]});
  }
  // The caller is not pinned; an unpinned pool's workers keep the whole mask.
  CHECK(ThreadCpus(CurrentThreadId()) == allowed);
  ThreadPool free_pool("free", 2, false);
  CHECK(ThreadCpus(free_pool.WorkerThreadIds()[0]) == allowed);
}
#endif

}  // namespace ort
