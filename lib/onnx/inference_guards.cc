#include "lib/onnx/inference_guards.h"

#include <onnx/defs/data_type_utils.h>
#include <onnx/defs/schema.h>
#include <onnx/defs/shape_inference.h>

#include <array>
#include <mutex>
#include <set>
#include <string_view>

#include "lib/onnx/node_checks.h"

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

// Inference functions read an input as the kind and element type the schema allows (a Gemm fed
// a string tensor or an optional crashed onnx's): onnx checks type constraints only after
// inference, so inputs whose type is known are checked before it.
void CheckInputTypes(const onnx::OpSchema& schema, onnx::InferenceContext& context) {
  const auto& formals = schema.inputs();
  if (formals.empty()) return;
  for (size_t i = 0; i < context.getNumInputs(); ++i) {
    const onnx::TypeProto* type = context.getInputType(i);
    if (type == nullptr || type->value_case() == onnx::TypeProto::VALUE_NOT_SET) continue;
    const auto& formal = formals[std::min(i, formals.size() - 1)];
    if (i >= formals.size() && formal.GetOption() != onnx::OpSchema::Variadic) {
      fail_type_inference("input ", i, " is beyond the ", formals.size(), " the schema has");
    }
    const auto& allowed = formal.GetTypes();
    if (allowed.empty()) continue;
    if (type->has_tensor_type() && type->tensor_type().elem_type() == 0) continue;
    onnx::DataType name = nullptr;
    try {
      name = onnx::Utils::DataTypeUtils::ToType(*type);
    } catch (const std::exception&) {
      fail_type_inference("input ", i, " has a type onnx cannot name");
    }
    if (allowed.count(name) == 0) {
      fail_type_inference("input ", i, " has type ", *name, ", which ", schema.Name(),
                          " does not accept for '", formal.GetName(), "'");
    }
  }
}

// Axis attributes checked against the rank inference has learnt (node_validation checks them
// against declared ranks only).
void CheckAxes(const onnx::OpSchema& schema, onnx::InferenceContext& context) {
  if (!schema.domain().empty()) return;
  const int rank = InputRank(context, 0);
  if (rank < 0) return;
  for (const AxisAttribute& rule : AxisAttributes()) {
    if (rule.op_type != schema.Name()) continue;
    const onnx::AttributeProto* attribute = context.getAttribute(std::string(rule.attribute));
    if (attribute == nullptr) continue;
    std::vector<int64_t> axes(attribute->ints().begin(), attribute->ints().end());
    if (attribute->type() == onnx::AttributeProto::INT) axes = {attribute->i()};
    const int64_t added = schema.Name() == "Unsqueeze" ? static_cast<int64_t>(axes.size()) : 0;
    const int64_t low = -(rank + rule.below + added);
    const int64_t high = rank - 1 + rule.above + added;
    for (int64_t axis : axes) {
      if (axis < low || axis > high) {
        fail_shape_inference("attribute '", rule.attribute, "' holds axis ", axis, ", outside [",
                             low, ", ", high, "] for rank ", rank);
      }
    }
  }
  if (schema.Name() == "GatherND") {
    const onnx::AttributeProto* batch_dims = context.getAttribute("batch_dims");
    const int indices = InputRank(context, 1);
    if (batch_dims != nullptr && (batch_dims->i() < 0 || batch_dims->i() >= rank ||
                                  (indices >= 0 && batch_dims->i() >= indices))) {
      fail_shape_inference("attribute 'batch_dims' ", batch_dims->i(), " is out of range");
    }
  }
}

// Ops whose output rank is the length of a 1-D shape input: onnx builds an output type of that
// many dims, so a declared length of 2^62 exhausts memory. No real tensor has this many axes.
constexpr int64_t kMaxShapeLength = 4096;

struct ShapeInput {
  std::string_view op_type;
  size_t input;
};

constexpr std::array<ShapeInput, 5> kShapeInputs{{
    {"Expand", 1},
    {"Reshape", 1},
    {"ConstantOfShape", 0},
    {"Tile", 1},
    {"Upsample", 1},
}};

void CheckShapeInputLength(const onnx::OpSchema& schema, onnx::InferenceContext& context) {
  if (!schema.domain().empty()) return;
  for (const ShapeInput& rule : kShapeInputs) {
    if (rule.op_type != schema.Name() || rule.input >= context.getNumInputs()) continue;
    const onnx::TypeProto* type = context.getInputType(rule.input);
    if (type == nullptr || !type->has_tensor_type() || !type->tensor_type().has_shape()) continue;
    for (const auto& dim : type->tensor_type().shape().dim()) {
      if (dim.has_dim_value() && dim.dim_value() > kMaxShapeLength) {
        fail_shape_inference("input ", rule.input, " holds ", dim.dim_value(), " dims; at most ",
                             kMaxShapeLength, " are supported");
      }
    }
  }
}

