#include "apps/ort/inspect_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "apps/ort/common_options.h"
#include "apps/ort/feeds.h"
#include "apps/ort/optimize_report.h"
#include "lib/onnx/model_loader.h"
#include "lib/shape/flop_count.h"

namespace ort::cli {
namespace {

using Json = nlohmann::ordered_json;

struct InspectArgs {
  SessionArgs session;
  std::vector<std::string> shapes;  // NAME=DIMS
  bool json = false;
  bool place = false;  // -e given: report the placement
};

std::string TypeText(const Graph& graph, const std::string& name) {
  const ValueInfo* info = graph.FindValueInfo(name);
  if (info == nullptr) return "?";
  const ValueType& type = info->type;
  if (!type.IsTensor()) return type.ToString();
  return std::string(DataTypeName(type.elem_type)) +
         (type.shape ? SymbolicShapeToString(*type.shape) : "[rank unknown]");
}

std::string OpKey(const Node& node) {
  return node.domain().empty() ? node.op_type() : node.domain() + ":" + node.op_type();
}

struct Census {
  std::map<std::string, std::map<std::string, int64_t>> op_types;  // domain -> op -> count
  int64_t nodes = 0;
  int64_t initializers = 0;
  uint64_t initializer_bytes = 0;
  uint64_t parameters = 0;  // elements of the initializers
  Json subgraphs = Json::array();
};

void Take(const Graph& graph, const std::string& owner, Census& census) {
  for (const auto& [name, tensor] : graph.initializers()) {
    ++census.initializers;
    census.initializer_bytes += tensor.SizeInBytes();
    census.parameters += static_cast<uint64_t>(tensor.NumElements());
  }
  for (const Node* node : graph.Nodes()) {
    ++census.nodes;
    ++census.op_types[node->domain().empty() ? "ai.onnx" : node->domain()][node->op_type()];
    for (const auto& [attribute_name, attribute] : node->attributes()) {
      std::vector<const Graph*> bodies;
      if (attribute.g) bodies.push_back(attribute.g.get());
      for (const Graph* body : bodies) {
        census.subgraphs.push_back({{"node", node->name()},
                                    {"op_type", OpKey(*node)},
                                    {"attribute", attribute_name},
                                    {"in", owner},
                                    {"nodes", body->NodeCount()}});
        Take(*body, node->name() + "/" + attribute_name, census);
      }
    }
  }
}

// The size of each symbolic dimension of the inputs: --free-dim, then --shape, else 1 (0 for a
// cache's "past" length, as random inputs take them).
Result<std::map<std::string, int64_t>> Sizes(const Graph& graph, const InspectArgs& args,
                                             std::map<std::string, std::string>& origin) {
  std::map<std::string, int64_t> sizes;
  for (const auto& entry : args.session.free_dims) {
    ORT_ASSIGN_OR_RETURN(auto assignment, SplitAssignment(entry, "--free-dim"));
    ORT_ASSIGN_OR_RETURN(const std::vector<int64_t> value, ParseDims(assignment.second));
    if (value.size() != 1) {
      return ORT_ERROR(kInvalidArgument, "--free-dim {}: expected one non-negative integer", entry);
    }
    sizes[assignment.first] = value[0];
    origin[assignment.first] = "--free-dim";
  }
  const std::vector<std::string> inputs = graph.InputsWithoutInitializers();
  for (const auto& entry : args.shapes) {
    ORT_ASSIGN_OR_RETURN(auto assignment, SplitAssignment(entry, "--shape"));
    const ValueInfo* info = graph.FindValueInfo(assignment.first);
    if (info == nullptr ||
        std::find(inputs.begin(), inputs.end(), assignment.first) == inputs.end()) {
      return ORT_ERROR(kInvalidArgument, "--shape {}: the model has no input '{}'", entry,
                       assignment.first);
    }
    ORT_ASSIGN_OR_RETURN(const std::vector<int64_t> dims, ParseDims(assignment.second));
    if (!info->type.shape || info->type.shape->size() != dims.size()) {
      return ORT_ERROR(kInvalidArgument, "--shape {}: input '{}' is {}", entry, assignment.first,
                       TypeText(graph, assignment.first));
    }
    for (size_t i = 0; i < dims.size(); ++i) {
      const Dimension& dim = (*info->type.shape)[i];
      if (dim.IsKnown() && dim.value != dims[i]) {
        return ORT_ERROR(kInvalidArgument, "--shape {}: input '{}' is {}", entry, assignment.first,
                         TypeText(graph, assignment.first));
      }
      if (!dim.IsKnown() && !dim.param.empty() && !sizes.count(dim.param)) {
        sizes[dim.param] = dims[i];
        origin[dim.param] = "--shape";
      }
    }
  }
  for (const std::string& input : inputs) {
    const ValueInfo* info = graph.FindValueInfo(input);
    if (info == nullptr || !info->type.shape) continue;
    for (const Dimension& dim : *info->type.shape) {
      if (dim.IsKnown() || dim.param.empty() || sizes.count(dim.param)) continue;
      sizes[dim.param] = DefaultDimension(dim.param);
      origin[dim.param] = "default";
    }
  }
  return sizes;
}

std::string Count(double value) {
  if (value >= 1e12) return fmt::format("{:.2f} T", value / 1e12);
  if (value >= 1e9) return fmt::format("{:.2f} G", value / 1e9);
  if (value >= 1e6) return fmt::format("{:.2f} M", value / 1e6);
  if (value >= 1e3) return fmt::format("{:.2f} K", value / 1e3);
  return fmt::format("{:.0f} ", value);
}

Status Execute(const InspectArgs& args) {
  ORT_ASSIGN_OR_RETURN(std::unique_ptr<Model> model, LoadModel(args.session.model));
  const Graph& graph = model->graph();

  Json report;
  report["model"] = args.session.model;
  report["ir_version"] = model->ir_version;
  report["producer"] = {{"name", model->producer_name}, {"version", model->producer_version}};
  report["model_version"] = model->model_version;
  report["domain"] = model->domain;
  Json opsets = Json::object();
  for (const auto& [domain, version] : model->opsets()) {
    opsets[domain.empty() ? "ai.onnx" : domain] = version;
  }
  report["opsets"] = opsets;
  Json inputs = Json::array();
  for (const std::string& name : graph.InputsWithoutInitializers()) {
    inputs.push_back({{"name", name}, {"type", TypeText(graph, name)}});
  }
  report["inputs"] = inputs;
  Json outputs = Json::array();
  for (const std::string& name : graph.outputs()) {
    outputs.push_back({{"name", name}, {"type", TypeText(graph, name)}});
  }
  report["outputs"] = outputs;

  Census census;
  Take(graph, "main", census);
  report["initializers"] = {{"count", census.initializers},
                            {"bytes", census.initializer_bytes},
                            {"parameters", census.parameters}};
  report["nodes"] = census.nodes;
  report["main_graph_nodes"] = graph.NodeCount();
  report["op_types"] = census.op_types;
  report["subgraphs"] = census.subgraphs;

  std::map<std::string, std::string> origin;
  ORT_ASSIGN_OR_RETURN(const auto sizes, Sizes(graph, args, origin));
  const FlopCount flops = CountFlops(graph, sizes);
  Json size_json = Json::object();
  for (const auto& [name, value] : sizes) {
    size_json[name] = {{"value", value}, {"from", origin[name]}};
  }
  report["flops"] = {{"sizes", size_json},
                     {"total", flops.total},
                     {"by_op_type", flops.by_op_type},
                     {"nodes_of_unknown_size", flops.unknown_nodes}};
  Json metadata = Json::object();
  for (const auto& [key, value] : model->metadata_props) metadata[key] = value;
  report["metadata"] = metadata;

  if (args.place) {
    ORT_ASSIGN_OR_RETURN(std::unique_ptr<InferenceSession> session, LoadSession(args.session));
    ORT_RETURN_IF_ERROR(session->OptimizeForSaving());
    std::vector<IExecutionProvider*> providers;
    for (const auto& provider : session->providers()) providers.push_back(provider.get());
    ORT_ASSIGN_OR_RETURN(const std::vector<ProviderPlacement> placement,
                         PlaceNodes(session->mutable_model().graph(), providers));
    Json placed = Json::array();
    for (const ProviderPlacement& entry : placement) {
      placed.push_back(
          {{"provider", entry.provider}, {"nodes", entry.nodes}, {"op_types", entry.op_types}});
    }
    report["placement"] = {{"level", args.session.opt_level}, {"providers", placed}};
  }

  if (args.json) {
    std::cout << report.dump(2) << "\n";
    return Status::OK();
  }
  std::string text = fmt::format("model: {}\n", args.session.model);
  text += fmt::format("  ir version {}, producer {} {}, model version {}\n", model->ir_version,
                      model->producer_name.empty() ? "?" : model->producer_name,
                      model->producer_version, model->model_version);
  std::string opset_text;
  for (const auto& [domain, version] : opsets.items()) {
    opset_text += fmt::format("{}{} {}", opset_text.empty() ? "" : ", ", domain, version.dump());
  }
  text += "  opsets: " + opset_text + "\n";
  text += "inputs:\n";
  for (const Json& input : inputs) {
    text += fmt::format("  {:<32} {}\n", input["name"].get<std::string>(),
                        input["type"].get<std::string>());
  }
  text += "outputs:\n";
  for (const Json& output : outputs) {
    text += fmt::format("  {:<32} {}\n", output["name"].get<std::string>(),
                        output["type"].get<std::string>());
  }
  text += fmt::format("initializers: {} ({}), {} parameters\n", census.initializers,
                      FormatBytes(census.initializer_bytes), census.parameters);
  text += fmt::format("nodes: {} ({} in the main graph, {} subgraphs)\n", census.nodes,
                      graph.NodeCount(), census.subgraphs.size());
  for (const auto& [domain, ops] : census.op_types) {
    std::vector<std::pair<int64_t, std::string>> sorted;
    for (const auto& [op, count] : ops) sorted.emplace_back(-count, op);
    std::sort(sorted.begin(), sorted.end());
    std::string line;
    for (const auto& [count, op] : sorted) {
      line += fmt::format("{}{} {}", line.empty() ? "" : ", ", op, -count);
    }
    text += fmt::format("  {}: {}\n", domain, line);
  }
  for (const Json& subgraph : census.subgraphs) {
    text += fmt::format(
        "  subgraph {}.{} ({}, in {}): {} nodes\n", subgraph["node"].get<std::string>(),
        subgraph["attribute"].get<std::string>(), subgraph["op_type"].get<std::string>(),
        subgraph["in"].get<std::string>(), subgraph["nodes"].get<int64_t>());
  }
  std::string size_text;
  for (const auto& [name, value] : sizes) {
    size_text += fmt::format("{}{}={}{}", size_text.empty() ? "" : ", ", name, value,
                             origin[name] == "default" ? " (default)" : "");
  }
  text += fmt::format(
      "compute: {}FLOPs{} (2 per multiply-add of Conv, ConvTranspose, Gemm, "
      "MatMul)\n",
      Count(flops.total), size_text.empty() ? "" : " at " + size_text);
  for (const auto& [op, value] : flops.by_op_type) {
    text += fmt::format("  {:<32} {}FLOPs\n", op, Count(value));
  }
  if (flops.unknown_nodes > 0) {
    text += fmt::format("  {} counted nodes have sizes these do not fix (--shape, --free-dim)\n",
                        flops.unknown_nodes);
  }
  if (!model->metadata_props.empty()) {
    text += "metadata:\n";
    for (const auto& [key, value] : model->metadata_props) {
      text += fmt::format("  {} = {}\n", key, value);
    }
  }
  if (report.contains("placement")) {
    text += fmt::format("placement after optimization level {}:\n", args.session.opt_level);
    for (const Json& entry : report["placement"]["providers"]) {
      std::string ops;
      for (const auto& [op, count] : entry["op_types"].items()) {
        ops += fmt::format("{}{} {}", ops.empty() ? "" : ", ", op, count.dump());
      }
      text += fmt::format("  {:<8} {} nodes{}{}\n", entry["provider"].get<std::string>(),
                          entry["nodes"].get<int64_t>(), ops.empty() ? "" : ": ", ops);
    }
  }
  std::cout << text;
  return Status::OK();
}

}  // namespace

std::function<int()> AddInspectCommand(CLI::App& app) {
  auto args = std::make_shared<InspectArgs>();
  CLI::App* command = app.add_subcommand(
      "inspect", "Show what a model is: inputs, outputs, ops, weights, FLOPs, placement");
  AddModelOptions(*command, args->session);
  // Placing nodes runs no kernel: `-e cuda` works without a GPU.
  args->session.without_device = true;
  command->add_option("--shape", args->shapes,
                      "sizes of an input's dimensions for the FLOP count: NAME=1x3x224x224");
  command->add_option("--level", args->session.opt_level,
                      "optimization level before the placement -e shows (default all)");
  command->add_flag("--json", args->json, "print the report as JSON");
  return [command, args]() -> int {
    args->place = command->count("-e") > 0;
    Status status = Execute(*args);
    if (!status.ok()) {
      std::cerr << "ort inspect: " << status.message() << "\n";
      return 2;
    }
    return 0;
  };
}

}  // namespace ort::cli
