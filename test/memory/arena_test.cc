#define CATCH_CONFIG_EXTERNAL_INTERFACES
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "lib/common/logging.h"
#include "lib/memory/arena.h"

namespace ort {
namespace {

// The arena warns about memory still in use at destruction and about foreign frees; these tests
// provoke both on purpose, so their warnings would only bury real test output.
struct QuietArenaWarnings : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testCaseStarting(const Catch::TestCaseInfo& info) override {
    const bool arena_test = info.tagsAsString().find("[arena]") != std::string::npos;
    SetLogSeverity(arena_test ? LogSeverity::kError : LogSeverity::kWarning);
  }
};
CATCH_REGISTER_LISTENER(QuietArenaWarnings)

constexpr size_t kKiB = size_t{1} << 10;
constexpr size_t kMiB = size_t{1} << 20;

// A CPU allocator that records every region the arena reserves and can refuse requests, to
// stand in for a device that runs out of memory.
class CountingAllocator final : public IAllocator {
 public:
  void* Alloc(size_t bytes) override {
    std::lock_guard lock(mutex_);
    if (bytes > max_single_alloc || live_bytes_ + bytes > capacity) return nullptr;
    void* pointer = cpu_.Alloc(bytes);
    if (pointer != nullptr) {
      live_[pointer] = bytes;
      live_bytes_ += bytes;
      reserves_.push_back(bytes);
    }
    return pointer;
  }
  void Free(void* pointer) override {
    std::lock_guard lock(mutex_);
    auto found = live_.find(pointer);
    if (found == live_.end()) return;
    live_bytes_ -= found->second;
    live_.erase(found);
    cpu_.Free(pointer);
  }
  const MemoryInfo& Info() const override { return info_; }

  std::vector<size_t> reserves() const {
    std::lock_guard lock(mutex_);
    return reserves_;
  }
  size_t live_bytes() const {
    std::lock_guard lock(mutex_);
    return live_bytes_;
  }

  size_t max_single_alloc = std::numeric_limits<size_t>::max();
  size_t capacity = std::numeric_limits<size_t>::max();

 private:
  CpuAllocator cpu_;
  MemoryInfo info_;
  mutable std::mutex mutex_;
  std::map<void*, size_t> live_;
  size_t live_bytes_ = 0;
  std::vector<size_t> reserves_;
};

ArenaOptions Options(ArenaExtendStrategy strategy, size_t initial = kMiB) {
  ArenaOptions options;
  options.extend_strategy = strategy;
  options.initial_chunk_bytes = initial;
  return options;
}

char* Bytes(void* pointer) { return static_cast<char*>(pointer); }

}  // namespace

TEST_CASE("kSameAsRequested reserves exactly the rounded request", "[memory][arena]") {
  auto backing = std::make_shared<CountingAllocator>();
  ArenaAllocator arena(backing, Options(ArenaExtendStrategy::kSameAsRequested));
  void* a = arena.Alloc(1000);
  void* b = arena.Alloc(5000);
  void* c = arena.Alloc(3 * kMiB);
  REQUIRE((a && b && c));
  CHECK(backing->reserves() == std::vector<size_t>{1024, 5120, 3 * kMiB});
  CHECK(arena.GetStats().total_reserved_bytes == 1024 + 5120 + 3 * kMiB);
  CHECK(arena.GetStats().num_reserves == 3);

  // 4096 bytes fit the freed 5120-byte chunk; the 1024-byte rest is kept as padding.
  arena.Free(b);
  CHECK(arena.Alloc(4000) == b);
  CHECK(arena.GetStats().num_reserves == 3);
  CHECK(arena.GetStats().bytes_in_use == 1024 + 5120 + 3 * kMiB);
}

