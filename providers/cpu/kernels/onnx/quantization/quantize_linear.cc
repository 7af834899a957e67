// QuantizeLinear and DequantizeLinear, per tensor or (opset 13+) per axis:
//   quantize:   y = saturate(round_half_even(x / scale) + zero_point)   (int8 or uint8)
//   dequantize: y = (x - zero_point) * scale                            (from int8, uint8, int32)
// Opset 19 also takes float16/bfloat16 data and scales; its float8 types are not supported.
#include <algorithm>
#include <cmath>
#include <limits>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"
#include "providers/cpu/kernels/onnx/quantization/quantization_kernels.h"

namespace ort {
namespace {

/// The data viewed as [blocks, channels, inner] with one scale / zero point per channel
/// (channels == 1 for per-tensor quantization).
struct QuantLayout {
  int64_t blocks = 1;
  int64_t channels = 1;
  int64_t inner = 1;
};

Result<QuantLayout> PlanLayout(const KernelContext& context, const TensorShape& shape,
                               const Tensor& scale, const Tensor* zero_point, int64_t axis,
                               bool per_axis_allowed) {
  QuantLayout layout;
  layout.inner = shape.NumElements();
  if (zero_point != nullptr && zero_point->shape() != scale.shape()) {
    return context.Error("zero point {} and scale {} must have one shape",
                         zero_point->shape().ToString(), scale.shape().ToString());
  }
  if (scale.shape().rank() == 0 || (scale.shape().rank() == 1 && scale.NumElements() == 1)) {
    return layout;
  }
  if (!per_axis_allowed || scale.shape().rank() != 1) {
    return context.Error("scale {} must be a scalar{}", scale.shape().ToString(),
                         per_axis_allowed ? " or 1-D" : "");
  }
  auto normalized = NormalizeAxis(axis, shape.rank());
  if (!normalized.ok()) return context.Error("axis: {}", normalized.status().message());
  if (shape[*normalized] != scale.NumElements()) {
    return context.Error("scale has {} values but axis {} of {} has {}", scale.NumElements(), axis,
                         shape.ToString(), shape[*normalized]);
  }
  layout.blocks = shape.SizeToDimension(*normalized);
  layout.channels = shape[*normalized];
  layout.inner = shape.SizeFromDimension(*normalized + 1);
  return layout;
}

/// Zero points as int32 (zeros when absent).
Result<std::vector<int32_t>> ReadZeroPoints(const Tensor* zero_point, int64_t count) {
  std::vector<int32_t> values(static_cast<size_t>(count), 0);
  if (zero_point == nullptr) return values;
  Status status = DispatchByType<TypeList<int8_t, uint8_t, int32_t>>(
      zero_point->dtype(), "zero point", [&]<typename Z>() {
        const Z* data = zero_point->Data<Z>();
        for (int64_t i = 0; i < count; ++i) values[i] = static_cast<int32_t>(data[i]);
        return Status::OK();
      });
  if (!status.ok()) return status;
  return values;
}

class QuantizeLinear final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    per_axis_ = info.opset() >= 13;
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", 1));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* scale, context.RequiredInput(1));
    const Tensor* zero_point = context.Input(2);
    ORT_ASSIGN_OR_RETURN(QuantLayout layout,
                         PlanLayout(context, x->shape(), *scale, zero_point, axis_, per_axis_));
    auto scales = ReadFloatParams<float>(*scale);
    if (!scales.ok()) return context.Error("y_scale: {}", scales.status().message());
    ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> zeros,
                         ReadZeroPoints(zero_point, layout.channels));
    const DataType out_type = zero_point != nullptr ? zero_point->dtype() : DataType::kUint8;
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, out_type, x->shape()));
    return DispatchByType<TypeList<int8_t, uint8_t>>(out_type, "QuantizeLinear", [&]<typename Q>() {
      using XTypes = TypeList<float, Float16, BFloat16, int32_t>;
      return DispatchByType<XTypes>(x->dtype(), "QuantizeLinear", [&]<typename X>() {
        const X* in = x->Data<X>();
        Q* out = y->MutableData<Q>();
        constexpr float kLow = std::numeric_limits<Q>::min();
        constexpr float kHigh = std::numeric_limits<Q>::max();
        const int64_t rows = layout.blocks * layout.channels;
        ThreadPool::TryParallelFor(
            context.thread_pool(), rows, 4.0 * layout.inner, [&](int64_t begin, int64_t end) {
              for (int64_t row = begin; row < end; ++row) {
                const int64_t c = row % layout.channels;
                const float s = (*scales)[c];
                const auto zp = static_cast<float>(zeros[c]);
                for (int64_t i = row * layout.inner; i < (row + 1) * layout.inner; ++i) {
                  const float q = std::nearbyint(static_cast<float>(in[i]) / s) + zp;
                  out[i] = static_cast<Q>(std::isnan(q) ? 0.0f : std::clamp(q, kLow, kHigh));
                }
              }
            });
        return Status::OK();
      });
    });
  }

 private:
  bool per_axis_ = true;
  int64_t axis_ = 1;
};

