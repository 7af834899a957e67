// Cast (opsets 6+) and CastLike (15+) on the GPU between every numeric type and bool, converting
// as the CPU kernel does (cast_launch.h). Strings, the float8 types and the 4-bit types are left
// to the CPU by the type constraints, and opset-1 Cast (a type name in `to`) by the versions.
#include <climits>
#include <optional>
#include <utility>

#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/cuda_kernels.h"
#include "providers/cuda/kernels/tensor/cast_launch.h"

namespace ort {
namespace {

constexpr std::pair<DataType, cuda::CastType> kCastTypes[] = {
    {DataType::kFloat, cuda::CastType::kFloat},   {DataType::kDouble, cuda::CastType::kDouble},
    {DataType::kFloat16, cuda::CastType::kHalf},  {DataType::kBFloat16, cuda::CastType::kBFloat16},
    {DataType::kInt8, cuda::CastType::kInt8},     {DataType::kInt16, cuda::CastType::kInt16},
    {DataType::kInt32, cuda::CastType::kInt32},   {DataType::kInt64, cuda::CastType::kInt64},
    {DataType::kUint8, cuda::CastType::kUint8},   {DataType::kUint16, cuda::CastType::kUint16},
    {DataType::kUint32, cuda::CastType::kUint32}, {DataType::kUint64, cuda::CastType::kUint64},
    {DataType::kBool, cuda::CastType::kBool}};

std::optional<cuda::CastType> CastTypeOf(DataType type) {
  for (const auto& [data_type, cast_type] : kCastTypes) {
    if (data_type == type) return cast_type;
  }
  return std::nullopt;
}

// `to` is one of kCastTypes.
Status CastTo(KernelContext& context, cudaStream_t stream, DataType to) {
  ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
  if (x->dtype() == to) return context.SetOutput(0, Value(*x));
  const std::optional<cuda::CastType> from = CastTypeOf(x->dtype());
  if (!from) return context.Error("cannot cast {} on the GPU", x->Describe());
  ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, to, x->shape()));
  return CudaStatus(cuda::LaunchCast(*from, *CastTypeOf(to), x->RawData(), y->MutableRawData(),
                                     x->NumElements(), stream),
                    context.node());
}

class Cast final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const int64_t to, info.GetAttribute<int64_t>("to"));
    to_ = static_cast<DataType>(to);
    if (!CastTypeOf(to_)) {
      return ORT_ERROR(kNotImplemented, "the CUDA Cast cannot produce type {}", to)
          .WithNode(info.node().Describe());
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override { return CastTo(context, stream(), to_); }

 private:
  DataType to_ = DataType::kUndefined;
};

class CastLike final : public CudaKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* like, context.RequiredInput(1));
    if (!CastTypeOf(like->dtype())) {
      return context.Error("cannot cast to {} on the GPU", DataTypeName(like->dtype()));
    }
    return CastTo(context, stream(), like->dtype());
  }
};

}  // namespace

void RegisterCudaCastKernels(KernelRegistry& registry) {
  std::vector<DataType> types;
  for (const auto& [data_type, cast_type] : kCastTypes) types.push_back(data_type);
  // The CPU's ranges: opsets 19 and 21 added the float8 and 4-bit types, which stay there.
  constexpr std::pair<int, int> kCastVersions[] = {{6, 18}, {19, 20}, {21, INT_MAX}};
  for (const auto& [since, until] : kCastVersions) {
    registry.Add<Cast>(KernelDef("Cast").Versions(since, until).Input(0, types).Output(0, types));
  }
  // Only the type of CastLike's second input is read.
  constexpr std::pair<int, int> kCastLikeVersions[] = {{15, 18}, {19, 20}, {21, INT_MAX}};
  for (const auto& [since, until] : kCastLikeVersions) {
    registry.Add<CastLike>(KernelDef("CastLike")
                               .Versions(since, until)
                               .Input(0, types)
                               .Input(1, types)
                               .ShapeOnlyInput(1));
  }
}

}  // namespace ort
