// GatherElements: out[i] = data[i with i[axis] replaced by indices[i]].
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class GatherElements final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", 0));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* indices, context.RequiredInput(1));
    const size_t rank = data->shape().rank();
    if (rank == 0 || indices->shape().rank() != rank) {
      return context.Error("data {} and indices {} must have the same non-zero rank",
                           data->Describe(), indices->Describe());
    }
    auto normalized = NormalizeAxis(axis_, rank);
    if (!normalized.ok()) return context.Error("{}", normalized.status().message());
    const size_t axis = *normalized;
    const auto& data_dims = data->shape().dims();
    const auto& index_dims = indices->shape().dims();
    for (size_t d = 0; d < rank; ++d) {
      if (d != axis && index_dims[d] > data_dims[d]) {
        return context.Error("indices {} exceed data {} along axis {}", indices->Describe(),
                             data->Describe(), d);
      }
    }
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, data->dtype(), indices->shape()));
    if (output->NumElements() == 0) return Status::OK();
    const std::vector<int64_t> data_strides = ContiguousStrides(data->shape());
    const int64_t dim = data_dims[axis];
    const int64_t inner = index_dims[rank - 1];
    const int64_t rows = indices->NumElements() / inner;
    return DispatchIndexType(indices->dtype(), "GatherElements", [&]<typename I>() {
      const I* index = indices->Data<I>();
      for (int64_t i = 0; i < indices->NumElements(); ++i) {
        const auto value = static_cast<int64_t>(index[i]);
        if (value < -dim || value >= dim) {
          return context.Error("index {} is out of range for axis {} of size {}", value, axis, dim);
        }
      }
      return DispatchByElementSize(data->dtype(), "GatherElements", [&]<typename T>() {
        const T* src = static_cast<const T*>(data->RawData());
        T* dst = static_cast<T*>(output->MutableRawData());
        ThreadPool::TryParallelFor(context.thread_pool(), rows, static_cast<double>(inner) * 2.0,
                                   [&](int64_t begin, int64_t end) {
                                     for (int64_t row = begin; row < end; ++row) {
                                       // Offset of the row in data, with the axis coordinate left
                                       // out.
                                       int64_t offset = 0;
                                       int64_t remainder = row;
                                       for (size_t d = rank - 1; d-- > 0;) {
                                         const int64_t coordinate = remainder % index_dims[d];
                                         remainder /= index_dims[d];
                                         if (d != axis) offset += coordinate * data_strides[d];
                                       }
                                       const I* row_index = index + row * inner;
                                       T* out = dst + row * inner;
                                       const int64_t axis_stride = data_strides[axis];
                                       const int64_t step = axis == rank - 1 ? 0 : 1;
                                       for (int64_t j = 0; j < inner; ++j) {
                                         int64_t value = static_cast<int64_t>(row_index[j]);
                                         if (value < 0) value += dim;
                                         out[j] = src[offset + j * step + value * axis_stride];
                                       }
                                     }
                                   });
        return Status::OK();
      });
    });
  }

 private:
  int64_t axis_ = 0;
};

}  // namespace

void RegisterGatherElementsKernels(KernelRegistry& registry) {
  registry.Add<GatherElements>(KernelDef("GatherElements")
                                   .Versions(11)
                                   .Input(0, AllDataTypes())
                                   .Input(1, {DataType::kInt32, DataType::kInt64}));
}

}  // namespace ort
