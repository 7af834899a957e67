#include "lib/session/run_memory.h"

namespace ort {

RunMemory::RunMemory(const AllocationPlan& plan, std::shared_ptr<const MemoryPattern> pattern,
                     const std::vector<std::shared_ptr<IAllocator>>& allocators)
    : pattern_(std::move(pattern)) {
  if (!pattern_) return;
  slices_.resize(plan.buffers.size());
  occupants_.resize(plan.buffers.size());
  for (const MemoryPattern::Block& block : pattern_->blocks) {
    std::shared_ptr<IAllocator> allocator;
    for (const auto& candidate : allocators) {
      if (candidate->Info() == block.location) allocator = candidate;
    }
    void* data = allocator ? allocator->Alloc(block.total_bytes) : nullptr;
    if (data == nullptr) {
      // Without its block the run allocates every output on its own, as if it had no pattern.
      blocks_.clear();
      slices_.clear();
      return;
    }
    blocks_.emplace_back(data, [allocator](void* pointer) { allocator->Free(pointer); });
    for (const MemoryPattern::Placement& placement : block.placements) {
      if (placement.buffer < 0 || static_cast<size_t>(placement.buffer) >= slices_.size()) continue;
      slices_[placement.buffer] = {static_cast<char*>(data) + placement.offset, placement.bytes,
                                   block.location, blocks_.size() - 1, &placement.overlaps};
    }
  }
}

Tensor RunMemory::Allocate(size_t index, DataType type, const TensorShape& shape) {
  if (node_ == nullptr || type == DataType::kString) return {};
  Tensor reused = ReuseInput(index, type, shape);
  if (reused.IsDefined() || !has_pattern() || index >= node_->output_buffers.size()) return reused;
  const int buffer = node_->output_buffers[index];
  if (buffer == AllocationPlan::kNoBuffer || static_cast<size_t>(buffer) >= slices_.size()) {
    return {};
  }
  return TakeSlice(buffer, type, shape);
}

Tensor RunMemory::ReuseInput(size_t index, DataType type, const TensorShape& shape) const {
  for (const auto& [in, out] : node_->in_place) {
    if (out != index || in >= inputs_.size() || inputs_[in] == nullptr) continue;
    if (!inputs_[in]->IsTensor()) continue;
    const Tensor& input = inputs_[in]->tensor();
    // The planner matched sizes from static types; the tensors must agree at run time too, and
    // nothing else may still view the memory (a Reshape output sharing the buffer, say).
    if (input.dtype() != type || input.NumElements() != shape.NumElements()) continue;
    if (!input.HasExclusiveBuffer()) continue;
    auto view = input.Reshaped(shape);
    if (view.ok()) return std::move(view).value();
  }
  return {};
}

bool RunMemory::Occupied(int buffer) const {
  if (!occupants_[buffer].expired()) return true;
  for (int other : *slices_[buffer].overlaps) {
    if (!occupants_[other].expired()) return true;
  }
  return false;
}

Tensor RunMemory::TakeSlice(int buffer, DataType type, const TensorShape& shape) {
  const Slice& slice = slices_[buffer];
  const int64_t elements = shape.NumElements();
  if (slice.data == nullptr || elements < 0) return {};
  const size_t bytes = StorageBytes(type, elements);
  // A larger tensor than the pattern saw (data-dependent shapes), or memory a view keeps alive
  // past the value's planned lifetime, goes to the allocator instead.
  if (bytes > slice.bytes || Occupied(buffer)) return {};
  auto occupant = std::make_shared<std::shared_ptr<void>>(blocks_[slice.block]);
  occupants_[buffer] = occupant;
  auto tensor =
      Tensor::Borrow(type, shape, slice.data, slice.bytes, std::move(occupant), slice.location);
  return tensor.ok() ? std::move(tensor).value() : Tensor();
}

}  // namespace ort
