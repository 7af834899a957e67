#include "lib/shape/symbolic_shapes.h"

#include <algorithm>

#include "lib/common/logging.h"
#include "lib/shape/shape_rules.h"

namespace ort {
namespace {

const TensorFacts kNothing;

void CollectSymbols(const Graph& graph, std::set<std::string, std::less<>>& names) {
  const auto add_type = [&names](const ValueType& type, const auto& self) -> void {
    if (type.shape) {
      for (const Dimension& dim : *type.shape) {
        if (!dim.IsKnown() && !dim.param.empty()) names.insert(dim.param);
      }
    }
    if (type.element) self(*type.element, self);
  };
  for (const auto& [name, info] : graph.value_infos()) add_type(info.type, add_type);
  for (const Node* node : graph.Nodes()) {
    for (const Graph* subgraph : node->Subgraphs()) CollectSymbols(*subgraph, names);
  }
}

const Graph& RootOf(const Graph& graph) {
  const Graph* root = &graph;
  while (root->parent_graph() != nullptr) root = root->parent_graph();
  return *root;
}

}  // namespace

SymbolTable::SymbolTable(const Graph& root) {
  CollectSymbols(root, model_names_);
  for (const std::string& input : root.inputs()) {
    const ValueInfo* info = root.FindValueInfo(input);
    if (info == nullptr || !info->type.shape) continue;
    for (const Dimension& dim : *info->type.shape) {
      if (!dim.IsKnown() && !dim.param.empty()) input_sizes_.insert(dim.param);
    }
  }
}

DimExpr SymbolTable::Fresh() {
  for (;;) {
    std::string name = "unk_" + std::to_string(next_++);
    if (model_names_.count(name) == 0) {
      fresh_.insert(name);
      return DimExpr::Symbol(std::move(name));
    }
  }
}

bool SymbolTable::IsFresh(const DimExpr& dim) const {
  const auto symbol = dim.AsSymbol();
  return symbol && fresh_.count(*symbol) > 0;
}

bool SymbolTable::IsModelSymbol(std::string_view name) const {
  return model_names_.count(name) > 0;
}

void SymbolTable::AddInputSize(const DimExpr& dim) {
  if (const auto symbol = dim.AsSymbol()) input_sizes_.emplace(*symbol);
}

bool SymbolTable::OnlyInputSizes(const DimExpr& dim) const {
  const auto input_size = [this](std::string_view name) -> std::optional<int64_t> {
    if (input_sizes_.count(name) == 0) return std::nullopt;
    return 1;
  };
  return dim.IsNonNegative() && dim.Evaluate(input_size).has_value();
}

SymbolicShapes::SymbolicShapes(const Graph& graph) : graph_(graph) {
  if (graph.parent_graph() != nullptr) {
    owned_parent_ = std::make_unique<SymbolicShapes>(*graph.parent_graph());
    parent_ = owned_parent_.get();
    symbols_ = parent_->symbols_;
  } else {
    symbols_ = std::make_shared<SymbolTable>(RootOf(graph));
  }
}

SymbolicShapes::SymbolicShapes(const Graph& graph, SymbolicShapes* parent,
                               std::shared_ptr<SymbolTable> symbols)
    : graph_(graph), parent_(parent), symbols_(std::move(symbols)) {}

SymbolicShapes::~SymbolicShapes() = default;

SymbolicShapes& SymbolicShapes::Subgraph(const Graph& subgraph) {
  auto& analysis = subgraphs_[&subgraph];
  if (!analysis) analysis.reset(new SymbolicShapes(subgraph, this, symbols_));
  return *analysis;
}

const TensorFacts& SymbolicShapes::Facts(std::string_view name) {
  if (name.empty()) return kNothing;
  const std::string value(name);
  if (auto it = facts_.find(value); it != facts_.end()) return it->second;
  if (!graph_.DefinesValue(value)) return parent_ != nullptr ? parent_->Facts(value) : kNothing;
  // Producers first, without recursion: shape chains can be as deep as the model.
  std::vector<std::string> pending{value};
  std::set<std::string> expanding;
  while (!pending.empty()) {
    const std::string current = pending.back();
    if (facts_.count(current) > 0) {
      pending.pop_back();
      continue;
    }
    const Node* producer = graph_.Producer(current);
    if (producer == nullptr) {
      facts_[current] = SourceFacts(current);
      pending.pop_back();
      continue;
    }
    bool ready = true;
    const auto need = [&](const std::string& input) {
      if (input.empty() || facts_.count(input) > 0 || !graph_.DefinesValue(input)) return;
      // A value needed while its own producers are pending: a cycle, about which nothing is known.
      if (expanding.count(input) > 0) {
        facts_[input] = {};
        return;
      }
      pending.push_back(input);
      ready = false;
    };
    for (const auto& input : producer->inputs()) need(input);
    for (const auto& input : producer->implicit_inputs()) need(input);
    if (!ready) {
      expanding.insert(current);
      continue;
    }
    InferNode(*producer);
    pending.pop_back();
  }
  return facts_[value];
}

TensorFacts SymbolicShapes::SourceFacts(const std::string& value) {
  if (const Tensor* constant = graph_.GetConstantInitializer(value, false)) {
    TensorFacts facts;
    facts.shape.emplace();
    for (int64_t dim : constant->shape().dims()) facts.shape->push_back(DimExpr::Constant(dim));
    facts.values = TensorValues(*constant);
    if (facts.values) facts.value_type = constant->dtype();
    return facts;
  }
  return FactsFromType(value);
}

TensorFacts SymbolicShapes::FactsFromType(const std::string& value) {
  const ValueInfo* info = graph_.FindValueInfo(value);
  if (info == nullptr || !info->type.IsTensor() || !info->type.shape) return {};
  TensorFacts facts;
  facts.shape.emplace();
  for (const Dimension& dim : *info->type.shape) {
    if (dim.IsKnown()) {
      facts.shape->push_back(DimExpr::Constant(dim.value));
    } else if (!dim.param.empty()) {
      facts.shape->push_back(DimExpr::Symbol(dim.param));
    } else {
      facts.shape->push_back(symbols_->Fresh());
      const auto& inputs = graph_.inputs();
      if (parent_ == nullptr && std::find(inputs.begin(), inputs.end(), value) != inputs.end()) {
        symbols_->AddInputSize(facts.shape->back());
      }
    }
  }
  return facts;
}

TensorFacts SymbolicShapes::Reconcile(const std::string& value, TensorFacts inferred) {
  const ValueInfo* info = graph_.FindValueInfo(value);
  if (info == nullptr || info->type.kind == ValueType::Kind::kUnknown) return inferred;
  const ValueType& type = info->type;
  if (!type.IsTensor()) return {};
  if (!type.shape) return inferred;
  if (!inferred.shape) return FactsFromType(value);
  if (inferred.shape->size() != type.shape->size()) {
    ORT_LOG_VERBOSE("symbolic shapes: '{}' is recorded as {} but inferred with rank {}; unknown",
                    value, type.ToString(), inferred.shape->size());
    return {};
  }
  for (size_t i = 0; i < inferred.shape->size(); ++i) {
    const Dimension& recorded = (*type.shape)[i];
    DimExpr& dim = (*inferred.shape)[i];
    if (recorded.IsKnown()) {
      const auto constant = dim.AsConstant();
      if (constant && *constant != recorded.value) {
        ORT_LOG_VERBOSE("symbolic shapes: '{}' dimension {} is recorded as {} but inferred as {}",
                        value, i, recorded.value, *constant);
        dim = symbols_->Fresh();
        inferred.values.reset();
      } else {
        dim = DimExpr::Constant(recorded.value);
      }
    } else if (!recorded.param.empty() && symbols_->IsFresh(dim)) {
      dim = DimExpr::Symbol(recorded.param);
    }
  }
  return inferred;
}

void SymbolicShapes::InferNode(const Node& node) {
  RuleContext context(*this, node);
  if (const ShapeRule rule = FindShapeRule(node.domain(), node.op_type())) rule(context);
  for (size_t i = 0; i < node.outputs().size(); ++i) {
    const std::string& output = node.outputs()[i];
    if (output.empty() || facts_.count(output) > 0) continue;
    // A negative size can only come from a malformed node: nothing is known of it.
    if (auto& shape = context.outputs()[i].shape) {
      for (DimExpr& dim : *shape) {
        const auto constant = dim.AsConstant();
        if (constant && *constant < 0) dim = symbols_->Fresh();
      }
    }
    facts_[output] = Reconcile(output, std::move(context.outputs()[i]));
  }
}

std::optional<Dimension> ToDimension(const DimExpr& dim, const SymbolTable& symbols) {
  if (const auto constant = dim.AsConstant()) {
    if (*constant < 0) return std::nullopt;
    return Dimension::Known(*constant);
  }
  if (const auto symbol = dim.AsSymbol()) return Dimension::Symbol(std::string(*symbol));
  std::string spelling = dim.ToString();
  if (symbols.IsModelSymbol(spelling)) return std::nullopt;
  return Dimension::Symbol(std::move(spelling));
}

}  // namespace ort
