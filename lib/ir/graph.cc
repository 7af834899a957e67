#include "lib/ir/graph.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace ort {

// ---- Node -------------------------------------------------------------------------------------

const Attribute* Node::FindAttribute(std::string_view name) const {
  auto it = attributes_.find(std::string(name));
  return it == attributes_.end() ? nullptr : &it->second;
}

Attribute* Node::MutableAttribute(std::string_view name) {
  auto it = attributes_.find(std::string(name));
  return it == attributes_.end() ? nullptr : &it->second;
}

void Node::SetAttribute(Attribute attribute) {
  std::string key = attribute.name;
  auto& slot = attributes_[key];
  slot = std::move(attribute);
  if (slot.g) graph_->AdoptSubgraph(*slot.g, *this);
  for (auto& subgraph : slot.graphs) graph_->AdoptSubgraph(*subgraph, *this);
}

bool Node::RemoveAttribute(std::string_view name) {
  return attributes_.erase(std::string(name)) > 0;
}

std::vector<Graph*> Node::Subgraphs() const {
  std::vector<Graph*> result;
  for (const auto& [name, attribute] : attributes_) {
    if (attribute.g) result.push_back(attribute.g.get());
    for (const auto& subgraph : attribute.graphs) result.push_back(subgraph.get());
  }
  return result;
}

std::string Node::Describe() const {
  std::string op = domain_.empty() ? op_type_ : domain_ + ":" + op_type_;
  return "node '" + name_ + "' (" + op + ")";
}

// ---- Graph ------------------------------------------------------------------------------------

Graph::Graph(std::shared_ptr<OpsetMap> opsets) : opsets_(std::move(opsets)) {
  if (!opsets_) opsets_ = std::make_shared<OpsetMap>();
}

Graph::~Graph() = default;

int64_t Graph::OpsetVersion(std::string_view domain) const {
  const std::string key = domain == "ai.onnx" ? std::string() : std::string(domain);
  auto it = opsets_->find(key);
  return it == opsets_->end() ? -1 : it->second;
}

Node& Graph::AddNode(NodeSpec spec) {
  auto node = std::unique_ptr<Node>(new Node());
  node->index_ = nodes_.size();
  node->graph_ = this;
  node->name_ = std::move(spec.name);
  node->op_type_ = std::move(spec.op_type);
  node->domain_ = spec.domain == "ai.onnx" ? std::string() : std::move(spec.domain);
  node->inputs_ = std::move(spec.inputs);
  node->outputs_ = std::move(spec.outputs);
  Node& added = *node;
  nodes_.push_back(std::move(node));
  ++node_count_;
  for (auto& attribute : spec.attributes) added.SetAttribute(std::move(attribute));
  IndexNodeEdges(added);
  return added;
}

void Graph::RemoveNode(NodeIndex index) {
  if (index >= nodes_.size() || !nodes_[index]) return;
  UnindexNodeEdges(*nodes_[index]);
  nodes_[index].reset();
  --node_count_;
}

Node* Graph::GetNode(NodeIndex index) {
  return index < nodes_.size() ? nodes_[index].get() : nullptr;
}

const Node* Graph::GetNode(NodeIndex index) const {
  return index < nodes_.size() ? nodes_[index].get() : nullptr;
}

std::vector<Node*> Graph::Nodes() {
  std::vector<Node*> result;
  result.reserve(node_count_);
  for (auto& node : nodes_) {
    if (node) result.push_back(node.get());
  }
  return result;
}

std::vector<const Node*> Graph::Nodes() const {
  std::vector<const Node*> result;
  result.reserve(node_count_);
  for (const auto& node : nodes_) {
    if (node) result.push_back(node.get());
  }
  return result;
}

void Graph::AddConsumer(const std::string& value, NodeIndex index) {
  if (!value.empty()) consumers_[value].push_back(index);
}

void Graph::RemoveConsumer(const std::string& value, NodeIndex index) {
  auto it = consumers_.find(value);
  if (it == consumers_.end()) return;
  auto& list = it->second;
  auto position = std::find(list.begin(), list.end(), index);
  if (position != list.end()) list.erase(position);
  if (list.empty()) consumers_.erase(it);
}

void Graph::IndexNodeEdges(const Node& node) {
  for (const auto& input : node.inputs_) AddConsumer(input, node.index_);
  for (const auto& input : node.implicit_inputs_) AddConsumer(input, node.index_);
  for (const auto& output : node.outputs_) {
    if (!output.empty()) producers_[output] = node.index_;
  }
}

void Graph::UnindexNodeEdges(const Node& node) {
  for (const auto& input : node.inputs_) RemoveConsumer(input, node.index_);
  for (const auto& input : node.implicit_inputs_) RemoveConsumer(input, node.index_);
  for (const auto& output : node.outputs_) {
    auto it = producers_.find(output);
    if (it != producers_.end() && it->second == node.index_) producers_.erase(it);
  }
}

