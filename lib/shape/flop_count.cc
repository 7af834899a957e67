#include "lib/shape/flop_count.h"

#include <optional>
#include <set>
#include <vector>

#include "lib/shape/symbolic_shapes.h"

namespace ort {
namespace {

enum class Kind { kNone, kConv, kConvTranspose, kMatMul, kGemm };

struct CountedOp {
  Kind kind = Kind::kNone;
  size_t weight = 0;  // input holding the weight (Conv-like) or A (MatMul-like)
};

CountedOp Classify(const Node& node) {
  const std::string& op = node.op_type();
  if (node.domain().empty()) {
    if (op == "Conv" || op == "ConvInteger") return {Kind::kConv, 1};
    if (op == "QLinearConv") return {Kind::kConv, 3};
    if (op == "ConvTranspose") return {Kind::kConvTranspose, 1};
    if (op == "MatMul" || op == "MatMulInteger" || op == "QLinearMatMul") return {Kind::kMatMul, 0};
    if (op == "Gemm") return {Kind::kGemm, 0};
    return {};
  }
  if (node.domain() == kMsDomain) {
    if (op == "FusedConv" || op == "NhwcFusedConv") return {Kind::kConv, 1};
    if (op == "FusedMatMul" || op == "MatMulIntegerToFloat" || op == "DynamicQuantizeMatMul") {
      return {Kind::kMatMul, 0};
    }
    if (op == "QGemm") return {Kind::kGemm, 0};
  }
  return {};
}

class Counter {
 public:
  explicit Counter(const std::map<std::string, int64_t>& sizes) : sizes_(sizes) {}

  void Count(SymbolicShapes& shapes, FlopCount& count) {
    const Graph& graph = shapes.graph();
    for (const Node* node : graph.Nodes()) {
      const CountedOp counted = Classify(*node);
      if (counted.kind != Kind::kNone) {
        const std::optional<double> flops = NodeFlops(shapes, *node, counted);
        if (flops) {
          const std::string key =
              node->domain().empty() ? node->op_type() : node->domain() + ":" + node->op_type();
          count.by_op_type[key] += *flops;
          count.total += *flops;
        } else {
          ++count.unknown_nodes;
        }
      }
      for (const Graph* subgraph : node->Subgraphs()) Count(shapes.Subgraph(*subgraph), count);
    }
  }

 private:
  std::optional<std::vector<double>> Dims(SymbolicShapes& shapes, const std::string& value) {
    if (value.empty()) return std::nullopt;
    const TensorFacts& facts = shapes.Facts(value);
    if (!facts.shape) return std::nullopt;
    std::vector<double> dims;
    for (const DimExpr& dim : *facts.shape) {
      const std::optional<int64_t> size = dim.Evaluate([&](std::string_view name) {
        const auto it = sizes_.find(std::string(name));
        return it == sizes_.end() ? std::nullopt : std::optional<int64_t>(it->second);
      });
      if (!size || *size < 0) return std::nullopt;
      dims.push_back(static_cast<double>(*size));
    }
    return dims;
  }

  static double Product(const std::vector<double>& dims, size_t from = 0) {
    double product = 1;
    for (size_t i = from; i < dims.size(); ++i) product *= dims[i];
    return product;
  }

  static int64_t IntAttribute(const Node& node, std::string_view name) {
    const Attribute* attribute = node.FindAttribute(name);
    return attribute != nullptr && attribute->type == AttributeType::kInt ? attribute->i : 0;
  }

  std::optional<double> NodeFlops(SymbolicShapes& shapes, const Node& node, CountedOp counted) {
    const auto& inputs = node.inputs();
    if (counted.weight >= inputs.size() || node.outputs().empty()) return std::nullopt;
    const auto operand = Dims(shapes, inputs[counted.weight]);
    if (!operand || operand->empty()) return std::nullopt;
    switch (counted.kind) {
      case Kind::kConv: {
        // Each output element sums C/group x kernel products: the weight's dims after the first.
        const auto output = Dims(shapes, node.outputs()[0]);
        if (!output) return std::nullopt;
        return 2.0 * Product(*output) * Product(*operand, 1);
      }
      case Kind::kConvTranspose: {
        // Each input element spreads over M/group x kernel outputs.
        const auto input = Dims(shapes, inputs[0]);
        if (!input) return std::nullopt;
        return 2.0 * Product(*input) * Product(*operand, 1);
      }
      case Kind::kMatMul:
      case Kind::kGemm: {
        const auto output = Dims(shapes, node.outputs()[0]);
        if (!output) return std::nullopt;
        const size_t rank = operand->size();
        const bool transposed = IntAttribute(node, "transA") != 0;
        double depth = (*operand)[rank - 1];
        if (transposed && rank >= 2) depth = (*operand)[rank - 2];
        return 2.0 * Product(*output) * depth;
      }
      case Kind::kNone:
        break;
    }
    return std::nullopt;
  }

  const std::map<std::string, int64_t>& sizes_;
};

}  // namespace

FlopCount CountFlops(const Graph& graph, const std::map<std::string, int64_t>& sizes) {
  FlopCount count;
  SymbolicShapes shapes(graph);
  Counter(sizes).Count(shapes, count);
  return count;
}

}  // namespace ort
