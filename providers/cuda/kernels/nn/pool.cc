// MaxPool (without the Indices output), AveragePool, GlobalMaxPool and GlobalAveragePool on the
// GPU over 1 to 3 spatial dims, float and float16 (computed in float). The window geometry
// (pads, auto_pad, strides, dilations, ceil_mode) is resolved by the CPU provider's
// ResolveWindow, so both providers agree on every output shape.
#include "providers/cpu/kernels/onnx/nn/window_attributes.h"
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
    ORT_RETURN_IF_ERROR(attributes_.Parse(info, true));
    const size_t rank = attributes_.kernel_shape.size();
    if (rank == 0 || rank > static_cast<size_t>(cuda::kMaxPoolRank)) {
      return ORT_ERROR(kNotImplemented, "CUDA pooling supports 1 to {} spatial dims, got {}",
                       cuda::kMaxPoolRank, rank);
    }
    ORT_ASSIGN_OR_RETURN(const int64_t ceil_mode, info.GetAttributeOr<int64_t>("ceil_mode", 0));
    ceil_mode_ = ceil_mode != 0;
    if constexpr (kPool == cuda::PoolKind::kMax) {
      // Registration refuses typed Indices outputs; this catches an untyped one.
      if (info.node().HasOutput(1)) {
        return ORT_ERROR(kNotImplemented,
                         "the CUDA MaxPool kernel does not produce the Indices output (output 1)");
      }
    } else {
      ORT_ASSIGN_OR_RETURN(const int64_t include,
                           info.GetAttributeOr<int64_t>("count_include_pad", 0));
      count_include_pad_ = include != 0;
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    const size_t rank = attributes_.kernel_shape.size();
    if (xs.rank() != rank + 2) {
      return context.Error("X {} must be [N, C] plus {} spatial dims (kernel_shape)", xs.ToString(),
                           rank);
    }
    const std::span<const int64_t> spatial(xs.dims().begin() + 2, xs.dims().end());
    auto window = ResolveWindow(attributes_, spatial, attributes_.kernel_shape, ceil_mode_);
    if (!window.ok()) return context.Error("{}", window.status().message());
    std::vector<int64_t> y_dims = {xs[0], xs[1]};
    y_dims.insert(y_dims.end(), window->output.begin(), window->output.end());
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), TensorShape(y_dims)));
    return CudaStatus(
        cuda::LaunchPool(kPool, KindOf(x->dtype()), x->RawData(), y->MutableRawData(),
                         xs[0] * xs[1], ToPoolGeometry(*window), count_include_pad_, stream()),
        context.node().Describe());
  }

 private:
  WindowAttributes attributes_;
  bool ceil_mode_ = false;
  bool count_include_pad_ = false;
};

template <cuda::PoolKind kPool>
class GlobalPool final : public CudaKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    if (xs.rank() < 2) return context.Error("X {} must be [N, C, spatial...]", xs.ToString());
    std::vector<int64_t> y_dims(xs.rank(), 1);
    y_dims[0] = xs[0];
    y_dims[1] = xs[1];
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), TensorShape(y_dims)));
    return CudaStatus(
        cuda::LaunchGlobalPool(kPool, KindOf(x->dtype()), x->RawData(), y->MutableRawData(),
                               xs[0] * xs[1], xs.SizeFromDimension(2), stream()),
        context.node().Describe());
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