class DequantizeLinear final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    per_axis_ = info.opset() >= 13;
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", 1));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* scale, context.RequiredInput(1));
    const Tensor* zero_point = context.Input(2);
    if (zero_point != nullptr && zero_point->dtype() != x->dtype()) {
      return context.Error("x_zero_point must have the type of x");
    }
    ORT_ASSIGN_OR_RETURN(QuantLayout layout,
                         PlanLayout(context, x->shape(), *scale, zero_point, axis_, per_axis_));
    auto scales = ReadFloatParams<float>(*scale);
    if (!scales.ok()) return context.Error("x_scale: {}", scales.status().message());
    ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> zeros,
                         ReadZeroPoints(zero_point, layout.channels));
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, scale->dtype(), x->shape()));
    using QTypes = TypeList<int8_t, uint8_t, int32_t>;
    return DispatchByType<QTypes>(x->dtype(), "DequantizeLinear", [&]<typename Q>() {
      return DispatchByType<FloatTypes>(y->dtype(), "DequantizeLinear", [&]<typename Y>() {
        const Q* in = x->Data<Q>();
        Y* out = y->MutableData<Y>();
        const int64_t rows = layout.blocks * layout.channels;
        ThreadPool::TryParallelFor(
            context.thread_pool(), rows, 2.0 * layout.inner, [&](int64_t begin, int64_t end) {
              for (int64_t row = begin; row < end; ++row) {
                const int64_t c = row % layout.channels;
                const float s = (*scales)[c];
                const int64_t zp = zeros[c];
                for (int64_t i = row * layout.inner; i < (row + 1) * layout.inner; ++i) {
                  // int64 difference: int32 data minus a zero point cannot overflow.
                  out[i] = static_cast<Y>(static_cast<float>(static_cast<int64_t>(in[i]) - zp) * s);
                }
              }
            });
        return Status::OK();
      });
    });
  }

 private:
  bool per_axis_ = true;
  int64_t axis_ = 1;
};

}  // namespace

void RegisterQuantizeLinearKernels(KernelRegistry& registry) {
  const auto x_types = TypeList<float, int32_t>::DataTypes();
  const auto x_types_19 = TypeList<float, Float16, BFloat16, int32_t>::DataTypes();
  const auto q_types = TypeList<int8_t, uint8_t, int32_t>::DataTypes();
  registry.Add<QuantizeLinear>(KernelDef("QuantizeLinear").Versions(10, 12).Input(0, x_types));
  registry.Add<QuantizeLinear>(KernelDef("QuantizeLinear").Versions(13, 18).Input(0, x_types));
  registry.Add<QuantizeLinear>(KernelDef("QuantizeLinear").Versions(19, 20).Input(0, x_types_19));
  registry.Add<DequantizeLinear>(KernelDef("DequantizeLinear").Versions(10, 12).Input(0, q_types));
  registry.Add<DequantizeLinear>(KernelDef("DequantizeLinear").Versions(13, 18).Input(0, q_types));
  registry.Add<DequantizeLinear>(KernelDef("DequantizeLinear").Versions(19, 20).Input(0, q_types));
}

}  // namespace ort
