#include "lib/memory/allocation_planner.h"

#include <catch2/catch.hpp>

namespace ort {
namespace {

using Kind = PlannedBuffer::Kind;
using Ids = std::vector<int>;

const MemoryInfo kCpu{};
const MemoryInfo kCuda{MemoryInfo::Device::kGpu, 0};

// Builds planner input with value ids numbered from 0 in creation order.
struct Builder {
  PlannerInput input;

  int Value(std::string name, std::optional<size_t> bytes, bool kept = false,
            MemoryInfo location = {}, std::string shape_key = {}, size_t element_size = 4) {
    const int id = static_cast<int>(input.values.size());
    input.values.push_back(
        {id, std::move(name), kept, element_size, bytes, std::move(shape_key), location});
    return id;
  }
  int Kept(std::string name, std::optional<size_t> bytes = 400) {
    return Value(std::move(name), bytes, true);
  }
  void Node(std::string name, Ids inputs, Ids outputs,
            std::vector<std::pair<size_t, size_t>> in_place = {}) {
    input.nodes.push_back({std::move(name), std::move(inputs), std::move(outputs), in_place, {}});
  }
  AllocationPlan Plan() const {
    auto plan = PlanAllocations(input);
    INFO(plan.status().ToString());
    REQUIRE(plan.ok());
    return std::move(plan).value();
  }
};

// Buffers whose node spans overlap must occupy disjoint address ranges of their block.
void CheckNoOverlap(const AllocationPlan& plan, const MemoryPattern& pattern) {
  for (const PlannedBuffer& a : plan.buffers) {
    for (const PlannedBuffer& b : plan.buffers) {
      size_t block_a = 0, block_b = 0;
      const auto* pa = pattern.Find(a.id, &block_a);
      const auto* pb = pattern.Find(b.id, &block_b);
      if (a.id >= b.id || pa == nullptr || pb == nullptr || block_a != block_b) continue;
      if (a.last_node < b.first_node || b.last_node < a.first_node) continue;
      INFO("buffers " << a.id << " and " << b.id);
      CHECK((pa->offset + pa->bytes <= pb->offset || pb->offset + pb->bytes <= pa->offset));
    }
  }
}

}  // namespace

TEST_CASE("Planner: a chain of equal-size values ping-pongs between two buffers",
          "[memory][planner]") {
  Builder b;
  const int x = b.Kept("x");
  const int a = b.Value("a", 400), bb = b.Value("b", 400), c = b.Value("c", 400);
  const int d = b.Value("d", 400);
  const int y = b.Kept("y");
  b.Node("n0", {x}, {a});
  b.Node("n1", {a}, {bb});
  b.Node("n2", {bb}, {c});
  b.Node("n3", {c}, {d});
  b.Node("n4", {d}, {y});
  const AllocationPlan plan = b.Plan();

  CHECK(plan.CountBuffers(Kind::kShared) == 2);
  CHECK(plan.BufferOf(x) == AllocationPlan::kNoBuffer);
  CHECK(plan.BufferOf(a) == 0);
  CHECK(plan.BufferOf(bb) == 1);
  CHECK(plan.BufferOf(c) == 0);
  CHECK(plan.BufferOf(d) == 1);
  CHECK(plan.buffers[0].values == Ids{a, c});
  CHECK(plan.buffers[0].first_node == 0);
  CHECK(plan.buffers[0].last_node == 3);
  CHECK(plan.buffers[plan.BufferOf(y)].kind == Kind::kKept);
  CHECK(plan.in_place.empty());
  CHECK(plan.release_after == std::vector<Ids>{{}, {0}, {1}, {0}, {1}});
}

TEST_CASE("Planner: elementwise ops write over inputs they read last", "[memory][planner]") {
  Builder b;
  const int x = b.Kept("x");
  const int a = b.Value("a", 400), bb = b.Value("b", 400), c = b.Value("c", 400);
  const int y = b.Kept("y");
  b.Node("relu0", {x}, {a}, {{0, 0}});  // x is a feed: never overwritten
  b.Node("relu1", {a}, {bb}, {{0, 0}});
  b.Node("relu2", {bb}, {c}, {{0, 0}});
  b.Node("relu3", {c}, {y}, {{0, 0}});  // y is a graph output: never takes a shared buffer
  const AllocationPlan plan = b.Plan();

  CHECK(plan.CountBuffers(Kind::kShared) == 1);
  CHECK(plan.BufferOf(a) == 0);
  CHECK(plan.BufferOf(bb) == 0);
  CHECK(plan.BufferOf(c) == 0);
  CHECK(plan.BufferOf(y) == 1);
  REQUIRE(plan.in_place.size() == 2);
  CHECK((plan.in_place[0].input == a && plan.in_place[0].output == bb));
  CHECK(plan.in_place[0].node == 1);
  CHECK((plan.in_place[1].input == bb && plan.in_place[1].output == c));
  CHECK(plan.release_after == std::vector<Ids>{{}, {}, {}, {0}});
  const std::string text = plan.Describe();
  CHECK(text.find("in place at node relu1: a -> b") != std::string::npos);
  CHECK(text.find("buffer 0 shared host 400 B nodes [relu0, relu3]: a, b, c") != std::string::npos);
}

TEST_CASE("Planner: no in-place while the input is read later or sizes differ",
          "[memory][planner]") {
  Builder b;
  const int x = b.Kept("x");
  const int a = b.Value("a", 400), bb = b.Value("b", 400), c = b.Value("c", 800);
  const int y = b.Kept("y");
  b.Node("n0", {x}, {a});
  b.Node("n1", {a}, {bb}, {{0, 0}});             // a is read again by n2
  b.Node("n2", {bb, a}, {c}, {{0, 0}, {1, 0}});  // 800 bytes do not fit in 400
  b.Node("n3", {c}, {y});
  const AllocationPlan plan = b.Plan();

  CHECK(plan.in_place.empty());
  CHECK(plan.CountBuffers(Kind::kShared) == 3);
  CHECK(plan.release_after[2] == Ids{1, 0});
}

TEST_CASE("Planner: no in-place over a value the node also reads at an undeclared position",
          "[memory][planner]") {
  // FusedConv(X, W, B, Z) declares Z -> Y only: it still reads X after writing Y.
  Builder b;
  const int x = b.Kept("x"), w = b.Kept("w");
  const int a = b.Value("a", 400), z = b.Value("z", 400), c = b.Value("c", 400);
  const int d = b.Value("d", 400), e = b.Value("e", 400);
  const int y = b.Kept("y");
  b.Node("n0", {x}, {a});
  b.Node("conv_same", {a, w, -1, a}, {c}, {{3, 0}});  // Z is X: no alias
  b.Node("n2", {c}, {z});
  b.Node("conv_other", {c, w, -1, z}, {d}, {{3, 0}});  // Z differs from X: Y takes its buffer
  b.Node("square", {d, d}, {e}, {{0, 0}, {1, 0}});     // both reads declared: in place
  b.Node("n5", {e}, {y});
  const AllocationPlan plan = b.Plan();

  REQUIRE(plan.in_place.size() == 2);
  CHECK((plan.in_place[0].input == z && plan.in_place[0].output == d));
  CHECK(plan.in_place[0].node == 3);
  CHECK((plan.in_place[1].input == d && plan.in_place[1].output == e));
  CHECK(plan.BufferOf(c) != plan.BufferOf(a));
  CHECK(plan.BufferOf(d) == plan.BufferOf(z));

  // A declared pair is still refused when the value is also an undeclared (implicit) input.
  Builder implicit;
  const int p = implicit.Kept("p");
  const int q = implicit.Value("q", 400), r = implicit.Value("r", 400);
  const int s = implicit.Kept("s");
  implicit.Node("n0", {p}, {q});
  implicit.Node("loop", {q, q}, {r}, {{0, 0}});
  implicit.Node("n2", {r}, {s});
  CHECK(implicit.Plan().in_place.empty());
}

TEST_CASE("Planner: a diamond needs three buffers", "[memory][planner]") {
  Builder b;
  const int x = b.Kept("x");
  const int a = b.Value("a", 400), l = b.Value("left", 400), r = b.Value("right", 400);
  const int d = b.Value("d", 400);
  const int y = b.Kept("y");
  b.Node("split", {x}, {a});
  b.Node("left", {a}, {l});
  b.Node("right", {a}, {r});
  b.Node("join", {l, r}, {d});
  b.Node("out", {d}, {y});
  const AllocationPlan plan = b.Plan();

  CHECK(plan.CountBuffers(Kind::kShared) == 3);
  CHECK(plan.BufferOf(a) == 0);
  CHECK(plan.BufferOf(l) == 1);
  CHECK(plan.BufferOf(r) == 2);
  CHECK(plan.BufferOf(d) == 0);  // a died after "right"
  CHECK(plan.release_after[2] == Ids{0});
  CHECK(plan.release_after[3] == Ids{1, 2});
}

TEST_CASE("Planner: kept values are never shared nor released", "[memory][planner]") {
  Builder b;
  const int x = b.Kept("x");
  const int a = b.Kept("a");  // a graph output also read inside the graph
  const int bb = b.Value("b", 400), c = b.Value("c", 400);
  const int y = b.Kept("y");
  b.Node("n0", {x}, {a});
  b.Node("n1", {a}, {bb}, {{0, 0}});
  b.Node("n2", {bb}, {c});
  b.Node("n3", {c}, {y});
  const AllocationPlan plan = b.Plan();

  const int kept = plan.BufferOf(a);
  CHECK(plan.buffers[kept].kind == Kind::kKept);
  CHECK(plan.buffers[kept].values == Ids{a});
  CHECK(plan.buffers[kept].last_node == 3);
  CHECK(plan.in_place.empty());
  for (const Ids& released : plan.release_after) {
    for (int buffer : released) {
      CHECK(buffer != kept);
      CHECK(buffer != plan.BufferOf(y));
    }
  }
}

TEST_CASE("Planner: buffers are shared only on the same device", "[memory][planner]") {
  Builder b;
  const int x = b.Kept("x");
  const int a = b.Value("a", 400, false, kCpu);
  const int bb = b.Value("b", 400, false, kCuda);
  const int c = b.Value("c", 400, false, kCuda);
  const int d = b.Value("d", 400, false, kCpu);
  const int y = b.Kept("y");
  b.Node("n0", {x}, {a});
  b.Node("copy_in", {a}, {bb}, {{0, 0}});
  b.Node("n2", {bb}, {c});  // only a's cpu buffer is free here
  b.Node("copy_out", {c}, {d});
  b.Node("n4", {d}, {y});
  const AllocationPlan plan = b.Plan();

  CHECK(plan.in_place.empty());
  CHECK(plan.BufferOf(a) == 0);
  CHECK(plan.BufferOf(bb) == 1);
  CHECK(plan.BufferOf(c) == 2);
  CHECK(plan.BufferOf(d) == 0);
  CHECK(plan.buffers[2].location == kCuda);
}

TEST_CASE("Planner: static sizes reuse the smallest free buffer that fits", "[memory][planner]") {
  Builder b;
  const int x = b.Kept("x");
  const int a = b.Value("a", 400), bb = b.Value("b", 200), c = b.Value("c", 800);
  const int d = b.Value("d", 100), e = b.Value("e", 500);
  const int y = b.Kept("y");
  b.Node("n0", {x}, {a});
  b.Node("n1", {a}, {bb});
  b.Node("n2", {bb}, {c});  // free: a's 400 B, too small
  b.Node("n3", {c}, {d});   // free: 400 B and 200 B, best fit is 200 B
  b.Node("n4", {d}, {e});   // free: 400 B and 800 B, only 800 B fits
  b.Node("n5", {e}, {y});
  const AllocationPlan plan = b.Plan();

  CHECK(plan.CountBuffers(Kind::kShared) == 3);
  CHECK(plan.buffers[0].values == Ids{a});
  CHECK(plan.buffers[1].values == Ids{bb, d});
  CHECK(plan.buffers[2].values == Ids{c, e});
  CHECK(plan.buffers[0].static_bytes == 400u);
  CHECK(plan.buffers[1].static_bytes == 200u);
  CHECK(plan.buffers[2].static_bytes == 800u);
}

TEST_CASE("Planner: dynamic sizes reuse only through an equal shape key", "[memory][planner]") {
  Builder b;
  const int x = b.Kept("x");
  const int a = b.Value("a", std::nullopt, false, kCpu, "[batch,3]");
  const int bb = b.Value("b", std::nullopt, false, kCpu, "[batch,3]");
  const int c = b.Value("c", std::nullopt, false, kCpu, "[batch,3]");
  const int d = b.Value("d", std::nullopt, false, kCpu, "");              // unknown: no guarantee
  const int e = b.Value("e", std::nullopt, false, kCpu, "[batch,3]", 8);  // int64
  const int f = b.Value("f", 64);
  const int y = b.Kept("y");
  b.Node("n0", {x}, {a});
  b.Node("n1", {a}, {bb});
  b.Node("n2", {bb}, {c});
  b.Node("n3", {c}, {d}, {{0, 0}});
  b.Node("cast", {d}, {e});
  b.Node("n5", {e}, {f});
  b.Node("n6", {f}, {y});
  const AllocationPlan plan = b.Plan();

  CHECK(plan.BufferOf(c) == plan.BufferOf(a));
  CHECK(plan.BufferOf(d) == 2);
  CHECK(plan.BufferOf(e) == 3);
  CHECK(plan.BufferOf(f) == 4);
  CHECK(plan.in_place.empty());
  CHECK_FALSE(plan.buffers[0].static_bytes.has_value());

  Builder in_place;
  const int p = in_place.Kept("p");
  const int q = in_place.Value("q", std::nullopt, false, kCpu, "[n]");
  const int r = in_place.Value("r", std::nullopt, false, kCpu, "[n]");
  const int s = in_place.Kept("s");
  in_place.Node("n0", {p}, {q});
  in_place.Node("relu", {q}, {r}, {{0, 0}});
  in_place.Node("n2", {r}, {s});
  const AllocationPlan plan2 = in_place.Plan();
  REQUIRE(plan2.in_place.size() == 1);
  CHECK(plan2.BufferOf(r) == plan2.BufferOf(q));
}

TEST_CASE("Planner: non-tensor values and unread outputs", "[memory][planner]") {
  Builder b;
  const int x = b.Kept("x");
  const int seq = b.Value("seq", std::nullopt, false, kCpu, "", 0);
  const int a = b.Value("a", 400), unused = b.Value("unused", 400), c = b.Value("c", 400);
  const int y = b.Kept("y");
  b.Node("make_seq", {x}, {seq});
  b.Node("at", {seq, -1}, {a, unused, -1});
  b.Node("n2", {a}, {c});
  b.Node("n3", {c}, {y});
  const AllocationPlan plan = b.Plan();

  CHECK(plan.buffers[plan.BufferOf(seq)].kind == Kind::kPrivate);
  CHECK(plan.release_after[1] == Ids{0, 2});  // seq after its reader, unused at once
  CHECK(plan.BufferOf(c) == plan.BufferOf(unused));
}

TEST_CASE("Planner: invalid input is reported, not thrown", "[memory][planner]") {
  auto error = [](const Builder& b) { return PlanAllocations(b.input).status(); };
  Builder unknown;
  unknown.Kept("x");
  unknown.Node("n0", {0, 7}, {});
  CHECK(error(unknown).code() == StatusCode::kInvalidArgument);
  CHECK(error(unknown).message().find("node 'n0' (#0) reads unknown value id 7") !=
        std::string::npos);

  Builder duplicate;
  duplicate.Kept("x");
  duplicate.input.values.push_back({0, "x2", false, 4, 400, {}, {}});
  CHECK(error(duplicate).message().find("listed twice") != std::string::npos);

  Builder twice;
  const int x = twice.Kept("x"), a = twice.Value("a", 400);
  twice.Node("n0", {x}, {a});
  twice.Node("n1", {x}, {a});
  CHECK(error(twice).message().find("'a' is produced by node 'n0' (#0) and node 'n1'") !=
        std::string::npos);

  Builder early;
  const int ex = early.Kept("x"), ea = early.Value("a", 400), eb = early.Value("b", 400);
  early.Node("n0", {ea}, {eb});
  early.Node("n1", {ex}, {ea});
  CHECK(error(early).message().find("reads value 'a' before any node produces it") !=
        std::string::npos);

  Builder bad_in_place;
  const int bx = bad_in_place.Kept("x"), ba = bad_in_place.Value("a", 400);
  bad_in_place.Node("n0", {bx}, {ba}, {{1, 0}});
  CHECK(error(bad_in_place).message().find("in-place input 1 -> output 0") != std::string::npos);
}

TEST_CASE("Memory pattern: overlapping lifetimes never overlap in memory", "[memory][planner]") {
  Builder b;
  const int x = b.Kept("x");
  const int a = b.Value("a", 64), bb = b.Value("b", 64), c = b.Value("c", 256);
  const int y = b.Kept("y");
  b.Node("n0", {x}, {a});
  b.Node("n1", {a}, {bb});
  b.Node("n2", {bb}, {c});
  b.Node("n3", {c}, {y});
  const AllocationPlan plan = b.Plan();
  REQUIRE(plan.CountBuffers(Kind::kShared) == 3);

  auto pattern = ComputeMemoryPattern(plan, {{a, 64}, {bb, 64}, {c, 256}, {y, 400}});
  REQUIRE(pattern.ok());
  REQUIRE(pattern->blocks.size() == 1);
  // Largest first: c at 0; a (nodes 0-1) does not meet c (nodes 2-3) and shares offset 0;
  // b (nodes 1-2) meets both and goes after c.
  CHECK(pattern->Find(plan.BufferOf(c))->offset == 0);
  CHECK(pattern->Find(plan.BufferOf(a))->offset == 0);
  CHECK(pattern->Find(plan.BufferOf(bb))->offset == 256);
  CHECK(pattern->TotalBytes(kCpu) == 320);
  CHECK(pattern->Find(plan.BufferOf(y)) == nullptr);
  CheckNoOverlap(plan, *pattern);
}

TEST_CASE("Memory pattern: sizes are aligned and take the largest user", "[memory][planner]") {
  Builder b;
  const int x = b.Kept("x");
  const int a = b.Value("a", 100), bb = b.Value("b", 200), c = b.Value("c", 50);
  const int d = b.Value("d", std::nullopt);
  const int y = b.Kept("y");
  b.Node("n0", {x}, {a});
  b.Node("n1", {a}, {bb});
  b.Node("n2", {bb}, {c});  // fits in a's 100 B buffer
  b.Node("n3", {c}, {d});
  b.Node("n4", {d}, {y});
  const AllocationPlan plan = b.Plan();
  REQUIRE(plan.BufferOf(c) == plan.BufferOf(a));

  // a is missing from the map: its static 100 B count. d is dynamic: 1000 B in this run.
  auto pattern = ComputeMemoryPattern(plan, {{bb, 200}, {c, 50}, {d, 1000}});
  REQUIRE(pattern.ok());
  const auto* pa = pattern->Find(plan.BufferOf(a));
  const auto* pb = pattern->Find(plan.BufferOf(bb));
  const auto* pd = pattern->Find(plan.BufferOf(d));
  CHECK(pd->bytes == 1024);
  CHECK(pd->offset == 0);   // the largest, first placed
  CHECK(pb->bytes == 256);  // nodes 1-2 never meet d's nodes 3-4
  CHECK(pb->offset == 0);
  CHECK(pa->bytes == 128);
  CHECK(pa->offset == 1024);  // nodes 0-3 meet both d and b
  CHECK(pattern->TotalBytes(kCpu) == 1152);
  CheckNoOverlap(plan, *pattern);
  CHECK(pattern->Describe().find("buffer 0 at 1024 (128 B)") != std::string::npos);

  CHECK(ComputeMemoryPattern(plan, {{99, 8}}).status().message().find("value id 99") !=
        std::string::npos);
}

TEST_CASE("Memory pattern: one block per device", "[memory][planner]") {
  Builder b;
  const int x = b.Kept("x");
  const int a = b.Value("a", 128, false, kCpu), bb = b.Value("b", 64, false, kCuda);
  const int y = b.Kept("y");
  b.Node("n0", {x}, {a});
  b.Node("n1", {a}, {bb});
  b.Node("n2", {bb}, {y});
  const AllocationPlan plan = b.Plan();
  auto pattern = ComputeMemoryPattern(plan, {});
  REQUIRE(pattern.ok());
  CHECK(pattern->blocks.size() == 2);
  CHECK(pattern->TotalBytes(kCpu) == 128);
  CHECK(pattern->TotalBytes(kCuda) == 64);
  CHECK(pattern->Find(plan.BufferOf(bb))->offset == 0);
}

TEST_CASE("Memory pattern cache: keyed by input shapes", "[memory][planner]") {
  MemoryPatternCache cache(2);
  MemoryPattern pattern;
  pattern.blocks.push_back({kCpu, 320, {{0, 0, 320, {}}}});
  const MemoryPatternCache::ShapeKey shapes{{1, 3}, {3}};

  CHECK(cache.Find(shapes) == nullptr);
  auto inserted = cache.Insert(shapes, pattern);
  CHECK(cache.Find(shapes) == inserted);
  CHECK(cache.Find(shapes)->TotalBytes(kCpu) == 320);
  CHECK(cache.Find({{2, 3}, {3}}) == nullptr);  // new shapes: recompute

  MemoryPattern other;
  CHECK(cache.Insert(shapes, other) == inserted);  // the first pattern for a key wins
  cache.Insert({{2, 3}, {3}}, other);
  cache.Insert({{4, 3}, {3}}, other);  // capacity 2: the oldest goes
  CHECK(cache.size() == 2);
  CHECK(cache.Find(shapes) == nullptr);
  CHECK(inserted->TotalBytes(kCpu) == 320);  // still valid for whoever holds it
  cache.Clear();
  CHECK(cache.Find({{2, 3}, {3}}) == nullptr);
}

TEST_CASE("Memory pattern: each placement lists the buffers sharing its bytes",
          "[memory][planner]") {
  // p lives A..B, q B..C, r C..D and is too big for p's freed buffer. Largest first, r goes at
  // offset 0; p, never alive with r, goes there too; q, alive with both, goes after r.
  Builder b;
  const int x = b.Kept("x", 64);
  const int p = b.Value("p", 64), q = b.Value("q", 64), r = b.Value("r", 256);
  const int out = b.Kept("out", 64);
  b.Node("A", {x}, {p});
  b.Node("B", {p}, {q});
  b.Node("C", {q}, {r});
  b.Node("D", {r}, {out});
  const AllocationPlan plan = b.Plan();
  const int bp = plan.BufferOf(p), bq = plan.BufferOf(q), br = plan.BufferOf(r);
  REQUIRE(plan.CountBuffers(Kind::kShared) == 3);
  auto pattern = ComputeMemoryPattern(plan, {}).value();
  CHECK(pattern.Find(br)->offset == 0);
  CHECK(pattern.Find(bp)->offset == 0);
  CHECK(pattern.Find(bq)->offset == 256);
  CHECK(pattern.Find(bp)->overlaps == Ids{br});
  CHECK(pattern.Find(br)->overlaps == Ids{bp});
  CHECK(pattern.Find(bq)->overlaps.empty());
}

TEST_CASE("Planner: a view shares its input's buffer, which stays reserved while either lives",
          "[memory][planner]") {
  // a -> Reshape -> v; a is read again after the Reshape, v later still; c is written while v
  // lives and must not take a's buffer, nor may n3 compute in place over a.
  Builder b;
  const int x = b.Kept("x");
  const int a = b.Value("a", 400), v = b.Value("v", 400), c = b.Value("c", 400);
  const int d = b.Value("d", 400), e = b.Value("e", 400);
  const int y = b.Kept("y");
  const int fv = b.Value("feed_view", 400);
  b.Node("n0", {x}, {a});
  b.input.nodes.push_back({"reshape", {a}, {v}, {}, {{0, 0}}});
  b.input.nodes.push_back({"view_of_feed", {x}, {fv}, {}, {{0, 0}}});
  b.Node("n2", {a}, {c}, {{0, 0}});
  b.Node("n3", {c, v}, {d}, {{0, 0}});
  b.Node("n4", {d, fv}, {e});
  b.Node("n5", {e}, {y});
  const AllocationPlan plan = b.Plan();

  CHECK(plan.BufferOf(v) == plan.BufferOf(a));
  CHECK(plan.BufferOf(fv) == AllocationPlan::kNoBuffer);
  CHECK(plan.BufferOf(c) != plan.BufferOf(a));
  // c dies at n3 with no view on it: d takes its buffer in place; a's buffer is free once v,
  // read last by n3, is dead, and e takes it.
  CHECK(plan.BufferOf(d) == plan.BufferOf(c));
  CHECK(plan.buffers[plan.BufferOf(a)].values == Ids{a, v, e});
  CHECK(plan.release_after[4] == Ids{plan.BufferOf(a)});
  auto pattern = ComputeMemoryPattern(plan, {});
  REQUIRE(pattern.ok());
  CheckNoOverlap(plan, *pattern);
}

}  // namespace ort
