#include "lib/onnx/local_functions.h"

#include <google/protobuf/text_format.h>

#include <catch2/catch.hpp>

#include "lib/onnx/model_loader.h"
#include "lib/session/inference_session.h"
#include "providers/cpu/cpu_provider.h"

namespace ort {
namespace {

const std::string kModels = std::string(ORT_TEST_DATA_DIR) + "/models/";

}  // namespace

TEST_CASE("Local functions are inlined at load, nested and inside subgraphs", "[onnx][functions]") {
  auto model = LoadModel(kModels + "local_functions.onnx");
  REQUIRE(model.ok());
  for (const Node* node : (*model)->graph().Nodes()) CHECK(node->domain() != "custom.fn");

  InferenceSession session{SessionOptions{}};
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session.Load(kModels + "local_functions.onnx").ok());
  REQUIRE(session.Initialize().ok());
  std::vector<NamedValue> feeds{{"a", Value(Tensor::FromVector<float>({3}, {1, 2, 3}))},
                                {"b", Value(Tensor::FromVector<float>({3}, {10, 20, 30}))}};
  std::vector<Value> outputs;
  REQUIRE(session.Run({}, feeds, {}, &outputs).ok());
  REQUIRE(outputs.size() == 3);
  // Hand-derived: twice = 2 * (2a + b) + b, scaled = 0.5 * twice + a, branch = 3a + b.
  CHECK(std::vector<float>(outputs[0].tensor().Span<float>().begin(),
                           outputs[0].tensor().Span<float>().end()) ==
        std::vector<float>{34, 68, 102});
  CHECK(std::vector<float>(outputs[1].tensor().Span<float>().begin(),
                           outputs[1].tensor().Span<float>().end()) ==
        std::vector<float>{18, 36, 54});
  CHECK(std::vector<float>(outputs[2].tensor().Span<float>().begin(),
                           outputs[2].tensor().Span<float>().end()) ==
        std::vector<float>{13, 26, 39});
}

TEST_CASE("A recursive local function is an error, not a hang", "[onnx][functions]") {
  onnx::ModelProto model;
  REQUIRE(google::protobuf::TextFormat::ParseFromString(
      R"pb(
        ir_version: 8
        opset_import { version: 14 }
        functions {
          domain: "custom.fn"
          name: "Forever"
          input: "X"
          output: "Y"
          node { op_type: "Forever" domain: "custom.fn" input: "X" output: "Y" }
        }
        graph { node { op_type: "Forever" domain: "custom.fn" input: "a" output: "b" } }
      )pb",
      &model));
  const Status status = InlineLocalFunctions(model, "model 'recursive'");
  CHECK(status.message().find("'Forever' nests deeper") != std::string::npos);
}

TEST_CASE("A local function importing another opset version is refused", "[onnx][functions]") {
  onnx::ModelProto model;
  REQUIRE(google::protobuf::TextFormat::ParseFromString(R"pb(
                                                          opset_import { version: 14 }
                                                          functions {
                                                            domain: "custom.fn"
                                                            name: "Old"
                                                            opset_import { version: 9 }
                                                          }
                                                        )pb",
                                                        &model));
  const Status status = InlineLocalFunctions(model, "model 'mixed'");
  CHECK(status.message().find("imports opset 9 of domain ''") != std::string::npos);
}

}  // namespace ort
