// Building and running small multi-node models, with subgraphs, for the tests of kernels that
// OpTester's single node cannot exercise: control flow (If, Loop, Scan, SequenceMap) and ops
// whose inputs or outputs are sequences or optionals.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lib/ir/model.h"
#include "lib/ir/value.h"
#include "lib/session/inference_session.h"

namespace ort::test {

/// A graph under construction: the main graph of a TestModel or a subgraph.
class GraphBuilder {
 public:
  explicit GraphBuilder(Graph& graph) : graph_(graph) {}

  /// Declares a graph input (fed at run time, or a subgraph's formal input).
  GraphBuilder& Input(const std::string& name, ValueType type);
  GraphBuilder& Output(const std::string& name, ValueType type = {});
  GraphBuilder& Initializer(const std::string& name, Tensor tensor);
  /// Adds a node; "" in `inputs`/`outputs` marks an omitted optional one.
  GraphBuilder& Node(std::string op_type, std::vector<std::string> inputs,
                     std::vector<std::string> outputs, std::vector<Attribute> attributes = {});
  Graph& graph() { return graph_; }

 private:
  Graph& graph_;
  std::vector<std::string> inputs_;
  std::vector<std::string> outputs_;
};

class TestModel {
 public:
  explicit TestModel(int opset = 17);

  GraphBuilder& main() { return main_; }
  /// A new subgraph sharing the model's opsets; hand it to an attribute with TakeSubgraph.
  std::unique_ptr<Graph> NewSubgraph(const std::string& name) const;

  /// Resolves scopes, creates a session and runs it once.
  Status Run(const std::vector<std::pair<std::string, Value>>& feeds, std::vector<Value>* outputs,
             int threads = 1, const std::atomic<bool>* terminate = nullptr);

 private:
  std::unique_ptr<Model> model_;
  GraphBuilder main_;
};

/// A float tensor type with a known shape.
ValueType FloatType(std::vector<int64_t> dims);
ValueType TensorType(DataType type, std::vector<int64_t> dims);
ValueType TensorTypeUnknownShape(DataType type);
ValueType SequenceType(DataType type);

/// CHECKs that `actual` matches `expected` (tensors, sequences or none).
void CheckValue(const Value& actual, const Value& expected);

/// A float tensor (shorthand for expected values and feeds).
Tensor Floats(std::vector<int64_t> dims, std::vector<float> values);
Tensor Int64s(std::vector<int64_t> dims, std::vector<int64_t> values);
Tensor Bools(std::vector<int64_t> dims, std::vector<bool> values);

}  // namespace ort::test
