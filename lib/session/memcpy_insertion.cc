#include "lib/session/memcpy_insertion.h"

#include <algorithm>
#include <map>

#include "lib/framework/op_kernel.h"

namespace ort {
namespace {

// Where each input and output of a node lives: "" for the host, else the device provider's type;
// kAnywhere for inputs whose shape alone is read.
constexpr char kAnywhere[] = "*";

struct NodeSides {
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
};

class Inserter {
 public:
  Inserter(Graph& graph, std::span<IExecutionProvider* const> providers)
      : graph_(graph), providers_(providers) {}

  Status Run(MemcpyCounts& counts) {
    std::map<NodeIndex, NodeSides> sides;
    for (Node* node : graph_.Nodes()) {
      ORT_ASSIGN_OR_RETURN(sides[node->index()], SidesOf(*node));
    }
    // Where each value is made: device values only; everything else is on the host.
    std::map<std::string, std::string> made_on;
    for (const auto& [index, side] : sides) {
      const Node& node = *graph_.GetNode(index);
      for (size_t i = 0; i < node.outputs().size(); ++i) {
        if (node.HasOutput(i) && !side.outputs[i].empty())
          made_on[node.outputs()[i]] = side.outputs[i];
      }
    }
    // Device values the host reads keep their name on the host; the device copy is renamed.
    std::map<std::string, std::string> renamed_on;
    std::vector<std::string> now_on_host;
    for (const auto& [value, device] : made_on) {
      if (!ReadOnHost(value, sides)) continue;
      now_on_host.push_back(value);
      const std::string device_name = graph_.UniqueValueName(value + "_" + device);
      Node* producer = graph_.Producer(value);
      for (size_t i = 0; i < producer->outputs().size(); ++i) {
        if (producer->outputs()[i] == value) graph_.SetNodeOutput(*producer, i, device_name);
      }
      for (Node* consumer : graph_.Consumers(value)) {
        const NodeSides& side = sides.at(consumer->index());
        for (size_t i = 0; i < consumer->inputs().size(); ++i) {
          if (consumer->inputs()[i] == value && side.inputs[i] == device) {
            graph_.SetNodeInput(*consumer, i, device_name);
          }
        }
      }
      CopyType(value, device_name);
      AddCopy(kMemcpyToHost, device_name, value, device);
      renamed_on[device_name] = device;
      ++counts.to_host;
    }
    for (const auto& value : now_on_host) made_on.erase(value);
    made_on.merge(renamed_on);
    // Host values device nodes read: one copy per value and device.
    std::map<std::pair<std::string, std::string>, std::string> uploaded;
    for (const auto& [index, side] : sides) {
      Node& node = *graph_.GetNode(index);
      for (size_t i = 0; i < node.inputs().size(); ++i) {
        const std::string& device = side.inputs[i];
        if (!node.HasInput(i) || device.empty() || device == kAnywhere) continue;
        const std::string value = node.inputs()[i];
        const auto made = made_on.find(value);
        if (made != made_on.end()) {
          if (made->second == device) continue;
          return ORT_ERROR(kNotImplemented,
                           "{} reads '{}' from provider {}; copies between two devices are not "
                           "supported",
                           node.Describe(), value, made->second);
        }
        auto [it, inserted] = uploaded.try_emplace({value, device});
        if (inserted) {
          it->second = graph_.UniqueValueName(value + "_" + device);
          CopyType(value, it->second);
          AddCopy(kMemcpyFromHost, value, it->second, device);
          ++(graph_.GetConstantInitializer(value, false) != nullptr ? counts.weights
                                                                    : counts.to_device);
        }
        graph_.SetNodeInput(node, i, it->second);
      }
    }
    return Status::OK();
  }