// onnx 1.12's MaxUnpool inference reads the indices' shape without asking whether it is known,
// and Gemm's indexes dims 0 and 1 of A and B whatever their rank.
void CheckRanks(const onnx::OpSchema& schema, onnx::InferenceContext& context) {
  if (!schema.domain().empty()) return;
  if (schema.Name() == "MaxUnpool" && (InputRank(context, 0) < 0 || InputRank(context, 1) < 0)) {
    fail_shape_inference("the shapes of X and I must be known");
  }
  if (schema.Name() == "Gemm") {
    for (size_t i = 0; i < 2; ++i) {
      const int rank = InputRank(context, i);
      if (rank >= 0 && rank != 2) fail_shape_inference("input ", i, " has rank ", rank, ", not 2");
    }
  }
  // onnx's RNN inference reads dims 0-2 of X, W and R whatever their rank.
  if (schema.Name() == "RNN" || schema.Name() == "GRU" || schema.Name() == "LSTM") {
    for (size_t i = 0; i < 3; ++i) {
      const int rank = InputRank(context, i);
      if (rank >= 0 && rank != 3) fail_shape_inference("input ", i, " has rank ", rank, ", not 3");
    }
  }
}

// Declared dims no tensor can have: onnx's inference functions add and multiply them unchecked
// (a MaxPool over a dim of 2^63-1 with SAME padding never returned).
constexpr int64_t kMaxDeclaredDim = int64_t{1} << 61;

void CheckDeclaredDims(onnx::InferenceContext& context) {
  for (size_t i = 0; i < context.getNumInputs(); ++i) {
    const onnx::TypeProto* type = context.getInputType(i);
    if (type == nullptr || !type->has_tensor_type() || !type->tensor_type().has_shape()) continue;
    for (const auto& dim : type->tensor_type().shape().dim()) {
      if (dim.has_dim_value() && dim.dim_value() > kMaxDeclaredDim) {
        fail_shape_inference("input ", i, " declares a dimension of ", dim.dim_value(),
                             "; at most 2^61 is supported");
      }
    }
  }
}

int ConvWeightInput(const onnx::OpSchema& schema) {
  if (!schema.domain().empty()) return -1;
  for (const ConvSchema& conv : kConvSchemas) {
    if (conv.op_type == schema.Name()) return conv.weight;
  }
  return -1;
}

}  // namespace

void GuardOnnxInference() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Every registered schema, found from the newest of each op (get_all_schemas copies those,
    // a few hundred) down through its older versions by lookup: copying the whole history
    // (get_all_schemas_with_history, thousands of schemas) took most of a small model's start.
    std::set<const onnx::OpSchema*> schemas;
    for (const onnx::OpSchema& newest : onnx::OpSchemaRegistry::get_all_schemas()) {
      for (int version = newest.SinceVersion(); version >= 1;) {
        const onnx::OpSchema* schema =
            onnx::OpSchemaRegistry::Schema(newest.Name(), version, newest.domain());
        if (schema == nullptr) break;
        schemas.insert(schema);
        version = schema->SinceVersion() - 1;
      }
    }
    for (const onnx::OpSchema* registered : schemas) {
      auto original = registered->GetTypeAndShapeInferenceFunction();
      if (!original) continue;
      const int weight = ConvWeightInput(*registered);
      // The registry hands out const schemas; the one wrapped here is the registry's own entry,
      // changed once, before any inference runs.
      const_cast<onnx::OpSchema*>(registered)
          ->TypeAndShapeInferenceFunction(
              [original, weight, registered](onnx::InferenceContext& context) {
                CheckDeclaredDims(context);
                CheckInputTypes(*registered, context);
                CheckAxes(*registered, context);
                CheckShapeInputLength(*registered, context);
                CheckRanks(*registered, context);
                if (weight >= 0) CheckConvRanks(context, weight);
                original(context);
              });
    }
  });
}

namespace {

void ClearNegativeDims(onnx::TypeProto& type) {
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType:
      // mutable_shape() would give a shapeless tensor rank 0.
      if (!type.tensor_type().has_shape()) break;
      for (auto& dim : *type.mutable_tensor_type()->mutable_shape()->mutable_dim()) {
        if (dim.has_dim_value() && dim.dim_value() < 0) dim.clear_dim_value();
      }
      break;
    case onnx::TypeProto::kSequenceType:
      ClearNegativeDims(*type.mutable_sequence_type()->mutable_elem_type());
      break;
    case onnx::TypeProto::kOptionalType:
      ClearNegativeDims(*type.mutable_optional_type()->mutable_elem_type());
      break;
    case onnx::TypeProto::kMapType:
      ClearNegativeDims(*type.mutable_map_type()->mutable_value_type());
      break;
    default:
      break;
  }
}

void ClearNegativeDims(onnx::GraphProto& graph) {
  for (auto* infos : {graph.mutable_input(), graph.mutable_output(), graph.mutable_value_info()}) {
    for (auto& info : *infos) {
      if (info.has_type()) ClearNegativeDims(*info.mutable_type());
    }
  }
  for (auto& node : *graph.mutable_node()) {
    for (auto& attribute : *node.mutable_attribute()) {
      if (attribute.has_g()) ClearNegativeDims(*attribute.mutable_g());
      for (auto& body : *attribute.mutable_graphs()) ClearNegativeDims(body);
    }
  }
}

}  // namespace

void ClearNegativeDims(onnx::ModelProto& model) { ClearNegativeDims(*model.mutable_graph()); }

}  // namespace ort
