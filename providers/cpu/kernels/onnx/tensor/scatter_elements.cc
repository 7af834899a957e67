// ScatterElements (and its deprecated opset 9-10 name Scatter): output = data with
// out[i with i[axis] replaced by indices[i]] = updates[i] (or reduced, opset 16+). Applied in
// index order, so with duplicates the last update wins.
#include "providers/cpu/kernels/onnx/tensor/scatter_reduction.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class ScatterElements final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", 0));
    if (info.node().op_type() == "ScatterElements") {
      ORT_ASSIGN_OR_RETURN(reduction_, ParseScatterReduction(info));
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* indices, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* updates, context.RequiredInput(2));
    const size_t rank = data->shape().rank();
    if (rank == 0 || indices->shape().rank() != rank) {
      return context.Error("data {} and indices {} must have the same non-zero rank",
                           data->Describe(), indices->Describe());
    }
    if (updates->shape() != indices->shape() || updates->dtype() != data->dtype()) {
      return context.Error("updates {} must match indices {} in shape and data in type",
                           updates->Describe(), indices->Describe());
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
    const std::vector<int64_t> strides = ContiguousStrides(data->shape());
    const int64_t dim = data_dims[axis];
    const int64_t count = indices->NumElements();
    // Target offset of every update, validated up front.
    std::vector<int64_t> targets(static_cast<size_t>(count));
    ORT_RETURN_IF_ERROR(DispatchIndexType(indices->dtype(), "ScatterElements", [&]<typename I>() {
      const I* index = indices->Data<I>();
      std::vector<int64_t> position(rank, 0);
      for (int64_t i = 0; i < count; ++i) {
        auto value = static_cast<int64_t>(index[i]);
        if (value < -dim || value >= dim) {
          return context.Error("index {} is out of range for axis {} of size {}", value, axis, dim);
        }
        if (value < 0) value += dim;
        int64_t offset = 0;
        for (size_t d = 0; d < rank; ++d) {
          offset += (d == axis ? value : position[d]) * strides[d];
        }
        targets[static_cast<size_t>(i)] = offset;
        for (size_t d = rank; d-- > 0;) {
          if (++position[d] < index_dims[d]) break;
          position[d] = 0;
        }
      }
      return Status::OK();
    }));

    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, data->dtype(), data->shape()));
    ContiguousCopy(data->dtype(), data->RawData(), output->MutableRawData(), data->NumElements(),
                   context.thread_pool());
    if (reduction_ == ScatterReduction::kNone) {
      return DispatchByElementSize(data->dtype(), "ScatterElements", [&]<typename T>() {
        const T* src = static_cast<const T*>(updates->RawData());
        T* dst = static_cast<T*>(output->MutableRawData());
        for (int64_t i = 0; i < count; ++i) dst[targets[static_cast<size_t>(i)]] = src[i];
        return Status::OK();
      });
    }
    return DispatchByType<NumericTypes>(
        data->dtype(), "ScatterElements reduction", [&]<typename T>() {
          const T* src = updates->Data<T>();
          T* dst = output->MutableData<T>();
          for (int64_t i = 0; i < count; ++i) {
            ApplyScatterReduction(reduction_, dst[targets[static_cast<size_t>(i)]], src[i]);
          }
          return Status::OK();
        });
  }

 private:
  int64_t axis_ = 0;
  ScatterReduction reduction_ = ScatterReduction::kNone;
};

}  // namespace

void RegisterScatterElementsKernels(KernelRegistry& registry) {
  const std::vector<DataType> index_types = {DataType::kInt32, DataType::kInt64};
  registry.Add<ScatterElements>(
      KernelDef("ScatterElements").Versions(11).Input(0, AllDataTypes()).Input(1, index_types));
  registry.Add<ScatterElements>(
      KernelDef("Scatter").Versions(9, 10).Input(0, AllDataTypes()).Input(1, index_types));
}

}  // namespace ort