TEST_CASE("kNextPowerOfTwo doubles each region", "[memory][arena]") {
  auto backing = std::make_shared<CountingAllocator>();
  SECTION("uncapped") {
    ArenaAllocator arena(backing, Options(ArenaExtendStrategy::kNextPowerOfTwo));
    void* a = arena.Alloc(kMiB);  // region 1 MiB, used whole
    void* b = arena.Alloc(kMiB);  // region 2 MiB, split in halves
    void* c = arena.Alloc(kMiB);  // the second half
    REQUIRE((a && b && c));
    CHECK(Bytes(c) == Bytes(b) + kMiB);
    CHECK(arena.Alloc(5 * kMiB) != nullptr);   // next is 4 MiB, doubled to 8 MiB
    CHECK(arena.Alloc(20 * kMiB) != nullptr);  // next is 16 MiB, doubled to 32 MiB
    CHECK(backing->reserves() == std::vector<size_t>{kMiB, 2 * kMiB, 8 * kMiB, 32 * kMiB});
    CHECK(arena.GetStats().total_reserved_bytes == 43 * kMiB);
  }
  SECTION("capped by max_power_of_two_extend_bytes") {
    ArenaOptions options = Options(ArenaExtendStrategy::kNextPowerOfTwo);
    options.max_power_of_two_extend_bytes = 2 * kMiB;
    ArenaAllocator arena(backing, options);
    for (int i = 0; i < 3; ++i) REQUIRE(arena.Alloc(kMiB) != nullptr);  // regions 1 and 2 MiB
    REQUIRE(arena.Alloc(3 * kMiB) != nullptr);  // beyond the cap: exactly the request
    REQUIRE(arena.Alloc(kMiB) != nullptr);      // growth stays at the cap
    CHECK(backing->reserves() == std::vector<size_t>{kMiB, 2 * kMiB, 3 * kMiB, 2 * kMiB});
  }
}

TEST_CASE("A freed chunk comes back for the same size", "[memory][arena]") {
  auto backing = std::make_shared<CountingAllocator>();
  ArenaAllocator arena(backing, Options(ArenaExtendStrategy::kNextPowerOfTwo));
  void* a = arena.Alloc(1000);
  void* b = arena.Alloc(2000);
  void* c = arena.Alloc(1000);
  REQUIRE((a && b && c));
  arena.Free(a);
  // Best fit picks the 1024-byte hole over the large tail of the region.
  CHECK(arena.Alloc(1000) == a);
  arena.Free(c);
  CHECK(arena.Alloc(900) == c);
  CHECK(arena.GetStats().num_reserves == 1);
}

TEST_CASE("Adjacent free chunks coalesce", "[memory][arena]") {
  auto backing = std::make_shared<CountingAllocator>();
  ArenaAllocator arena(backing, Options(ArenaExtendStrategy::kNextPowerOfTwo));
  // Three quarters of the 1 MiB region, each split off the front of the rest.
  void* a = arena.Alloc(256 * kKiB);
  void* b = arena.Alloc(256 * kKiB);
  void* c = arena.Alloc(256 * kKiB);
  REQUIRE((a && b && c));
  REQUIRE(Bytes(b) == Bytes(a) + 256 * kKiB);
  REQUIRE(Bytes(c) == Bytes(b) + 256 * kKiB);

  SECTION("left then right") {
    arena.Free(a);
    arena.Free(b);
  }
  SECTION("right then left") {
    arena.Free(b);
    arena.Free(a);
  }
  void* ab = arena.Alloc(512 * kKiB);
  CHECK(ab == a);
  arena.Free(c);
  arena.Free(ab);
  CHECK(arena.Alloc(kMiB) == a);  // the whole region is one chunk again
  CHECK(arena.GetStats().num_reserves == 1);
}

TEST_CASE("Every pointer is aligned and distinct", "[memory][arena]") {
  auto backing = std::make_shared<CountingAllocator>();
  ArenaAllocator arena(backing, Options(ArenaExtendStrategy::kNextPowerOfTwo, 4 * kKiB));
  CHECK(arena.Info() == backing->Info());
  std::set<void*> seen;
  for (size_t bytes : {size_t{0}, size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{65},
                       size_t{255}, size_t{257}, size_t{1000}, size_t{4097}, kMiB + 3}) {
    void* pointer = arena.Alloc(bytes);
    REQUIRE(pointer != nullptr);
    CHECK(reinterpret_cast<uintptr_t>(pointer) % IAllocator::kAlignment == 0);
    CHECK(seen.insert(pointer).second);
    std::memset(pointer, 0xAB, bytes);
  }
  for (void* pointer : seen) arena.Free(pointer);
  CHECK(arena.GetStats().bytes_in_use == 0);
}

