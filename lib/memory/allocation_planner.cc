#include "lib/memory/allocation_planner.h"

#include <algorithm>
#include <limits>

#include <fmt/ranges.h>

namespace ort {
namespace {

constexpr int kNoBuffer = AllocationPlan::kNoBuffer;

struct ValueState {
  const PlannerValue* value = nullptr;
  std::optional<size_t> producer;
  std::optional<size_t> last_reader;
  int buffer = kNoBuffer;
  bool handed_over = false;  // its buffer went to an in-place output, which now frees it
  bool released = false;
};

std::string ValueName(const PlannerValue& value) {
  return value.name.empty() ? fmt::format("#{}", value.id) : fmt::format("'{}'", value.name);
}

std::string NodeName(const PlannerNode& node, size_t position) {
  return node.name.empty() ? fmt::format("node #{}", position)
                           : fmt::format("node '{}' (#{})", node.name, position);
}

// Flat tensors of fixed-size elements are the only values whose memory can be handed from one
// value to another.
bool IsPlain(const PlannerValue& value) { return value.element_size > 0; }

// A dynamic size can only be matched through a shape key vouching for equal run-time shapes.
bool SameDynamicSize(const PlannerValue& value, size_t element_size, const std::string& key) {
  return !value.shape_key.empty() && value.element_size == element_size && value.shape_key == key;
}

// A kernel vouches for the output aliasing only the input positions it declares; a value that
// also feeds another position (FusedConv's X and Z) may still be read there after the output is
// first written.
bool EveryReadMayAlias(const PlannerNode& node, size_t input, size_t output) {
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    if (node.inputs[i] != node.inputs[input]) continue;
    const auto& candidates = node.in_place_candidates;
    if (std::find(candidates.begin(), candidates.end(), std::pair(i, output)) == candidates.end()) {
      return false;
    }
  }
  return true;
}

class Planner {
 public:
  explicit Planner(const PlannerInput& input) : input_(input) {}

  Result<AllocationPlan> Run() {
    ORT_RETURN_IF_ERROR(IndexValues());
    ORT_RETURN_IF_ERROR(ComputeLifetimes());
    plan_.release_after.resize(input_.nodes.size());
    for (size_t position = 0; position < input_.nodes.size(); ++position) AssignNode(position);
    for (const auto& state : states_) plan_.value_buffer[state.value->id] = state.buffer;
    return std::move(plan_);
  }

 private:
  Status IndexValues() {
    states_.resize(input_.values.size());
    for (size_t i = 0; i < input_.values.size(); ++i) {
      const PlannerValue& value = input_.values[i];
      ORT_RETURN_IF_NOT(value.id >= 0, "allocation planner: value {} has a negative id",
                        ValueName(value));
      auto [it, inserted] = index_.emplace(value.id, i);
      ORT_RETURN_IF_NOT(inserted, "allocation planner: value id {} is listed twice ({} and {})",
                        value.id, ValueName(input_.values[it->second]), ValueName(value));
      states_[i].value = &value;
      plan_.value_names[value.id] = value.name;
    }
    for (size_t i = 0; i < input_.nodes.size(); ++i) {
      plan_.node_names.push_back(input_.nodes[i].name);
    }
    return Status::OK();
  }

  Result<ValueState*> Lookup(int id, size_t position, const char* role) {
    if (id < 0) return static_cast<ValueState*>(nullptr);
    auto it = index_.find(id);
    if (it == index_.end()) {
      return ORT_ERROR(kInvalidArgument, "allocation planner: {} {} unknown value id {}",
                       NodeName(input_.nodes[position], position), role, id);
    }
    return &states_[it->second];
  }

