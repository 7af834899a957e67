#include "providers/cpu/kernels/common/fused_activation.h"

#include <cmath>

#include "providers/cpu/kernels/common/logistic.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/onnx/math/fast_math.h"

namespace ort {
namespace {

// log(1 + e^x) without overflow for large x.
template <typename C>
C Softplus(C x) {
  return x > C(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

template <typename C, typename F>
void Transform(C* data, int64_t count, F f) {
  for (int64_t i = 0; i < count; ++i) data[i] = f(data[i]);
}

template <typename C>
void ApplyActivation(const FusedActivation& act, C* data, int64_t count) {
  const C alpha = C(act.alpha), beta = C(act.beta), gamma = C(act.gamma);
  switch (act.kind) {
    case ActivationKind::kNone:
      return;
    case ActivationKind::kRelu:
      return Transform(data, count, [](C x) { return x < C(0) ? C(0) : x; });
    case ActivationKind::kLeakyRelu:
      return Transform(data, count, [=](C x) { return Select(x < C(0), x * alpha, x); });
    case ActivationKind::kTanh:
      return Transform(data, count, [](C x) { return ActivationTanh(x); });
    case ActivationKind::kSigmoid:
      return Transform(data, count, [](C x) { return C(1) / (C(1) + ActivationExp(-x)); });
    case ActivationKind::kHardSigmoid:
      return Transform(data, count, [=](C x) {
        const C v = alpha * x + beta;
        const C low = Select(v < C(0), C(0), v);
        return Select(low > C(1), C(1), low);
      });
    case ActivationKind::kClip:
      return Transform(data, count, [=](C x) {
        const C low = Select(x < alpha, alpha, x);
        return Select(low > beta, beta, low);
      });
    case ActivationKind::kElu:
      return Transform(data, count,
                       [=](C x) { return Select(x < C(0), alpha * (ActivationExp(x) - C(1)), x); });
    case ActivationKind::kSelu:
      return Transform(data, count, [=](C x) {
        return gamma * Select(x <= C(0), alpha * ActivationExp(x) - alpha, x);
      });
    case ActivationKind::kCelu:
      return Transform(data, count, [=](C x) {
        const C negative = alpha * (ActivationExp(x / alpha) - C(1));
        return Select(x > C(0), x, Select(negative < C(0), negative, C(0)));
      });
    case ActivationKind::kSoftplus:
      return Transform(data, count, [](C x) { return Softplus(x); });
    case ActivationKind::kSoftsign:
      return Transform(data, count, [](C x) { return x / (C(1) + std::abs(x)); });
    case ActivationKind::kThresholdedRelu:
      return Transform(data, count, [=](C x) { return Select(x > alpha, x, C(0)); });
    case ActivationKind::kScaledTanh:
      return Transform(data, count, [=](C x) { return alpha * ActivationTanh(beta * x); });
    case ActivationKind::kParametricSoftplus:
      return Transform(data, count, [=](C x) { return alpha * Softplus(beta * x); });
    case ActivationKind::kQuickGelu:
      return Transform(data, count, [=](C x) { return x / (C(1) + ActivationExp(-alpha * x)); });
    case ActivationKind::kHardSwish:
      return Transform(data, count, [](C x) {
        const C v = x * C(1.0 / 6) + C(0.5);
        const C low = Select(v < C(0), C(0), v);
        return x * Select(low > C(1), C(1), low);
      });
  }
}

}  // namespace

void FusedActivation::Apply(float* data, int64_t count) const {
  if (kind == ActivationKind::kSigmoid || kind == ActivationKind::kQuickGelu) {
    ScaledLogistic(data, data, count, kind == ActivationKind::kSigmoid ? 1.0f : alpha,
                   kind == ActivationKind::kQuickGelu);
    return;
  }
  Vectorized([&] { ApplyActivation(*this, data, count); });
}

void FusedActivation::Apply(double* data, int64_t count) const {
  Vectorized([&] { ApplyActivation(*this, data, count); });
}

}  // namespace ort
