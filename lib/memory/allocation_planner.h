// Allocation planner: decides, before any run, which intermediate values of a sequential
// execution share a buffer (lifetimes that do not overlap, or an elementwise kernel writing its
// output over a dead input), when each buffer may be freed, and, once concrete sizes are known
// from a run, where each shared buffer sits inside one pre-allocated block per device.
//
// It sees values and nodes as plain numbered records (no kernels, no graph), so that an executor
// can describe its slots to it and the planner can be tested alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lib/common/status.h"
#include "lib/memory/allocator.h"

namespace ort {

/// One value of the execution as the planner sees it.
struct PlannerValue {
  /// Caller-chosen, unique, >= 0 (an executor slot number).
  int id = -1;
  /// For messages and Describe(); "#id" is shown when empty.
  std::string name;
  /// True for values the run must keep or does not own: graph inputs, graph outputs,
  /// initializers, outer-scope values. A kept value never shares its buffer.
  bool kept = false;
  /// Bytes per element; 0 for values that are not flat tensors of fixed-size elements (strings,
  /// sequences, maps, optionals). Such values get a buffer of their own that nothing reuses.
  size_t element_size = 0;
  /// Byte size when the shape is fully known before the run; nullopt otherwise.
  std::optional<size_t> static_bytes;
  /// For values of unknown size: a key equal for two values only when their sizes are equal at
  /// run time (e.g. the element count "3*batch" built from named symbols); empty when no such
  /// guarantee exists.
  std::string shape_key;
  /// Where the value lives; only values on the same device share a buffer.
  MemoryInfo location;
};

/// One node, in execution order.
struct PlannerNode {
  /// For messages and Describe(); "#position" is shown when empty.
  std::string name;
  /// Value ids read by the node, implicit (outer-scope) inputs included; -1 marks an omitted
  /// optional input.
  std::vector<int> inputs;
  /// Value ids written by the node; -1 marks an omitted optional output.
  std::vector<int> outputs;
  /// (input index, output index) pairs the kernel may compute in place, i.e. it tolerates the
  /// output aliasing that input (elementwise ops). The planner uses a pair only when safe, and
  /// not when the same value also feeds an input position the kernel did not declare for that
  /// output (read there after the output is written).
  std::vector<std::pair<size_t, size_t>> in_place_candidates;
  /// (input index, output index) pairs where the output is a view of the input (Reshape): it
  /// shares the input's buffer (none when the input has none: a feed or an initializer), which
  /// stays reserved until every value on it is dead.
  std::vector<std::pair<size_t, size_t>> aliases;
};

/// What the planner plans: every value the nodes mention must be listed.
struct PlannerInput {
  std::vector<PlannerValue> values;
  std::vector<PlannerNode> nodes;
};

/// A buffer of the plan: a region of memory that successive values occupy one after another.
struct PlannedBuffer {
  enum class Kind {
    kShared,   // an intermediate tensor; reusable and packed into the memory pattern
    kKept,     // holds a kept value produced by a node (a graph output); never released
    kPrivate,  // holds a value that is not a flat tensor; released but never reused
  };

  int id = 0;
  Kind kind = Kind::kShared;
  MemoryInfo location;
  /// Bytes when every user has a static size (the first user's size: later users fit in it);
  /// nullopt when the users' size is only known at run time.
  std::optional<size_t> static_bytes;
  /// For dynamic buffers, what a later user must match to reuse it.
  size_t element_size = 0;
  std::string shape_key;
  /// Value ids using the buffer, in execution order; their lifetimes do not overlap.
  std::vector<int> values;
  /// Positions (in node order) of the first producer and the last reader of its values; a kept
  /// buffer lives to the end of the run.
  size_t first_node = 0;
  size_t last_node = 0;
};

/// A node writing an output over one of its inputs.
struct InPlaceReuse {
  int input = -1;   // value id
  int output = -1;  // value id
  size_t node = 0;  // position in node order
};

/// The result of PlanAllocations.
struct AllocationPlan {
  static constexpr int kNoBuffer = -1;

