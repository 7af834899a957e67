// com.microsoft SkipLayerNormalization and SkipSimplifiedLayerNormalization: s = input + skip
// (+ bias), then LayerNorm (or RMS norm) of s over the last axis scaled by gamma (+ beta).
// skip is input-shaped, or the trailing dims of input repeated over the leading ones. Optional
// outputs: mean and inv_std_var (input's shape with the last dim 1; float, or double for double
// data) and input_skip_bias_sum (s).
#include <cmath>
#include <vector>

#include "providers/common/nn/skip_layer_norm_inputs.h"
#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/common/row_reduce.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/contrib/nn/contrib_nn_kernels.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"

namespace ort {
namespace {

constexpr size_t kMeanOutput = 1;
constexpr size_t kInvStdOutput = 2;
constexpr size_t kSumOutput = 3;

template <bool kSimplified>
class SkipLayerNorm final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(epsilon_, ParseSkipLayerNormEpsilon(info));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    // gamma, beta and bias may have another float type: they are read converted.
    ORT_ASSIGN_OR_RETURN(const SkipLayerNormInputs inputs,
                         ReadSkipLayerNormInputs(context, kSimplified, false));
    const Tensor *input = inputs.input, *skip = inputs.skip, *gamma = inputs.gamma;
    const Tensor *beta = inputs.beta, *bias = inputs.bias;
    const TensorShape& shape = input->shape();
    const int64_t hidden = inputs.hidden;
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, input->dtype(), shape));
    Tensor* sum_output = nullptr;
    if (context.IsOutputUsed(kSumOutput)) {
      ORT_ASSIGN_OR_RETURN(sum_output, context.Output(kSumOutput, input->dtype(), shape));
    }
    const int64_t rows = hidden == 0 ? 0 : input->NumElements() / hidden;
    const int64_t skip_size = skip->NumElements();
    return DispatchByType<FloatTypes>(input->dtype(), context.node().op_type(), [&]<typename T>() {
      using C = ComputeType<T>;
      ORT_ASSIGN_OR_RETURN(const std::vector<C> g, ReadFloatParams<C>(*gamma));
      std::vector<C> b(static_cast<size_t>(hidden), C(0)), bi(static_cast<size_t>(hidden), C(0));
      if (beta != nullptr) {
        ORT_ASSIGN_OR_RETURN(b, ReadFloatParams<C>(*beta));
      }
      if (bias != nullptr) {
        ORT_ASSIGN_OR_RETURN(bi, ReadFloatParams<C>(*bias));
      }
      std::vector<C> means(static_cast<size_t>(rows)), inv_stds(static_cast<size_t>(rows));
      const T* in = input->Data<T>();
      const T* sk = skip->Data<T>();
      T* out = output->MutableData<T>();
      T* sums = sum_output != nullptr ? sum_output->MutableData<T>() : nullptr;
      VectorizedParallelFor(
          context.thread_pool(), rows, 8.0 * static_cast<double>(hidden),
          [&](int64_t begin, int64_t end) {
            std::vector<C> s(static_cast<size_t>(hidden));
            for (int64_t row = begin; row < end; ++row) {
              const int64_t offset = row * hidden;
              const T* x = in + offset;
              const T* r = sk + offset % skip_size;
              for (int64_t h = 0; h < hidden; ++h) s[h] = C(x[h]) + C(r[h]) + bi[h];
              const C total = RowSum(s.data(), hidden);
              if (sums != nullptr) {
                for (int64_t h = 0; h < hidden; ++h) sums[offset + h] = static_cast<T>(s[h]);
              }
              const C mean = kSimplified ? C(0) : total / static_cast<C>(hidden);
              const C squares =
                  RowSum<C>(s.data(), hidden, [mean](C v) { return (v - mean) * (v - mean); });
              const C inv_std =
                  C(1) / std::sqrt(squares / static_cast<C>(hidden) + static_cast<C>(epsilon_));
              T* y = out + offset;
              for (int64_t h = 0; h < hidden; ++h) {
                y[h] = static_cast<T>((s[h] - mean) * inv_std * g[h] + b[h]);
              }
              means[row] = kSimplified ? total / static_cast<C>(hidden) : mean;
              inv_stds[row] = inv_std;
            }
          });
      std::vector<int64_t> stats_dims = shape.dims();
      stats_dims.back() = 1;
      const std::vector<C>* stats[] = {&means, &inv_stds};
      const size_t indices[] = {kMeanOutput, kInvStdOutput};
      for (size_t i = 0; i < 2; ++i) {
        if (!context.IsOutputUsed(indices[i])) continue;
        const DataType type = std::is_same_v<T, double> ? DataType::kDouble : DataType::kFloat;
        ORT_ASSIGN_OR_RETURN(Tensor * stat,
                             context.Output(indices[i], type, TensorShape(stats_dims)));
        ORT_RETURN_IF_ERROR(WriteFloatParams(*stats[i], *stat));
      }
      return Status::OK();
    });
  }

 private:
  float epsilon_ = 1e-12f;
};

}  // namespace

void RegisterSkipLayerNormalizationKernels(KernelRegistry& registry) {
  registry.Add<SkipLayerNorm<false>>(KernelDef("SkipLayerNormalization", std::string(kMsDomain))
                                         .Versions(1)
                                         .Input(0, FloatTypes::DataTypes()));
  registry.Add<SkipLayerNorm<true>>(
      KernelDef("SkipSimplifiedLayerNormalization", std::string(kMsDomain))
          .Versions(1)
          .Input(0, FloatTypes::DataTypes()));
}

}  // namespace ort
