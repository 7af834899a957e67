// MeanVarianceNormalization: (X - mean) / (std + 1e-9), with mean and std taken over `axes`
// (default [0, 2, 3]) as in the op's function body: std = sqrt(E[X^2] - E[X]^2). The experimental
// opset 1-8 op (kept by ONNX Runtime) normalizes NCHW per image over C, H, W
// (across_channels = 1) or per channel over H, W, and may only subtract the mean
// (normalize_variance = 0).
#include <cmath>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

class MeanVarianceNormalization final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    if (info.opset() < 9) {
      ORT_ASSIGN_OR_RETURN(const int64_t across,
                           info.GetAttributeOr<int64_t>("across_channels", 0));
      ORT_ASSIGN_OR_RETURN(const int64_t normalize,
                           info.GetAttributeOr<int64_t>("normalize_variance", 1));
      axes_ = across != 0 ? std::vector<int64_t>{1, 2, 3} : std::vector<int64_t>{2, 3};
      normalize_variance_ = normalize != 0;
      return Status::OK();
    }
    ORT_ASSIGN_OR_RETURN(axes_, info.GetAttributeOr<std::vector<int64_t>>("axes", {0, 2, 3}));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    const size_t rank = xs.rank();
    std::vector<bool> reduced(rank, false);
    for (int64_t axis : axes_) {
      auto normalized = NormalizeAxis(axis, rank);
      if (!normalized.ok()) return context.Error("axes: {}", normalized.status().message());
      reduced[*normalized] = true;
    }
    // Each element maps to one statistics slot: its index over the kept axes.
    std::vector<int64_t> slot_strides(rank, 0);
    int64_t slots = 1;
    int64_t group = 1;
    for (size_t d = rank; d-- > 0;) {
      if (reduced[d]) {
        group *= xs[d];
      } else {
        slot_strides[d] = slots;
        slots *= xs[d];
      }
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), xs));
    const int64_t count = xs.NumElements();
    return DispatchByType<FloatTypes>(x->dtype(), "MeanVarianceNormalization", [&]<typename T>() {
      using C = ComputeType<T>;
      const T* in = x->Data<T>();
      T* out = y->MutableData<T>();
      std::vector<int64_t> slot_of(static_cast<size_t>(count));
      std::vector<int64_t> index(rank, 0);
      int64_t slot = 0;
      for (int64_t i = 0; i < count; ++i) {
        slot_of[i] = slot;
        for (size_t d = rank; d-- > 0;) {
          slot += slot_strides[d];
          if (++index[d] < xs[d]) break;
          slot -= index[d] * slot_strides[d];
          index[d] = 0;
        }
      }
      std::vector<C> sums(static_cast<size_t>(slots), C(0)), squares(sums.size(), C(0));
      for (int64_t i = 0; i < count; ++i) {
        const C value = C(in[i]);
        sums[slot_of[i]] += value;
        squares[slot_of[i]] += value * value;
      }
      std::vector<C> means(sums.size()), scales(sums.size());
      for (size_t s = 0; s < sums.size(); ++s) {
        means[s] = sums[s] / static_cast<C>(group);
        const C var = std::max(C(0), squares[s] / static_cast<C>(group) - means[s] * means[s]);
        scales[s] = normalize_variance_
                        ? C(1) / (static_cast<C>(std::sqrt(var)) + static_cast<C>(1e-9))
                        : C(1);
      }
      for (int64_t i = 0; i < count; ++i) {
        out[i] = static_cast<T>((C(in[i]) - means[slot_of[i]]) * scales[slot_of[i]]);
      }
      return Status::OK();
    });
  }

 private:
  std::vector<int64_t> axes_;
  bool normalize_variance_ = true;
};

}  // namespace

void RegisterMeanVarianceNormalizationKernels(KernelRegistry& registry) {
  registry.Add<MeanVarianceNormalization>(
      KernelDef("MeanVarianceNormalization").Versions(1, 8).Input(0, {DataType::kFloat}));
  registry.Add<MeanVarianceNormalization>(
      KernelDef("MeanVarianceNormalization")
          .Versions(9, 12)
          .Input(0, TypeList<float, double, Float16>::DataTypes()));
  registry.Add<MeanVarianceNormalization>(
      KernelDef("MeanVarianceNormalization").Versions(13).Input(0, FloatTypes::DataTypes()));
}

}  // namespace ort