TEST_CASE("max_bytes bounds the reserved memory", "[memory][arena]") {
  auto backing = std::make_shared<CountingAllocator>();
  SECTION("kSameAsRequested") {
    ArenaOptions options = Options(ArenaExtendStrategy::kSameAsRequested);
    options.max_bytes = kMiB;
    ArenaAllocator arena(backing, options);
    void* a = arena.Alloc(512 * kKiB);
    REQUIRE(a != nullptr);
    REQUIRE(arena.Alloc(512 * kKiB) != nullptr);
    CHECK(arena.Alloc(1) == nullptr);
    CHECK(arena.Alloc(2 * kMiB) == nullptr);
    arena.Free(a);
    CHECK(arena.Alloc(256 * kKiB) == a);  // freed space is still usable at the limit
    CHECK(arena.GetStats().total_reserved_bytes == kMiB);
    CHECK(arena.GetStats().num_failed_allocs == 2);
  }
  SECTION("kNextPowerOfTwo trims the last region to the limit") {
    ArenaOptions options = Options(ArenaExtendStrategy::kNextPowerOfTwo);
    options.max_bytes = kMiB + 512 * kKiB;
    ArenaAllocator arena(backing, options);
    REQUIRE(arena.Alloc(kMiB) != nullptr);
    REQUIRE(arena.Alloc(256 * kKiB) != nullptr);  // wants 2 MiB, gets the 512 KiB left
    CHECK(backing->reserves() == std::vector<size_t>{kMiB, 512 * kKiB});
    CHECK(arena.Alloc(512 * kKiB) == nullptr);
    CHECK(arena.Alloc(std::numeric_limits<size_t>::max()) == nullptr);
    CHECK(arena.GetStats().num_failed_allocs == 2);
  }
}

TEST_CASE("Stats track use, peak and reserve", "[memory][arena]") {
  auto backing = std::make_shared<CountingAllocator>();
  ArenaAllocator arena(backing, Options(ArenaExtendStrategy::kSameAsRequested));
  void* a = arena.Alloc(1000);
  void* b = arena.Alloc(3000);
  auto stats = arena.GetStats();
  CHECK(stats.bytes_in_use == 4096);
  CHECK(stats.peak_bytes_in_use == 4096);
  CHECK(stats.total_reserved_bytes == 4096);
  CHECK(stats.num_allocs == 2);
  CHECK(stats.largest_alloc == 3000);
  CHECK(stats.num_regions == 2);

  arena.Free(b);
  CHECK(arena.GetStats().bytes_in_use == 1024);
  CHECK(arena.GetStats().peak_bytes_in_use == 4096);
  arena.ResetPeak();
  CHECK(arena.GetStats().peak_bytes_in_use == 1024);

  void* c = arena.Alloc(100);  // split off the freed 3072-byte chunk
  CHECK(c == b);
  stats = arena.GetStats();
  CHECK(stats.bytes_in_use == 1024 + 256);
  CHECK(stats.peak_bytes_in_use == 1024 + 256);
  CHECK(stats.total_reserved_bytes == 4096);
  CHECK(stats.num_allocs == 3);
  CHECK(stats.largest_alloc == 3000);
  arena.Free(a);
  arena.Free(c);
  CHECK(arena.GetStats().bytes_in_use == 0);
}

TEST_CASE("Shrink releases free regions and keeps used ones", "[memory][arena]") {
  auto backing = std::make_shared<CountingAllocator>();
  SECTION("whole regions") {
    ArenaAllocator arena(backing, Options(ArenaExtendStrategy::kSameAsRequested));
    void* a = arena.Alloc(kMiB);
    void* b = arena.Alloc(2 * kMiB);
    void* c = arena.Alloc(4 * kMiB);
    arena.Free(b);
    arena.Free(c);
    CHECK(arena.Shrink() == 6 * kMiB);
    CHECK(arena.GetStats().total_reserved_bytes == kMiB);
    CHECK(arena.GetStats().num_regions == 1);
    CHECK(arena.GetStats().num_releases == 2);
    CHECK(backing->live_bytes() == kMiB);
    std::memset(a, 1, kMiB);  // still valid
    CHECK(arena.Shrink() == 0);
    arena.Free(a);
    CHECK(arena.Shrink() == kMiB);
    CHECK(backing->live_bytes() == 0);
  }
  SECTION("a region with one small chunk in use stays") {
    ArenaAllocator arena(backing, Options(ArenaExtendStrategy::kNextPowerOfTwo));
    void* a = arena.Alloc(1000);
    CHECK(arena.Shrink() == 0);
    arena.Free(a);
    CHECK(arena.Shrink() == kMiB);
  }
  SECTION("growth restarts at the initial size") {
    ArenaAllocator arena(backing, Options(ArenaExtendStrategy::kNextPowerOfTwo));
    void* a = arena.Alloc(kMiB);
    void* b = arena.Alloc(kMiB);
    arena.Free(a);
    arena.Free(b);
    CHECK(arena.Shrink() == 3 * kMiB);
    CHECK(arena.Alloc(kMiB) != nullptr);
    CHECK(backing->reserves() == std::vector<size_t>{kMiB, 2 * kMiB, kMiB});
  }
}