  // Producers first, so that reading a value produced later is told apart from reading a feed.
  Status ComputeLifetimes() {
    for (size_t position = 0; position < input_.nodes.size(); ++position) {
      const PlannerNode& node = input_.nodes[position];
      for (int id : node.outputs) {
        ORT_ASSIGN_OR_RETURN(ValueState * state, Lookup(id, position, "writes"));
        if (state == nullptr) continue;
        ORT_RETURN_IF_NOT(!state->producer, "allocation planner: value {} is produced by {} and {}",
                          ValueName(*state->value),
                          NodeName(input_.nodes[*state->producer], *state->producer),
                          NodeName(node, position));
        state->producer = position;
      }
      for (const auto& [pairs, kind] :
           {std::pair(&node.in_place_candidates, "in-place"), std::pair(&node.aliases, "view")}) {
        for (const auto& [in, out] : *pairs) {
          ORT_RETURN_IF_NOT(in < node.inputs.size() && out < node.outputs.size(),
                            "allocation planner: {} declares {} input {} -> output {} but has {} "
                            "inputs and {} outputs",
                            NodeName(node, position), kind, in, out, node.inputs.size(),
                            node.outputs.size());
        }
      }
    }
    for (size_t position = 0; position < input_.nodes.size(); ++position) {
      const PlannerNode& node = input_.nodes[position];
      for (int id : node.inputs) {
        ORT_ASSIGN_OR_RETURN(ValueState * state, Lookup(id, position, "reads"));
        if (state == nullptr) continue;
        const bool fed = !state->producer && state->value->kept;
        ORT_RETURN_IF_NOT(fed || (state->producer && *state->producer < position),
                          "allocation planner: {} reads value {} before any node produces it",
                          NodeName(node, position), ValueName(*state->value));
        state->last_reader = position;
      }
    }
    return Status::OK();
  }

  ValueState& State(int id) { return states_[index_.at(id)]; }

  size_t LastUse(const ValueState& state) const {
    return state.last_reader.value_or(*state.producer);
  }

  int NewBuffer(const PlannerValue& value, PlannedBuffer::Kind kind, size_t position) {
    PlannedBuffer buffer;
    buffer.id = static_cast<int>(plan_.buffers.size());
    buffer.kind = kind;
    buffer.location = value.location;
    buffer.static_bytes = value.static_bytes;
    buffer.element_size = value.element_size;
    buffer.shape_key = value.shape_key;
    buffer.first_node = position;
    buffer.last_node = position;
    plan_.buffers.push_back(std::move(buffer));
    users_.push_back(0);
    return plan_.buffers.back().id;
  }

  void Use(ValueState& state, int buffer_id) {
    PlannedBuffer& buffer = plan_.buffers[buffer_id];
    state.buffer = buffer_id;
    ++users_[static_cast<size_t>(buffer_id)];
    buffer.values.push_back(state.value->id);
    buffer.last_node = buffer.kind == PlannedBuffer::Kind::kKept
                           ? std::max(input_.nodes.size(), size_t{1}) - 1
                           : std::max(buffer.last_node, LastUse(state));
  }

  // An output may overwrite an input the node reads for the last time, when the memory is
  // exclusively that input's and provably large enough, and the kernel tolerates the alias at
  // every position the input is read.
  bool TryInPlace(const PlannerNode& node, size_t position, size_t output_index,
                  ValueState& output) {
    const PlannerValue& out = *output.value;
    for (const auto& [in, candidate_output] : node.in_place_candidates) {
      if (candidate_output != output_index || node.inputs[in] < 0) continue;
      if (!EveryReadMayAlias(node, in, output_index)) continue;
      ValueState& input = State(node.inputs[in]);
      const PlannerValue& value = *input.value;
      if (value.kept || !IsPlain(value) || input.buffer == kNoBuffer || input.handed_over) continue;
      // A view still reading the memory (a Reshape of the input) keeps it from being overwritten.
      if (users_[static_cast<size_t>(input.buffer)] != 1) continue;
      if (input.last_reader != position || !(value.location == out.location)) continue;
      const bool same_size =
          (value.static_bytes && out.static_bytes && *value.static_bytes == *out.static_bytes) ||
          (!value.static_bytes && !out.static_bytes &&
           SameDynamicSize(value, out.element_size, out.shape_key));
      if (!same_size) continue;
      input.handed_over = true;
      --users_[static_cast<size_t>(input.buffer)];
      Use(output, input.buffer);
      plan_.in_place.push_back({value.id, out.id, position});
      return true;
    }
    return false;
  }

