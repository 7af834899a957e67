#include "test/shape/shape_test_util.h"

namespace ort::test {

ShapeGraph::ShapeGraph(int64_t opset) { model_.opsets()[""] = opset; }

void ShapeGraph::Input(const std::string& name, std::vector<TestDim> dims, DataType type) {
  SymbolicShape shape;
  for (const TestDim& dim : dims) {
    shape.push_back(std::holds_alternative<int64_t>(dim)
                        ? Dimension::Known(std::get<int64_t>(dim))
                        : Dimension::Symbol(std::get<std::string>(dim)));
  }
  graph().SetValueType(name, ValueType::Tensor(type, shape));
  auto inputs = graph().inputs();
  inputs.push_back(name);
  graph().set_inputs(inputs);
}

void ShapeGraph::Ints(const std::string& name, std::vector<int64_t> values, bool scalar) {
  graph().AddInitializer(name,
                         scalar ? Tensor::Scalar<int64_t>(values.at(0))
                                : Tensor::FromVector<int64_t>({static_cast<int64_t>(values.size())},
                                                              std::span<const int64_t>(values)));
}

Node& ShapeGraph::Add(const std::string& op, std::vector<std::string> inputs,
                      std::vector<std::string> outputs, const std::string& domain) {
  shapes_.reset();
  const std::string name = outputs.empty() ? op : outputs[0];
  return graph().AddNode({name, op, domain, std::move(inputs), std::move(outputs), {}});
}

SymbolicShapes& ShapeGraph::Analyse() {
  graph().ResolveOuterScope();
  shapes_ = std::make_unique<SymbolicShapes>(graph());
  return *shapes_;
}

std::string ShapeGraph::Spell(const std::vector<DimExpr>& dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) text += ",";
    text += shapes_->symbols().IsFresh(dims[i]) ? "?" : dims[i].ToString();
  }
  return text + "]";
}

std::string ShapeGraph::Shape(const std::string& value) {
  if (!shapes_) Analyse();
  const TensorFacts& facts = shapes_->Facts(value);
  return facts.shape ? Spell(*facts.shape) : "?";
}

std::string ShapeGraph::Values(const std::string& value) {
  if (!shapes_) Analyse();
  const TensorFacts& facts = shapes_->Facts(value);
  return facts.values ? Spell(*facts.values) : "none";
}

}  // namespace ort::test
