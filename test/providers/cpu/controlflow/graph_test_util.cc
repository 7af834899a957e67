#include "test/providers/cpu/controlflow/graph_test_util.h"

#include <catch2/catch.hpp>

#include "lib/io/compare.h"
#include "providers/provider_factory.h"
#include "test/providers/cpu/op_tester.h"

namespace ort::test {

GraphBuilder& GraphBuilder::Input(const std::string& name, ValueType type) {
  graph_.SetValueType(name, std::move(type));
  inputs_.push_back(name);
  graph_.set_inputs(inputs_);
  return *this;
}

GraphBuilder& GraphBuilder::Output(const std::string& name, ValueType type) {
  if (type.kind != ValueType::Kind::kUnknown) graph_.SetValueType(name, std::move(type));
  outputs_.push_back(name);
  graph_.set_outputs(outputs_);
  return *this;
}

GraphBuilder& GraphBuilder::Initializer(const std::string& name, Tensor tensor) {
  graph_.AddInitializer(name, std::move(tensor));
  return *this;
}

GraphBuilder& GraphBuilder::Node(std::string op_type, std::vector<std::string> inputs,
                                 std::vector<std::string> outputs,
                                 std::vector<Attribute> attributes) {
  NodeSpec spec;
  spec.name = graph_.UniqueNodeName(op_type);
  spec.op_type = std::move(op_type);
  spec.inputs = std::move(inputs);
  spec.outputs = std::move(outputs);
  spec.attributes = std::move(attributes);
  graph_.AddNode(std::move(spec));
  return *this;
}

TestModel::TestModel(int opset) : model_(std::make_unique<Model>()), main_(model_->graph()) {
  model_->opsets()[""] = opset;
  model_->path = "graph_test";
  model_->graph().set_name("main");
}

std::unique_ptr<Graph> TestModel::NewSubgraph(const std::string& name) const {
  auto graph = std::make_unique<Graph>(model_->graph().shared_opsets());
  graph->set_name(name);
  return graph;
}

Status TestModel::Run(const std::vector<std::pair<std::string, Value>>& feeds,
                      std::vector<Value>* outputs, int threads,
                      const std::atomic<bool>* terminate) {
  model_->graph().ResolveOuterScope();
  SessionOptions options;
  options.optimization_level = OptimizationLevel::kDisable;
  options.intra_op_threads = threads;
  InferenceSession session(options);
  ORT_ASSIGN_OR_RETURN(auto providers, CreateProviders({"cpu"}));
  for (auto& provider : providers)
    ORT_RETURN_IF_ERROR(session.RegisterProvider(std::move(provider)));
  ORT_RETURN_IF_ERROR(session.Load(std::move(model_)));
  ORT_RETURN_IF_ERROR(session.Initialize());
  std::vector<NamedValue> named(feeds.begin(), feeds.end());
  RunOptions run_options;
  run_options.terminate = terminate;
  return session.Run(run_options, named, {}, outputs);
}

ValueType FloatType(std::vector<int64_t> dims) {
  return TensorType(DataType::kFloat, std::move(dims));
}

ValueType TensorType(DataType type, std::vector<int64_t> dims) {
  SymbolicShape shape;
  for (int64_t d : dims) shape.push_back(Dimension::Known(d));
  return ValueType::Tensor(type, shape);
}

ValueType TensorTypeUnknownShape(DataType type) { return ValueType::Tensor(type); }

ValueType SequenceType(DataType type) { return ValueType::SequenceOf(ValueType::Tensor(type)); }

void CheckValue(const Value& actual, const Value& expected) {
  const Comparison comparison = CompareValues(actual, expected, Tolerance{1e-5, 1e-6});
  INFO("actual " << actual.Describe() << ", expected " << expected.Describe() << ": "
                 << comparison.detail);
  CHECK(comparison.match);
}

Tensor Floats(std::vector<int64_t> dims, std::vector<float> values) {
  return OpTester::MakeTensor<float>(std::move(dims), values);
}

Tensor Int64s(std::vector<int64_t> dims, std::vector<int64_t> values) {
  return OpTester::MakeTensor<int64_t>(std::move(dims), values);
}

Tensor Bools(std::vector<int64_t> dims, std::vector<bool> values) {
  return OpTester::MakeTensor<bool>(std::move(dims), values);
}

}  // namespace ort::test
