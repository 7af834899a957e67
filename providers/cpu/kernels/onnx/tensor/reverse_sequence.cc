// ReverseSequence: reverses the first sequence_lens[b] steps along the time axis of every batch
// entry b; the remaining steps are copied unchanged.
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class ReverseSequence final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(batch_axis_, info.GetAttributeOr<int64_t>("batch_axis", 1));
    ORT_ASSIGN_OR_RETURN(time_axis_, info.GetAttributeOr<int64_t>("time_axis", 0));
    if ((batch_axis_ != 0 && batch_axis_ != 1) || (time_axis_ != 0 && time_axis_ != 1) ||
        batch_axis_ == time_axis_) {
      return ORT_ERROR(kInvalidModel, "batch_axis and time_axis must be 0 and 1 in some order")
          .WithNode(info.node().Describe());
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* lens_tensor, context.RequiredInput(1));
    if (data->shape().rank() < 2) return context.Error("input must have rank >= 2");
    const int64_t batch = data->shape()[static_cast<size_t>(batch_axis_)];
    const int64_t time = data->shape()[static_cast<size_t>(time_axis_)];
    auto lens = ReadInt64Values(*lens_tensor);
    if (!lens.ok()) return context.Error("sequence_lens: {}", lens.status().message());
    if (lens_tensor->shape().rank() != 1 || static_cast<int64_t>(lens->size()) != batch) {
      return context.Error("sequence_lens {} must have one entry per batch entry ({})",
                           lens_tensor->Describe(), batch);
    }
    for (int64_t len : *lens) {
      if (len < 0 || len > time) {
        return context.Error("sequence length {} is outside [0, {}]", len, time);
      }
    }
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, data->dtype(), data->shape()));
    const int64_t inner = data->shape().SizeFromDimension(2);
    // Element offset of (batch b, time t) blocks of `inner` elements.
    const int64_t batch_stride = batch_axis_ == 0 ? time * inner : inner;
    const int64_t time_stride = time_axis_ == 0 ? batch * inner : inner;
    return DispatchByElementSize(data->dtype(), "ReverseSequence", [&]<typename T>() {
      const T* src = static_cast<const T*>(data->RawData());
      T* dst = static_cast<T*>(output->MutableRawData());
      for (int64_t b = 0; b < batch; ++b) {
        const int64_t len = (*lens)[static_cast<size_t>(b)];
        for (int64_t t = 0; t < time; ++t) {
          const int64_t from = t < len ? len - 1 - t : t;
          CopyElements(src + b * batch_stride + from * time_stride,
                       dst + b * batch_stride + t * time_stride, inner);
        }
      }
      return Status::OK();
    });
  }

 private:
  int64_t batch_axis_ = 1;
  int64_t time_axis_ = 0;
};

}  // namespace

void RegisterReverseSequenceKernels(KernelRegistry& registry) {
  registry.Add<ReverseSequence>(KernelDef("ReverseSequence")
                                    .Versions(10)
                                    .Input(0, AllDataTypes())
                                    .Input(1, {DataType::kInt64})
                                    .HostInput(1));
}

}  // namespace ort
