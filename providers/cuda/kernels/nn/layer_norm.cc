// LayerNormalization over the axes from `axis` on, and com.microsoft SkipLayerNormalization /
// SkipSimplifiedLayerNormalization (input + skip (+ bias), normalized over the last axis), on the
// GPU for float and float16. Statistics are computed in float; the Mean and InvStdDev outputs are
// float (stash_type 1).
#include "providers/common/nn/skip_layer_norm_inputs.h"
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/cuda_kernels.h"
#include "providers/cuda/kernels/nn/layer_norm_launch.h"

namespace ort {
namespace {

const std::vector<DataType> kTypes = {DataType::kFloat, DataType::kFloat16};

cuda::ElementKind KindOf(const Tensor& x) {
  return x.dtype() == DataType::kFloat ? cuda::ElementKind::kFloat : cuda::ElementKind::kHalf;
}

// Allocates the float statistics outputs `indices` that the graph reads ([rows...] shaped like
// `dims`) into `targets`.
Status StatisticsOutputs(KernelContext& context, const std::vector<int64_t>& dims,
                         const size_t (&indices)[2], float* (&targets)[2]) {
  for (size_t i = 0; i < 2; ++i) {
    targets[i] = nullptr;
    if (!context.IsOutputUsed(indices[i])) continue;
    ORT_ASSIGN_OR_RETURN(Tensor * out,
                         context.Output(indices[i], DataType::kFloat, TensorShape(dims)));
    targets[i] = out->MutableData<float>();
  }
  return Status::OK();
}

class LayerNorm final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", -1));
    ORT_ASSIGN_OR_RETURN(epsilon_, info.GetAttributeOr<float>("epsilon", 1e-5f));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* scale, context.RequiredInput(1));
    const Tensor* bias = context.Input(2);
    auto axis = NormalizeAxis(axis_, x->shape().rank());
    if (!axis.ok()) return context.Error("axis: {}", axis.status().message());
    const int64_t cols = x->shape().SizeFromDimension(*axis);
    if (scale->NumElements() != cols || (bias != nullptr && bias->NumElements() != cols) ||
        scale->dtype() != x->dtype() || (bias != nullptr && bias->dtype() != x->dtype())) {
      return context.Error("Scale {} and B must hold {} values of X's type {}", scale->Describe(),
                           cols, DataTypeName(x->dtype()));
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), x->shape()));
    // Mean and InvStdDev keep X's leading axes and have size 1 on the normalized ones.
    std::vector<int64_t> stats_dims = x->shape().dims();
    for (size_t d = *axis; d < stats_dims.size(); ++d) stats_dims[d] = 1;
    cuda::LayerNormArgs args;
    float* stats[2];
    ORT_RETURN_IF_ERROR(StatisticsOutputs(context, stats_dims, {1, 2}, stats));
    args.kind = KindOf(*x);
    args.x = x->RawData();
    args.scale = scale->RawData();
    args.bias = bias != nullptr ? bias->RawData() : nullptr;
    args.y = y->MutableRawData();
    args.mean = stats[0];
    args.inv_std_dev = stats[1];
    args.rows = x->shape().SizeToDimension(*axis);
    args.cols = cols;
    args.epsilon = epsilon_;
    return CudaStatus(cuda::LaunchLayerNorm(args, stream()), context.node());
  }

 private:
  int64_t axis_ = -1;
  float epsilon_ = 1e-5f;
};

template <bool kSimplified>
class SkipLayerNorm final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(epsilon_, ParseSkipLayerNormEpsilon(info));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const SkipLayerNormInputs inputs,
                         ReadSkipLayerNormInputs(context, kSimplified, true));
    const Tensor* input = inputs.input;
    const TensorShape& shape = input->shape();
    const int64_t hidden = inputs.hidden;
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, input->dtype(), shape));
    cuda::LayerNormArgs args;
    if (context.IsOutputUsed(3)) {
      ORT_ASSIGN_OR_RETURN(Tensor * sum, context.Output(3, input->dtype(), shape));
      args.sum = sum->MutableRawData();
    }
    std::vector<int64_t> stats_dims = shape.dims();
    stats_dims.back() = 1;
    float* stats[2];
    ORT_RETURN_IF_ERROR(StatisticsOutputs(context, stats_dims, {1, 2}, stats));
    args.kind = KindOf(*input);
    args.x = input->RawData();
    args.skip = inputs.skip->RawData();
    args.skip_size = inputs.skip->NumElements();
    args.residual_bias = inputs.bias != nullptr ? inputs.bias->RawData() : nullptr;
    args.scale = inputs.gamma->RawData();
    args.bias = inputs.beta != nullptr ? inputs.beta->RawData() : nullptr;
    args.y = output->MutableRawData();
    args.mean = stats[0];
    args.inv_std_dev = stats[1];
    args.rows = hidden == 0 ? 0 : input->NumElements() / hidden;
    args.cols = hidden;
    args.epsilon = epsilon_;
    args.simplified = kSimplified;
    return CudaStatus(cuda::LaunchLayerNorm(args, stream()), context.node());
  }

 private:
  float epsilon_ = 1e-12f;
};

}  // namespace

void RegisterCudaLayerNormKernels(KernelRegistry& registry) {
  // From opset 1, as ONNX Runtime serves it: fusions make it in models older than opset 17.
  registry.Add<LayerNorm>(KernelDef("LayerNormalization").Versions(1).Input(0, kTypes));
  registry.Add<SkipLayerNorm<false>>(
      KernelDef("SkipLayerNormalization", std::string(kMsDomain)).Versions(1).Input(0, kTypes));
  registry.Add<SkipLayerNorm<true>>(
      KernelDef("SkipSimplifiedLayerNormalization", std::string(kMsDomain))
          .Versions(1)
          .Input(0, kTypes));
}

}  // namespace ort
