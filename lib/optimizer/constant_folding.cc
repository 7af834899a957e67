// Pass constant_folding: evaluates with the fallback (host) provider's kernels every node whose
// inputs are all constant (but a DequantizeLinear of a QDQ group) and replaces it by initializers
// holding its outputs; a node whose outputs symbolic shape inference knows in full (Shape and
// Size of a statically shaped value, Gather, Slice, Concat and arithmetic of a partly symbolic
// shape whose selected dimensions are known) becomes constants too (ONNX Runtime's
// ConstantFolding).
#include <algorithm>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lib/common/logging.h"
#include "lib/optimizer/constant_folding.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {
namespace {

// Folded outputs stay in memory for the session's lifetime; a node producing more (an Expand or
// Tile of a small constant) is cheaper to run than to store.
constexpr size_t kMaxFoldedBytes = size_t{64} << 20;

// Ops whose outputs differ from run to run, which folding would freeze.
bool IsNondeterministic(const Node& node) {
  if (node.domain() != kOnnxDomain) return false;
  const std::string& op = node.op_type();
  // A training_mode input may switch random dropout on.
  if (op == "Dropout") return node.HasInput(2);
  return op == "RandomNormal" || op == "RandomUniform" || op == "RandomNormalLike" ||
         op == "RandomUniformLike" || op == "Multinomial" || op == "Bernoulli";
}

// A DequantizeLinear of a QDQ group the extended level fuses into an 8-bit op, which needs the
// quantized constant (onnxruntime's constant folding keeps DequantizeLinear nodes for the same
// reason): read by a Conv, MatMul or Gemm whose input 0 is dequantized too, or by any op that
// also reads a dequantized activation and whose output is quantized again (BERT's GELU
// multiplies by a dequantized 0.5: folded, its QLinearMul was lost).
bool FeedsQdqGroup(const Graph& graph, const Node& node) {
  if (node.domain() != kOnnxDomain || node.op_type() != "DequantizeLinear") return false;
  const auto is_dequantize = [](const Node* producer) {
    return producer != nullptr && producer->domain() == kOnnxDomain &&
           producer->op_type() == "DequantizeLinear";
  };
  for (const auto& output : node.outputs()) {
    if (output.empty()) continue;
    for (const Node* consumer : graph.Consumers(output)) {
      if (consumer->domain() != kOnnxDomain) continue;
      const std::string& op = consumer->op_type();
      if (op == "Conv" || op == "MatMul" || op == "Gemm") {
        if (consumer->HasInput(0) && is_dequantize(graph.Producer(consumer->inputs()[0]))) {
          return true;
        }
        continue;
      }
      if (consumer->outputs().empty() || consumer->outputs()[0].empty()) continue;
      const auto readers = graph.Consumers(consumer->outputs()[0]);
      const bool requantized = std::any_of(readers.begin(), readers.end(), [](const Node* r) {
        return r->domain() == kOnnxDomain && r->op_type() == "QuantizeLinear";
      });
      if (!requantized) continue;
      for (size_t i = 0; i < consumer->inputs().size(); ++i) {
        if (!consumer->HasInput(i)) continue;
        const Node* producer = graph.Producer(consumer->inputs()[i]);
        if (producer != &node && is_dequantize(producer) && producer->HasInput(0) &&
            graph.GetConstantInitializer(producer->inputs()[0], true) == nullptr) {
          return true;
        }
      }
    }
  }
  return false;
}

// Checks what can be known before running the node: its inputs, its kind, and its output types
// where inference fixed them.
bool IsFoldable(const Graph& graph, const Node& node, bool dequantize_only) {
  if (dequantize_only && (node.domain() != kOnnxDomain || node.op_type() != "DequantizeLinear")) {
    return false;
  }
  if (!node.Subgraphs().empty() || IsNondeterministic(node) ||
      (!dequantize_only && FeedsQdqGroup(graph, node))) {
    return false;
  }
  for (size_t i = 0; i < node.inputs().size(); ++i) {
    if (node.HasInput(i) && graph.GetConstantInitializer(node.inputs()[i], true) == nullptr) {
      return false;
    }
  }
  size_t bytes = 0;
  for (const auto& output : node.outputs()) {
    if (output.empty()) continue;
    const ValueType* type = graph.FindTypeInScope(output);
    if (type != nullptr && type->kind != ValueType::Kind::kUnknown && !type->IsTensor()) {
      return false;
    }
    const auto shape = StaticShapeOf(graph, output);
    const auto elem_type = ElementTypeOf(graph, output);
    if (shape && elem_type) {
      bytes += StorageBytes(*elem_type, shape->NumElements());
    }
  }
  return bytes <= kMaxFoldedBytes;
}

// A tensor of `type` and `shape` holding `values`, all known numbers; nullopt otherwise.
std::optional<Tensor> KnownTensor(const TensorFacts& facts) {
  const DataType type = facts.value_type;
  if (!facts.values || !facts.shape || facts.shape->size() > 1 ||
      (type != DataType::kInt64 && type != DataType::kInt32 && type != DataType::kBool)) {
    return std::nullopt;
  }
  std::vector<int64_t> values;
  for (const DimExpr& value : *facts.values) {
    const auto constant = value.AsConstant();
    if (!constant) return std::nullopt;
    values.push_back(*constant);
  }
  const auto dims = facts.shape->empty()
                        ? std::vector<int64_t>{}
                        : std::vector<int64_t>{static_cast<int64_t>(values.size())};
  auto tensor = Tensor::Allocate(type, TensorShape(dims));
  if (!tensor.ok()) return std::nullopt;
  for (size_t i = 0; i < values.size(); ++i) {
    if (type == DataType::kInt64) {
      tensor->MutableData<int64_t>()[i] = values[i];
    } else if (type == DataType::kInt32) {
      tensor->MutableData<int32_t>()[i] = static_cast<int32_t>(values[i]);
    } else {
      tensor->MutableData<bool>()[i] = values[i] != 0;
    }
  }
  return std::move(*tensor);
}

// The outputs of a node that symbolic shape inference knows in full even though some input is
// computed at run time: Shape or Size of a value whose shape is static, and the pieces and
// arithmetic of a partly symbolic shape whose selected dimensions are known.
std::optional<std::vector<Tensor>> FoldKnownValues(SymbolicShapes& shapes, const Node& node) {
  if (node.domain() != kOnnxDomain || !node.Subgraphs().empty() || IsNondeterministic(node)) {
    return std::nullopt;
  }
  std::vector<Tensor> tensors(node.outputs().size());
  for (size_t i = 0; i < node.outputs().size(); ++i) {
    if (!node.HasOutput(i)) continue;
    auto tensor = KnownTensor(shapes.Facts(node.outputs()[i]));
    if (!tensor) return std::nullopt;
    tensors[i] = std::move(*tensor);
  }
  return tensors;
}

// Creates and runs the node's kernel; kernels must not throw, but a throw must not fail the
// optimization either.
Status RunKernel(const KernelEntry& entry, const KernelInfo& info, KernelContext& context) {
  try {
    ORT_ASSIGN_OR_RETURN(std::unique_ptr<OpKernel> kernel, entry.factory(info));
    return kernel->Compute(context);
  } catch (const std::bad_alloc&) {
    return ORT_ERROR(kOutOfMemory, "out of memory");
  } catch (const std::exception& error) {
    return ORT_ERROR(kRuntimeError, "unexpected error: {}", error.what());
  }
}

// The node's outputs computed on the CPU (undefined where omitted), or nullopt when they cannot
// or should not become initializers.
std::optional<std::vector<Tensor>> Evaluate(const Graph& graph, const Node& node,
                                            const IExecutionProvider& host, bool dequantize_only) {
  if (!IsFoldable(graph, node, dequantize_only)) return std::nullopt;
  const KernelEntry* entry = host.kernel_registry().Find(node);
  if (entry == nullptr) return std::nullopt;

  std::vector<Value> input_values(node.inputs().size());
  std::vector<const Value*> inputs(node.inputs().size(), nullptr);
  for (size_t i = 0; i < node.inputs().size(); ++i) {
    if (!node.HasInput(i)) continue;
    input_values[i] = *graph.GetConstantInitializer(node.inputs()[i], true);
    inputs[i] = &input_values[i];
  }
  std::vector<Value> output_values(node.outputs().size());
  std::vector<Value*> outputs;
  for (Value& value : output_values) outputs.push_back(&value);
  // Initializers outlive the session's arena, so they come from the plain heap. Outputs above
  // the folding bound are never kept, so the kernel is not let fill them either.
  RunContext run;
  run.max_tensor_bytes = kMaxFoldedBytes;
  KernelContext context(node, inputs, {}, outputs, DefaultCpuAllocator(), run);
  const Status status = RunKernel(*entry, KernelInfo(node, host), context);
  if (!status.ok()) {
    ORT_LOG_VERBOSE("constant_folding: {} left in place: {}", node.Describe(), status.message());
    return std::nullopt;
  }

  std::vector<Tensor> tensors(output_values.size());
  size_t bytes = 0;
  for (size_t i = 0; i < output_values.size(); ++i) {
    if (!node.HasOutput(i)) continue;
    if (!output_values[i].IsTensor()) return std::nullopt;
    tensors[i] = output_values[i].tensor();
    bytes += tensors[i].SizeInBytes();
  }
  if (bytes > kMaxFoldedBytes) {
    ORT_LOG_VERBOSE("constant_folding: {} left in place: {} bytes of output", node.Describe(),
                    bytes);
    return std::nullopt;
  }
  return tensors;
}

class ConstantFolding final : public GraphTransformer {
 public:
  ConstantFolding(std::string name, OptimizationLevel level, bool dequantize_only)
      : GraphTransformer(std::move(name), level), dequantize_only_(dequantize_only) {}