void Graph::SetNodeInput(Node& node, size_t input_index, std::string value) {
  if (input_index >= node.inputs_.size()) node.inputs_.resize(input_index + 1);
  RemoveConsumer(node.inputs_[input_index], node.index_);
  node.inputs_[input_index] = std::move(value);
  AddConsumer(node.inputs_[input_index], node.index_);
}

void Graph::SetNodeOutput(Node& node, size_t output_index, std::string value) {
  if (output_index >= node.outputs_.size()) node.outputs_.resize(output_index + 1);
  auto& slot = node.outputs_[output_index];
  auto it = producers_.find(slot);
  if (it != producers_.end() && it->second == node.index_) producers_.erase(it);
  slot = std::move(value);
  if (!slot.empty()) producers_[slot] = node.index_;
}

void Graph::ReplaceAllUses(const std::string& from, const std::string& to) {
  if (from == to) return;
  for (Node* consumer : Consumers(from)) {
    for (size_t i = 0; i < consumer->inputs_.size(); ++i) {
      if (consumer->inputs_[i] == from) SetNodeInput(*consumer, i, to);
    }
    auto& implicit = consumer->implicit_inputs_;
    const auto read = std::find(implicit.begin(), implicit.end(), from);
    if (read == implicit.end()) continue;
    RemoveConsumer(from, consumer->index_);
    if (std::find(implicit.begin(), implicit.end(), to) == implicit.end()) {
      *read = to;
      AddConsumer(to, consumer->index_);
    } else {
      implicit.erase(read);
    }
    // Its subgraphs read the outer value by name: they must read the new one too.
    for (Graph* subgraph : consumer->Subgraphs()) subgraph->ReplaceAllUses(from, to);
  }
  for (auto& output : outputs_) {
    if (output == from) output = to;
  }
}

Node* Graph::Producer(std::string_view value) {
  auto it = producers_.find(std::string(value));
  return it == producers_.end() ? nullptr : nodes_[it->second].get();
}

const Node* Graph::Producer(std::string_view value) const {
  auto it = producers_.find(std::string(value));
  return it == producers_.end() ? nullptr : nodes_[it->second].get();
}

std::vector<Node*> Graph::Consumers(std::string_view value) {
  std::vector<Node*> result;
  auto it = consumers_.find(std::string(value));
  if (it == consumers_.end()) return result;
  std::set<NodeIndex> unique(it->second.begin(), it->second.end());
  for (NodeIndex index : unique) result.push_back(nodes_[index].get());
  return result;
}

std::vector<const Node*> Graph::Consumers(std::string_view value) const {
  std::vector<const Node*> result;
  for (Node* node : const_cast<Graph*>(this)->Consumers(value)) result.push_back(node);
  return result;
}

bool Graph::IsGraphOutput(std::string_view value) const {
  return std::find(outputs_.begin(), outputs_.end(), value) != outputs_.end();
}

Result<std::vector<NodeIndex>> Graph::TopologicalOrder() const {
  enum class Mark : uint8_t { kNone, kVisiting, kDone };
  std::vector<Mark> marks(nodes_.size(), Mark::kNone);
  std::vector<NodeIndex> order;
  order.reserve(node_count_);

  auto predecessors = [this](const Node& node) {
    std::vector<NodeIndex> result;
    auto add = [&](const std::string& value) {
      if (value.empty()) return;
      auto it = producers_.find(value);
      if (it != producers_.end()) result.push_back(it->second);
    };
    for (const auto& input : node.inputs_) add(input);
    for (const auto& input : node.implicit_inputs_) add(input);
    return result;
  };

  // Iterative depth-first search so deep chains cannot overflow the stack.
  for (NodeIndex root = 0; root < nodes_.size(); ++root) {
    if (!nodes_[root] || marks[root] != Mark::kNone) continue;
    std::vector<std::pair<NodeIndex, size_t>> stack{{root, 0}};
    marks[root] = Mark::kVisiting;
    std::vector<std::vector<NodeIndex>> pending{predecessors(*nodes_[root])};
    while (!stack.empty()) {
      auto& [index, next] = stack.back();
      auto& preds = pending.back();
      if (next < preds.size()) {
        const NodeIndex pred = preds[next++];
        if (marks[pred] == Mark::kVisiting) {
          return ORT_ERROR(kInvalidModel, "the graph has a cycle through this node")
              .WithNode(nodes_[pred]->Describe());
        }
        if (marks[pred] == Mark::kNone) {
          marks[pred] = Mark::kVisiting;
          stack.emplace_back(pred, 0);
          pending.push_back(predecessors(*nodes_[pred]));
        }
        continue;
      }
      marks[index] = Mark::kDone;
      order.push_back(index);
      stack.pop_back();
      pending.pop_back();
    }
  }
  return order;
}

