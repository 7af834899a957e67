// ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceSumSquare and ReduceL2 on the GPU, float and
// float16 (accumulated in float). Axes come from the `axes` attribute (ReduceSum before 13, the
// others before 18) or from the optional second input, read on the host, with
// `noop_with_empty_axes`; no axes reduces everything, or nothing with noop_with_empty_axes = 1
// (each element is then reduced alone, so ReduceSumSquare still squares). Reducing an empty set
// gives ONNX's identities, as on the CPU.
#include "providers/common/reduction/reduce_attributes.h"
#include "providers/common/reduction/reduce_plan.h"
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/cuda_kernels.h"
#include "providers/cuda/kernels/math/reduce_launch.h"

namespace ort {
namespace {

const std::vector<DataType> kTypes = {DataType::kFloat, DataType::kFloat16};

// Dims of size 1 are dropped and neighbours that are both kept or both reduced merged, which
// shortens the kernel's index arithmetic; `reduce_count` receives the reduced element count.
Result<cuda::ReduceLayout> MakeLayout(const TensorShape& shape, const std::vector<bool>& reduced,
                                      int64_t& reduce_count) {
  const std::vector<int64_t> strides = ContiguousStrides(shape);
  std::vector<int64_t> dims, merged_strides;
  std::vector<bool> flags;
  reduce_count = 1;
  for (size_t d = 0; d < shape.rank(); ++d) {
    if (shape[d] == 1) continue;
    if (reduced[d]) reduce_count *= shape[d];
    if (!flags.empty() && flags.back() == reduced[d]) {
      dims.back() *= shape[d];
      merged_strides.back() = strides[d];
    } else {
      dims.push_back(shape[d]);
      merged_strides.push_back(strides[d]);
      flags.push_back(reduced[d]);
    }
  }
  cuda::ReduceLayout layout;
  for (size_t i = 0; i < dims.size(); ++i) {
    int& rank = flags[i] ? layout.reduced_rank : layout.kept_rank;
    if (rank == cuda::kMaxReduceRank) {
      return ORT_ERROR(kNotImplemented,
                       "X {} needs more than {} kept or reduced dims after merging neighbours",
                       shape.ToString(), cuda::kMaxReduceRank);
    }
    (flags[i] ? layout.reduced_dims : layout.kept_dims)[rank] = dims[i];
    (flags[i] ? layout.reduced_strides : layout.kept_strides)[rank] = merged_strides[i];
    ++rank;
  }
  return layout;
}

template <cuda::ReduceOp kOp>
class Reduce final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override { return attributes_.Parse(info); }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const std::vector<size_t> normalized,
                         attributes_.ResolveAxes(context, x->shape()));
    const size_t rank = x->shape().rank();
    std::vector<bool> reduced(rank, false);
    for (size_t axis : normalized) reduced[axis] = true;
    int64_t reduce_count = 1;
    auto layout = MakeLayout(x->shape(), reduced, reduce_count);
    if (!layout.ok()) return context.Error("{}", layout.status().message());
    ORT_ASSIGN_OR_RETURN(
        Tensor * y,
        context.Output(0, x->dtype(), ReducedShape(x->shape(), normalized, attributes_.keepdims)));
    const auto kind =
        x->dtype() == DataType::kFloat ? cuda::ElementKind::kFloat : cuda::ElementKind::kHalf;
    return CudaStatus(cuda::LaunchReduce(kOp, kind, x->RawData(), y->MutableRawData(),
                                         y->NumElements(), reduce_count, *layout, stream()),
                      context.node());
  }

 private:
  ReduceAttributes attributes_;
};

template <cuda::ReduceOp kOp>
void Add(KernelRegistry& registry, const char* op) {
  const int axes_input_since = ReduceAxesInputSince(op);
  registry.Add<Reduce<kOp>>(KernelDef(op).Versions(1, axes_input_since - 1).Input(0, kTypes));
  registry.Add<Reduce<kOp>>(KernelDef(op).Versions(axes_input_since).Input(0, kTypes).HostInput(1));
}

}  // namespace

void RegisterCudaReduceKernels(KernelRegistry& registry) {
  using cuda::ReduceOp;
  Add<ReduceOp::kSum>(registry, "ReduceSum");
  Add<ReduceOp::kMean>(registry, "ReduceMean");
  Add<ReduceOp::kMax>(registry, "ReduceMax");
  Add<ReduceOp::kMin>(registry, "ReduceMin");
  Add<ReduceOp::kSumSquare>(registry, "ReduceSumSquare");
  Add<ReduceOp::kL2>(registry, "ReduceL2");
}

}  // namespace ort
