// com.microsoft QLinearSoftmax: the Softmax of 8-bit X (X_scale) requantized to y_scale and
// y_zero_point, of X's type; `opset` names the Softmax it replaces (before 13: X flattened to 2-D
// at `axis`; from 13: along `axis` alone). `axis` defaults to -1 for every opset, as the schema
// (and so onnxruntime) has it, not to the old Softmax's 1. Bit for bit as onnxruntime
// computes it: a 256-entry float table of exp((x - max) X_scale + shift), the shift (the log of
// FLT_MAX / length, less 5, in float) keeping each sum finite; the row's sum in float in axis
// order; each output round_half_even(table * floor(1 / y_scale) / sum) + y_zero_point,
// saturated. x_zero_point cancels out of the softmax, so it is only checked.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "providers/common/math/softmax_axis.h"
#include "providers/cpu/kernels/contrib/quantization/contrib_quantization_kernels.h"
#include "providers/cpu/kernels/onnx/nn/conv_integer.h"

namespace ort {
namespace {

/// exp((d + shift) x_scale) for d = index - 255, the difference of an input from its row's
/// maximum, with the shift scaled so that `length` of the largest still sum below FLT_MAX.
std::array<float, 256> ExpTable(float x_scale, int64_t length) {
  // onnxruntime takes this logarithm of a float in float; the rest is double.
  const float largest = std::numeric_limits<float>::max() / static_cast<float>(length);
  const double shift = std::max(0.0, static_cast<double>(std::log(largest)) - 5.0) / x_scale;
  std::array<float, 256> table;
  for (int i = 0; i < 256; ++i) {
    table[i] = static_cast<float>(std::exp((i - 255 + shift) * static_cast<double>(x_scale)));
  }
  return table;
}

/// Softmax of `length` values `stride` apart from `x` into `y`, for `lanes` rows side by side
/// (consecutive addresses, as the positions after a non-last axis are); `sums` holds `lanes`.
template <typename T>
void SoftmaxRows(const T* x, T* y, int64_t length, int64_t stride, int64_t lanes,
                 const std::array<float, 256>& table, float y_factor, int32_t y_zero,
                 std::vector<float>& sums, std::vector<int32_t>& maxima) {
  maxima.assign(static_cast<size_t>(lanes), std::numeric_limits<int32_t>::min());
  for (int64_t k = 0; k < length; ++k) {
    const T* row = x + k * stride;
    for (int64_t l = 0; l < lanes; ++l) maxima[l] = std::max<int32_t>(maxima[l], row[l]);
  }
  // Offset by 255 so that table[value + offset] is exp of (value - max).
  for (int64_t l = 0; l < lanes; ++l) maxima[l] = 255 - maxima[l];
  sums.assign(static_cast<size_t>(lanes), 0.0f);
  for (int64_t k = 0; k < length; ++k) {
    const T* row = x + k * stride;
    for (int64_t l = 0; l < lanes; ++l) sums[l] += table[row[l] + maxima[l]];
  }
  constexpr float kLow = std::numeric_limits<T>::min(), kHigh = std::numeric_limits<T>::max();
  for (int64_t k = 0; k < length; ++k) {
    const T* row = x + k * stride;
    T* out = y + k * stride;
    for (int64_t l = 0; l < lanes; ++l) {
      const float e = table[row[l] + maxima[l]];
      const float product = e * y_factor;
      // A tiny y_scale can overflow the product, where onnxruntime's result is undefined.
      const float share = std::isinf(product)
                              ? static_cast<float>(static_cast<double>(e) * y_factor / sums[l])
                              : product / sums[l];
      const float q = std::nearbyint(share) + static_cast<float>(y_zero);
      out[l] = static_cast<T>(std::clamp(q, kLow, kHigh));
    }
  }
}

class QLinearSoftmax final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const int64_t opset, info.GetAttribute<int64_t>("opset"));
    axis_.flatten = opset < 13;
    ORT_ASSIGN_OR_RETURN(axis_.axis, info.GetAttributeOr<int64_t>("axis", -1));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* x_scale, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* y_scale, context.RequiredInput(3));
    for (const auto& [scale, name] : {std::pair{x_scale, "X_scale"}, {y_scale, "y_scale"}}) {
      if (scale->dtype() != DataType::kFloat || scale->NumElements() != 1 ||
          !(scale->Data<float>()[0] > 0.0f) || std::isinf(scale->Data<float>()[0])) {
        return context.Error("{} {} must be one positive finite float", name, scale->Describe());
      }
    }
    ORT_RETURN_IF_ERROR(
        ReadZeroPoints(context, context.Input(2), x->dtype(), 1, "x_zero_point").status());
    ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> y_zero,
                         ReadZeroPoints(context, context.Input(4), x->dtype(), 1, "y_zero_point"));
    const float y_factor = std::floor(1.0f / y_scale->Data<float>()[0]);
    if (std::isinf(y_factor)) {
      return context.Error("y_scale {} is too small: its reciprocal overflows float",
                           y_scale->Data<float>()[0]);
    }
    ORT_ASSIGN_OR_RETURN(const SoftmaxBlocks blocks, axis_.Resolve(context, x->shape()));
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), x->shape()));
    if (y->NumElements() == 0) return Status::OK();
    const std::array<float, 256> table = ExpTable(x_scale->Data<float>()[0], blocks.length);
    return DispatchByType<QuantTypes>(x->dtype(), "QLinearSoftmax", [&]<typename T>() {
      const T* in = x->Data<T>();
      T* out = y->MutableData<T>();
      const int64_t inner = blocks.inner, length = blocks.length;
      // Tasks of one outer block's `lanes` adjacent inner positions: each row is read along the
      // axis, so a lane per inner position turns strided reads into contiguous ones.
      constexpr int64_t kLanes = 64;
      const int64_t chunks = (inner + kLanes - 1) / kLanes;
      const double cost = 4.0 * static_cast<double>(length * std::min(inner, kLanes));
      ThreadPool::TryParallelFor(
          context.thread_pool(), blocks.outer * chunks, cost, [&](int64_t begin, int64_t end) {
            std::vector<float> sums;
            std::vector<int32_t> maxima;
            for (int64_t task = begin; task < end; ++task) {
              const int64_t o = task / chunks, i0 = (task % chunks) * kLanes;
              const int64_t offset = o * length * inner + i0;
              SoftmaxRows<T>(in + offset, out + offset, length, inner, std::min(kLanes, inner - i0),
                             table, y_factor, y_zero[0], sums, maxima);
            }
          });
      return Status::OK();
    });
  }

 private:
  SoftmaxAxis axis_;
};

}  // namespace

void RegisterQLinearSoftmaxKernels(KernelRegistry& registry) {
  registry.Add<QLinearSoftmax>(KernelDef("QLinearSoftmax", std::string(kMsDomain))
                                   .Versions(1)
                                   .Input(0, QuantTypes::DataTypes()));
}

}  // namespace ort
