// TensorScatter (opset 24): a KV-cache write as a pure function. present = past_cache with,
// for each batch b and every index before `axis`, the update's seq_len rows written along `axis`
// from write_indices[b] (0 when absent); "circular" wraps positions modulo the cache length,
// "linear" requires them to fit.
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class TensorScatter final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", -2));
    ORT_ASSIGN_OR_RETURN(const std::string mode,
                         info.GetAttributeOr<std::string>("mode", "linear"));
    if (mode != "linear" && mode != "circular") {
      return ORT_ERROR(kInvalidModel, "mode must be linear or circular, got '{}'", mode)
          .WithNode(info.node().Describe());
    }
    circular_ = mode == "circular";
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* past, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* update, context.RequiredInput(1));
    const Tensor* write_indices = context.Input(2);
    const TensorShape& shape = past->shape();
    auto normalized = NormalizeAxis(axis_, shape.rank());
    if (!normalized.ok() || *normalized == 0) {
      return context.Error("axis {} must name a non-batch axis of {}", axis_, past->Describe());
    }
    const size_t axis = *normalized;
    bool fits = update->dtype() == past->dtype() && update->shape().rank() == shape.rank();
    for (size_t d = 0; fits && d < shape.rank(); ++d) {
      fits = d == axis ? update->shape()[d] <= shape[d] : update->shape()[d] == shape[d];
    }
    if (!fits) {
      return context.Error("update {} does not fit past_cache {} along axis {}", update->Describe(),
                           past->Describe(), axis_);
    }
    const int64_t batch = shape[0], capacity = shape[axis], length = update->shape()[axis];
    std::vector<int64_t> starts(static_cast<size_t>(batch), 0);
    if (write_indices != nullptr) {
      auto read = ReadInt64Values(*write_indices);
      if (!read.ok() || write_indices->shape() != TensorShape({batch})) {
        return context.Error("write_indices must be int64 [{}], got {}", batch,
                             write_indices->Describe());
      }
      starts = std::move(read).value();
    }
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t start = starts[static_cast<size_t>(b)];
      if (start < 0 || (!circular_ && start + length > capacity) ||
          (circular_ && start >= capacity)) {
        return context.Error("write_indices[{}] = {} does not fit {} rows in {}", b, start, length,
                             capacity);
      }
    }
    ORT_ASSIGN_OR_RETURN(Tensor * present, context.Output(0, past->dtype(), shape));
    ORT_RETURN_IF_ERROR(CopyTensorData(*past, *present));
    const int64_t outer = shape.SizeToDimension(axis);
    const int64_t per_batch = outer / batch;
    const int64_t inner = shape.SizeFromDimension(axis + 1);
    return DispatchByElementSize(past->dtype(), "TensorScatter", [&]<typename T>() {
      const T* from = static_cast<const T*>(update->RawData());
      T* to = static_cast<T*>(present->MutableRawData());
      for (int64_t o = 0; o < outer; ++o) {
        const int64_t start = starts[static_cast<size_t>(o / per_batch)];
        for (int64_t s = 0; s < length; ++s) {
          const int64_t row = circular_ ? (start + s) % capacity : start + s;
          CopyElements(from + (o * length + s) * inner, to + (o * capacity + row) * inner, inner);
        }
      }
      return Status::OK();
    });
  }

 private:
  int64_t axis_ = -2;
  bool circular_ = false;
};

}  // namespace

void RegisterTensorScatterKernels(KernelRegistry& registry) {
  registry.Add<TensorScatter>(KernelDef("TensorScatter")
                                  .Versions(24)
                                  .Input(0, AllDataTypes())
                                  .Input(2, {DataType::kInt64})
                                  .HostInput(2));
}

}  // namespace ort
