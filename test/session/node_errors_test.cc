// Kernel errors reach the caller naming their node exactly once, whether the kernel named it
// (KernelContext::Error, Status::WithNode) or left that to the session.
#include <catch2/catch.hpp>

#include <new>

#include "lib/ir/model.h"
#include "lib/session/inference_session.h"
#include "providers/cpu/cpu_provider.h"

namespace ort {
namespace {

// Fails at every run, naming its node itself or not.
template <bool kNamesNode>
class FailingCompute final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    if constexpr (kNamesNode) {
      return context.Error("bad values");
    } else {
      return ORT_ERROR(kInvalidArgument, "bad values");
    }
  }
};

// Fails at kernel creation, naming its node itself or not.
template <bool kNamesNode>
class FailingInit final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    const Status error = ORT_ERROR(kInvalidModel, "bad attributes");
    return kNamesNode ? error.WithNode(info.node().Describe()) : error;
  }
  Status Compute(KernelContext&) const override { return Status::OK(); }
};

// Runs out of memory pre-packing its weights.
class ThrowingInit final : public OpKernel {
 public:
  Status Init(const KernelInfo&) override { throw std::bad_alloc(); }
  Status Compute(KernelContext&) const override { return Status::OK(); }
};

// Claims five unary ops with kernels that fail, each in one of the ways above.
class FailingProvider final : public IExecutionProvider {
 public:
  FailingProvider() : IExecutionProvider("failing") {
    registry_.Add<FailingCompute<true>>(KernelDef("Neg").Versions(1));
    registry_.Add<FailingCompute<false>>(KernelDef("Abs").Versions(1));
    registry_.Add<FailingInit<true>>(KernelDef("Sigmoid").Versions(1));
    registry_.Add<FailingInit<false>>(KernelDef("Tanh").Versions(1));
    registry_.Add<ThrowingInit>(KernelDef("Relu").Versions(1));
  }
  const KernelRegistry& kernel_registry() const override { return registry_; }
  std::shared_ptr<IAllocator> allocator() const override { return DefaultCpuAllocator(); }

 private:
  KernelRegistry registry_;
};

ValueType Floats() {
  return ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Known(2)});
}

// y = op(x) in node 'failing'; with `in_if`, inside both branches of If node 'if' on `cond`.
std::unique_ptr<Model> FailingModel(const std::string& op, bool in_if) {
  auto model = std::make_unique<Model>();
  model->opsets()[""] = 14;
  model->path = "node_errors";
  Graph& graph = model->graph();
  graph.set_inputs({"cond", "x"});
  graph.set_outputs({"y"});
  graph.SetValueType("cond", ValueType::Tensor(DataType::kBool, SymbolicShape{}));
  graph.SetValueType("x", Floats());
  if (!in_if) {
    graph.AddNode({"failing", op, "", {"x"}, {"y"}, {}});
  } else {
    std::vector<Attribute> branches;
    for (const char* name : {"then_branch", "else_branch"}) {
      auto branch = std::make_unique<Graph>(graph.shared_opsets());
      branch->set_name(name);
      branch->AddNode({"failing", op, "", {"x"}, {"t"}, {}});
      branch->SetValueType("t", Floats());
      branch->set_outputs({"t"});
      branches.push_back(Attribute::GraphValue(name, std::move(branch)));
    }
    graph.AddNode({"if", "If", "", {"cond"}, {"y"}, std::move(branches)});
  }
  graph.ResolveOuterScope();
  return model;
}

// Loads op's model on the failing provider (CPU takes If), runs it when it initializes and
// checks the error that reaches the caller.
void CheckError(const std::string& op, bool in_if, StatusCode code, const std::string& message) {
  INFO(op);
  SessionOptions options;
  options.optimization_level = OptimizationLevel::kDisable;
  InferenceSession session(options);
  REQUIRE(session.RegisterProvider(std::make_unique<FailingProvider>()).ok());
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session.Load(FailingModel(op, in_if)).ok());
  Status status = session.Initialize();
  if (status.ok()) {
    std::vector<NamedValue> feeds{{"cond", Value(Tensor::FromVector<bool>({}, {true}))},
                                  {"x", Value(Tensor::FromVector<float>({2}, {1, 2}))}};
    std::vector<Value> outputs;
    status = session.Run({}, feeds, {}, &outputs);
  }
  CHECK(status.code() == code);
  CHECK(status.message() == message);
}

}  // namespace

TEST_CASE("A kernel's run error names its node once, however the kernel built it",
          "[session][errors]") {
  CheckError("Neg", false, StatusCode::kInvalidArgument,
             "node_errors: node 'failing' (Neg): bad values");
  CheckError("Abs", false, StatusCode::kInvalidArgument,
             "node_errors: node 'failing' (Abs): bad values");
}

TEST_CASE("A kernel's creation error names its node once, however the kernel built it",
          "[session][errors]") {
  CheckError("Sigmoid", false, StatusCode::kInvalidModel,
             "node_errors: node 'failing' (Sigmoid): bad attributes");
  CheckError("Tanh", false, StatusCode::kInvalidModel,
             "node_errors: node 'failing' (Tanh): bad attributes");
}

TEST_CASE("A kernel running out of memory at creation fails the session, naming its node",
          "[session][errors]") {
  CheckError("Relu", false, StatusCode::kOutOfMemory,
             "node_errors: node 'failing' (Relu): out of memory creating the kernel");
}

TEST_CASE("An error inside a subgraph names the inner node and the node running the subgraph",
          "[session][errors]") {
  CheckError("Neg", true, StatusCode::kInvalidArgument,
             "node_errors: node 'if' (If): node 'failing' (Neg): bad values");
  CheckError("Abs", true, StatusCode::kInvalidArgument,
             "node_errors: node 'if' (If): node 'failing' (Abs): bad values");
}

}  // namespace ort
