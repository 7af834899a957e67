// Graph snapshots: a deep copy of a graph and putting one back, so that an edit that went wrong
// (an optimizer pass that broke the graph) can be undone without copying weights.
#include "lib/ir/graph.h"

namespace ort {

std::unique_ptr<Graph> Graph::Clone() const {
  auto copy = std::make_unique<Graph>(opsets_);
  copy->name_ = name_;
  copy->doc_string_ = doc_string_;
  copy->nodes_.reserve(nodes_.size());
  for (const auto& node : nodes_) {
    if (!node) {
      copy->nodes_.push_back(nullptr);
      continue;
    }
    auto cloned = std::unique_ptr<Node>(new Node());
    cloned->index_ = node->index_;
    cloned->name_ = node->name_;
    cloned->op_type_ = node->op_type_;
    cloned->domain_ = node->domain_;
    cloned->inputs_ = node->inputs_;
    cloned->outputs_ = node->outputs_;
    cloned->implicit_inputs_ = node->implicit_inputs_;
    cloned->since_version_ = node->since_version_;
    cloned->provider_ = node->provider_;
    cloned->doc_string_ = node->doc_string_;
    cloned->graph_ = copy.get();
    for (const auto& [key, attribute] : node->attributes_) {
      cloned->attributes_.emplace(key, attribute.Clone());
    }
    for (Graph* subgraph : cloned->Subgraphs()) copy->AdoptSubgraph(*subgraph, *cloned);
    copy->nodes_.push_back(std::move(cloned));
  }
  copy->node_count_ = node_count_;
  copy->inputs_ = inputs_;
  copy->outputs_ = outputs_;
  copy->value_infos_ = value_infos_;
  copy->initializers_ = initializers_;
  copy->producers_ = producers_;
  copy->consumers_ = consumers_;
  copy->outer_scope_values_ = outer_scope_values_;
  copy->name_counter_ = name_counter_;
  return copy;
}

void Graph::RestoreFrom(std::unique_ptr<Graph> snapshot) {
  name_ = std::move(snapshot->name_);
  doc_string_ = std::move(snapshot->doc_string_);
  nodes_ = std::move(snapshot->nodes_);
  for (auto& node : nodes_) {
    if (!node) continue;
    node->graph_ = this;
    for (Graph* subgraph : node->Subgraphs()) AdoptSubgraph(*subgraph, *node);
  }
  node_count_ = snapshot->node_count_;
  inputs_ = std::move(snapshot->inputs_);
  outputs_ = std::move(snapshot->outputs_);
  value_infos_ = std::move(snapshot->value_infos_);
  initializers_ = std::move(snapshot->initializers_);
  producers_ = std::move(snapshot->producers_);
  consumers_ = std::move(snapshot->consumers_);
  outer_scope_values_ = std::move(snapshot->outer_scope_values_);
  name_counter_ = snapshot->name_counter_;
}

}  // namespace ort