  // Best fit among free buffers on the same device: the smallest static buffer that holds the
  // value, or a dynamic one vouched equal by its shape key; lowest id breaks ties.
  bool TryFreeBuffer(ValueState& output) {
    const PlannerValue& value = *output.value;
    auto best = free_.end();
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      const PlannedBuffer& buffer = plan_.buffers[*it];
      if (!(buffer.location == value.location)) continue;
      if (value.static_bytes) {
        if (!buffer.static_bytes || *buffer.static_bytes < *value.static_bytes) continue;
        if (best != free_.end()) {
          const PlannedBuffer& current = plan_.buffers[*best];
          if (std::pair(*current.static_bytes, current.id) <
              std::pair(*buffer.static_bytes, buffer.id)) {
            continue;
          }
        }
        best = it;
      } else if (!buffer.static_bytes &&
                 SameDynamicSize(value, buffer.element_size, buffer.shape_key)) {
        if (best == free_.end() || buffer.id < plan_.buffers[*best].id) best = it;
      }
    }
    if (best == free_.end()) return false;
    const int buffer_id = *best;
    free_.erase(best);
    Use(output, buffer_id);
    return true;
  }

  // The buffer is free once the last value on it (a value and its views) is dead.
  void Release(ValueState& state, size_t position) {
    if (state.buffer == kNoBuffer || state.value->kept || state.handed_over || state.released) {
      return;
    }
    state.released = true;
    if (--users_[static_cast<size_t>(state.buffer)] > 0) return;
    if (plan_.buffers[state.buffer].kind == PlannedBuffer::Kind::kKept) return;
    std::vector<int>& released = plan_.release_after[position];
    released.push_back(state.buffer);
    if (plan_.buffers[state.buffer].kind == PlannedBuffer::Kind::kShared) {
      free_.push_back(state.buffer);
    }
  }

  void AssignNode(size_t position) {
    const PlannerNode& node = input_.nodes[position];
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      if (node.outputs[i] < 0) continue;
      ValueState& output = State(node.outputs[i]);
      const PlannerValue& value = *output.value;
      if (const ValueState* viewed = ViewedInput(node, i); viewed != nullptr && !value.kept) {
        if (viewed->buffer != kNoBuffer) Use(output, viewed->buffer);
      } else if (value.kept) {
        Use(output, NewBuffer(value, PlannedBuffer::Kind::kKept, position));
      } else if (!IsPlain(value)) {
        Use(output, NewBuffer(value, PlannedBuffer::Kind::kPrivate, position));
      } else if (!TryInPlace(node, position, i, output) && !TryFreeBuffer(output)) {
        Use(output, NewBuffer(value, PlannedBuffer::Kind::kShared, position));
      }
    }
    // Inputs are released only after every output got memory: the node still reads them.
    for (int id : node.inputs) {
      if (id < 0) continue;
      ValueState& input = State(id);
      if (input.last_reader == position) Release(input, position);
    }
    for (int id : node.outputs) {
      if (id < 0) continue;
      ValueState& output = State(id);
      if (!output.last_reader) Release(output, position);  // nobody reads it
    }
  }

  // The input output `index` is a view of, or null.
  const ValueState* ViewedInput(const PlannerNode& node, size_t index) {
    for (const auto& [in, out] : node.aliases) {
      if (out == index && node.inputs[in] >= 0) return &State(node.inputs[in]);
    }
    return nullptr;
  }

  const PlannerInput& input_;
  AllocationPlan plan_;
  std::vector<int> users_;  // per buffer: values on it not yet released
  std::unordered_map<int, size_t> index_;
  std::vector<ValueState> states_;
  std::vector<int> free_;
};

std::string_view KindName(PlannedBuffer::Kind kind) {
  switch (kind) {
    case PlannedBuffer::Kind::kShared:
      return "shared";
    case PlannedBuffer::Kind::kKept:
      return "kept";
    case PlannedBuffer::Kind::kPrivate:
      return "private";
  }
  return "?";
}

size_t AlignUp(size_t bytes) {
  constexpr size_t kAlign = IAllocator::kAlignment;
  return (bytes + kAlign - 1) / kAlign * kAlign;
}

}  // namespace

int AllocationPlan::BufferOf(int value) const {
  auto it = value_buffer.find(value);
  return it == value_buffer.end() ? kNoBuffer : it->second;
}

