#include "lib/memory/arena.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <limits>

#include "lib/common/logging.h"

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace ort {
namespace {

constexpr size_t kMaxSize = std::numeric_limits<size_t>::max();
constexpr size_t kChunk = ArenaAllocator::kMinChunkBytes;

// `bytes` must be at most kMaxSize - kChunk.
size_t RoundUpToChunk(size_t bytes) { return (bytes + kChunk - 1) / kChunk * kChunk; }

// Clamping to kMaxSize / 2 first keeps the rounding and the first doubling from overflowing.
size_t NormalizeSize(size_t bytes) {
  return RoundUpToChunk(std::clamp(bytes, kChunk, kMaxSize / 2));
}

ArenaOptions Normalize(ArenaOptions options) {
  options.initial_chunk_bytes = NormalizeSize(options.initial_chunk_bytes);
  options.max_power_of_two_extend_bytes = NormalizeSize(options.max_power_of_two_extend_bytes);
  options.max_bytes = options.max_bytes == 0 ? kMaxSize : options.max_bytes / kChunk * kChunk;
  return options;
}

uintptr_t Address(const char* pointer) { return reinterpret_cast<uintptr_t>(pointer); }

}  // namespace

Status ArenaOptions::Validate() const {
  ORT_RETURN_IF_NOT(initial_chunk_bytes > 0, "arena initial_chunk_bytes must be positive");
  ORT_RETURN_IF_NOT(max_power_of_two_extend_bytes > 0,
                    "arena max_power_of_two_extend_bytes must be positive");
  ORT_RETURN_IF_NOT(max_bytes == 0 || max_bytes >= kChunk,
                    "arena max_bytes {} is below one chunk of {} bytes", max_bytes, kChunk);
  return Status::OK();
}

ArenaAllocator::ArenaAllocator(std::shared_ptr<IAllocator> backing, ArenaOptions options)
    : backing_(std::move(backing)),
      options_(Normalize(options)),
      info_(backing_->Info()),
      next_region_bytes_(options_.initial_chunk_bytes) {}

ArenaAllocator::~ArenaAllocator() {
  if (stats_.bytes_in_use > 0) {
    ORT_LOG_WARNING("arena on {} destroyed with {} bytes still in use", info_.ToString(),
                    stats_.bytes_in_use);
  }
  for (const auto& [base, bytes] : regions_) backing_->Free(base);
}

int ArenaAllocator::BinIndex(size_t size) {
  const int index = static_cast<int>(std::bit_width(size / kMinChunkBytes)) - 1;
  return std::clamp(index, 0, kNumBins - 1);
}

void ArenaAllocator::InsertFree(ChunkMap::iterator chunk) {
  bins_[BinIndex(chunk->second.size)].emplace(chunk->second.size, Address(chunk->first));
}

void ArenaAllocator::EraseFree(ChunkMap::iterator chunk) {
  bins_[BinIndex(chunk->second.size)].erase({chunk->second.size, Address(chunk->first)});
}

void* ArenaAllocator::Alloc(size_t bytes) {
  std::lock_guard lock(mutex_);
  if (bytes > kMaxSize - kMinChunkBytes) {
    ++stats_.num_failed_allocs;
    return nullptr;
  }
  // A zero-byte request still takes a chunk so that its pointer is unique and Free-able.
  const size_t rounded = RoundUpToChunk(std::max<size_t>(bytes, 1));
  auto chunk = TakeChunk(rounded);
  if (chunk == chunks_.end() && Extend(rounded)) chunk = TakeChunk(rounded);
  if (chunk == chunks_.end()) {
    ++stats_.num_failed_allocs;
    return nullptr;
  }
  stats_.bytes_in_use += chunk->second.size;
  stats_.peak_bytes_in_use = std::max(stats_.peak_bytes_in_use, stats_.bytes_in_use);
  stats_.largest_alloc = std::max(stats_.largest_alloc, bytes);
  ++stats_.num_allocs;
  return chunk->first;
}

ArenaAllocator::ChunkMap::iterator ArenaAllocator::TakeChunk(size_t rounded) {
  // Every chunk in a higher bin is larger than any in this one, so the first hit is the best fit.
  for (int bin = BinIndex(rounded); bin < kNumBins; ++bin) {
    auto candidate = bins_[bin].lower_bound({rounded, 0});
    if (candidate == bins_[bin].end()) continue;
    auto chunk = chunks_.find(reinterpret_cast<char*>(candidate->second));
    assert(chunk != chunks_.end() && !chunk->second.in_use);
    bins_[bin].erase(candidate);
    // Splitting a chunk barely larger than the request would leave a sliver that fits little;
    // keeping it as padding costs at most max_dead_bytes_per_chunk.
    const size_t remainder = chunk->second.size - rounded;
    if (remainder > 0 && (remainder >= rounded || remainder > options_.max_dead_bytes_per_chunk)) {
      chunk->second.size = rounded;
      auto tail = chunks_.emplace_hint(std::next(chunk), chunk->first + rounded,
                                       Chunk{remainder, chunk->second.region, false});
      InsertFree(tail);
    }
    chunk->second.in_use = true;
    return chunk;
  }
  return chunks_.end();
}

bool ArenaAllocator::Extend(size_t rounded) {
  const size_t reserved = stats_.total_reserved_bytes;
  const size_t available =
      reserved >= options_.max_bytes ? 0 : (options_.max_bytes - reserved) / kChunk * kChunk;
  if (rounded > available) return false;

  size_t region_bytes = rounded;
  if (options_.extend_strategy == ArenaExtendStrategy::kNextPowerOfTwo) {
    region_bytes = next_region_bytes_;
    if (region_bytes < rounded) {
      // Past the doubling cap a region holds just the request. The cap is at most kMaxSize / 2,
      // so doubling cannot overflow.
      const size_t cap = options_.max_power_of_two_extend_bytes;
      while (region_bytes < rounded && region_bytes <= cap / 2) region_bytes *= 2;
      region_bytes = std::max(region_bytes, rounded);
    }
    region_bytes = std::min(region_bytes, available);
  }

  size_t got = 0;
  char* base = ReserveFromBacking(region_bytes, rounded, &got);
  if (base == nullptr) return false;
  regions_.emplace(base, got);
  InsertFree(chunks_.emplace(base, Chunk{got, base, false}).first);
  stats_.total_reserved_bytes += got;
  ++stats_.num_regions;
  ++stats_.num_reserves;
  if (options_.extend_strategy == ArenaExtendStrategy::kNextPowerOfTwo) {
    next_region_bytes_ =
        std::min(got > kMaxSize / 2 ? kMaxSize : got * 2, options_.max_power_of_two_extend_bytes);
  }
  return true;
}

char* ArenaAllocator::ReserveFromBacking(size_t region_bytes, size_t rounded, size_t* reserved) {
  void* base = backing_->Alloc(region_bytes);
  // The device may have room for the request but not for the headroom doubling wanted.
  if (base == nullptr && region_bytes > rounded) {
    region_bytes = rounded;
    base = backing_->Alloc(region_bytes);
  }
  // Cached free regions may be exactly what the device is missing.
  if (base == nullptr && ReleaseFreeRegions() > 0) {
    region_bytes = rounded;
    base = backing_->Alloc(region_bytes);
  }
  if (base == nullptr) return nullptr;
  if (reinterpret_cast<uintptr_t>(base) % kAlignment != 0) {
    ORT_LOG_ERROR("arena on {}: backing allocator returned {} not aligned to {} bytes",
                  info_.ToString(), base, kAlignment);
    backing_->Free(base);
    return nullptr;
  }
  *reserved = region_bytes;
  return static_cast<char*>(base);
}

void ArenaAllocator::Free(void* pointer) {
  if (pointer == nullptr) return;
  std::lock_guard lock(mutex_);
  auto chunk = chunks_.find(static_cast<char*>(pointer));
  if (chunk == chunks_.end() || !chunk->second.in_use) {
    ORT_LOG_WARNING("arena on {}: Free of {}, which is not an allocation in use from this arena",
                    info_.ToString(), pointer);
    return;
  }
  chunk->second.in_use = false;
  stats_.bytes_in_use -= chunk->second.size;

  // Free neighbours are always merged, so at most one on each side can be free.
  auto next = std::next(chunk);
  if (next != chunks_.end() && next->second.region == chunk->second.region &&
      !next->second.in_use) {
    EraseFree(next);
    chunk->second.size += next->second.size;
    chunks_.erase(next);
  }
  if (chunk != chunks_.begin()) {
    auto prev = std::prev(chunk);
    if (prev->second.region == chunk->second.region && !prev->second.in_use) {
      EraseFree(prev);
      prev->second.size += chunk->second.size;
      chunks_.erase(chunk);
      chunk = prev;
    }
  }
  InsertFree(chunk);
}

size_t ArenaAllocator::Shrink() {
  std::lock_guard lock(mutex_);
  return ReleaseFreeRegions();
}

size_t ArenaAllocator::ReleaseFreeRegions() {
  size_t released = 0;
  for (auto region = regions_.begin(); region != regions_.end();) {
    // Merging keeps a fully free region as a single chunk spanning all of it.
    auto chunk = chunks_.find(region->first);
    assert(chunk != chunks_.end());
    if (chunk->second.in_use || chunk->second.size != region->second) {
      ++region;
      continue;
    }
    EraseFree(chunk);
    chunks_.erase(chunk);
    backing_->Free(region->first);
    released += region->second;
    stats_.total_reserved_bytes -= region->second;
    --stats_.num_regions;
    ++stats_.num_releases;
    region = regions_.erase(region);
  }
  // Otherwise regions would keep doubling from the size before the shrink, and a session that
  // shrinks after every run would reserve more each time.
  if (released > 0) next_region_bytes_ = options_.initial_chunk_bytes;
  DropFreePages();
  return released;
}

void ArenaAllocator::DropFreePages() {
#ifdef __linux__
  // The pages of free chunks in regions that stay (a region holding a graph output of a few
  // bytes kept R(2+1)-D's first 16 MB region resident) go back to the system; the next use
  // faults in zeroed pages. Host memory only: device memory has no pages to drop.
  if (info_.device != MemoryInfo::Device::kHost) return;
  const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  for (const auto& [base, chunk] : chunks_) {
    if (chunk.in_use || chunk.size < kDropPagesMinBytes) continue;
    const uintptr_t begin = (Address(base) + page - 1) / page * page;
    const uintptr_t end = (Address(base) + chunk.size) / page * page;
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
  }
#endif
}

ArenaAllocator::Stats ArenaAllocator::GetStats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void ArenaAllocator::ResetPeak() {
  std::lock_guard lock(mutex_);
  stats_.peak_bytes_in_use = stats_.bytes_in_use;
}

}  // namespace ort
