// RunMemory: one run's view of the allocation plan. It hands kernels their planned output memory
// (a dying input's buffer reused in place, or a slice of the run's memory-pattern block) and
// records the sizes a run without a pattern produced, from which the session computes one.
#pragma once

#include <memory>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lib/framework/op_kernel.h"
#include "lib/memory/allocation_planner.h"

namespace ort {

/// What the plan decided for one node's outputs.
struct NodeMemoryPlan {
  /// Planned buffer of each output; AllocationPlan::kNoBuffer when none.
  std::vector<int> output_buffers;
  /// (input index, output index) pairs the planner chose to run in place.
  std::vector<std::pair<size_t, size_t>> in_place;
};

class RunMemory final : public OutputAllocator {
 public:
  /// `pattern` may be null (the run then records sizes instead). `allocators` gives the
  /// allocator of each device the pattern's blocks live on.
  RunMemory(const AllocationPlan& plan, std::shared_ptr<const MemoryPattern> pattern,
            const std::vector<std::shared_ptr<IAllocator>>& allocators);

  /// True when the run places outputs in a pattern block.
  bool has_pattern() const { return !blocks_.empty(); }

  /// Starts a node: its plan and the inputs it reads.
  void BeginNode(const NodeMemoryPlan& node, std::span<const Value* const> inputs) {
    node_ = &node;
    inputs_ = inputs;
  }
  Tensor Allocate(size_t index, DataType type, const TensorShape& shape) override;

  /// Notes the bytes of a value a node produced (value id = executor slot).
  void RecordSize(int value, size_t bytes) { sizes_[value] = bytes; }
  const std::unordered_map<int, size_t>& recorded_sizes() const { return sizes_; }

 private:
  struct Slice {
    void* data = nullptr;
    size_t bytes = 0;
    MemoryInfo location;
    size_t block = 0;
    const std::vector<int>* overlaps = nullptr;
  };

  Tensor ReuseInput(size_t index, DataType type, const TensorShape& shape) const;
  Tensor TakeSlice(int buffer, DataType type, const TensorShape& shape);
  bool Occupied(int buffer) const;

  std::shared_ptr<const MemoryPattern> pattern_;
  std::vector<std::shared_ptr<void>> blocks_;
  std::vector<Slice> slices_;  // by buffer id; null data when the buffer is not in the pattern
  // The last tensor memory handed out from each buffer, alive while any tensor views it.
  std::vector<std::weak_ptr<const void>> occupants_;
  const NodeMemoryPlan* node_ = nullptr;
  std::span<const Value* const> inputs_;
  std::unordered_map<int, size_t> sizes_;
};

}  // namespace ort
