// LayerNormalization (opset 17; ONNX Runtime defines the same op in the ai.onnx domain from
// opset 1): normalizes over the trailing axes from `axis`, then applies Scale and the optional B
// (broadcast to those axes). Optional outputs: Mean and InvStdDev with the leading dims kept and
// the normalized ones set to 1. SimplifiedLayerNormalization (ORT's RMS norm, ai.onnx opset 1)
// divides by the root mean square instead, has no B, and its only statistic is output 1,
// inv_std_var; onnx adopted it at opset 23 as RMSNormalization (output Y only).
#include <cmath>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/common/row_reduce.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

template <bool kSimplified>
class LayerNormalization final : public OpKernel {
  // Output index of each statistic (Mean, InvStdDev); 0 where the op has none.
  static constexpr size_t kStatisticOutputs[2] = {kSimplified ? 0u : 1u, kSimplified ? 1u : 2u};

 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", -1));
    ORT_ASSIGN_OR_RETURN(epsilon_, info.GetAttributeOr<float>("epsilon", 1e-5f));
    ORT_ASSIGN_OR_RETURN(const int64_t stash, info.GetAttributeOr<int64_t>("stash_type", 1));
    if (stash != 1 && stash != static_cast<int64_t>(DataType::kDouble) &&
        stash != static_cast<int64_t>(DataType::kFloat16) &&
        stash != static_cast<int64_t>(DataType::kBFloat16)) {
      return ORT_ERROR(kInvalidArgument, "unsupported stash_type {}", stash);
    }
    for (size_t i = 0; i < 2; ++i) {
      if (kStatisticOutputs[i] == 0) continue;
      const ValueType* type = info.OutputType(kStatisticOutputs[i]);
      if (type != nullptr && type->IsTensor() && IsFloatingPoint(type->elem_type)) {
        statistics_type_[i] = type->elem_type;
      }
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* scale, context.RequiredInput(1));
    const Tensor* bias = kSimplified ? nullptr : context.Input(2);
    const TensorShape& xs = x->shape();
    auto axis = NormalizeAxis(axis_, xs.rank());
    if (!axis.ok()) return context.Error("{}", axis.status().message());
    const int64_t rows = xs.SizeToDimension(*axis);
    const int64_t cols = xs.SizeFromDimension(*axis);
    const TensorShape normalized(std::vector<int64_t>(xs.dims().begin() + *axis, xs.dims().end()));
    std::vector<int64_t> stats_dims(xs.dims().begin(), xs.dims().begin() + *axis);
    stats_dims.resize(xs.rank(), 1);
    // Y takes Scale's type: ORT's definitions (LayerNormalization before 17, the simplified
    // form, RMSNormalization) let it differ from X's in mixed-precision models; at 17 they agree.
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, scale->dtype(), xs));
    return DispatchByType<FloatTypes>(x->dtype(), "LayerNormalization", [&]<typename T>() {
      using C = ComputeType<T>;
      auto gamma = ExpandFloatParams<C>(*scale, normalized);
      if (!gamma.ok()) return context.Error("Scale: {}", gamma.status().message());
      std::vector<C> beta(static_cast<size_t>(cols), C(0));
      if (bias != nullptr) {
        auto expanded = ExpandFloatParams<C>(*bias, normalized);
        if (!expanded.ok()) return context.Error("B: {}", expanded.status().message());
        beta = std::move(expanded).value();
      }
      std::vector<C> means(static_cast<size_t>(rows)), inv_stds(static_cast<size_t>(rows));
      const T* in = x->Data<T>();
      const C* g = gamma->data();
      const C* b = beta.data();
      ORT_RETURN_IF_ERROR(
          DispatchByType<FloatTypes>(y->dtype(), "LayerNormalization", [&]<typename Y>() {
            Y* out = y->MutableData<Y>();
            VectorizedParallelFor(
                context.thread_pool(), rows, 5.0 * cols, [&](int64_t begin, int64_t end) {
                  for (int64_t row = begin; row < end; ++row) {
                    const T* src = in + row * cols;
                    Y* dst = out + row * cols;
                    const C sum = RowSum<C>(src, cols, [](T v) { return C(v); });
                    const C mean = cols > 0 && !kSimplified ? sum / static_cast<C>(cols) : C(0);
                    const C squares =
                        RowSum<C>(src, cols, [mean](T v) { return (C(v) - mean) * (C(v) - mean); });
                    const C var = cols > 0 ? squares / static_cast<C>(cols) : C(0);
                    const C inv_std =
                        C(1) / static_cast<C>(std::sqrt(var + static_cast<C>(epsilon_)));
                    for (int64_t j = 0; j < cols; ++j) {
                      dst[j] = static_cast<Y>(
                          static_cast<ComputeType<Y>>((C(src[j]) - mean) * inv_std * g[j] + b[j]));
                    }
                    means[row] = mean;
                    inv_stds[row] = inv_std;
                  }
                });
            return Status::OK();
          }));
      const std::vector<C>* stats[] = {&means, &inv_stds};
      for (size_t i = 0; i < 2; ++i) {
        const size_t index = kStatisticOutputs[i];
        if (index == 0 || !context.IsOutputUsed(index)) continue;
        DataType type = statistics_type_[i];
        if (type == DataType::kUndefined) {
          type = std::is_same_v<T, double> ? DataType::kDouble : DataType::kFloat;
        }
        ORT_ASSIGN_OR_RETURN(Tensor * out_stats,
                             context.Output(index, type, TensorShape(stats_dims)));
        ORT_RETURN_IF_ERROR(WriteFloatParams(*stats[i], *out_stats));
      }
      return Status::OK();
    });
  }

 private:
  int64_t axis_ = -1;
  float epsilon_ = 1e-5f;
  // Element types of Mean and InvStdDev when the model declares them.
  DataType statistics_type_[2] = {DataType::kUndefined, DataType::kUndefined};
};

}  // namespace

void RegisterLayerNormalizationKernels(KernelRegistry& registry) {
  // Opsets 1-16 serve ONNX Runtime's contrib definition, which onnx adopted unchanged at 17.
  registry.Add<LayerNormalization<false>>(
      KernelDef("LayerNormalization").Versions(1).Input(0, FloatTypes::DataTypes()));
  registry.Add<LayerNormalization<true>>(
      KernelDef("SimplifiedLayerNormalization").Versions(1).Input(0, FloatTypes::DataTypes()));
  registry.Add<LayerNormalization<true>>(
      KernelDef("RMSNormalization").Versions(23).Input(0, FloatTypes::DataTypes()));
}

}  // namespace ort
