// Elementwise CUDA kernels: Add, Sub, Mul, Div, Pow with numpy broadcasting, the unary math and
// activation ops, and Clip, for float and float16 (computed in float).
#include <climits>
#include <limits>

#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/cuda_kernels.h"
#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort {
namespace {

const std::vector<DataType> kTypes = {DataType::kFloat, DataType::kFloat16};

cuda::ElementKind KindOf(DataType type) {
  return type == DataType::kFloat ? cuda::ElementKind::kFloat : cuda::ElementKind::kHalf;
}

// Strides of `shape` right-aligned to `rank` dimensions, 0 where it broadcasts.
void FillStrides(const TensorShape& shape, const TensorShape& output, int64_t* strides) {
  const size_t rank = output.rank();
  int64_t stride = 1;
  for (size_t i = 0; i < rank; ++i) {
    const size_t d = rank - 1 - i;
    const int64_t dim = i < shape.rank() ? shape[shape.rank() - 1 - i] : 1;
    strides[d] = dim == 1 ? 0 : stride;
    stride *= dim;
  }
}

template <cuda::BinaryOp kOp>
class Binary final : public CudaKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* b, context.RequiredInput(1));
    if (a->dtype() != b->dtype()) {
      return context.Error("inputs have types {} and {}", DataTypeName(a->dtype()),
                           DataTypeName(b->dtype()));
    }
    auto shape = BroadcastShapes(a->shape(), b->shape());
    if (!shape.ok()) return context.Error("{}", shape.status().message());
    if (shape->rank() > static_cast<size_t>(cuda::kMaxBroadcastRank)) {
      return context.Error("rank {} exceeds the {} the CUDA kernel broadcasts", shape->rank(),
                           cuda::kMaxBroadcastRank);
    }
    ORT_ASSIGN_OR_RETURN(Tensor * out, context.Output(0, a->dtype(), *shape));
    cuda::BroadcastStrides strides;
    const bool same = a->shape() == *shape && b->shape() == *shape;
    if (!same) {
      strides.rank = static_cast<int>(shape->rank());
      for (size_t d = 0; d < shape->rank(); ++d) strides.output_dims[d] = (*shape)[d];
      FillStrides(a->shape(), *shape, strides.a_strides);
      FillStrides(b->shape(), *shape, strides.b_strides);
    }
    return CudaStatus(cuda::LaunchBinary(kOp, KindOf(a->dtype()), a->RawData(), b->RawData(),
                                         out->MutableRawData(), out->NumElements(),
                                         same ? nullptr : &strides, stream()),
                      context.node());
  }
};

template <cuda::UnaryOp kOp>
class Unary final : public CudaKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), x->shape()));
    return CudaStatus(cuda::LaunchUnary(kOp, KindOf(x->dtype()), x->RawData(), y->MutableRawData(),
                                        x->NumElements(), stream()),
                      context.node());
  }
};

// Clip's bounds: the min/max attributes before opset 11, then optional scalar inputs of X's type
// read on the host. Absent bounds are the float limits, as on the CPU.
class Clip final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    bounds_are_inputs_ = info.opset() >= 11;
    if (bounds_are_inputs_) return Status::OK();
    ORT_ASSIGN_OR_RETURN(min_, info.GetAttributeOr<float>("min", min_));
    ORT_ASSIGN_OR_RETURN(max_, info.GetAttributeOr<float>("max", max_));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    float lo = min_, hi = max_;
    if (bounds_are_inputs_) {
      ORT_RETURN_IF_ERROR(ReadBound(context, 1, *x, &lo));
      ORT_RETURN_IF_ERROR(ReadBound(context, 2, *x, &hi));
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), x->shape()));
    return CudaStatus(cuda::LaunchClip(KindOf(x->dtype()), x->RawData(), y->MutableRawData(),
                                       x->NumElements(), lo, hi, stream()),
                      context.node());
  }

 private:
  static Status ReadBound(const KernelContext& context, size_t index, const Tensor& x,
                          float* bound) {
    const Tensor* tensor = context.Input(index);
    if (tensor == nullptr) return Status::OK();
    if (tensor->dtype() != x.dtype() || tensor->NumElements() != 1) {
      return context.Error("input {} must be a scalar of X's type {}, got {}", index,
                           DataTypeName(x.dtype()), tensor->Describe());
    }
    *bound = x.dtype() == DataType::kFloat ? tensor->Data<float>()[0]
                                           : static_cast<float>(tensor->Data<Float16>()[0]);
    return Status::OK();
  }

  bool bounds_are_inputs_ = false;
  float min_ = std::numeric_limits<float>::lowest();
  float max_ = std::numeric_limits<float>::max();
};

template <cuda::BinaryOp kOp>
void AddBinary(KernelRegistry& registry, const char* op) {
  registry.Add<Binary<kOp>>(KernelDef(op).Versions(7).Input(0, kTypes).Input(1, kTypes));
}

template <cuda::UnaryOp kOp>
void AddUnary(KernelRegistry& registry, const char* op, int since) {
  registry.Add<Unary<kOp>>(KernelDef(op).Versions(since).Input(0, kTypes).MayInplace(0, 0));
}

// From opset 11 the optional min and max are inputs, read on the host.
void AddClip(KernelRegistry& registry, int since, int until) {
  KernelDef def = KernelDef("Clip").Versions(since, until).Input(0, kTypes).MayInplace(0, 0);
  if (since >= 11) def.HostInput(1).HostInput(2);
  registry.Add<Clip>(std::move(def));
}

}  // namespace

void RegisterCudaElementwiseKernels(KernelRegistry& registry) {
  using cuda::BinaryOp, cuda::UnaryOp;
  AddBinary<BinaryOp::kAdd>(registry, "Add");
  AddBinary<BinaryOp::kSub>(registry, "Sub");
  AddBinary<BinaryOp::kMul>(registry, "Mul");
  AddBinary<BinaryOp::kDiv>(registry, "Div");
  // From opset 12 the exponent may have another type than the base; one entry per type claims
  // only the same-type pairs the kernel serves.
  for (DataType type : kTypes) {
    registry.Add<Binary<BinaryOp::kPow>>(
        KernelDef("Pow").Versions(7, 11).Input(0, {type}).Input(1, {type}));
    registry.Add<Binary<BinaryOp::kPow>>(
        KernelDef("Pow").Versions(12).Input(0, {type}).Input(1, {type}));
  }
  AddUnary<UnaryOp::kRelu>(registry, "Relu", 6);
  AddUnary<UnaryOp::kSigmoid>(registry, "Sigmoid", 6);
  AddUnary<UnaryOp::kTanh>(registry, "Tanh", 6);
  AddUnary<UnaryOp::kExp>(registry, "Exp", 6);
  AddUnary<UnaryOp::kLog>(registry, "Log", 6);
  AddUnary<UnaryOp::kNeg>(registry, "Neg", 6);
  AddUnary<UnaryOp::kAbs>(registry, "Abs", 6);
  AddUnary<UnaryOp::kSqrt>(registry, "Sqrt", 6);
  AddUnary<UnaryOp::kErf>(registry, "Erf", 9);
  AddUnary<UnaryOp::kReciprocal>(registry, "Reciprocal", 6);
  AddClip(registry, 6, 10);
  AddClip(registry, 11, 11);
  AddClip(registry, 12, INT_MAX);
}

}  // namespace ort
