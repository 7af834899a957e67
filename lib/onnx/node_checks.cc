#include "lib/onnx/node_checks.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <array>

namespace ort {
namespace {

// Conv and pooling ops whose inference functions and kernels divide by strides and index
// per-axis attributes by spatial axis; `weight` is the input holding the kernel (-1: none).
struct ConvLikeOp {
  std::string_view domain;
  std::string_view op_type;
  int weight;
};

constexpr std::array<ConvLikeOp, 14> kConvLikeOps{{
    {"", "Conv", 1},
    {"", "ConvInteger", 1},
    {"", "QLinearConv", 3},
    {"", "ConvTranspose", 1},
    {"", "MaxPool", -1},
    {"", "AveragePool", -1},
    {"", "LpPool", -1},
    {"", "MaxUnpool", -1},
    {"com.microsoft", "FusedConv", 1},
    {"com.microsoft", "NhwcConv", 1},
    {"com.microsoft", "NhwcFusedConv", 1},
    {"com.microsoft", "QLinearConv", 3},
    {"com.microsoft", "NhwcMaxPool", -1},
    {"com.microsoft", "QLinearAveragePool", -1},
}};

std::string InputName(const NodeContext& n, int index) {
  return index < n.node.input_size() ? n.node.input(index) : std::string();
}

Status CheckConvLike(const NodeContext& n, int weight) {
  for (std::string_view name : {"kernel_shape", "strides", "dilations"}) {
    for (int64_t value : n.Ints(name)) {
      if (value <= 0) return n.Error("attribute '{}' must be positive, got {}", name, value);
    }
  }
  for (std::string_view name : {"pads", "output_padding"}) {
    for (int64_t value : n.Ints(name)) {
      if (value < 0) return n.Error("attribute '{}' must not be negative, got {}", name, value);
    }
  }
  if (const auto* group = n.Attr("group"); group != nullptr && group->i() < 1) {
    return n.Error("attribute 'group' must be at least 1, got {}", group->i());
  }
  const int x_rank = n.InputRank(0);
  const int w_rank = weight >= 0 ? n.InputRank(weight) : -1;
  if (x_rank >= 0 && x_rank < 2) {
    return n.Error("input '{}' has rank {}; {} needs a batch and a channel axis", InputName(n, 0),
                   x_rank, n.node.op_type());
  }
  if (w_rank >= 0 && w_rank < 2) {
    return n.Error("weight '{}' has rank {}; it needs an output- and an input-channel axis",
                   InputName(n, weight), w_rank);
  }
  if (x_rank >= 0 && w_rank >= 0 && x_rank != w_rank) {
    return n.Error("weight '{}' has rank {} but input '{}' has rank {}", InputName(n, weight),
                   w_rank, InputName(n, 0), x_rank);
  }
  const int declared_rank = x_rank >= 0 ? x_rank : w_rank;
  const auto* kernel_shape = n.Attr("kernel_shape");
  const int spatial = kernel_shape != nullptr ? kernel_shape->ints_size()
                      : declared_rank >= 0    ? declared_rank - 2
                                              : -1;
  if (spatial < 0) return Status::OK();
  if (declared_rank >= 0 && declared_rank - 2 != spatial) {
    return n.Error("attribute 'kernel_shape' has {} values but input '{}' has {} spatial axes",
                   spatial, InputName(n, x_rank >= 0 ? 0 : weight), declared_rank - 2);
  }
  for (std::string_view name : {"strides", "dilations", "output_padding"}) {
    const auto* attribute = n.Attr(name);
    if (attribute != nullptr && attribute->ints_size() != spatial) {
      return n.Error("attribute '{}' has {} values; {} spatial axes need {}", name,
                     attribute->ints_size(), spatial, spatial);
    }
  }
  const auto* pads = n.Attr("pads");
  if (pads != nullptr && pads->ints_size() != 2 * spatial) {
    return n.Error(
        "attribute 'pads' has {} values; {} spatial axes need {} (a begin and an end each)",
        pads->ints_size(), spatial, 2 * spatial);
  }
  return Status::OK();
}

Status CheckTranspose(const NodeContext& n) {
  if (n.Attr("perm") == nullptr) return Status::OK();
  const std::vector<int64_t> perm = n.Ints("perm");
  const int rank = n.InputRank(0);
  if (rank >= 0 && static_cast<int>(perm.size()) != rank) {
    return n.Error("attribute 'perm' has {} values but input '{}' has rank {}", perm.size(),
                   InputName(n, 0), rank);
  }
  std::vector<bool> seen(perm.size(), false);
  for (int64_t axis : perm) {
    if (axis < 0 || axis >= static_cast<int64_t>(perm.size()) || seen[axis]) {
      return n.Error("attribute 'perm' [{}] is not a permutation of 0..{}", fmt::join(perm, ", "),
                     static_cast<int64_t>(perm.size()) - 1);
    }
    seen[axis] = true;
  }
  return Status::OK();
}

// Axes repeat or fall outside [-(rank + below), rank - 1 + above] of input 0's declared rank.
Status CheckAxes(const NodeContext& n, std::string_view name, const std::vector<int64_t>& axes,
                 int rank, int below, int above) {
  std::vector<int64_t> normalized;
  for (int64_t axis : axes) {
    if (axis < -(rank + below) || axis > rank - 1 + above) {
      return n.Error("attribute '{}' holds axis {}, outside [{}, {}] for input '{}' of rank {}",
                     name, axis, -(rank + below), rank - 1 + above, InputName(n, 0), rank);
    }
    normalized.push_back(axis < 0 ? axis + rank + below : axis);
  }
  std::sort(normalized.begin(), normalized.end());
  if (std::adjacent_find(normalized.begin(), normalized.end()) != normalized.end()) {
    return n.Error("attribute '{}' [{}] names an axis twice", name, fmt::join(axes, ", "));
  }
  return Status::OK();
}

Status CheckAxisAttributes(const NodeContext& n) {
  const int rank = n.InputRank(0);
  if (rank < 0) return Status::OK();
  if (n.node.op_type() == "Unsqueeze" && n.Attr("axes") != nullptr) {
    // Unsqueeze's axes index the output, whose rank grows by one per axis.
    const std::vector<int64_t> axes = n.Ints("axes");
    const int added = static_cast<int>(axes.size());
    return CheckAxes(n, "axes", axes, rank, added, added);
  }
  for (const AxisAttribute& rule : AxisAttributes()) {
    if (rule.op_type != n.node.op_type()) continue;
    const auto* attribute = n.Attr(rule.attribute);
    if (attribute == nullptr) continue;
    const std::vector<int64_t> axes = attribute->type() == onnx::AttributeProto::INT
                                          ? std::vector<int64_t>{attribute->i()}
                                          : n.Ints(rule.attribute);
    ORT_RETURN_IF_ERROR(CheckAxes(n, rule.attribute, axes, rank, rule.below, rule.above));
  }
  return Status::OK();
}

// GatherND's leading batch_dims axes are shared by data and indices; onnx's inference indexes
// both by it.
Status CheckGatherND(const NodeContext& n) {
  const auto* attribute = n.Attr("batch_dims");
  if (attribute == nullptr) return Status::OK();
  const int64_t batch_dims = attribute->i();
  const int data = n.InputRank(0);
  const int indices = n.InputRank(1);
  int64_t limit = INT64_MAX;
  if (data >= 0) limit = std::min<int64_t>(limit, data);
  if (indices >= 0) limit = std::min<int64_t>(limit, indices);
  if (batch_dims < 0 || batch_dims >= limit) {
    return n.Error("attribute 'batch_dims' {} must be in [0, {})", batch_dims,
                   limit == INT64_MAX ? std::string("rank") : std::to_string(limit));
  }
  return Status::OK();
}

// DepthToSpace and SpaceToDepth move blocksize^2 channels: onnx's inference divides by that
// square, which wraps to 0 for a blocksize of 2^32.
Status CheckBlockSize(const NodeContext& n) {
  const auto* attribute = n.Attr("blocksize");
  constexpr int64_t kMaxBlockSize = int64_t{1} << 15;
  if (attribute != nullptr && (attribute->i() < 1 || attribute->i() > kMaxBlockSize)) {
    return n.Error("attribute 'blocksize' {} must be in [1, {}]", attribute->i(), kMaxBlockSize);
  }
  return Status::OK();
}

// The graph an attribute holds, or an error when it holds none (a GRAPH attribute left empty).
Status Body(const NodeContext& n, std::string_view name, const onnx::GraphProto** body) {
  const auto* attribute = n.Attr(name);
  if (attribute == nullptr || !attribute->has_g()) {
    return n.Error("attribute '{}' holds no graph", name);
  }
  *body = &attribute->g();
  return Status::OK();
}

Status CheckIf(const NodeContext& n) {
  for (std::string_view name : {"then_branch", "else_branch"}) {
    const onnx::GraphProto* branch = nullptr;
    ORT_RETURN_IF_ERROR(Body(n, name, &branch));
    if (branch->output_size() != n.node.output_size()) {
      return n.Error("attribute '{}' returns {} outputs but the node has {}", name,
                     branch->output_size(), n.node.output_size());
    }
  }
  return Status::OK();
}

Status CheckLoop(const NodeContext& n) {
  const onnx::GraphProto* body = nullptr;
  ORT_RETURN_IF_ERROR(Body(n, "body", &body));
  const int carried = std::max(0, n.node.input_size() - 2);
  if (body->input_size() != 2 + carried) {
    return n.Error(
        "attribute 'body' takes {} inputs, but a Loop carrying {} values needs {} (iteration "
        "number, condition, then the carried values)",
        body->input_size(), carried, 2 + carried);
  }
  if (n.node.output_size() < carried) {
    return n.Error("{} outputs, fewer than the {} values the Loop carries", n.node.output_size(),
                   carried);
  }
  if (body->output_size() != 1 + n.node.output_size()) {
    return n.Error(
        "attribute 'body' returns {} outputs, but this Loop needs {} (condition, {} carried "
        "values, {} scan outputs)",
        body->output_size(), 1 + n.node.output_size(), carried, n.node.output_size() - carried);
  }
  return Status::OK();
}

Status CheckScan(const NodeContext& n) {
  const onnx::GraphProto* body = nullptr;
  ORT_RETURN_IF_ERROR(Body(n, "body", &body));
  const auto* count = n.Attr("num_scan_inputs");
  if (count == nullptr) return n.Error("attribute 'num_scan_inputs' is missing");
  // Scan-8 takes the optional sequence lengths first.
  const int first = n.opset < 9 ? 1 : 0;
  const int values = std::max(0, n.node.input_size() - first);
  const int64_t scans = count->i();
  if (scans < 1 || scans > values) {
    return n.Error("attribute 'num_scan_inputs' is {}, but the node has {} state and scan inputs",
                   scans, values);
  }
  const int states = values - static_cast<int>(scans);
  if (n.node.output_size() < states) {
    return n.Error("{} outputs, fewer than its {} state values", n.node.output_size(), states);
  }
  const int scan_outputs = n.node.output_size() - states;
  if (body->input_size() != values) {
    return n.Error(
        "attribute 'body' takes {} inputs, but this Scan passes it {} ({} state values, {} scan "
        "slices)",
        body->input_size(), values, states, scans);
  }
  if (body->output_size() != n.node.output_size()) {
    return n.Error("attribute 'body' returns {} outputs but the node has {}", body->output_size(),
                   n.node.output_size());
  }
  const std::array<std::pair<std::string_view, int64_t>, 5> lengths{{
      {"scan_input_axes", scans},
      {"scan_input_directions", scans},
      {"directions", scans},
      {"scan_output_axes", scan_outputs},
      {"scan_output_directions", scan_outputs},
  }};
  for (const auto& [name, expected] : lengths) {
    const auto* attribute = n.Attr(name);
    if (attribute == nullptr) continue;
    if (attribute->ints_size() != expected) {
      return n.Error("attribute '{}' has {} values for {} {}", name, attribute->ints_size(),
                     expected, name.starts_with("scan_output") ? "scan outputs" : "scan inputs");
    }
    if (name.ends_with("directions")) {
      for (int64_t direction : attribute->ints()) {
        if (direction != 0 && direction != 1) {
          return n.Error("attribute '{}' holds {}; a direction is 0 (forward) or 1 (reverse)", name,
                         direction);
        }
      }
    }
  }
  const std::vector<int64_t> axes = n.Ints("scan_input_axes");
  for (size_t i = 0; i < axes.size(); ++i) {
    const int input = first + states + static_cast<int>(i);
    const int rank = n.InputRank(input);
    if (rank >= 0 && (axes[i] < -rank || axes[i] >= rank)) {
      return n.Error("attribute 'scan_input_axes' holds axis {} for input '{}' of rank {}", axes[i],
                     InputName(n, input), rank);
    }
  }
  return Status::OK();
}

}  // namespace

const onnx::AttributeProto* NodeContext::Attr(std::string_view name) const {
  for (const auto& attribute : node.attribute()) {
    if (attribute.name() == name) return &attribute;
  }
  return nullptr;
}

std::vector<int64_t> NodeContext::Ints(std::string_view name) const {
  const auto* attribute = Attr(name);
  if (attribute == nullptr) return {};
  return {attribute->ints().begin(), attribute->ints().end()};
}

int NodeContext::InputRank(int index) const {
  if (index >= node.input_size() || node.input(index).empty()) return -1;
  return scope.Rank(node.input(index));
}

RankScope::RankScope(const onnx::GraphProto& graph, const RankScope* parent) : parent_(parent) {
  // Every name the graph defines hides the enclosing graphs' value of that name, so each is
  // recorded, as unknown (-1) unless declared.
  for (const auto& node : graph.node()) {
    for (const auto& output : node.output()) ranks_[output] = -1;
    if (node.op_type() != "Constant" || !node.domain().empty()) continue;
    for (const auto& attribute : node.attribute()) {
      if (attribute.name() == "value" && attribute.has_t() && node.output_size() > 0) {
        ranks_[node.output(0)] = attribute.t().dims_size();
      }
    }
  }
  for (const auto& input : graph.input()) {
    const bool declared = input.type().has_tensor_type() && input.type().tensor_type().has_shape();
    ranks_[input.name()] = declared ? input.type().tensor_type().shape().dim_size() : -1;
  }
  for (const auto& initializer : graph.initializer()) {
    ranks_[initializer.name()] = initializer.dims_size();
  }
  for (const auto& sparse : graph.sparse_initializer()) {
    ranks_[sparse.values().name()] = sparse.dims_size();
  }
}

bool RankScope::Defines(const std::string& name) const {
  for (const RankScope* scope = this; scope != nullptr; scope = scope->parent_) {
    if (scope->ranks_.count(name) > 0) return true;
  }
  return false;
}

int RankScope::Rank(const std::string& name) const {
  for (const RankScope* scope = this; scope != nullptr; scope = scope->parent_) {
    auto it = scope->ranks_.find(name);
    if (it != scope->ranks_.end()) return it->second;
  }
  return -1;
}

std::span<const AxisAttribute> AxisAttributes() {
  static constexpr std::array<AxisAttribute, 33> kAxisAttributes{{
      {"Concat", "axis", 0, 0},
      {"Gather", "axis", 0, 0},
      {"GatherElements", "axis", 0, 0},
      {"Softmax", "axis", 0, 0},
      {"LogSoftmax", "axis", 0, 0},
      {"Hardmax", "axis", 0, 0},
      {"Split", "axis", 0, 0},
      {"ArgMax", "axis", 0, 0},
      {"ArgMin", "axis", 0, 0},
      {"TopK", "axis", 0, 0},
      {"Scatter", "axis", 0, 0},
      {"ScatterElements", "axis", 0, 0},
      {"Compress", "axis", 0, 0},
      {"LayerNormalization", "axis", 0, 0},
      {"LpNormalization", "axis", 0, 0},
      {"QuantizeLinear", "axis", 0, 0},
      {"DequantizeLinear", "axis", 0, 0},
      {"Flatten", "axis", 0, 1},
      {"OneHot", "axis", 1, 1},
      {"Squeeze", "axes", 0, 0},
      {"Slice", "axes", 0, 0},
      {"ReduceSum", "axes", 0, 0},
      {"ReduceMean", "axes", 0, 0},
      {"ReduceMax", "axes", 0, 0},
      {"ReduceMin", "axes", 0, 0},
      {"ReduceProd", "axes", 0, 0},
      {"ReduceL1", "axes", 0, 0},
      {"ReduceL2", "axes", 0, 0},
      {"ReduceLogSum", "axes", 0, 0},
      {"ReduceLogSumExp", "axes", 0, 0},
      {"ReduceSumSquare", "axes", 0, 0},
      {"ReverseSequence", "batch_axis", 0, 0},
      {"ReverseSequence", "time_axis", 0, 0},
  }};
  return kAxisAttributes;
}

Status CheckOpAttributes(const NodeContext& n) {
  const std::string& op = n.node.op_type();
  for (const ConvLikeOp& conv : kConvLikeOps) {
    if (conv.domain == n.domain && conv.op_type == op) return CheckConvLike(n, conv.weight);
  }
  if (!n.domain.empty()) return Status::OK();
  if (op == "Transpose") return CheckTranspose(n);
  if (op == "If") return CheckIf(n);
  if (op == "Loop") return CheckLoop(n);
  if (op == "Scan") return CheckScan(n);
  if (op == "GatherND") return CheckGatherND(n);
  if (op == "DepthToSpace" || op == "SpaceToDepth") return CheckBlockSize(n);
  return CheckAxisAttributes(n);
}

}  // namespace ort
