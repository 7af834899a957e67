// MaxPool (without the Indices output), AveragePool, GlobalMaxPool and GlobalAveragePool on the
// GPU over 1 to 3 spatial dims, float and float16 (computed in float). The window geometry
// (pads, auto_pad, strides, dilations, ceil_mode) and the output shapes come from
// providers/common/nn/pool_attributes.h, shared with the CPU kernels, so both providers agree on
// every output shape.
#include "providers/common/nn/pool_attributes.h"
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/cuda_kernels.h"
#include "providers/cuda/kernels/nn/pool_launch.h"

namespace ort {
namespace {

const std::vector<DataType> kTypes = {DataType::kFloat, DataType::kFloat16};

cuda::ElementKind KindOf(DataType type) {
  return type == DataType::kFloat ? cuda::ElementKind::kFloat : cuda::ElementKind::kHalf;
}

// Lower spatial ranks keep the leading unit axes PoolGeometry starts with.
cuda::PoolGeometry ToPoolGeometry(const WindowGeometry& window) {
  cuda::PoolGeometry g;
  const size_t rank = window.rank();
  const size_t lead = cuda::kMaxPoolRank - rank;
  for (size_t s = 0; s < rank; ++s) {
    g.in[lead + s] = window.input[s];
    g.out[lead + s] = window.output[s];
    g.kernel[lead + s] = window.kernel[s];
    g.stride[lead + s] = window.strides[s];
    g.dilation[lead + s] = window.dilations[s];
    g.pad_begin[lead + s] = window.pads[s];
    g.pad_end[lead + s] = window.pads[s + rank];
  }
  return g;
}

template <cuda::PoolKind kPool>
class Pool final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(attributes_.Parse(info, kPool == cuda::PoolKind::kAverage));
    const size_t rank = attributes_.window.kernel_shape.size();
    if (rank == 0 || rank > static_cast<size_t>(cuda::kMaxPoolRank)) {
      return ORT_ERROR(kNotImplemented, "CUDA pooling supports 1 to {} spatial dims, got {}",
                       cuda::kMaxPoolRank, rank);
    }
    // Registration refuses typed Indices outputs; this catches an untyped one.
    if (kPool == cuda::PoolKind::kMax && info.node().HasOutput(1)) {
      return ORT_ERROR(kNotImplemented,
                       "the CUDA MaxPool kernel does not produce the Indices output (output 1)");
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    ORT_ASSIGN_OR_RETURN(const WindowGeometry window, ResolvePoolWindow(context, attributes_, xs));
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), PoolOutputShape(xs, window)));
    return CudaStatus(cuda::LaunchPool(kPool, KindOf(x->dtype()), x->RawData(), y->MutableRawData(),
                                       xs[0] * xs[1], ToPoolGeometry(window),
                                       attributes_.count_include_pad, stream()),
                      context.node());
  }

 private:
  PoolAttributes attributes_;
};

template <cuda::PoolKind kPool>
class GlobalPool final : public CudaKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    ORT_ASSIGN_OR_RETURN(TensorShape y_shape, GlobalPoolOutputShape(context, xs));
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), std::move(y_shape)));
    return CudaStatus(
        cuda::LaunchGlobalPool(kPool, KindOf(x->dtype()), x->RawData(), y->MutableRawData(),
                               xs[0] * xs[1], xs.SizeFromDimension(2), stream()),
        context.node());
  }
};

}  // namespace

void RegisterCudaPoolKernels(KernelRegistry& registry) {
  using MaxPool = Pool<cuda::PoolKind::kMax>;
  using AveragePool = Pool<cuda::PoolKind::kAverage>;
  // Indices is int64 once the model's types are inferred: allowing it no type leaves a MaxPool
  // that names it to another provider.
  registry.Add<MaxPool>(KernelDef("MaxPool").Versions(1, 7).Input(0, kTypes).Output(1, {}));
  registry.Add<MaxPool>(KernelDef("MaxPool").Versions(8, 9).Input(0, kTypes).Output(1, {}));
  registry.Add<MaxPool>(KernelDef("MaxPool").Versions(10, 10).Input(0, kTypes).Output(1, {}));
  registry.Add<MaxPool>(KernelDef("MaxPool").Versions(11, 11).Input(0, kTypes).Output(1, {}));
  registry.Add<MaxPool>(KernelDef("MaxPool").Versions(12).Input(0, kTypes).Output(1, {}));
  registry.Add<AveragePool>(KernelDef("AveragePool").Versions(1, 6).Input(0, kTypes));
  registry.Add<AveragePool>(KernelDef("AveragePool").Versions(7, 9).Input(0, kTypes));
  registry.Add<AveragePool>(KernelDef("AveragePool").Versions(10, 10).Input(0, kTypes));
  registry.Add<AveragePool>(KernelDef("AveragePool").Versions(11, 18).Input(0, kTypes));
  registry.Add<AveragePool>(KernelDef("AveragePool").Versions(19).Input(0, kTypes));
  registry.Add<GlobalPool<cuda::PoolKind::kAverage>>(
      KernelDef("GlobalAveragePool").Versions(1).Input(0, kTypes));
  registry.Add<GlobalPool<cuda::PoolKind::kMax>>(
      KernelDef("GlobalMaxPool").Versions(1).Input(0, kTypes));
}

}  // namespace ort
