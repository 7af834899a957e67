#include "test/providers/cpu/op_tester.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "lib/ir/four_bit.h"
#include "lib/ir/model.h"
#include "lib/session/inference_session.h"
#include "providers/provider_factory.h"

namespace ort::test {

OpTester::OpTester(std::string op_type, int opset, std::string domain)
    : op_type_(std::move(op_type)), opset_(opset), domain_(std::move(domain)) {}

OpTester& OpTester::Attr(Attribute attribute) {
  attributes_.push_back(std::move(attribute));
  return *this;
}

OpTester& OpTester::AddInput(std::string name, Tensor tensor, bool constant) {
  inputs_.push_back({std::move(name), std::move(tensor), constant});
  return *this;
}

OpTester& OpTester::OmittedInput() {
  inputs_.push_back({"", Tensor(), false});
  return *this;
}

OpTester& OpTester::TensorOutput(std::string name, Tensor expected) {
  outputs_.push_back({std::move(name), std::move(expected)});
  return *this;
}

OpTester& OpTester::UncheckedOutput(std::string name) {
  outputs_.push_back({std::move(name), Tensor()});
  return *this;
}

OpTester& OpTester::OmittedOutput() {
  outputs_.push_back({"", Tensor()});
  return *this;
}

OpTester& OpTester::SetTolerance(double rtol, double atol) {
  tolerance_ = {rtol, atol};
  return *this;
}

OpTester& OpTester::Threads(int intra_op_threads) {
  threads_ = intra_op_threads;
  return *this;
}

Status OpTester::Execute(std::vector<Value>* outputs) {
  auto model = std::make_unique<Model>();
  model->opsets()[domain_] = opset_;
  if (!domain_.empty()) model->opsets()[""] = 17;
  model->path = "op_test_" + op_type_;
  Graph& graph = model->graph();
  graph.set_name("op_test");

  std::vector<std::string> graph_inputs;
  std::vector<NamedValue> feeds;
  NodeSpec spec;
  spec.name = "node_under_test";
  spec.op_type = op_type_;
  spec.domain = domain_;
  for (const auto& input : inputs_) {
    spec.inputs.push_back(input.name);
    if (input.name.empty()) continue;
    if (input.constant) {
      graph.AddInitializer(input.name, input.tensor);
    } else {
      SymbolicShape shape;
      for (int64_t d : input.tensor.shape().dims()) shape.push_back(Dimension::Known(d));
      graph.SetValueType(input.name, ValueType::Tensor(input.tensor.dtype(), shape));
      graph_inputs.push_back(input.name);
      feeds.emplace_back(input.name, Value(input.tensor));
    }
  }
  std::vector<std::string> graph_outputs;
  for (const auto& output : outputs_) {
    spec.outputs.push_back(output.name);
    if (output.name.empty()) continue;
    graph_outputs.push_back(output.name);
    if (output.expected.IsDefined()) {
      graph.SetValueType(output.name, ValueType::Tensor(output.expected.dtype()));
    }
  }
  for (auto& attribute : attributes_) spec.attributes.push_back(std::move(attribute));
  attributes_.clear();
  graph.set_inputs(graph_inputs);
  graph.set_outputs(graph_outputs);
  graph.AddNode(std::move(spec));
  graph.ResolveOuterScope();

  SessionOptions options;
  options.optimization_level = OptimizationLevel::kDisable;
  options.intra_op_threads = threads_;
  InferenceSession session(options);
  ORT_ASSIGN_OR_RETURN(auto providers, CreateProviders({"cpu"}));
  for (auto& provider : providers)
    ORT_RETURN_IF_ERROR(session.RegisterProvider(std::move(provider)));
  ORT_RETURN_IF_ERROR(session.Load(std::move(model)));
  ORT_RETURN_IF_ERROR(session.Initialize());
  return session.Run(RunOptions{}, feeds, {}, outputs);
}

void OpTester::Run() {
  std::vector<Value> results;
  Status status = Execute(&results);
  INFO(op_type_ << " opset " << opset_);
  REQUIRE(status.ToString() == "OK");
  size_t result_index = 0;
  for (const auto& output : outputs_) {
    if (output.name.empty()) continue;
    const Value& result = results[result_index++];
    if (!output.expected.IsDefined()) continue;
    const Comparison comparison = CompareValues(result, Value(output.expected), tolerance_);
    INFO("output '" << output.name << "': " << comparison.detail);
    CHECK(comparison.match);
  }
}

void OpTester::RunExpectingError(const std::string& substring) {
  std::vector<Value> results;
  Status status = Execute(&results);
  INFO(op_type_ << " opset " << opset_ << ": " << status.ToString());
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find(substring) != std::string::npos);
}

Tensor OpTester::MakeFloat8(DataType type, std::vector<int64_t> dims,
                            const std::vector<uint8_t>& codes) {
  Tensor tensor = Tensor::Allocate(type, TensorShape(std::move(dims))).value();
  std::copy(codes.begin(), codes.end(), static_cast<uint8_t*>(tensor.MutableRawData()));
  return tensor;
}

Tensor OpTester::MakeFourBit(DataType type, std::vector<int64_t> dims,
                             const std::vector<int>& values) {
  Tensor tensor = Tensor::Allocate(type, TensorShape(std::move(dims))).value();
  std::fill_n(static_cast<uint8_t*>(tensor.MutableRawData()), tensor.SizeInBytes(), 0);
  for (size_t i = 0; i < values.size(); ++i) {
    WriteFourBit(tensor.MutableRawData(), static_cast<int64_t>(i), values[i]);
  }
  return tensor;
}

}  // namespace ort::test