  Status Apply(Graph& graph, const OptimizerContext& context, bool& changed) const override {
    const IExecutionProvider* host = FindFallbackProvider(context.providers);
    if (host == nullptr) return Status::OK();
    // Folding keeps every value's content, so one analysis serves the whole sweep, and its
    // analyses of the subgraphs serve theirs: one made afresh per subgraph inferred the graphs
    // around it again (Silero VAD's two If branches hold the whole model).
    SymbolicShapes shapes(graph);
    return Fold(graph, shapes, *host, changed);
  }

 private:
  Status Fold(Graph& graph, SymbolicShapes& shapes, const IExecutionProvider& host,
              bool& changed) const {
    ORT_ASSIGN_OR_RETURN(std::vector<NodeIndex> order, graph.TopologicalOrder());
    // A folded node's outputs are initializers by the time its consumers come up, so one sweep
    // folds whole constant chains.
    for (NodeIndex index : order) {
      Node& node = *graph.GetNode(index);
      std::optional<std::vector<Tensor>> outputs;
      if (!dequantize_only_) outputs = FoldKnownValues(shapes, node);
      if (!outputs) outputs = Evaluate(graph, node, host, dequantize_only_);
      if (!outputs) continue;
      const std::vector<std::string> names = node.outputs();
      graph.RemoveNode(index);
      for (size_t i = 0; i < names.size(); ++i) {
        if (!names[i].empty()) graph.AddInitializer(names[i], std::move((*outputs)[i]));
      }
      changed = true;
    }
    for (Node* node : graph.Nodes()) {
      for (Graph* subgraph : node->Subgraphs()) {
        ORT_RETURN_IF_ERROR(Fold(*subgraph, shapes.Subgraph(*subgraph), host, changed));
      }
    }
    return Status::OK();
  }

  bool dequantize_only_;
};

}  // namespace

std::unique_ptr<GraphTransformer> MakeConstantFolding(std::string name, OptimizationLevel level,
                                                      bool dequantize_only) {
  return std::make_unique<ConstantFolding>(std::move(name), level, dequantize_only);
}

std::unique_ptr<GraphTransformer> CreateConstantFolding() {
  return MakeConstantFolding("constant_folding", OptimizationLevel::kBasic, false);
}

}  // namespace ort
