// GroupNormalization: channels split into num_groups groups, each (image, group) normalized by
// its own mean and variance. Scale and bias are per group in opsets 18-20 and per channel from
// opset 21.
#include "providers/cpu/kernels/common/group_norm.h"
#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

class GroupNormalization final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(epsilon_, info.GetAttributeOr<float>("epsilon", 1e-5f));
    ORT_ASSIGN_OR_RETURN(groups_, info.GetAttribute<int64_t>("num_groups"));
    if (groups_ <= 0) return ORT_ERROR(kInvalidArgument, "num_groups must be positive");
    per_channel_ = info.opset() >= 21;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* scale, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* bias, context.RequiredInput(2));
    const TensorShape& xs = x->shape();
    if (xs.rank() < 2) return context.Error("X {} must be [N, C, ...]", xs.ToString());
    const int64_t channels = xs[1];
    if (channels % groups_ != 0) {
      return context.Error("C = {} is not divisible by num_groups = {}", channels, groups_);
    }
    const int64_t params = per_channel_ ? channels : groups_;
    if (scale->NumElements() != params || bias->NumElements() != params) {
      return context.Error("scale {} and bias {} must have {} values", scale->shape().ToString(),
                           bias->shape().ToString(), params);
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), xs));
    const int64_t spatial = xs.SizeFromDimension(2);
    const int64_t group_channels = channels / groups_;
    const int64_t group_size = group_channels * spatial;
    return DispatchByType<FloatTypes>(x->dtype(), "GroupNormalization", [&]<typename T>() {
      using C = ComputeType<T>;
      ORT_ASSIGN_OR_RETURN(const std::vector<C> gamma, ReadFloatParams<C>(*scale));
      ORT_ASSIGN_OR_RETURN(const std::vector<C> beta, ReadFloatParams<C>(*bias));
      const T* in = x->Data<T>();
      T* out = y->MutableData<T>();
      ThreadPool::TryParallelFor(context.thread_pool(), xs[0] * groups_, 5.0 * group_size,
                                 [&](int64_t begin, int64_t end) {
                                   for (int64_t block = begin; block < end; ++block) {
                                     const T* src = in + block * group_size;
                                     T* dst = out + block * group_size;
                                     const auto [mean, inv_std] = ComputeGroupStatistics<C>(
                                         src, 1, group_size, group_size, epsilon_);
                                     const int64_t group = block % groups_;
                                     for (int64_t c = 0; c < group_channels; ++c) {
                                       const int64_t p =
                                           per_channel_ ? group * group_channels + c : group;
                                       const C a = gamma[p] * inv_std;
                                       const C b = beta[p] - mean * a;
                                       for (int64_t i = c * spatial; i < (c + 1) * spatial; ++i) {
                                         dst[i] = static_cast<T>(C(src[i]) * a + b);
                                       }
                                     }
                                   }
                                 });
      return Status::OK();
    });
  }

 private:
  float epsilon_ = 1e-5f;
  int64_t groups_ = 1;
  bool per_channel_ = false;
};

}  // namespace

void RegisterGroupNormalizationKernels(KernelRegistry& registry) {
  const auto types = FloatTypes::DataTypes();
  registry.Add<GroupNormalization>(
      KernelDef("GroupNormalization").Versions(18, 20).Input(0, types));
  registry.Add<GroupNormalization>(KernelDef("GroupNormalization").Versions(21).Input(0, types));
}

}  // namespace ort
