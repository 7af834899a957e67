// GatherND (batch_dims from opset 12): each index tuple of the last indices axis selects a slice
// of data, copied whole.
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class GatherND final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(batch_dims_, info.GetAttributeOr<int64_t>("batch_dims", 0));
    if (batch_dims_ < 0) {
      return ORT_ERROR(kInvalidModel, "batch_dims must not be negative")
          .WithNode(info.node().Describe());
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* indices, context.RequiredInput(1));
    const auto& data_dims = data->shape().dims();
    const auto& index_dims = indices->shape().dims();
    const auto batch = static_cast<size_t>(batch_dims_);
    if (index_dims.empty() || data_dims.empty() || batch >= index_dims.size() ||
        batch >= data_dims.size()) {
      return context.Error("data {} and indices {} are incompatible with batch_dims {}",
                           data->Describe(), indices->Describe(), batch);
    }
    const auto depth = static_cast<size_t>(index_dims.back());
    if (depth < 1 || depth > data_dims.size() - batch) {
      return context.Error("indices {} index {} axes of data {} after {} batch axes",
                           indices->Describe(), depth, data->Describe(), batch);
    }
    for (size_t d = 0; d < batch; ++d) {
      if (data_dims[d] != index_dims[d]) {
        return context.Error("batch axis {} differs: data {} vs indices {}", d, data->Describe(),
                             indices->Describe());
      }
    }
    std::vector<int64_t> out_dims(index_dims.begin(), index_dims.end() - 1);
    out_dims.insert(out_dims.end(), data_dims.begin() + static_cast<ptrdiff_t>(batch + depth),
                    data_dims.end());
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, data->dtype(), TensorShape(std::move(out_dims))));
    const std::vector<int64_t> strides = ContiguousStrides(data->shape());
    const int64_t slice = data->shape().SizeFromDimension(batch + depth);
    const int64_t batches = data->shape().SizeToDimension(batch);
    const int64_t batch_stride = data->shape().SizeFromDimension(batch);
    const int64_t tuples = indices->NumElements() / static_cast<int64_t>(depth);
    const int64_t per_batch = tuples / std::max<int64_t>(batches, 1);

    // Source offset of every tuple, validated up front.
    std::vector<int64_t> offsets(static_cast<size_t>(tuples));
    ORT_RETURN_IF_ERROR(DispatchIndexType(indices->dtype(), "GatherND", [&]<typename I>() {
      const I* index = indices->Data<I>();
      for (int64_t t = 0; t < tuples; ++t) {
        int64_t offset = per_batch > 0 ? (t / per_batch) * batch_stride : 0;
        for (size_t k = 0; k < depth; ++k) {
          const int64_t dim = data_dims[batch + k];
          auto value = static_cast<int64_t>(index[t * static_cast<int64_t>(depth) + k]);
          if (value < -dim || value >= dim) {
            return context.Error("index {} is out of range for axis {} of size {}", value,
                                 batch + k, dim);
          }
          if (value < 0) value += dim;
          offset += value * strides[batch + k];
        }
        offsets[static_cast<size_t>(t)] = offset;
      }
      return Status::OK();
    }));
    if (output->NumElements() == 0) return Status::OK();
    return DispatchByElementSize(data->dtype(), "GatherND", [&]<typename T>() {
      const T* src = static_cast<const T*>(data->RawData());
      T* dst = static_cast<T*>(output->MutableRawData());
      ThreadPool::TryParallelFor(context.thread_pool(), tuples, static_cast<double>(slice),
                                 [&](int64_t begin, int64_t end) {
                                   for (int64_t t = begin; t < end; ++t) {
                                     CopyElements(src + offsets[static_cast<size_t>(t)],
                                                  dst + t * slice, slice);
                                   }
                                 });
      return Status::OK();
    });
  }

 private:
  int64_t batch_dims_ = 0;
};

}  // namespace

void RegisterGatherNDKernels(KernelRegistry& registry) {
  registry.Add<GatherND>(
      KernelDef("GatherND").Versions(11).Input(0, AllDataTypes()).Input(1, {DataType::kInt64}));
}

}  // namespace ort
