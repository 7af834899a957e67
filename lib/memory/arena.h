// Best-fit-with-coalescing (BFC) arena over a device allocator. Device allocations (cudaMalloc,
// large aligned mallocs) are slow and may synchronise the device, so the arena reserves large
// regions from the backing allocator and carves tensors out of them, reusing freed space run after
// run. The design follows the BFC arena of TensorFlow and ONNX Runtime: size-class bins of free
// chunks, best-fit search, splitting of oversized chunks and merging of free neighbours.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <utility>

#include "lib/common/status.h"
#include "lib/memory/allocator.h"

namespace ort {

/// How the arena sizes a new region when no free chunk fits a request.
enum class ArenaExtendStrategy {
  /// Each region is twice the previous one (the first is `initial_chunk_bytes`), doubled further
  /// until it holds the request, capped by `max_power_of_two_extend_bytes`. Few reservations,
  /// some memory held in reserve.
  kNextPowerOfTwo,
  /// Each region is exactly the rounded request: the least memory, a reservation per miss.
  kSameAsRequested,
};

/// Arena configuration. Sizes are rounded up to ArenaAllocator::kMinChunkBytes.
struct ArenaOptions {
  ArenaExtendStrategy extend_strategy = ArenaExtendStrategy::kNextPowerOfTwo;
  /// Size of the first region, and of the first one after a Shrink that released a region
  /// (kNextPowerOfTwo only).
  size_t initial_chunk_bytes = size_t{1} << 20;
  /// Upper bound on the bytes reserved from the backing allocator; 0 or SIZE_MAX means
  /// unlimited. An Alloc that would need more returns nullptr.
  size_t max_bytes = 0;
  /// A free chunk larger than a request is split unless the remainder is smaller than the request
  /// and at most this many bytes; the unsplit remainder is padding that stays with the tensor.
  size_t max_dead_bytes_per_chunk = size_t{128} << 20;
  /// Doubling stops at this region size (kNextPowerOfTwo); a larger request still gets a region
  /// of its own size.
  size_t max_power_of_two_extend_bytes = size_t{1} << 30;

  /// OK when every size is non-zero; the arena clamps bad values itself, so this is for
  /// reporting user-supplied configurations.
  Status Validate() const;
};

/// A thread-safe BFC arena. Every pointer it returns is aligned to kAlignment (given a backing
/// allocator that honours kAlignment) and stays valid until Free or the arena's destruction;
/// memory returns to the backing allocator only through Shrink or the destructor.
class ArenaAllocator final : public IAllocator {
 public:
  /// Granularity of chunks: every request is rounded up to a multiple of it, which also keeps
  /// every chunk start aligned to kAlignment and bounds the number of tiny fragments.
  static constexpr size_t kMinChunkBytes = 256;
  /// Bins hold free chunks of [kMinChunkBytes << i, kMinChunkBytes << (i + 1)); the last bin
  /// holds everything larger (256 MiB and up).
  static constexpr int kNumBins = 21;

  /// Counters of the arena's life, read with GetStats.
  struct Stats {
    /// Bytes of the chunks now handed out, including rounding and unsplit padding.
    size_t bytes_in_use = 0;
    /// Highest bytes_in_use since construction or the last ResetPeak.
    size_t peak_bytes_in_use = 0;
    /// Bytes now held from the backing allocator.
    size_t total_reserved_bytes = 0;
    /// Largest single request, in bytes as asked.
    size_t largest_alloc = 0;
    /// Regions now held from the backing allocator.
    size_t num_regions = 0;
    /// Successful Alloc calls.
    uint64_t num_allocs = 0;
    /// Alloc calls that returned nullptr (max_bytes reached or backing allocator out of memory).
    uint64_t num_failed_allocs = 0;
    /// Regions ever obtained from the backing allocator.
    uint64_t num_reserves = 0;
    /// Regions ever given back to the backing allocator before destruction.
    uint64_t num_releases = 0;
  };

  /// `backing` must not be null; the arena shares its ownership. Out-of-range options are
  /// clamped (see ArenaOptions::Validate).
  explicit ArenaAllocator(std::shared_ptr<IAllocator> backing, ArenaOptions options = {});
  /// Returns every region to the backing allocator; pointers still in use dangle afterwards.
  ~ArenaAllocator() override;
  ArenaAllocator(const ArenaAllocator&) = delete;
  ArenaAllocator& operator=(const ArenaAllocator&) = delete;

  /// A kAlignment-aligned block of at least `bytes` bytes, from a free chunk when one fits or
  /// else from a new region; nullptr when max_bytes or the backing allocator refuses. Alloc(0)
  /// returns a unique pointer that occupies kMinChunkBytes.
  void* Alloc(size_t bytes) override;
  /// Returns a block from Alloc to the arena (not to the backing allocator). nullptr, pointers
  /// from elsewhere and double frees are ignored with a warning and change nothing.
  void Free(void* pointer) override;
  /// The backing allocator's memory info.
  const MemoryInfo& Info() const override { return info_; }

  /// Gives every entirely free region back to the backing allocator, keeps regions with a chunk
  /// in use (their free chunks' pages go back to the system), and restarts region growth at
  /// initial_chunk_bytes when anything was released. Returns the bytes released.
  size_t Shrink();

  /// A consistent snapshot of the counters.
  Stats GetStats() const;
  /// Sets peak_bytes_in_use to the current bytes_in_use (e.g. at the start of a run).
  void ResetPeak();

  /// The options in effect: clamped, with an unlimited max_bytes as SIZE_MAX.
  const ArenaOptions& options() const { return options_; }

 private:
  struct Chunk {
    size_t size = 0;
    char* region = nullptr;  // base of the owning region; neighbours merge only within one
    bool in_use = false;
  };
  using ChunkMap = std::map<char*, Chunk>;
  // Ordered by (size, address) so lower_bound finds the smallest fitting chunk, and among equal
  // sizes the lowest address, which keeps reuse deterministic.
  using Bin = std::set<std::pair<size_t, uintptr_t>>;

  static int BinIndex(size_t size);
  void InsertFree(ChunkMap::iterator chunk);
  void EraseFree(ChunkMap::iterator chunk);
  // Takes the best free chunk for `rounded` bytes out of the bins, splitting it when worthwhile;
  // chunks_.end() when none fits.
  ChunkMap::iterator TakeChunk(size_t rounded);
  // Reserves a region able to hold `rounded` bytes and files it as one free chunk.
  bool Extend(size_t rounded);
  // The region, or failing that the bare request; nullptr when even that is refused.
  char* ReserveFromBacking(size_t region_bytes, size_t rounded, size_t* reserved);
  // Shrink without the lock.
  size_t ReleaseFreeRegions();
  // Returns the pages of free chunks of at least kDropPagesMinBytes to the system.
  void DropFreePages();
  static constexpr size_t kDropPagesMinBytes = size_t{1} << 20;

  const std::shared_ptr<IAllocator> backing_;
  const ArenaOptions options_;
  const MemoryInfo info_;

  mutable std::mutex mutex_;
  ChunkMap chunks_;                  // every chunk of every region, by start address
  std::map<char*, size_t> regions_;  // region base -> bytes
  std::array<Bin, kNumBins> bins_;
  size_t next_region_bytes_;
  Stats stats_;
};

}  // namespace ort
