#include <catch2/catch.hpp>

#include <algorithm>

#include "lib/ir/model.h"
#include "lib/session/inference_session.h"
#include "lib/session/partitioner.h"
#include "providers/cpu/cpu_provider.h"

namespace ort {
namespace {

// Negates its float input: a kernel only the test provider has.
class TestNegate final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kFloat, x->shape()));
    for (int64_t i = 0; i < x->NumElements(); ++i)
      y->MutableData<float>()[i] = -x->Data<float>()[i];
    return Status::OK();
  }
};

// A provider that claims only Neg nodes.
class NegOnlyProvider final : public IExecutionProvider {
 public:
  NegOnlyProvider() : IExecutionProvider("neg_only") {
    registry_.Add<TestNegate>(KernelDef("Neg").Versions(1).Input(0, {DataType::kFloat}));
  }
  const KernelRegistry& kernel_registry() const override { return registry_; }
  std::shared_ptr<IAllocator> allocator() const override { return DefaultCpuAllocator(); }

 private:
  KernelRegistry registry_;
};

std::unique_ptr<Model> NegAddModel() {
  auto model = std::make_unique<Model>();
  model->opsets()[""] = 14;
  Graph& graph = model->graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"z"});
  graph.SetValueType("x", ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Known(2)}));
  graph.AddNode({"neg", "Neg", "", {"x"}, {"y"}, {}});
  graph.AddNode({"add", "Add", "", {"x", "y2"}, {"z"}, {}});
  graph.AddNode({"neg2", "Neg", "", {"y"}, {"y2"}, {}});
  graph.ResolveOuterScope();
  return model;
}

}  // namespace

TEST_CASE("Providers claim nodes in priority order and CPU takes the rest",
          "[session][partition]") {
  auto model = NegAddModel();
  NegOnlyProvider neg_only;
  CpuExecutionProvider cpu;
  std::vector<IExecutionProvider*> providers{&neg_only, &cpu};
  REQUIRE(PartitionGraph(model->graph(), providers).ok());
  for (const Node* node : model->graph().Nodes()) {
    CHECK(node->provider() == (node->op_type() == "Neg" ? "neg_only" : "cpu"));
  }

  std::vector<IExecutionProvider*> cpu_first{&cpu, &neg_only};
  REQUIRE(PartitionGraph(model->graph(), cpu_first).ok());
  for (const Node* node : model->graph().Nodes()) {
    if (node->op_type() == "Add") CHECK(node->provider() == "cpu");
  }
}

TEST_CASE("Partitioning fails without the CPU fallback or a capable provider",
          "[session][partition]") {
  auto model = NegAddModel();
  NegOnlyProvider neg_only;
  std::vector<IExecutionProvider*> without_cpu{&neg_only};
  CHECK(PartitionGraph(model->graph(), without_cpu).message().find("CPU provider") !=
        std::string::npos);

  model->graph().AddNode({"odd", "NoSuchOp", "", {"z"}, {"w"}, {}});
  CpuExecutionProvider cpu;
  std::vector<IExecutionProvider*> providers{&neg_only, &cpu};
  Status status = PartitionGraph(model->graph(), providers);
  CHECK(status.message().find("node 'odd' (NoSuchOp)") != std::string::npos);
}

TEST_CASE("A session runs a graph split across two providers", "[session][partition]") {
  SessionOptions options;
  options.optimization_level = OptimizationLevel::kDisable;
  InferenceSession session(options);
  REQUIRE(session.RegisterProvider(std::make_unique<NegOnlyProvider>()).ok());
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session.Load(NegAddModel()).ok());
  REQUIRE(session.Initialize().ok());
  std::vector<NamedValue> feeds{{"x", Value(Tensor::FromVector<float>({2}, {1.5f, -2.0f}))}};
  std::vector<Value> outputs;
  REQUIRE(session.Run({}, feeds, {}, &outputs).ok());
  // z = x + (-(-x)) = 2x
  CHECK(outputs[0].tensor().Data<float>()[0] == 3.0f);
  CHECK(outputs[0].tensor().Data<float>()[1] == -4.0f);
}

}  // namespace ort
