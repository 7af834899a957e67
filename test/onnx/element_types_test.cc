// Element types of models newer than the onnx library (opset 20 here): onnx infers nothing for
// them, so the loader types node outputs by this engine's rules (lib/onnx/element_types.h), and
// the optimizer can then prove what its fusions need.
#include "lib/onnx/element_types.h"

#include <google/protobuf/text_format.h>
#include <onnx/onnx_pb.h>

#include <catch2/catch.hpp>

#include "lib/onnx/model_loader.h"
#include "lib/optimizer/graph_optimizer.h"
#include "providers/cpu/cpu_provider.h"

namespace ort {
namespace {

constexpr char kOpset20Model[] = R"(
ir_version: 9
opset_import { domain: "" version: 20 }
opset_import { domain: "com.example" version: 1 }
graph {
  name: "g"
  node { op_type: "Relu" input: "x" output: "r" }
  node { op_type: "Shape" input: "r" output: "s" }
  node { op_type: "Equal" input: "r" input: "x" output: "e" }
  node { op_type: "Cast" input: "r" output: "c" attribute { name: "to" i: 10 type: INT } }
  node { op_type: "Where" input: "e" input: "x" input: "r" output: "w" }
  node { op_type: "ConstantOfShape" input: "s" output: "z" }
  node { op_type: "TopK" input: "w" input: "k" output: "values" output: "indices" }
  node { op_type: "Opaque" domain: "com.example" input: "w" output: "u" }
  node { op_type: "Relu" input: "u" output: "after_unknown" }
  node { op_type: "Sigmoid" input: "r" output: "gate" }
  node { op_type: "Mul" input: "r" input: "gate" output: "silu" }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_param: "n" } dim { dim_value: 3 } } } } }
  input { name: "k" type { tensor_type { elem_type: 7 shape { dim { dim_value: 1 } } } } }
  output { name: "c" }
  output { name: "z" }
  output { name: "indices" }
  output { name: "after_unknown" }
  output { name: "silu" }
}
)";

std::unique_ptr<Model> LoadOpset20() {
  onnx::ModelProto proto;
  REQUIRE(google::protobuf::TextFormat::ParseFromString(kOpset20Model, &proto));
  const std::string bytes = proto.SerializeAsString();
  auto model = LoadModelFromBytes(bytes.data(), bytes.size(), ".");
  REQUIRE(model.ok());
  return std::move(model).value();
}

DataType ElementType(const Graph& graph, const std::string& value) {
  const ValueType* type = graph.FindTypeInScope(value);
  return type != nullptr && type->IsTensor() ? type->elem_type : DataType::kUndefined;
}

}  // namespace

TEST_CASE("Outputs of an opset onnx does not know get element types by op rules", "[onnx][types]") {
  const auto model = LoadOpset20();
  const Graph& graph = model->graph();
  CHECK(ElementType(graph, "r") == DataType::kFloat);
  CHECK(ElementType(graph, "s") == DataType::kInt64);
  CHECK(ElementType(graph, "e") == DataType::kBool);
  CHECK(ElementType(graph, "c") == DataType::kFloat16);
  CHECK(ElementType(graph, "w") == DataType::kFloat);
  CHECK(ElementType(graph, "z") == DataType::kFloat);  // ConstantOfShape's default value
  CHECK(ElementType(graph, "values") == DataType::kFloat);
  CHECK(ElementType(graph, "indices") == DataType::kInt64);
  // An op without a rule stays untyped, and so does what it feeds.
  CHECK(ElementType(graph, "u") == DataType::kUndefined);
  CHECK(ElementType(graph, "after_unknown") == DataType::kUndefined);
}

TEST_CASE("Fusions prove their patterns in a model of an opset onnx does not know",
          "[onnx][types]") {
  auto model = LoadOpset20();
  CpuExecutionProvider cpu;
  IExecutionProvider* providers[] = {&cpu};
  OptimizerOptions options;
  options.level = OptimizationLevel::kExtended;
  options.strict = true;
  REQUIRE(OptimizeGraph(*model, options, providers).ok());
  const Node* silu = model->graph().Producer("silu");
  REQUIRE(silu != nullptr);
  CHECK(silu->op_type() == "QuickGelu");
  // The symbolic pass adds the shapes: r is [n, 3].
  const ValueType* r = model->graph().FindTypeInScope("r");
  REQUIRE(r != nullptr);
  REQUIRE(r->shape.has_value());
  CHECK(r->shape->size() == 2);
}

}  // namespace ort
