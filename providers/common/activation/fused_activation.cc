#include "providers/common/activation/fused_activation.h"

#include <limits>
#include <string>
#include <vector>

namespace ort {
namespace {

struct ActivationSpec {
  const char* name;
  ActivationKind kind;
  float alpha, beta, gamma;  // ONNX defaults
};

constexpr float kInf = std::numeric_limits<float>::infinity();

// Activations by name with the defaults of the ONNX (or contrib) op of the same name.
constexpr ActivationSpec kActivations[] = {
    {"Relu", ActivationKind::kRelu, 0.0f, 0.0f, 0.0f},
    {"LeakyRelu", ActivationKind::kLeakyRelu, 0.01f, 0.0f, 0.0f},
    {"Tanh", ActivationKind::kTanh, 0.0f, 0.0f, 0.0f},
    {"Sigmoid", ActivationKind::kSigmoid, 0.0f, 0.0f, 0.0f},
    {"HardSigmoid", ActivationKind::kHardSigmoid, 0.2f, 0.5f, 0.0f},
    {"Clip", ActivationKind::kClip, -kInf, kInf, 0.0f},
    {"Elu", ActivationKind::kElu, 1.0f, 0.0f, 0.0f},
    {"Selu", ActivationKind::kSelu, 1.67326319217681884765625f, 0.0f, 1.05070102214813232421875f},
    {"Celu", ActivationKind::kCelu, 1.0f, 0.0f, 0.0f},
    {"Softplus", ActivationKind::kSoftplus, 0.0f, 0.0f, 0.0f},
    {"Softsign", ActivationKind::kSoftsign, 0.0f, 0.0f, 0.0f},
    {"ThresholdedRelu", ActivationKind::kThresholdedRelu, 1.0f, 0.0f, 0.0f},
    {"ScaledTanh", ActivationKind::kScaledTanh, 1.0f, 1.0f, 0.0f},
    {"ParametricSoftplus", ActivationKind::kParametricSoftplus, 1.0f, 1.0f, 0.0f},
    {"QuickGelu", ActivationKind::kQuickGelu, 1.702f, 0.0f, 0.0f},
    {"HardSwish", ActivationKind::kHardSwish, 0.0f, 0.0f, 0.0f},
};

const ActivationSpec* FindActivation(const std::string& name) {
  for (const ActivationSpec& spec : kActivations) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

Result<std::string> ActivationName(const KernelInfo& info) {
  return info.GetAttributeOr<std::string>("activation", "");
}

FusedActivationAttributes FromSpec(const ActivationSpec& spec) {
  return FusedActivationAttributes{spec.kind, spec.alpha, spec.beta, spec.gamma};
}

}  // namespace

Result<FusedActivationAttributes> ParseConvActivation(const KernelInfo& info) {
  ORT_ASSIGN_OR_RETURN(const std::string name, ActivationName(info));
  if (name.empty()) return FusedActivationAttributes{};
  const ActivationSpec* spec = FindActivation(name);
  // The activations MLAS fuses into its convolution, and this engine's own, with their parameter
  // counts.
  size_t wanted = 0;
  switch (spec == nullptr ? ActivationKind::kNone : spec->kind) {
    case ActivationKind::kRelu:
    case ActivationKind::kTanh:
    case ActivationKind::kSigmoid:
    case ActivationKind::kHardSwish:
      break;
    case ActivationKind::kLeakyRelu:
    case ActivationKind::kQuickGelu:
      wanted = 1;
      break;
    case ActivationKind::kClip:
    case ActivationKind::kHardSigmoid:
      wanted = 2;
      break;
    default:
      return ORT_ERROR(kInvalidModel, "unsupported activation '{}'", name)
          .WithNode(info.node().Describe());
  }
  FusedActivationAttributes activation = FromSpec(*spec);
  ORT_ASSIGN_OR_RETURN(const std::vector<float> params,
                       info.GetAttributeOr<std::vector<float>>("activation_params", {}));
  if (!params.empty() && params.size() != wanted) {
    return ORT_ERROR(kInvalidModel, "activation {} takes {} activation_params, got {}", name,
                     wanted, params.size())
        .WithNode(info.node().Describe());
  }
  if (params.size() > 0) activation.alpha = params[0];
  if (params.size() > 1) activation.beta = params[1];
  return activation;
}

Result<FusedActivationAttributes> ParseGemmActivation(const KernelInfo& info) {
  ORT_ASSIGN_OR_RETURN(const std::string name, ActivationName(info));
  if (name.empty()) return FusedActivationAttributes{};
  const ActivationSpec* spec = FindActivation(name);
  if (spec == nullptr || spec->kind == ActivationKind::kClip ||
      spec->kind == ActivationKind::kQuickGelu || spec->kind == ActivationKind::kHardSwish) {
    return ORT_ERROR(kInvalidModel, "unsupported activation '{}'", name)
        .WithNode(info.node().Describe());
  }
  FusedActivationAttributes activation = FromSpec(*spec);
  ORT_ASSIGN_OR_RETURN(activation.alpha,
                       info.GetAttributeOr<float>("activation_alpha", spec->alpha));
  ORT_ASSIGN_OR_RETURN(activation.beta, info.GetAttributeOr<float>("activation_beta", spec->beta));
  ORT_ASSIGN_OR_RETURN(activation.gamma,
                       info.GetAttributeOr<float>("activation_gamma", spec->gamma));
  if (activation.kind == ActivationKind::kCelu && activation.alpha == 0.0f) {
    return ORT_ERROR(kInvalidModel, "Celu alpha must not be 0").WithNode(info.node().Describe());
  }
  return activation;
}

}  // namespace ort
