#include <onnx/onnx_pb.h>
#include <catch2/catch.hpp>

#include <string>

#include "lib/onnx/model_loader.h"

namespace ort {
namespace {

void AddFloatInfo(onnx::ValueInfoProto* info, const std::string& name) {
  info->set_name(name);
  auto* tensor = info->mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(onnx::TensorProto_DataType_FLOAT);
  tensor->mutable_shape()->add_dim()->set_dim_value(2);
  tensor->mutable_shape()->add_dim()->set_dim_value(4);
}

void AddVector(onnx::GraphProto* graph, const std::string& name, float value) {
  auto* tensor = graph->add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(onnx::TensorProto_DataType_FLOAT);
  tensor->add_dims(4);
  for (int i = 0; i < 4; ++i) tensor->add_float_data(value);
}

onnx::NodeProto* AddNode(onnx::GraphProto* graph, const std::string& op, const std::string& domain,
                         std::initializer_list<const char*> inputs, const std::string& output) {
  auto* node = graph->add_node();
  node->set_name(op);
  node->set_op_type(op);
  node->set_domain(domain);
  for (const char* input : inputs) node->add_input(input);
  node->add_output(output);
  return node;
}

}  // namespace

// What ONNX Runtime's fusions write: com.microsoft ops, and ai.onnx LayerNormalization below
// opset 17 (ORT's contrib form). The onnx library has no schema for either; its shape inference
// must skip them rather than reject the model.
TEST_CASE("Models with contrib ops and LayerNormalization before opset 17 load", "[onnx][loader]") {
  onnx::ModelProto proto;
  proto.set_ir_version(7);
  auto* onnx_opset = proto.add_opset_import();
  onnx_opset->set_domain("");
  onnx_opset->set_version(12);
  auto* ms_opset = proto.add_opset_import();
  ms_opset->set_domain("com.microsoft");
  ms_opset->set_version(1);
  auto* graph = proto.mutable_graph();
  graph->set_name("contrib");
  AddFloatInfo(graph->add_input(), "x");
  AddFloatInfo(graph->add_output(), "out");
  AddVector(graph, "scale", 1);
  AddVector(graph, "bias", 0);
  auto* norm = AddNode(graph, "LayerNormalization", "", {"x", "scale", "bias"}, "normalized");
  auto* axis = norm->add_attribute();
  axis->set_name("axis");
  axis->set_type(onnx::AttributeProto_AttributeType_INT);
  axis->set_i(-1);
  AddNode(graph, "Gelu", "com.microsoft", {"normalized"}, "activated");
  AddNode(graph, "Relu", "", {"activated"}, "out");
  const std::string bytes = proto.SerializeAsString();

  auto model = LoadModelFromBytes(bytes.data(), bytes.size(), ".");
  INFO(model.status().ToString());
  REQUIRE(model.ok());
  const Graph& loaded = (*model)->graph();
  REQUIRE(loaded.NodeCount() == 3);
  CHECK(loaded.Nodes()[0]->since_version() == -1);  // no ai.onnx schema before opset 17
  CHECK(loaded.Nodes()[1]->domain() == "com.microsoft");
  CHECK(loaded.Nodes()[2]->since_version() == 6);
  CHECK(loaded.FindValueInfo("out")->type.ToString() == "tensor(float)[2,4]");
}

}  // namespace ort
