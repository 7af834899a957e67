// BatchNormalization, every opset: inference with running statistics, and training (opset 14+
// training_mode, or the extra outputs / is_test = 0 of older opsets) with batch statistics and
// momentum-updated running ones. Opsets before 9 may normalize per activation (spatial = 0).
#include <cmath>

#include "providers/common/nn/batch_norm_attributes.h"
#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

class BatchNormalization final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(attributes_.Parse(info));
    ORT_ASSIGN_OR_RETURN(momentum_, info.GetAttributeOr<float>("momentum", 0.9f));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const BatchNormLayout layout,
                         MakeBatchNormLayout(context, x->shape(), attributes_.spatial));
    for (size_t i = 1; i < 5; ++i) {
      if (!context.HasInput(i)) return context.Error("input {} is required", i);
    }
    const int64_t batch = layout.batch;
    const int64_t features = layout.features;
    const int64_t inner = layout.inner;
    for (size_t i = 1; i < 5; ++i) {
      if (context.Input(i)->NumElements() != features) {
        return context.Error("input {} has shape {}, expected {} values", i,
                             context.Input(i)->shape().ToString(), features);
      }
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), x->shape()));
    return DispatchByType<FloatTypes>(x->dtype(), "BatchNormalization", [&]<typename T>() {
      return Run<T>(context, *x, *y, batch, features, inner);
    });
  }

 private:
  template <typename T>
  Status Run(KernelContext& context, const Tensor& x, Tensor& y, int64_t batch, int64_t features,
             int64_t inner) const {
    using C = ComputeType<T>;
    ORT_ASSIGN_OR_RETURN(const std::vector<C> scale, ReadFloatParams<C>(*context.Input(1)));
    ORT_ASSIGN_OR_RETURN(const std::vector<C> bias, ReadFloatParams<C>(*context.Input(2)));
    ORT_ASSIGN_OR_RETURN(std::vector<C> mean, ReadFloatParams<C>(*context.Input(3)));
    ORT_ASSIGN_OR_RETURN(std::vector<C> var, ReadFloatParams<C>(*context.Input(4)));
    const T* in = x.Data<T>();
    T* out = y.MutableData<T>();
    ThreadPool* pool = context.thread_pool();
    if (attributes_.training) {
      std::vector<C> batch_mean(features), batch_var(features);
      const int64_t count = batch * inner;
      ThreadPool::TryParallelFor(pool, features, 3.0 * count, [&](int64_t begin, int64_t end) {
        for (int64_t f = begin; f < end; ++f) {
          C sum = C(0);
          for (int64_t n = 0; n < batch; ++n) {
            const T* row = in + (n * features + f) * inner;
            for (int64_t i = 0; i < inner; ++i) sum += C(row[i]);
          }
          const C m = count > 0 ? sum / static_cast<C>(count) : C(0);
          C squares = C(0);
          for (int64_t n = 0; n < batch; ++n) {
            const T* row = in + (n * features + f) * inner;
            for (int64_t i = 0; i < inner; ++i) squares += (C(row[i]) - m) * (C(row[i]) - m);
          }
          batch_mean[f] = m;
          batch_var[f] = count > 0 ? squares / static_cast<C>(count) : C(0);
        }
      });
      ORT_RETURN_IF_ERROR(WriteStatistics(context, mean, var, batch_mean, batch_var));
      mean = batch_mean;
      var = batch_var;
    }
    // y = x * a + b per feature, with a = scale / sqrt(var + epsilon), b = bias - mean * a.
    std::vector<C> a(features), b(features);
    for (int64_t f = 0; f < features; ++f) {
      a[f] = scale[f] / static_cast<C>(std::sqrt(var[f] + static_cast<C>(attributes_.epsilon)));
      b[f] = bias[f] - mean[f] * a[f];
    }
    ThreadPool::TryParallelFor(pool, batch * features, 2.0 * inner,
                               [&](int64_t begin, int64_t end) {
                                 for (int64_t row = begin; row < end; ++row) {
                                   const int64_t f = row % features;
                                   const C scale_f = a[f], shift_f = b[f];
                                   const T* src = in + row * inner;
                                   T* dst = out + row * inner;
                                   for (int64_t i = 0; i < inner; ++i)
                                     dst[i] = static_cast<T>(C(src[i]) * scale_f + shift_f);
                                 }
                               });
    return Status::OK();
  }

  /// Outputs 1 and 2: running statistics moved toward the batch ones by (1 - momentum);
  /// outputs 3 and 4 (opsets before 14): the batch mean and variance.
  template <typename C>
  Status WriteStatistics(KernelContext& context, const std::vector<C>& running_mean,
                         const std::vector<C>& running_var, const std::vector<C>& batch_mean,
                         const std::vector<C>& batch_var) const {
    const C keep = static_cast<C>(momentum_);
    const C take = C(1) - keep;
    std::vector<C> new_mean(batch_mean.size()), new_var(batch_var.size());
    for (size_t f = 0; f < batch_mean.size(); ++f) {
      new_mean[f] = running_mean[f] * keep + batch_mean[f] * take;
      new_var[f] = running_var[f] * keep + batch_var[f] * take;
    }
    const std::vector<C>* values[] = {&new_mean, &new_var, &batch_mean, &batch_var};
    for (size_t i = 1; i < 5 && i < context.OutputCount(); ++i) {
      if (!context.IsOutputUsed(i)) continue;
      const Tensor* like = context.Input(i < 3 ? i + 2 : i);  // mean/var carry the stats type
      ORT_ASSIGN_OR_RETURN(Tensor * out, context.Output(i, like->dtype(), like->shape()));
      ORT_RETURN_IF_ERROR(WriteFloatParams(*values[i - 1], *out));
    }
    return Status::OK();
  }

  BatchNormAttributes attributes_;
  float momentum_ = 0.9f;
};

}  // namespace

void RegisterBatchNormalizationKernels(KernelRegistry& registry) {
  const auto old_types = TypeList<float, double, Float16>::DataTypes();
  const auto types = FloatTypes::DataTypes();
  registry.Add<BatchNormalization>(
      KernelDef("BatchNormalization").Versions(1, 5).Input(0, old_types));
  registry.Add<BatchNormalization>(
      KernelDef("BatchNormalization").Versions(6, 6).Input(0, old_types));
  registry.Add<BatchNormalization>(
      KernelDef("BatchNormalization").Versions(7, 8).Input(0, old_types));
  registry.Add<BatchNormalization>(
      KernelDef("BatchNormalization").Versions(9, 13).Input(0, old_types));
  registry.Add<BatchNormalization>(
      KernelDef("BatchNormalization").Versions(14, 14).Input(0, types));
  registry.Add<BatchNormalization>(KernelDef("BatchNormalization").Versions(15).Input(0, types));
}

}  // namespace ort
