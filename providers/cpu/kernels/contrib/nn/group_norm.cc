// com.microsoft GroupNorm (onnxruntime's contrib op; its CPU provider has no kernel for it): group
// normalization with per-channel gamma and beta and an optional SiLU (activation 1), channels
// first (channels_last 0: what the group norm fusion makes of torch's GroupNorm) or last.
#include <vector>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/common/group_norm.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/contrib/nn/contrib_nn_kernels.h"
#include "providers/cpu/kernels/onnx/math/fast_math.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"

namespace ort {
namespace {

class GroupNorm final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(epsilon_, info.GetAttributeOr<float>("epsilon", 1e-5f));
    ORT_ASSIGN_OR_RETURN(groups_, info.GetAttribute<int64_t>("groups"));
    ORT_ASSIGN_OR_RETURN(const int64_t activation, info.GetAttribute<int64_t>("activation"));
    ORT_ASSIGN_OR_RETURN(const int64_t channels_last,
                         info.GetAttributeOr<int64_t>("channels_last", 1));
    if (groups_ <= 0) return ORT_ERROR(kInvalidArgument, "groups must be positive");
    if (activation != 0 && activation != 1) {
      return ORT_ERROR(kInvalidArgument, "activation {} is neither 0 (none) nor 1 (SiLU)",
                       activation);
    }
    silu_ = activation == 1;
    channels_last_ = channels_last != 0;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* gamma, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* beta, context.RequiredInput(2));
    const TensorShape& xs = x->shape();
    if (xs.rank() < 2) {
      return context.Error("X {} must have a batch and a channel axis", xs.ToString());
    }
    const size_t channel_axis = channels_last_ ? xs.rank() - 1 : 1;
    const int64_t channels = xs[channel_axis];
    if (channels % groups_ != 0) {
      return context.Error("X {} has {} channels, not divisible by groups = {}", xs.ToString(),
                           channels, groups_);
    }
    if (gamma->NumElements() != channels || beta->NumElements() != channels) {
      return context.Error("gamma {} and beta {} must have {} values", gamma->shape().ToString(),
                           beta->shape().ToString(), channels);
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), xs));
    const int64_t batch = xs[0];
    const int64_t image = batch > 0 ? x->NumElements() / batch : 0;
    const int64_t spatial = channels > 0 ? image / channels : 0;
    const int64_t group_channels = channels / groups_;
    // Channels first: a group is one run of group_channels * spatial values. Channels last:
    // spatial runs of group_channels values, channels apart.
    const int64_t rows = channels_last_ ? spatial : 1;
    const int64_t row_length = channels_last_ ? group_channels : group_channels * spatial;
    const int64_t group_step = channels_last_ ? group_channels : group_channels * spatial;
    return DispatchByType<FloatTypes>(x->dtype(), "GroupNorm", [&]<typename T>() {
      using C = ComputeType<T>;
      ORT_ASSIGN_OR_RETURN(const std::vector<C> scale, ReadFloatParams<C>(*gamma));
      ORT_ASSIGN_OR_RETURN(const std::vector<C> shift, ReadFloatParams<C>(*beta));
      const T* in = x->Data<T>();
      T* out = y->MutableData<T>();
      const auto normalize = [&]<bool kSilu>(int64_t begin, int64_t end) {
        std::vector<C> a(static_cast<size_t>(group_channels)), b(a.size());
        for (int64_t block = begin; block < end; ++block) {
          const int64_t n = block / groups_, group = block % groups_;
          const int64_t offset = n * image + group * group_step;
          const auto statistics =
              ComputeGroupStatistics<C>(in + offset, rows, row_length, channels, epsilon_);
          for (int64_t c = 0; c < group_channels; ++c) {
            a[c] = scale[group * group_channels + c] * statistics.inv_std;
            b[c] = shift[group * group_channels + c] - statistics.mean * a[c];
          }
          const auto apply = [](T value, C slope, C intercept) {
            const C normalized = C(value) * slope + intercept;
            if constexpr (kSilu)
              return static_cast<T>(normalized / (C(1) + ActivationExp(-normalized)));
            return static_cast<T>(normalized);
          };
          if (channels_last_) {
            for (int64_t p = 0; p < spatial; ++p) {
              const T* src = in + offset + p * channels;
              T* dst = out + offset + p * channels;
              for (int64_t c = 0; c < group_channels; ++c) dst[c] = apply(src[c], a[c], b[c]);
            }
          } else {
            for (int64_t c = 0; c < group_channels; ++c) {
              const T* src = in + offset + c * spatial;
              T* dst = out + offset + c * spatial;
              for (int64_t p = 0; p < spatial; ++p) dst[p] = apply(src[p], a[c], b[c]);
            }
          }
        }
      };
      VectorizedParallelFor(context.thread_pool(), batch * groups_, 8.0 * group_channels * spatial,
                            [&](int64_t begin, int64_t end) {
                              if (silu_) {
                                normalize.template operator()<true>(begin, end);
                              } else {
                                normalize.template operator()<false>(begin, end);
                              }
                            });
      return Status::OK();
    });
  }

 private:
  float epsilon_ = 1e-5f;
  int64_t groups_ = 1;
  bool silu_ = false;
  bool channels_last_ = true;
};

}  // namespace

void RegisterGroupNormKernels(KernelRegistry& registry) {
  registry.Add<GroupNorm>(
      KernelDef("GroupNorm", std::string(kMsDomain)).Versions(1).Input(0, FloatTypes::DataTypes()));
}

}  // namespace ort
