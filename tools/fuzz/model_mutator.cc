#include "tools/fuzz/model_mutator.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace ort::fuzz {
namespace {

using Rng = std::mt19937_64;

// Values at the edges of what loaders, shape inference and kernels check.
constexpr std::array<int64_t, 16> kInterestingInts = {0,
                                                      1,
                                                      2,
                                                      3,
                                                      -1,
                                                      -2,
                                                      7,
                                                      64,
                                                      1000,
                                                      -1000,
                                                      int64_t{1} << 31,
                                                      (int64_t{1} << 31) - 1,
                                                      int64_t{1} << 32,
                                                      std::numeric_limits<int64_t>::max(),
                                                      std::numeric_limits<int64_t>::min(),
                                                      std::numeric_limits<int64_t>::max() / 2};

size_t Pick(Rng& rng, size_t count) {
  return std::uniform_int_distribution<size_t>(0, count - 1)(rng);
}
bool Coin(Rng& rng) { return (rng() & 1) != 0; }

int64_t InterestingInt(Rng& rng) {
  if (Pick(rng, 4) == 0) return std::uniform_int_distribution<int64_t>(-8, 8)(rng);
  return kInterestingInts[Pick(rng, kInterestingInts.size())];
}

float InterestingFloat(Rng& rng) {
  constexpr std::array<float, 9> kValues = {0.0f,
                                            1.0f,
                                            -1.0f,
                                            0.5f,
                                            1e30f,
                                            -1e-30f,
                                            std::numeric_limits<float>::infinity(),
                                            std::numeric_limits<float>::quiet_NaN(),
                                            3.0f};
  return kValues[Pick(rng, kValues.size())];
}

// The op names onnx knows, so that op-type edits mostly land on real ops with other arities.
const std::vector<std::string>& KnownOps() {
  static const std::vector<std::string> ops = [] {
    std::vector<std::string> names;
    for (const auto& schema : onnx::OpSchemaRegistry::get_all_schemas()) {
      if (schema.domain().empty()) names.push_back(schema.Name());
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
  }();
  return ops;
}

void CollectGraphs(onnx::GraphProto* graph, std::vector<onnx::GraphProto*>& graphs) {
  graphs.push_back(graph);
  for (auto& node : *graph->mutable_node()) {
    for (auto& attribute : *node.mutable_attribute()) {
      if (attribute.has_g()) CollectGraphs(attribute.mutable_g(), graphs);
      for (auto& sub : *attribute.mutable_graphs()) CollectGraphs(&sub, graphs);
    }
  }
}

std::vector<std::string> ValueNames(const onnx::GraphProto& graph) {
  std::vector<std::string> names;
  for (const auto& info : graph.input()) names.push_back(info.name());
  for (const auto& tensor : graph.initializer()) names.push_back(tensor.name());
  for (const auto& node : graph.node()) {
    for (const auto& output : node.output()) names.push_back(output);
  }
  return names;
}

std::string SomeName(Rng& rng, const onnx::GraphProto& graph) {
  const std::vector<std::string> names = ValueNames(graph);
  if (names.empty() || Pick(rng, 5) == 0)
    return Coin(rng) ? "" : "fuzz_" + std::to_string(rng() % 8);
  return names[Pick(rng, names.size())];
}

std::vector<onnx::ValueInfoProto*> ValueInfos(onnx::GraphProto& graph) {
  std::vector<onnx::ValueInfoProto*> infos;
  for (auto& info : *graph.mutable_input()) infos.push_back(&info);
  for (auto& info : *graph.mutable_output()) infos.push_back(&info);
  for (auto& info : *graph.mutable_value_info()) infos.push_back(&info);
  return infos;
}

template <typename T>
T* PickFrom(Rng& rng, google::protobuf::RepeatedPtrField<T>* field) {
  return field->empty() ? nullptr : field->Mutable(static_cast<int>(Pick(rng, field->size())));
}

template <typename T>
void DropOne(Rng& rng, google::protobuf::RepeatedPtrField<T>* field) {
  if (field->empty()) return;
  field->DeleteSubrange(static_cast<int>(Pick(rng, field->size())), 1);
}

bool MutateDim(Rng& rng, onnx::GraphProto& graph) {
  auto infos = ValueInfos(graph);
  if (infos.empty()) return false;
  onnx::ValueInfoProto* info = infos[Pick(rng, infos.size())];
  auto* tensor = info->mutable_type()->mutable_tensor_type();
  auto* shape = tensor->mutable_shape();
  switch (Pick(rng, 4)) {
    case 0:
      shape->add_dim()->set_dim_value(InterestingInt(rng));
      return true;
    case 1:
      if (shape->dim_size() == 0) return false;
      DropOne(rng, shape->mutable_dim());
      return true;
    case 2:
      tensor->clear_shape();
      return true;
    default: {
      auto* dim = PickFrom(rng, shape->mutable_dim());
      if (dim == nullptr) return false;
      if (Coin(rng)) {
        dim->set_dim_value(InterestingInt(rng));
      } else {
        dim->set_dim_param(Coin(rng) ? "N" : "");
      }
      return true;
    }
  }
}

bool MutateElemType(Rng& rng, onnx::GraphProto& graph) {
  const int type = static_cast<int>(Pick(rng, 26));
  if (Coin(rng) && !graph.initializer().empty()) {
    PickFrom(rng, graph.mutable_initializer())->set_data_type(type);
    return true;
  }
  auto infos = ValueInfos(graph);
  if (infos.empty()) return false;
  onnx::ValueInfoProto* info = infos[Pick(rng, infos.size())];
  if (Pick(rng, 6) == 0) {
    // Another kind of type (sequence, optional) where a tensor was declared.
    onnx::TypeProto element = info->type();
    if (Coin(rng)) {
      *info->mutable_type()->mutable_sequence_type()->mutable_elem_type() = element;
    } else {
      *info->mutable_type()->mutable_optional_type()->mutable_elem_type() = element;
    }
    return true;
  }
  info->mutable_type()->mutable_tensor_type()->set_elem_type(type);
  return true;
}

bool MutateAttribute(Rng& rng, onnx::NodeProto& node) {
  if (node.attribute().empty() || Pick(rng, 6) == 0) {
    // A new attribute, named as the node's schema names one when onnx knows the op.
    auto* attribute = node.add_attribute();
    const auto* schema = onnx::OpSchemaRegistry::Schema(node.op_type(), node.domain());
    if (schema != nullptr && !schema->attributes().empty()) {
      auto it = schema->attributes().begin();
      std::advance(it, static_cast<long>(Pick(rng, schema->attributes().size())));
      attribute->set_name(it->first);
    } else {
      attribute->set_name("axis");
    }
    attribute->set_type(onnx::AttributeProto::INT);
    attribute->set_i(InterestingInt(rng));
    return true;
  }
  onnx::AttributeProto* attribute = PickFrom(rng, node.mutable_attribute());
  switch (Pick(rng, 8)) {
    case 0:
      attribute->set_i(InterestingInt(rng));
      return true;
    case 1:
      attribute->set_f(InterestingFloat(rng));
      return true;
    case 2:
      attribute->add_ints(InterestingInt(rng));
      return true;
    case 3:
      if (attribute->ints().empty()) return false;
      attribute->mutable_ints()->Set(static_cast<int>(Pick(rng, attribute->ints_size())),
                                     InterestingInt(rng));
      return true;
    case 4:
      if (attribute->ints().empty()) return false;
      attribute->mutable_ints()->RemoveLast();
      return true;
    case 5: {
      // A type tag that disagrees with the value stored, or a value of another type.
      constexpr std::array<onnx::AttributeProto::AttributeType, 8> kTypes = {
          onnx::AttributeProto::UNDEFINED, onnx::AttributeProto::FLOAT,
          onnx::AttributeProto::INT,       onnx::AttributeProto::STRING,
          onnx::AttributeProto::TENSOR,    onnx::AttributeProto::GRAPH,
          onnx::AttributeProto::INTS,      onnx::AttributeProto::STRINGS};
      attribute->set_type(kTypes[Pick(rng, kTypes.size())]);
      return true;
    }
    case 6:
      attribute->set_s(Coin(rng) ? "" : "fuzz");
      return true;
    default:
      DropOne(rng, node.mutable_attribute());
      return true;
  }
}

bool MutateNodeIo(Rng& rng, onnx::GraphProto& graph) {
  onnx::NodeProto* node = PickFrom(rng, graph.mutable_node());
  if (node == nullptr) return false;
  auto* names = Coin(rng) ? node->mutable_input() : node->mutable_output();
  switch (Pick(rng, 3)) {
    case 0:
      *names->Add() = SomeName(rng, graph);
      return true;
    case 1:
      if (names->empty()) return false;
      DropOne(rng, names);
      return true;
    default:
      if (names->empty()) return false;
      *PickFrom(rng, names) = SomeName(rng, graph);
      return true;
  }
}

bool MutateInitializer(Rng& rng, onnx::GraphProto& graph) {
  onnx::TensorProto* tensor = PickFrom(rng, graph.mutable_initializer());
  if (tensor == nullptr) return false;
  switch (Pick(rng, 5)) {
    case 0:
      tensor->add_dims(InterestingInt(rng));
      return true;
    case 1:
      if (tensor->dims().empty()) return false;
      tensor->mutable_dims()->Set(static_cast<int>(Pick(rng, tensor->dims_size())),
                                  InterestingInt(rng));
      return true;
    case 2:
      if (tensor->raw_data().empty()) return false;
      tensor->mutable_raw_data()->resize(Pick(rng, tensor->raw_data().size()));
      return true;
    case 3: {
      tensor->set_data_location(onnx::TensorProto::EXTERNAL);
      auto* entry = tensor->add_external_data();
      entry->set_key(Coin(rng) ? "location" : "offset");
      entry->set_value(Coin(rng) ? "../weights.bin" : std::to_string(InterestingInt(rng)));
      return true;
    }
    default:
      tensor->clear_dims();
      return true;
  }
}

bool MutateGraphIo(Rng& rng, onnx::GraphProto& graph) {
  switch (Pick(rng, 4)) {
    case 0:
      if (graph.input().empty()) return false;
      DropOne(rng, graph.mutable_input());
      return true;
    case 1:
      if (graph.output().empty()) return false;
      DropOne(rng, graph.mutable_output());
      return true;
    case 2:
      // An intermediate value, an initializer or an input exposed as a graph output.
      graph.add_output()->set_name(SomeName(rng, graph));
      return true;
    default: {
      auto* input = graph.add_input();
      input->set_name(SomeName(rng, graph));
      input->mutable_type()->mutable_tensor_type()->set_elem_type(1);
      return true;
    }
  }
}

bool DuplicateName(Rng& rng, onnx::GraphProto& graph) {
  const std::vector<std::string> names = ValueNames(graph);
  if (names.empty()) return false;
  const std::string& name = names[Pick(rng, names.size())];
  switch (Pick(rng, 3)) {
    case 0: {
      onnx::NodeProto* node = PickFrom(rng, graph.mutable_node());
      if (node == nullptr || node->output().empty()) return false;
      *PickFrom(rng, node->mutable_output()) = name;
      return true;
    }
    case 1: {
      onnx::NodeProto* node = PickFrom(rng, graph.mutable_node());
      if (node == nullptr) return false;
      node->set_name(graph.node(0).name());
      return true;
    }
    default: {
      onnx::TensorProto* tensor = PickFrom(rng, graph.mutable_initializer());
      if (tensor == nullptr) return false;
      tensor->set_name(name);
      return true;
    }
  }
}

bool MutateNodes(Rng& rng, onnx::GraphProto& graph) {
  const int count = graph.node_size();
  if (count == 0) return false;
  switch (Pick(rng, 3)) {
    case 0:
      // Out of topological order: the loader must sort or refuse, never assume.
      graph.mutable_node()->SwapElements(static_cast<int>(Pick(rng, count)),
                                         static_cast<int>(Pick(rng, count)));
      return true;
    case 1:
      DropOne(rng, graph.mutable_node());
      return true;
    default:
      *graph.add_node() = graph.node(static_cast<int>(Pick(rng, count)));
      return true;
  }
}

bool MutateOpType(Rng& rng, onnx::GraphProto& graph) {
  onnx::NodeProto* node = PickFrom(rng, graph.mutable_node());
  if (node == nullptr) return false;
  if (Pick(rng, 8) == 0) {
    node->set_domain(Coin(rng) ? "com.microsoft" : "fuzz.domain");
    return true;
  }
  const auto& ops = KnownOps();
  node->set_op_type(ops[Pick(rng, ops.size())]);
  return true;
}

bool MutateOpset(Rng& rng, onnx::ModelProto& model) {
  switch (Pick(rng, 4)) {
    case 0: {
      auto* opset = PickFrom(rng, model.mutable_opset_import());
      if (opset == nullptr) return false;
      opset->set_version(Coin(rng) ? static_cast<int64_t>(Pick(rng, 28)) : InterestingInt(rng));
      return true;
    }
    case 1:
      DropOne(rng, model.mutable_opset_import());
      return true;
    case 2: {
      auto* opset = model.add_opset_import();
      opset->set_domain(Coin(rng) ? "com.microsoft" : "");
      opset->set_version(static_cast<int64_t>(Pick(rng, 28)));
      return true;
    }
    default:
      model.set_ir_version(Coin(rng) ? static_cast<int64_t>(Pick(rng, 13)) : InterestingInt(rng));
      return true;
  }
}

}  // namespace

std::string_view ModelMutator::Mutate(onnx::ModelProto& model) {
  std::vector<onnx::GraphProto*> graphs;
  CollectGraphs(model.mutable_graph(), graphs);
  onnx::GraphProto& graph = *graphs[Pick(rng_, graphs.size())];
  switch (Pick(rng_, 11)) {
    case 0:
      return MutateDim(rng_, graph) ? "dim" : "";
    case 1:
      return MutateElemType(rng_, graph) ? "elem_type" : "";
    case 2: {
      onnx::NodeProto* node = PickFrom(rng_, graph.mutable_node());
      return node != nullptr && MutateAttribute(rng_, *node) ? "attribute" : "";
    }
    case 3:
      return MutateOpType(rng_, graph) ? "op_type" : "";
    case 4:
      return MutateNodeIo(rng_, graph) ? "node_io" : "";
    case 5:
      return MutateOpset(rng_, model) ? "opset" : "";
    case 6:
      return MutateNodes(rng_, graph) ? "nodes" : "";
    case 7:
      return DuplicateName(rng_, graph) ? "duplicate_name" : "";
    case 8:
      return MutateInitializer(rng_, graph) ? "initializer" : "";
    case 9:
      return MutateGraphIo(rng_, graph) ? "graph_io" : "";
    default: {
      // A subgraph attribute moved to, or dropped from, another node of the same graph.
      onnx::NodeProto* node = PickFrom(rng_, graph.mutable_node());
      if (node == nullptr) return "";
      for (auto& attribute : *node->mutable_attribute()) {
        if (!attribute.has_g()) continue;
        if (Coin(rng_)) {
          DropOne(rng_, attribute.mutable_g()->mutable_output());
        } else {
          *PickFrom(rng_, graph.mutable_node())->add_attribute() = attribute;
        }
        return "subgraph";
      }
      return "";
    }
  }
}

bool ModelMutator::MutateBytes(std::string_view bytes, int max_edits, std::string& out) {
  onnx::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return false;
  const int edits = 1 + static_cast<int>(Pick(rng_, static_cast<size_t>(std::max(max_edits, 1))));
  for (int done = 0, tries = 0; done < edits && tries < 8 * edits; ++tries) {
    if (!Mutate(model).empty()) ++done;
  }
  out = model.SerializeAsString();
  return true;
}

}  // namespace ort::fuzz
