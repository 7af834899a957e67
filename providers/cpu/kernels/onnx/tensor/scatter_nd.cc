// ScatterND: output = data with the slices addressed by index tuples replaced (or reduced, opset
// 16+) by updates. Tuples are applied in order, so with duplicates the last one wins.
#include "providers/cpu/kernels/onnx/tensor/scatter_reduction.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class ScatterND final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(reduction_, ParseScatterReduction(info));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* indices, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* updates, context.RequiredInput(2));
    const auto& data_dims = data->shape().dims();
    const auto& index_dims = indices->shape().dims();
    if (index_dims.empty()) return context.Error("indices must have rank >= 1");
    const auto depth = static_cast<size_t>(index_dims.back());
    if (depth > data_dims.size()) {
      return context.Error("index tuples of length {} exceed the rank of {}", depth,
                           data->Describe());
    }
    std::vector<int64_t> expected(index_dims.begin(), index_dims.end() - 1);
    expected.insert(expected.end(), data_dims.begin() + static_cast<ptrdiff_t>(depth),
                    data_dims.end());
    if (updates->shape().dims() != expected || updates->dtype() != data->dtype()) {
      return context.Error("updates {} do not match data {} and indices {}", updates->Describe(),
                           data->Describe(), indices->Describe());
    }
    const std::vector<int64_t> strides = ContiguousStrides(data->shape());
    const int64_t slice = data->shape().SizeFromDimension(depth);
    const int64_t tuples = indices->shape().SizeToDimension(index_dims.size() - 1);
    std::vector<int64_t> offsets(static_cast<size_t>(tuples));
    ORT_RETURN_IF_ERROR(DispatchIndexType(indices->dtype(), "ScatterND", [&]<typename I>() {
      const I* index = indices->Data<I>();
      for (int64_t t = 0; t < tuples; ++t) {
        int64_t offset = 0;
        for (size_t k = 0; k < depth; ++k) {
          const int64_t dim = data_dims[k];
          auto value = static_cast<int64_t>(index[t * static_cast<int64_t>(depth) + k]);
          if (value < -dim || value >= dim) {
            return context.Error("index {} is out of range for axis {} of size {}", value, k, dim);
          }
          if (value < 0) value += dim;
          offset += value * strides[k];
        }
        offsets[static_cast<size_t>(t)] = offset;
      }
      return Status::OK();
    }));

    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, data->dtype(), data->shape()));
    ContiguousCopy(data->dtype(), data->RawData(), output->MutableRawData(), data->NumElements(),
                   context.thread_pool());
    if (reduction_ == ScatterReduction::kNone) {
      return DispatchByElementSize(data->dtype(), "ScatterND", [&]<typename T>() {
        const T* src = static_cast<const T*>(updates->RawData());
        T* dst = static_cast<T*>(output->MutableRawData());
        for (int64_t t = 0; t < tuples; ++t) {
          CopyElements(src + t * slice, dst + offsets[static_cast<size_t>(t)], slice);
        }
        return Status::OK();
      });
    }
    return DispatchByType<NumericTypes>(data->dtype(), "ScatterND reduction", [&]<typename T>() {
      const T* src = updates->Data<T>();
      T* dst = output->MutableData<T>();
      for (int64_t t = 0; t < tuples; ++t) {
        T* target = dst + offsets[static_cast<size_t>(t)];
        for (int64_t j = 0; j < slice; ++j) {
          ApplyScatterReduction(reduction_, target[j], src[t * slice + j]);
        }
      }
      return Status::OK();
    });
  }

 private:
  ScatterReduction reduction_ = ScatterReduction::kNone;
};

}  // namespace

void RegisterScatterNDKernels(KernelRegistry& registry) {
  registry.Add<ScatterND>(
      KernelDef("ScatterND").Versions(11).Input(0, AllDataTypes()).Input(1, {DataType::kInt64}));
}

}  // namespace ort
