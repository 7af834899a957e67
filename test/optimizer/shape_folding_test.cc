// constant_folding of shape pieces: Shape, Gather and Slice of a shape become constants when the
// dimensions they select are known, even when others are symbolic.
#include "providers/cpu/cpu_provider.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {

TEST_CASE("constant_folding folds the known pieces of a partly symbolic shape", "[optimizer]") {
  Model model = MakeModel(15);
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"batch", "rows", "last", "tail", "sliced"});
  graph.SetValueType(
      "x",
      ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Symbol("batch"),
                                                        Dimension::Known(4), Dimension::Known(6)}));
  graph.AddNode({"shape", "Shape", "", {"x"}, {"shape"}, {}});
  graph.AddInitializer("zero", Tensor::Scalar<int64_t>(0));
  graph.AddInitializer("one", Tensor::Scalar<int64_t>(1));
  graph.AddInitializer("minus_one", Tensor::FromVector<int64_t>({1}, {-1}));
  graph.AddNode({"batch", "Gather", "", {"shape", "zero"}, {"batch"}, {}});
  graph.AddNode({"rows", "Gather", "", {"shape", "one"}, {"rows"}, {}});
  graph.AddNode({"last", "Gather", "", {"shape", "minus_one"}, {"last"}, {}});
  graph.AddNode({"tail", "Shape", "", {"x"}, {"tail"}, {}})
      .SetAttribute(Attribute::Int("start", 1));
  graph.AddInitializer("starts", Tensor::FromVector<int64_t>({1}, {1}));
  graph.AddInitializer("ends", Tensor::FromVector<int64_t>({1}, {100}));
  graph.AddNode({"sliced", "Slice", "", {"shape", "starts", "ends"}, {"sliced"}, {}});

  graph.ResolveOuterScope();
  CpuExecutionProvider cpu;
  IExecutionProvider* providers[] = {&cpu};
  const Status status =
      OptimizeGraph(model, {.level = OptimizationLevel::kBasic, .strict = true}, providers);
  INFO(status.ToString());
  REQUIRE(status.ok());

  CHECK(OpTypes(graph) == Ops{"Shape", "Gather"});  // the batch size is only known at run time
  const auto values = [&graph](const std::string& name) {
    const Tensor* tensor = graph.GetInitializer(name);
    REQUIRE(tensor != nullptr);
    auto span = tensor->Span<int64_t>();
    return std::make_pair(tensor->shape(), std::vector<int64_t>(span.begin(), span.end()));
  };
  CHECK(values("rows") == std::make_pair(TensorShape{}, std::vector<int64_t>{4}));
  CHECK(values("last") == std::make_pair(TensorShape{1}, std::vector<int64_t>{6}));
  CHECK(values("tail") == std::make_pair(TensorShape{2}, std::vector<int64_t>{4, 6}));
  CHECK(values("sliced") == std::make_pair(TensorShape{2}, std::vector<int64_t>{4, 6}));
}

}  // namespace ort::test
