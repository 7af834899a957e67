// Transpose and Expand on the GPU: both are one strided copy (elementwise_launch.h), an output
// coordinate reading the input through permuted strides (Transpose) or zero strides on broadcast
// axes (Expand). Any element type of 1 to 8 bytes.
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/cuda_kernels.h"
#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort {
namespace {

Status CopyThroughStrides(KernelContext& context, cudaStream_t stream, const Tensor& input,
                          Tensor& output, const std::vector<int64_t>& strides) {
  const TensorShape& shape = output.shape();
  if (shape.rank() > static_cast<size_t>(cuda::kMaxBroadcastRank)) {
    return context.Error("rank {} exceeds the {} the CUDA kernel handles", shape.rank(),
                         cuda::kMaxBroadcastRank);
  }
  cuda::BroadcastStrides copy;
  copy.rank = static_cast<int>(shape.rank());
  for (size_t d = 0; d < shape.rank(); ++d) {
    copy.output_dims[d] = shape[d];
    copy.a_strides[d] = strides[d];
  }
  return CudaStatus(
      cuda::LaunchStridedCopy(ElementSize(input.dtype()), input.RawData(), output.MutableRawData(),
                              output.NumElements(), copy, stream),
      context.node());
}

class Transpose final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(perm_, info.GetAttributeOr<std::vector<int64_t>>("perm", {}));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const size_t rank = x->shape().rank();
    std::vector<int64_t> perm = perm_;
    if (perm.empty()) {
      for (size_t i = 0; i < rank; ++i) perm.push_back(static_cast<int64_t>(rank - 1 - i));
    }
    if (perm.size() != rank) {
      return context.Error("perm has {} entries for {}", perm.size(), x->Describe());
    }
    const std::vector<int64_t> in_strides = ContiguousStrides(x->shape());
    std::vector<int64_t> dims(rank), strides(rank);
    std::vector<bool> seen(rank, false);
    for (size_t i = 0; i < rank; ++i) {
      const int64_t axis = perm[i] < 0 ? perm[i] + static_cast<int64_t>(rank) : perm[i];
      if (axis < 0 || axis >= static_cast<int64_t>(rank) || seen[static_cast<size_t>(axis)]) {
        return context.Error("perm is not a permutation of the {} axes", rank);
      }
      seen[static_cast<size_t>(axis)] = true;
      dims[i] = x->shape()[static_cast<size_t>(axis)];
      strides[i] = in_strides[static_cast<size_t>(axis)];
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), TensorShape(dims)));
    return CopyThroughStrides(context, stream(), *x, *y, strides);
  }

 private:
  std::vector<int64_t> perm_;
};

class Expand final : public CudaKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* shape_input, context.RequiredInput(1));
    auto dims = ReadInt64Values(*shape_input);
    if (!dims.ok()) return context.Error("shape: {}", dims.status().message());
    auto shape = BroadcastShapes(x->shape(), TensorShape(std::move(dims).value()));
    if (!shape.ok()) return context.Error("{}", shape.status().message());
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), *shape));
    // Right-aligned input strides, 0 where the input has size 1.
    std::vector<int64_t> strides(shape->rank(), 0);
    const std::vector<int64_t> in_strides = ContiguousStrides(x->shape());
    const size_t offset = shape->rank() - x->shape().rank();
    for (size_t d = 0; d < x->shape().rank(); ++d) {
      strides[offset + d] = x->shape()[d] == 1 ? 0 : in_strides[d];
    }
    return CopyThroughStrides(context, stream(), *x, *y, strides);
  }
};

}  // namespace

void RegisterCudaTransposeExpandKernels(KernelRegistry& registry) {
  registry.Add<Transpose>(KernelDef("Transpose").Versions(1).Input(0, CudaTensorTypes()));
  registry.Add<Expand>(KernelDef("Expand").Versions(8).Input(0, CudaTensorTypes()).HostInput(1));
}

}  // namespace ort
