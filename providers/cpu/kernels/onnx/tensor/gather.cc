// Gather: copies one inner block per (outer position, index). Indices are validated before any
// copy; negative ones count from the end of the axis.
#include "providers/common/tensor/gather_indices.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class Gather final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", 0));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* indices, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const GatherPlan plan, PlanGather(context, *data, *indices, axis_));
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, data->dtype(), TensorShape(plan.output_dims)));
    if (output->NumElements() == 0) return Status::OK();
    const int64_t count = static_cast<int64_t>(plan.positions.size());
    const int64_t dim = plan.dim, inner = plan.inner;
    const std::vector<int64_t>& positions = plan.positions;
    return DispatchByElementSize(data->dtype(), "Gather", [&]<typename T>() {
      const T* src = static_cast<const T*>(data->RawData());
      T* dst = static_cast<T*>(output->MutableRawData());
      ThreadPool::TryParallelFor(
          context.thread_pool(), plan.outer * count, static_cast<double>(inner),
          [&](int64_t begin, int64_t end) {
            for (int64_t unit = begin; unit < end; ++unit) {
              const int64_t o = unit / count;
              const int64_t j = unit % count;
              CopyElements(src + (o * dim + positions[static_cast<size_t>(j)]) * inner,
                           dst + unit * inner, inner);
            }
          });
      return Status::OK();
    });
  }

 private:
  int64_t axis_ = 0;
};

}  // namespace

void RegisterGatherKernels(KernelRegistry& registry) {
  registry.Add<Gather>(KernelDef("Gather")
                           .Versions(1)
                           .Input(0, AllDataTypes())
                           .Input(1, {DataType::kInt32, DataType::kInt64}));
}

}  // namespace ort
