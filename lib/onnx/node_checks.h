// What node_validation's op-specific checks see of one node: its attributes, the declared ranks
// of its inputs, and a way to word an error that names it.
#pragma once

#include <fmt/format.h>
#include <onnx/onnx_pb.h>

#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lib/common/status.h"

namespace ort {

/// The ranks a graph declares before any inference: its inputs' and value_info's shapes, its
/// initializers' and Constant nodes' dims, then those of the enclosing graphs.
class RankScope {
 public:
  RankScope(const onnx::GraphProto& graph, const RankScope* parent);
  /// The declared rank of `name`, or -1 when nothing declares it.
  int Rank(const std::string& name) const;
  /// Whether this graph or an enclosing one defines `name` (an input, initializer or node output).
  bool Defines(const std::string& name) const;

 private:
  const RankScope* parent_;
  std::unordered_map<std::string, int> ranks_;
};

struct NodeContext {
  const onnx::NodeProto& node;
  std::string description;  // "node 'conv1' (Conv)", as Node::Describe words it
  std::string domain;       // "" for ai.onnx
  int64_t opset;            // the domain's imported opset; 0 when not imported
  const RankScope& scope;

  const onnx::AttributeProto* Attr(std::string_view name) const;
  /// The attribute's ints (empty when it is absent).
  std::vector<int64_t> Ints(std::string_view name) const;
  /// The declared rank of input `index`, or -1 when it is absent or undeclared.
  int InputRank(int index) const;

  template <typename... Args>
  Status Error(fmt::format_string<Args...> format, Args&&... args) const {
    return Status(StatusCode::kInvalidModel, fmt::format(format, std::forward<Args>(args)...))
        .WithNode(description);
  }
};

/// An axis (or axes) attribute over input 0's axes: valid values are [-(rank + below),
/// rank - 1 + above], as for Flatten (axis may equal the rank) and OneHot (a new axis).
struct AxisAttribute {
  std::string_view op_type;
  std::string_view attribute;
  int below;
  int above;
};

/// The ai.onnx ops' axis attributes that inference functions and kernels index with.
std::span<const AxisAttribute> AxisAttributes();

/// Ranges and lengths of the attributes that inference functions and kernels divide or index
/// with, and control-flow body signatures; the node's schema checks have passed.
Status CheckOpAttributes(const NodeContext& node);

}  // namespace ort