  /// Indexed by buffer id.
  std::vector<PlannedBuffer> buffers;
  /// Buffer id of every listed value; kNoBuffer for values no node produces (feeds,
  /// initializers, outer scope: the caller owns their memory) and for unused values.
  std::unordered_map<int, int> value_buffer;
  /// In-place reuses in execution order.
  std::vector<InPlaceReuse> in_place;
  /// Per node position: buffers no later node touches, freeable once that node ran.
  std::vector<std::vector<int>> release_after;
  /// Value names by id, for Describe().
  std::unordered_map<int, std::string> value_names;
  std::vector<std::string> node_names;

  /// The buffer of `value`, or kNoBuffer (also for an unknown id).
  int BufferOf(int value) const;
  /// Number of buffers of the given kind.
  size_t CountBuffers(PlannedBuffer::Kind kind) const;
  /// Multi-line listing of buffers, users, in-place pairs and releases, for verbose logs.
  std::string Describe() const;
};

/// Plans buffers for `input.nodes` run in the given order. Errors (kInvalidArgument) on a
/// duplicate or negative value id, a node naming an unlisted value, a value produced twice, a
/// value read before (or without) being produced unless it is kept, and an in-place candidate
/// whose indices are out of range.
Result<AllocationPlan> PlanAllocations(const PlannerInput& input);

/// Where each shared buffer lives inside one block per device for one set of concrete sizes.
struct MemoryPattern {
  /// One shared buffer placed in a block.
  struct Placement {
    int buffer = 0;
    size_t offset = 0;  // multiple of IAllocator::kAlignment
    size_t bytes = 0;   // rounded up to IAllocator::kAlignment
    /// Buffers of the same block sharing some of these bytes (their lifetimes are disjoint from
    /// this one's), so an executor can check that an earlier occupant is really gone.
    std::vector<int> overlaps;
  };
  /// One contiguous allocation on one device.
  struct Block {
    MemoryInfo location;
    size_t total_bytes = 0;
    std::vector<Placement> placements;  // in buffer-id order
  };

  std::vector<Block> blocks;  // in order of first use of the device

  /// The placement of `buffer` (and its block index in `block`), or nullptr when the buffer is
  /// not part of the pattern (kept or private buffers).
  const Placement* Find(int buffer, size_t* block = nullptr) const;
  /// The size of the block for `location`; 0 when no buffer lives there.
  size_t TotalBytes(const MemoryInfo& location) const;
  /// Multi-line listing of blocks and offsets.
  std::string Describe() const;
};

/// Lays out the shared buffers of `plan` given the byte size each value had in one run
/// (`value_bytes`: value id -> bytes). A buffer takes the largest size of its users; a missing
/// value counts with its static size, or 0 when dynamic (it was not produced in that run).
/// Buffers whose node spans overlap never overlap in memory; larger buffers are placed first, each
/// at the lowest aligned offset free over its span. Errors on a value id the plan does not know.
Result<MemoryPattern> ComputeMemoryPattern(const AllocationPlan& plan,
                                           const std::unordered_map<int, size_t>& value_bytes);

/// Memory patterns by the concrete input shapes of a run, so that a run with shapes seen before
/// reuses its layout and one with new shapes gets none (the caller then computes and inserts
/// one). Thread-safe; patterns are handed out shared so eviction cannot invalidate them.
class MemoryPatternCache {
 public:
  /// The dimensions of each input, in input order.
  using ShapeKey = std::vector<std::vector<int64_t>>;

  /// Keeps at most `capacity` patterns (>= 1), evicting the oldest insertion first.
  explicit MemoryPatternCache(size_t capacity = 16);

  /// The pattern recorded for exactly these shapes, or nullptr.
  std::shared_ptr<const MemoryPattern> Find(const ShapeKey& input_shapes) const;
  /// Records `pattern` for these shapes and returns the cached one: a pattern already recorded
  /// for them wins, so concurrent runs computing the same pattern agree.
  std::shared_ptr<const MemoryPattern> Insert(ShapeKey input_shapes, MemoryPattern pattern);
  /// Forgets every pattern (e.g. when the plan they were computed from changes).
  void Clear();
  size_t size() const;

 private:
  size_t capacity_;
  mutable std::mutex mutex_;
  std::map<ShapeKey, std::shared_ptr<const MemoryPattern>> patterns_;
  std::vector<ShapeKey> insertion_order_;
};

}  // namespace ort