TEST_CASE("Runs that shrink afterwards do not grow the reserve", "[memory][arena]") {
  const auto strategy =
      GENERATE(ArenaExtendStrategy::kNextPowerOfTwo, ArenaExtendStrategy::kSameAsRequested);
  auto backing = std::make_shared<CountingAllocator>();
  ArenaAllocator arena(backing, Options(strategy));
  void* weights = arena.Alloc(512 * kKiB);  // lives across runs, like an initializer
  REQUIRE(weights != nullptr);

  // Returns the reserve at the end of the run, which is its highest point.
  auto run = [&](size_t count, size_t bytes) {
    std::vector<void*> buffers;
    for (size_t i = 0; i < count; ++i) buffers.push_back(arena.Alloc(bytes));
    for (void* buffer : buffers) REQUIRE(buffer != nullptr);
    const size_t reserved = arena.GetStats().total_reserved_bytes;
    for (void* buffer : buffers) arena.Free(buffer);
    arena.Shrink();
    CHECK(backing->live_bytes() == arena.GetStats().total_reserved_bytes);
    return reserved;
  };

  // kNextPowerOfTwo: the weights' region is 1 MiB; four 3 MiB buffers take regions of 4 MiB
  // (one buffer), 8 MiB (two) and 16 MiB (one); sixteen 256 KiB buffers take the 512 KiB left
  // beside the weights and regions of 1, 2 and 4 MiB. kSameAsRequested reserves exactly.
  const bool doubling = strategy == ArenaExtendStrategy::kNextPowerOfTwo;
  const size_t kept = doubling ? kMiB : 512 * kKiB;
  const size_t large_reserve = doubling ? kept + 28 * kMiB : kept + 12 * kMiB;
  const size_t small_reserve = doubling ? kept + 7 * kMiB : kept + 4 * kMiB;
  for (int repeat = 0; repeat < 5; ++repeat) {
    CHECK(run(4, 3 * kMiB) == large_reserve);
    CHECK(arena.GetStats().total_reserved_bytes == kept);
    CHECK(run(16, 256 * kKiB) == small_reserve);
    CHECK(arena.GetStats().total_reserved_bytes == kept);
  }
  CHECK(arena.GetStats().bytes_in_use == 512 * kKiB);
  arena.Free(weights);
}

TEST_CASE("Free ignores foreign pointers and double frees", "[memory][arena]") {
  auto backing = std::make_shared<CountingAllocator>();
  ArenaAllocator arena(backing, Options(ArenaExtendStrategy::kNextPowerOfTwo));
  void* a = arena.Alloc(1000);
  REQUIRE(a != nullptr);
  int on_stack = 0;
  arena.Free(&on_stack);
  arena.Free(Bytes(a) + 64);  // inside a chunk but not its start
  arena.Free(nullptr);
  CHECK(arena.GetStats().bytes_in_use == 1024);
  arena.Free(a);
  arena.Free(a);
  CHECK(arena.GetStats().bytes_in_use == 0);
  // Had the double free filed the chunk twice, both of these would get it.
  void* b = arena.Alloc(1000);
  void* c = arena.Alloc(1000);
  CHECK(b != c);
  arena.Free(b);
  arena.Free(c);
}

