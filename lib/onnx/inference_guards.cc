#include "lib/onnx/inference_guards.h"

#include <onnx/defs/schema.h>
#include <onnx/defs/shape_inference.h>

#include <array>
#include <mutex>
#include <string_view>
#include <unordered_set>

namespace ort {
namespace {

struct ConvSchema {
  std::string_view op_type;
  int weight;  // the input holding the kernel
};

constexpr std::array<ConvSchema, 4> kConvSchemas{{
    {"Conv", 1},
    {"ConvInteger", 1},
    {"QLinearConv", 3},
    {"ConvTranspose", 1},
}};

// The rank inference knows for input `index`, or -1.
int InputRank(onnx::InferenceContext& context, size_t index) {
  if (index >= context.getNumInputs()) return -1;
  const onnx::TypeProto* type = context.getInputType(index);
  if (type == nullptr || !type->has_tensor_type() || !type->tensor_type().has_shape()) return -1;
  return type->tensor_type().shape().dim_size();
}

// onnx takes the kernel's spatial size from the weight's dims 2.. and indexes the input's and the
// per-axis attributes' by them, and ConvTranspose reads the weight's dim 1.
void CheckConvRanks(onnx::InferenceContext& context, int weight) {
  const int x = InputRank(context, 0);
  const int w = InputRank(context, static_cast<size_t>(weight));
  if (w >= 0 && w < 2) {
    fail_shape_inference("the weight has rank ", w,
                         "; it needs an output and an input channel axis");
  }
  if (x >= 0 && w >= 0 && x != w) {
    fail_shape_inference("the weight has rank ", w, " but the input has rank ", x);
  }
}

}  // namespace

void GuardOnnxInference() {
  static std::once_flag once;
  std::call_once(once, [] {
    const auto& ranges = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    auto onnx_range = ranges.find("");
    if (onnx_range == ranges.end()) return;
    for (const ConvSchema& conv : kConvSchemas) {
      std::unordered_set<const onnx::OpSchema*> wrapped;
      for (int version = 1; version <= onnx_range->second.second; ++version) {
        const onnx::OpSchema* schema =
            onnx::OpSchemaRegistry::Schema(std::string(conv.op_type), version, "");
        if (schema == nullptr || !wrapped.insert(schema).second) continue;
        auto original = schema->GetTypeAndShapeInferenceFunction();
        if (!original) continue;
        // The registry hands out const schemas; the one wrapped here is the registry's own entry,
        // changed once, before any inference runs.
        const int weight = conv.weight;
        const_cast<onnx::OpSchema*>(schema)->TypeAndShapeInferenceFunction(
            [original, weight](onnx::InferenceContext& context) {
              CheckConvRanks(context, weight);
              original(context);
            });
      }
    }
  });
}

}  // namespace ort