size_t AllocationPlan::CountBuffers(PlannedBuffer::Kind kind) const {
  return std::count_if(buffers.begin(), buffers.end(),
                       [kind](const PlannedBuffer& buffer) { return buffer.kind == kind; });
}

std::string AllocationPlan::Describe() const {
  auto value_name = [this](int id) {
    auto it = value_names.find(id);
    return it == value_names.end() || it->second.empty() ? fmt::format("#{}", id) : it->second;
  };
  auto node_name = [this](size_t position) {
    return position < node_names.size() && !node_names[position].empty()
               ? node_names[position]
               : fmt::format("#{}", position);
  };
  std::string out =
      fmt::format("allocation plan: {} buffers ({} shared), {} in-place reuses\n", buffers.size(),
                  CountBuffers(PlannedBuffer::Kind::kShared), in_place.size());
  for (const PlannedBuffer& buffer : buffers) {
    std::string size = buffer.static_bytes ? fmt::format("{} B", *buffer.static_bytes)
                                           : fmt::format("dynamic (element {} B, shape '{}')",
                                                         buffer.element_size, buffer.shape_key);
    std::string users;
    for (int id : buffer.values) users += (users.empty() ? "" : ", ") + value_name(id);
    out += fmt::format("  buffer {} {} {} {} nodes [{}, {}]: {}\n", buffer.id,
                       KindName(buffer.kind), buffer.location.ToString(), size,
                       node_name(buffer.first_node), node_name(buffer.last_node), users);
  }
  for (const InPlaceReuse& reuse : in_place) {
    out += fmt::format("  in place at node {}: {} -> {}\n", node_name(reuse.node),
                       value_name(reuse.input), value_name(reuse.output));
  }
  for (size_t position = 0; position < release_after.size(); ++position) {
    if (release_after[position].empty()) continue;
    out += fmt::format("  release after node {}: buffers {}\n", node_name(position),
                       fmt::join(release_after[position], ", "));
  }
  return out;
}

Result<AllocationPlan> PlanAllocations(const PlannerInput& input) { return Planner(input).Run(); }

const MemoryPattern::Placement* MemoryPattern::Find(int buffer, size_t* block) const {
  for (size_t b = 0; b < blocks.size(); ++b) {
    for (const Placement& placement : blocks[b].placements) {
      if (placement.buffer != buffer) continue;
      if (block != nullptr) *block = b;
      return &placement;
    }
  }
  return nullptr;
}

size_t MemoryPattern::TotalBytes(const MemoryInfo& location) const {
  for (const Block& block : blocks) {
    if (block.location == location) return block.total_bytes;
  }
  return 0;
}

std::string MemoryPattern::Describe() const {
  std::string out = fmt::format("memory pattern: {} blocks\n", blocks.size());
  for (const Block& block : blocks) {
    out += fmt::format("  block {} {} B\n", block.location.ToString(), block.total_bytes);
    for (const Placement& placement : block.placements) {
      out += fmt::format("    buffer {} at {} ({} B)\n", placement.buffer, placement.offset,
                         placement.bytes);
    }
  }
  return out;
}