TEST_CASE("A backing allocator out of memory gets smaller requests", "[memory][arena]") {
  auto backing = std::make_shared<CountingAllocator>();
  SECTION("the exact request when the doubled region is refused") {
    backing->max_single_alloc = 3 * kMiB;
    ArenaAllocator arena(backing, Options(ArenaExtendStrategy::kNextPowerOfTwo, 4 * kMiB));
    CHECK(arena.Alloc(kMiB) != nullptr);  // 4 MiB refused
    CHECK(arena.Alloc(kMiB) != nullptr);  // growth goes on from what was obtained
    CHECK(backing->reserves() == std::vector<size_t>{kMiB, 2 * kMiB});
  }
  SECTION("cached free regions are released first") {
    backing->capacity = 4 * kMiB;
    ArenaAllocator arena(backing, Options(ArenaExtendStrategy::kSameAsRequested));
    void* a = arena.Alloc(2 * kMiB);
    REQUIRE(arena.Alloc(kMiB) != nullptr);
    arena.Free(a);
    CHECK(arena.Alloc(3 * kMiB) != nullptr);
    CHECK(arena.GetStats().total_reserved_bytes == 4 * kMiB);
    CHECK(arena.GetStats().num_releases == 1);
    CHECK(arena.Alloc(kMiB) == nullptr);
  }
}

TEST_CASE("ArenaOptions are validated and clamped", "[memory][arena]") {
  CHECK(ArenaOptions{}.Validate().ok());
  ArenaOptions options;
  options.initial_chunk_bytes = 0;
  CHECK_FALSE(options.Validate().ok());
  options = ArenaOptions{};
  options.max_bytes = 100;
  CHECK_FALSE(options.Validate().ok());

  options = ArenaOptions{};
  options.initial_chunk_bytes = 0;
  options.max_power_of_two_extend_bytes = 1000;
  ArenaAllocator arena(DefaultCpuAllocator(), options);
  CHECK(arena.options().initial_chunk_bytes == ArenaAllocator::kMinChunkBytes);
  CHECK(arena.options().max_power_of_two_extend_bytes == 1024);
  CHECK(arena.options().max_bytes == std::numeric_limits<size_t>::max());
}

TEST_CASE("Threads allocate and free concurrently", "[memory][arena]") {
  auto backing = std::make_shared<CountingAllocator>();
  ArenaAllocator arena(backing, Options(ArenaExtendStrategy::kNextPowerOfTwo, 64 * kKiB));
  constexpr int kThreads = 8;
  constexpr int kSteps = 2000;
  std::atomic<uint64_t> allocs{0};
  std::atomic<int> errors{0};  // Catch2 assertions are not thread-safe
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const auto tag = static_cast<unsigned char>(t + 1);
      uint32_t state = 12345u + static_cast<uint32_t>(t);
      auto next = [&] { return state = state * 1664525u + 1013904223u; };
      std::vector<std::pair<unsigned char*, size_t>> live;
      // A block overwritten by another thread means two live blocks overlapped.
      auto release = [&](size_t index) {
        auto [pointer, bytes] = live[index];
        int damaged = 0;
        for (size_t i = 0; i < bytes; ++i) damaged += pointer[i] != tag;
        errors += damaged;
        arena.Free(pointer);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(index));
      };
      for (int step = 0; step < kSteps; ++step) {
        if (live.empty() || (live.size() < 16 && next() % 3 != 0)) {
          const size_t bytes = (next() >> 8) % (64 * kKiB);
          auto* pointer = static_cast<unsigned char*>(arena.Alloc(bytes));
          if (pointer == nullptr) {
            ++errors;
            continue;
          }
          ++allocs;
          std::memset(pointer, tag, bytes);
          live.emplace_back(pointer, bytes);
        } else {
          release((next() >> 8) % live.size());
        }
      }
      while (!live.empty()) release(live.size() - 1);
    });
  }
  for (auto& thread : threads) thread.join();

  CHECK(errors.load() == 0);
  const auto stats = arena.GetStats();
  CHECK(stats.bytes_in_use == 0);
  CHECK(stats.num_allocs == allocs.load());
  CHECK(stats.num_failed_allocs == 0);
  CHECK(stats.total_reserved_bytes == backing->live_bytes());
  CHECK(arena.Shrink() == stats.total_reserved_bytes);
  CHECK(backing->live_bytes() == 0);
}

}  // namespace ort
