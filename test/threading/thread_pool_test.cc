#include <catch2/catch.hpp>

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

TEST_CASE("ParallelFor hands out ranges that shrink as the work runs out", "[threading]") {
  // A thread slowed down near the end then holds only a small range.
  ThreadPool pool("guided", 2, true);
  const int64_t total = 10000;
  std::mutex mutex;
  std::vector<std::pair<int64_t, int64_t>> ranges;
  pool.ParallelFor(total, 1000.0, [&](int64_t begin, int64_t end) {
    std::lock_guard<std::mutex> lock(mutex);
    ranges.emplace_back(begin, end);
  });
  std::sort(ranges.begin(), ranges.end());
  REQUIRE(ranges.size() > 4);
  CHECK(ranges.front().first == 0);
  CHECK(ranges.back().second == total);
  for (size_t i = 1; i < ranges.size(); ++i) {
    REQUIRE(ranges[i].first == ranges[i - 1].second);
    CHECK(ranges[i].second - ranges[i].first <= ranges[i - 1].second - ranges[i - 1].first);
  }
  CHECK(ranges.front().second <= total / 4);  // a quarter of the work at most per claim
  CHECK(ranges.back().second - ranges.back().first <= 10);  // the last claims take the grain
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

}  // namespace ort