std::vector<std::string> Graph::InputsWithoutInitializers() const {
  std::vector<std::string> result;
  for (const auto& input : inputs_) {
    if (!initializers_.count(input)) result.push_back(input);
  }
  return result;
}

const ValueInfo* Graph::FindValueInfo(std::string_view name) const {
  auto it = value_infos_.find(std::string(name));
  return it == value_infos_.end() ? nullptr : &it->second;
}

void Graph::SetValueType(const std::string& name, ValueType type) {
  auto& info = value_infos_[name];
  info.name = name;
  info.type = std::move(type);
}

void Graph::RemoveValueInfo(std::string_view name) { value_infos_.erase(std::string(name)); }

const ValueType* Graph::FindTypeInScope(std::string_view name) const {
  for (const Graph* graph = this; graph != nullptr; graph = graph->parent_graph_) {
    const ValueInfo* info = graph->FindValueInfo(name);
    if (info != nullptr && info->type.kind != ValueType::Kind::kUnknown) return &info->type;
    if (graph->DefinesValue(name)) return nullptr;
  }
  return nullptr;
}

std::string Graph::UniqueValueName(std::string_view prefix) {
  for (;;) {
    std::string candidate = std::string(prefix) + "_" + std::to_string(name_counter_++);
    if (!DefinesValue(candidate) && !consumers_.count(candidate) &&
        !value_infos_.count(candidate)) {
      return candidate;
    }
  }
}

std::string Graph::UniqueNodeName(std::string_view prefix) {
  std::unordered_set<std::string> names;
  for (const auto& node : nodes_) {
    if (node) names.insert(node->name_);
  }
  for (;;) {
    std::string candidate = std::string(prefix) + "_" + std::to_string(name_counter_++);
    if (!names.count(candidate)) return candidate;
  }
}

const Tensor* Graph::GetInitializer(std::string_view name) const {
  auto it = initializers_.find(std::string(name));
  return it == initializers_.end() ? nullptr : &it->second;
}

const Tensor* Graph::GetConstantInitializer(std::string_view name, bool search_outer_scope) const {
  for (const Graph* graph = this; graph != nullptr; graph = graph->parent_graph_) {
    const Tensor* tensor = graph->GetInitializer(name);
    if (tensor != nullptr) {
      const bool overridable =
          std::find(graph->inputs_.begin(), graph->inputs_.end(), name) != graph->inputs_.end();
      return overridable ? nullptr : tensor;
    }
    if (!search_outer_scope || graph->DefinesValue(name)) return nullptr;
  }
  return nullptr;
}

void Graph::AddInitializer(const std::string& name, Tensor tensor) {
  std::vector<Dimension> dims;
  for (int64_t d : tensor.shape().dims()) dims.push_back(Dimension::Known(d));
  SetValueType(name, ValueType::Tensor(tensor.dtype(), std::move(dims)));
  initializers_[name] = std::move(tensor);
}

void Graph::RemoveInitializer(std::string_view name) { initializers_.erase(std::string(name)); }

bool Graph::DefinesValue(std::string_view name) const {
  const std::string key(name);
  return producers_.count(key) || initializers_.count(key) ||
         std::find(inputs_.begin(), inputs_.end(), key) != inputs_.end();
}

void Graph::AdoptSubgraph(Graph& subgraph, Node& owner) {
  subgraph.parent_graph_ = this;
  subgraph.parent_node_ = &owner;
  subgraph.opsets_ = opsets_;
}

void Graph::ResolveOuterScope() {
  std::vector<std::string> outer;
  std::unordered_set<std::string> seen;
  auto note_use = [&](const std::string& value) {
    if (!value.empty() && !DefinesValue(value) && seen.insert(value).second) {
      outer.push_back(value);
    }
  };
  for (auto& node : nodes_) {
    if (!node) continue;
    std::vector<Graph*> subgraphs = node->Subgraphs();
    if (!subgraphs.empty()) {
      for (const auto& value : node->implicit_inputs_) RemoveConsumer(value, node->index_);
      std::vector<std::string> implicit;
      std::unordered_set<std::string> implicit_seen;
      for (Graph* subgraph : subgraphs) {
        subgraph->ResolveOuterScope();
        for (const auto& value : subgraph->outer_scope_values_) {
          if (implicit_seen.insert(value).second) implicit.push_back(value);
        }
      }
      node->implicit_inputs_ = std::move(implicit);
      for (const auto& value : node->implicit_inputs_) AddConsumer(value, node->index_);
    }
    for (const auto& value : node->inputs_) note_use(value);
    for (const auto& value : node->implicit_inputs_) note_use(value);
  }
  for (const auto& value : outputs_) note_use(value);
  outer_scope_values_ = std::move(outer);
}

}  // namespace ort
