// Gather: copies one inner block per (outer position, index). Indices are validated before any
// copy; negative ones count from the end of the axis.
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
    const TensorShape& shape = data->shape();
    auto normalized = NormalizeAxis(axis_, shape.rank());
    if (!normalized.ok()) return context.Error("{}", normalized.status().message());
    const size_t axis = *normalized;
    const int64_t dim = shape[axis];
    const int64_t count = indices->NumElements();

    std::vector<int64_t> positions(static_cast<size_t>(count));
    ORT_RETURN_IF_ERROR(DispatchIndexType(indices->dtype(), "Gather", [&]<typename I>() -> Status {
      const I* raw = indices->Data<I>();
      for (int64_t i = 0; i < count; ++i) {
        const int64_t index = static_cast<int64_t>(raw[i]);
        if (index < -dim || index >= dim) {
          return context.Error("index {} is out of range for axis {} of size {}", index, axis, dim);
        }
        positions[static_cast<size_t>(i)] = index < 0 ? index + dim : index;
      }
      return Status::OK();
    }));

    std::vector<int64_t> out_dims(shape.dims().begin(), shape.dims().begin() + axis);
    out_dims.insert(out_dims.end(), indices->shape().dims().begin(), indices->shape().dims().end());
    out_dims.insert(out_dims.end(), shape.dims().begin() + axis + 1, shape.dims().end());
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, data->dtype(), TensorShape(std::move(out_dims))));
    if (output->NumElements() == 0) return Status::OK();
    const int64_t outer = shape.SizeToDimension(axis);
    const int64_t inner = shape.SizeFromDimension(axis + 1);
    return DispatchByElementSize(data->dtype(), "Gather", [&]<typename T>() {
      const T* src = static_cast<const T*>(data->RawData());
      T* dst = static_cast<T*>(output->MutableRawData());
      ThreadPool::TryParallelFor(
          context.thread_pool(), outer * count, static_cast<double>(inner),
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
