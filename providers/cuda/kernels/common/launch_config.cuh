// Launch geometry shared by the CUDA kernels' .cu files (device code only): one block size, and
// grids for grid-stride loops, which cover any count with a bounded number of blocks.
#pragma once

#include <cstdint>

namespace ort::cuda {

/// Threads per block of the elementwise and row kernels; a power of two, as BlockReduce
/// (reduce.cuh) requires.
constexpr int kThreads = 256;
/// Threads per warp.
constexpr int kWarp = 32;
/// The most blocks a launch uses; grid-stride loops cover the rest.
constexpr int64_t kMaxBlocks = 65535;

/// `wanted` blocks clamped to [1, kMaxBlocks].
inline unsigned GridBlocks(int64_t wanted) {
  return static_cast<unsigned>(wanted < kMaxBlocks ? (wanted > 0 ? wanted : 1) : kMaxBlocks);
}

/// Blocks of kThreads for a grid-stride loop over `count` items: one item per thread up to
/// kMaxBlocks blocks, and at least one block.
inline unsigned Blocks(int64_t count) { return GridBlocks((count + kThreads - 1) / kThreads); }

}  // namespace ort::cuda
