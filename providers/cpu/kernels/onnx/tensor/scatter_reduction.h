// The `reduction` attribute of ScatterND and ScatterElements: none (opset < 16 always), add and
// mul (16+), max and min (18+).
#pragma once

#include <algorithm>
#include <string>

#include "lib/framework/op_kernel.h"
#include "providers/cpu/kernels/common/elementwise.h"

namespace ort {

enum class ScatterReduction { kNone, kAdd, kMul, kMax, kMin };

inline Result<ScatterReduction> ParseScatterReduction(const KernelInfo& info) {
  if (info.opset() < 16) return ScatterReduction::kNone;
  ORT_ASSIGN_OR_RETURN(const std::string name,
                       info.GetAttributeOr<std::string>("reduction", "none"));
  if (name == "none") return ScatterReduction::kNone;
  if (name == "add") return ScatterReduction::kAdd;
  if (name == "mul") return ScatterReduction::kMul;
  if (info.opset() >= 18 && name == "max") return ScatterReduction::kMax;
  if (info.opset() >= 18 && name == "min") return ScatterReduction::kMin;
  return ORT_ERROR(kInvalidModel, "unsupported reduction '{}' at opset {}", name, info.opset())
      .WithNode(info.node().Describe());
}

/// target = target (reduction) value, computed in ComputeType<T>.
template <typename T>
inline void ApplyScatterReduction(ScatterReduction reduction, T& target, const T& value) {
  using C = ComputeType<T>;
  const C a = static_cast<C>(target);
  const C b = static_cast<C>(value);
  switch (reduction) {
    case ScatterReduction::kNone:
      target = value;
      return;
    case ScatterReduction::kAdd:
      target = static_cast<T>(static_cast<C>(a + b));
      return;
    case ScatterReduction::kMul:
      target = static_cast<T>(static_cast<C>(a * b));
      return;
    case ScatterReduction::kMax:
      target = static_cast<T>(std::max(a, b));
      return;
    case ScatterReduction::kMin:
      target = static_cast<T>(std::min(a, b));
      return;
  }
}

}  // namespace ort