Result<MemoryPattern> ComputeMemoryPattern(const AllocationPlan& plan,
                                           const std::unordered_map<int, size_t>& value_bytes) {
  std::vector<size_t> sizes(plan.buffers.size(), 0);
  for (const PlannedBuffer& buffer : plan.buffers)
    sizes[buffer.id] = buffer.static_bytes.value_or(0);
  for (const auto& [id, bytes] : value_bytes) {
    auto it = plan.value_buffer.find(id);
    ORT_RETURN_IF_NOT(it != plan.value_buffer.end(),
                      "memory pattern: value id {} is not part of the allocation plan", id);
    if (it->second != kNoBuffer) sizes[it->second] = std::max(sizes[it->second], bytes);
  }

  std::vector<const PlannedBuffer*> order;
  for (const PlannedBuffer& buffer : plan.buffers) {
    if (buffer.kind != PlannedBuffer::Kind::kShared) continue;
    ORT_RETURN_IF_NOT(sizes[buffer.id] <= std::numeric_limits<size_t>::max() / 2,
                      "memory pattern: buffer {} of {} bytes is too large", buffer.id,
                      sizes[buffer.id]);
    order.push_back(&buffer);
  }
  // Largest first leaves the small buffers to fill the gaps; ties go in time order so the
  // layout is deterministic.
  std::stable_sort(order.begin(), order.end(), [&](const PlannedBuffer* a, const PlannedBuffer* b) {
    const size_t size_a = AlignUp(sizes[a->id]), size_b = AlignUp(sizes[b->id]);
    if (size_a != size_b) return size_a > size_b;
    return std::pair(a->first_node, a->id) < std::pair(b->first_node, b->id);
  });

  MemoryPattern pattern;
  std::vector<std::vector<const PlannedBuffer*>> placed;  // per block, for overlap checks
  std::unordered_map<int, size_t> offsets;
  for (const PlannedBuffer* buffer : order) {
    size_t b = 0;
    while (b < pattern.blocks.size() && !(pattern.blocks[b].location == buffer->location)) ++b;
    if (b == pattern.blocks.size()) {
      pattern.blocks.push_back({buffer->location, 0, {}});
      placed.emplace_back();
    }
    // Address ranges of buffers alive at some common node, in address order; the first gap
    // wide enough takes the buffer.
    std::vector<std::pair<size_t, size_t>> busy;
    for (const PlannedBuffer* other : placed[b]) {
      if (other->last_node < buffer->first_node || buffer->last_node < other->first_node) continue;
      busy.emplace_back(offsets[other->id], offsets[other->id] + AlignUp(sizes[other->id]));
    }
    std::sort(busy.begin(), busy.end());
    const size_t bytes = AlignUp(sizes[buffer->id]);
    size_t offset = 0;
    for (const auto& [begin, end] : busy) {
      if (begin >= offset + bytes) break;
      offset = std::max(offset, end);
    }
    offsets[buffer->id] = offset;
    placed[b].push_back(buffer);
    pattern.blocks[b].placements.push_back({buffer->id, offset, bytes, {}});
    pattern.blocks[b].total_bytes = std::max(pattern.blocks[b].total_bytes, offset + bytes);
  }
  for (MemoryPattern::Block& block : pattern.blocks) {
    auto& placements = block.placements;
    std::sort(placements.begin(), placements.end(),
              [](const auto& a, const auto& b) { return a.offset < b.offset; });
    for (size_t i = 0; i < placements.size(); ++i) {
      const size_t end = placements[i].offset + placements[i].bytes;
      for (size_t j = i + 1; j < placements.size() && placements[j].offset < end; ++j) {
        if (placements[j].bytes == 0) continue;
        placements[i].overlaps.push_back(placements[j].buffer);
        placements[j].overlaps.push_back(placements[i].buffer);
      }
    }
    std::sort(placements.begin(), placements.end(),
              [](const auto& a, const auto& b) { return a.buffer < b.buffer; });
  }
  return pattern;
}

MemoryPatternCache::MemoryPatternCache(size_t capacity)
    : capacity_(std::max(capacity, size_t{1})) {}

std::shared_ptr<const MemoryPattern> MemoryPatternCache::Find(const ShapeKey& input_shapes) const {
  std::lock_guard lock(mutex_);
  auto it = patterns_.find(input_shapes);
  return it == patterns_.end() ? nullptr : it->second;
}

std::shared_ptr<const MemoryPattern> MemoryPatternCache::Insert(ShapeKey input_shapes,
                                                                MemoryPattern pattern) {
  std::lock_guard lock(mutex_);
  auto it = patterns_.find(input_shapes);
  if (it != patterns_.end()) return it->second;
  if (patterns_.size() >= capacity_) {
    patterns_.erase(insertion_order_.front());
    insertion_order_.erase(insertion_order_.begin());
  }
  auto shared = std::make_shared<const MemoryPattern>(std::move(pattern));
  patterns_.emplace(input_shapes, shared);
  insertion_order_.push_back(std::move(input_shapes));
  return shared;
}

void MemoryPatternCache::Clear() {
  std::lock_guard lock(mutex_);
  patterns_.clear();
  insertion_order_.clear();
}

size_t MemoryPatternCache::size() const {
  std::lock_guard lock(mutex_);
  return patterns_.size();
}

}  // namespace ort
