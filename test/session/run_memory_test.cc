#include <catch2/catch.hpp>

#include <atomic>

#include "lib/session/run_memory.h"

namespace ort {
namespace {

// Counts what goes through a plain CPU allocator, to tell planned memory from fresh memory.
class CountingAllocator final : public IAllocator {
 public:
  void* Alloc(size_t bytes) override {
    ++allocations;
    return heap_.Alloc(bytes);
  }
  void Free(void* pointer) override { heap_.Free(pointer); }
  const MemoryInfo& Info() const override { return heap_.Info(); }

  std::atomic<int> allocations{0};

 private:
  CpuAllocator heap_;
};

PlannerValue FloatValue(int id, size_t elements, bool kept = false) {
  PlannerValue value;
  value.id = id;
  value.kept = kept;
  value.element_size = 4;
  value.static_bytes = elements * 4;
  return value;
}

// x(0, fed) -> Relu -> a(1) -> Sigmoid -> b(2) -> Neg -> c(3, output); 16 floats each. Only
// Sigmoid runs in place: Relu's input is a feed and Neg's output is kept.
PlannerInput Chain() {
  PlannerInput input;
  input.values = {FloatValue(0, 16, true), FloatValue(1, 16), FloatValue(2, 16),
                  FloatValue(3, 16, true)};
  input.nodes = {{"relu", {0}, {1}, {{0, 0}}, {}},
                 {"sigmoid", {1}, {2}, {{0, 0}}, {}},
                 {"neg", {2}, {3}, {{0, 0}}, {}}};
  return input;
}

NodeMemoryPlan NodePlanFor(const AllocationPlan& plan, std::vector<int> outputs,
                           std::vector<std::pair<size_t, size_t>> in_place = {}) {
  NodeMemoryPlan node;
  for (int value : outputs) node.output_buffers.push_back(plan.BufferOf(value));
  node.in_place = std::move(in_place);
  return node;
}

Tensor FloatTensor(int64_t elements) {
  return Tensor::Allocate(DataType::kFloat, TensorShape({elements})).value();
}

}  // namespace

TEST_CASE("RunMemory writes an output over a dying input only when nothing else views it",
          "[session][memory]") {
  auto plan = PlanAllocations(Chain()).value();
  REQUIRE(plan.in_place.size() == 1);  // sigmoid: b over a
  auto allocator = std::make_shared<CountingAllocator>();
  RunMemory memory(plan, nullptr, {allocator});
  const NodeMemoryPlan sigmoid = NodePlanFor(plan, {2}, {{0, 0}});

  Value a(FloatTensor(16));
  const Value* inputs[] = {&a};
  memory.BeginNode(sigmoid, inputs);
  SECTION("an exclusive input is reused") {
    Tensor b = memory.Allocate(0, DataType::kFloat, TensorShape({4, 4}));
    REQUIRE(b.IsDefined());
    CHECK(b.SharesBufferWith(a.tensor()));
    CHECK(b.shape() == TensorShape({4, 4}));
  }
  SECTION("an input a view still reads is not") {
    Tensor view = a.tensor().Reshaped(TensorShape({2, 8})).value();
    CHECK_FALSE(memory.Allocate(0, DataType::kFloat, TensorShape({16})).IsDefined());
  }
  SECTION("nor one of another size or type") {
    CHECK_FALSE(memory.Allocate(0, DataType::kFloat, TensorShape({8})).IsDefined());
    CHECK_FALSE(memory.Allocate(0, DataType::kInt32, TensorShape({16})).IsDefined());
  }
  CHECK(allocator->allocations == 0);
}

TEST_CASE("RunMemory places outputs in one pattern block and respects live views",
          "[session][memory]") {
  // x(0) -> A -> p(1) -> B -> q(2) -> C -> r(3) -> D -> out(4); p and r share a buffer (p dies
  // at B, r is born at C), q has its own: the pattern holds two 64-byte slices... unless a view
  // keeps p alive past its plan.
  PlannerInput input;
  input.values = {FloatValue(0, 16, true), FloatValue(1, 16), FloatValue(2, 16), FloatValue(3, 16),
                  FloatValue(4, 16, true)};
  input.nodes = {{"A", {0}, {1}, {}, {}},
                 {"B", {1}, {2}, {}, {}},
                 {"C", {2}, {3}, {}, {}},
                 {"D", {3}, {4}, {}, {}}};
  auto plan = PlanAllocations(input).value();
  REQUIRE(plan.BufferOf(1) == plan.BufferOf(3));
  auto pattern = ComputeMemoryPattern(plan, {}).value();
  REQUIRE(pattern.blocks.size() == 1);
  CHECK(pattern.blocks[0].total_bytes == 128);
  auto shared_pattern = std::make_shared<const MemoryPattern>(pattern);

  auto allocator = std::make_shared<CountingAllocator>();
  RunMemory memory(plan, shared_pattern, {allocator});
  REQUIRE(memory.has_pattern());
  CHECK(allocator->allocations == 1);  // the block

  const NodeMemoryPlan node_a = NodePlanFor(plan, {1});
  const NodeMemoryPlan node_b = NodePlanFor(plan, {2});
  const NodeMemoryPlan node_c = NodePlanFor(plan, {3});
  memory.BeginNode(node_a, {});
  Value p(memory.Allocate(0, DataType::kFloat, TensorShape({16})));
  REQUIRE(p.tensor().IsDefined());
  memory.BeginNode(node_b, {});
  Value q(memory.Allocate(0, DataType::kFloat, TensorShape({16})));
  REQUIRE(q.tensor().IsDefined());
  CHECK(q.tensor().RawData() != p.tensor().RawData());
  CHECK(memory.Allocate(0, DataType::kFloat, TensorShape({17})).IsDefined() == false);

  SECTION("a dead value's slice goes to the next user") {
    const void* p_data = p.tensor().RawData();
    p = Value();
    memory.BeginNode(node_c, {});
    Tensor r = memory.Allocate(0, DataType::kFloat, TensorShape({16}));
    REQUIRE(r.IsDefined());
    CHECK(r.RawData() == p_data);
  }
  SECTION("a slice a view still holds is not handed out again") {
    Tensor view = p.tensor().Reshaped(TensorShape({4, 4})).value();
    p = Value();
    memory.BeginNode(node_c, {});
    CHECK_FALSE(memory.Allocate(0, DataType::kFloat, TensorShape({16})).IsDefined());
  }
  CHECK(allocator->allocations == 1);
}

}  // namespace ort