 private:
  Result<NodeSides> SidesOf(const Node& node) const {
    NodeSides sides;
    sides.inputs.assign(node.inputs().size(), "");
    sides.outputs.assign(node.outputs().size(), "");
    const IExecutionProvider* found = FindProvider(providers_, node.provider());
    if (found == nullptr) {
      return ORT_ERROR(kInvalidArgument, "{} is assigned to unknown provider '{}'", node.Describe(),
                       node.provider());
    }
    const IExecutionProvider& provider = *found;
    std::string why_not;
    const KernelEntry* entry = provider.kernel_registry().Find(node, &why_not);
    if (entry == nullptr) {
      return ORT_ERROR(kNotImplemented, "provider {} has no kernel for it ({})", provider.type(),
                       why_not)
          .WithNode(node.Describe());
    }
    const KernelDef& def = entry->def;
    const std::string device = provider.allocator()->Info().IsHost() ? "" : provider.type();
    for (size_t i = 0; i < sides.inputs.size(); ++i) {
      const int index = static_cast<int>(i);
      sides.inputs[i] = def.IsShapeOnlyInput(index) ? kAnywhere
                        : def.IsHostInput(index)    ? ""
                                                    : device;
    }
    for (size_t i = 0; i < sides.outputs.size(); ++i) {
      if (!def.IsHostOutput(static_cast<int>(i))) sides.outputs[i] = device;
    }
    return sides;
  }

  // True when a graph output, a subgraph (implicit input) or a host input reads `value`.
  bool ReadOnHost(const std::string& value, const std::map<NodeIndex, NodeSides>& sides) const {
    if (graph_.IsGraphOutput(value)) return true;
    for (const Node* consumer : graph_.Consumers(value)) {
      const NodeSides& side = sides.at(consumer->index());
      for (size_t i = 0; i < consumer->inputs().size(); ++i) {
        if (consumer->inputs()[i] == value && side.inputs[i].empty()) return true;
      }
      for (const auto& implicit : consumer->implicit_inputs()) {
        if (implicit == value) return true;
      }
    }
    return false;
  }

  void CopyType(const std::string& from, const std::string& to) {
    if (const ValueType* type = graph_.FindTypeInScope(from)) graph_.SetValueType(to, *type);
  }

  void AddCopy(const char* op, const std::string& input, const std::string& output,
               const std::string& device) {
    NodeSpec spec;
    spec.name = graph_.UniqueNodeName(std::string(op) + "_" + input);
    spec.op_type = op;
    spec.inputs = {input};
    spec.outputs = {output};
    graph_.AddNode(std::move(spec)).set_provider(device);
  }

  Graph& graph_;
  std::span<IExecutionProvider* const> providers_;
};

Status InsertInto(Graph& graph, std::span<IExecutionProvider* const> providers,
                  MemcpyCounts& counts) {
  ORT_RETURN_IF_ERROR(Inserter(graph, providers).Run(counts));
  for (Node* node : graph.Nodes()) {
    for (Graph* subgraph : node->Subgraphs()) {
      ORT_RETURN_IF_ERROR(InsertInto(*subgraph, providers, counts));
    }
  }
  return Status::OK();
}

class Memcpy final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    transfer_ = info.provider().data_transfer();
    if (transfer_ == nullptr) {
      return ORT_ERROR(kInvalidArgument, "provider {} has no data transfer", info.provider().type())
          .WithNode(info.node().Describe());
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, input->dtype(), input->shape()));
    if (input->SizeInBytes() == 0) return Status::OK();
    return transfer_->Copy(*input, *output);
  }

 private:
  const IDataTransfer* transfer_ = nullptr;
};

}  // namespace

Result<MemcpyCounts> InsertMemcpyNodes(Graph& graph,
                                       std::span<IExecutionProvider* const> providers) {
  const bool any_device = std::any_of(
      providers.begin(), providers.end(),
      [](const IExecutionProvider* provider) { return !provider->allocator()->Info().IsHost(); });
  MemcpyCounts counts;
  if (any_device) ORT_RETURN_IF_ERROR(InsertInto(graph, providers, counts));
  return counts;
}

void RegisterMemcpyKernels(KernelRegistry& registry) {
  registry.Add<Memcpy>(KernelDef(kMemcpyFromHost).Versions(1).HostInput(0));
  registry.Add<Memcpy>(KernelDef(kMemcpyToHost).Versions(1).HostOutput(0));
}

}  // namespace ort
