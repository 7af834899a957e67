// CenterCropPad (opset 18): each listed axis is cropped or zero-padded to the requested length
// around its center (an odd difference puts the extra element at the end). One per-axis map
// from output to input index (-1 for padding) applied by AxisMapCopy.
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class CenterCropPad final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axes_, info.GetAttributeOr<std::vector<int64_t>>("axes", {}));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* shape_tensor, context.RequiredInput(1));
    const size_t rank = data->shape().rank();
    auto read = ReadInt64Values(*shape_tensor);
    if (!read.ok()) return context.Error("shape: {}", read.status().message());
    const std::vector<int64_t>& lengths = *read;
    std::vector<int64_t> axes = axes_;
    if (axes.empty()) {
      for (size_t d = 0; d < rank; ++d) axes.push_back(static_cast<int64_t>(d));
    }
    if (lengths.size() != axes.size()) {
      return context.Error("shape has {} entries for {} axes of {}", lengths.size(), axes.size(),
                           data->Describe());
    }
    std::vector<int64_t> out_dims(data->shape().dims().begin(), data->shape().dims().end());
    std::vector<bool> seen(rank, false);
    for (size_t i = 0; i < axes.size(); ++i) {
      auto axis = NormalizeAxis(axes[i], rank);
      if (!axis.ok()) return context.Error("{}", axis.status().message());
      if (seen[*axis]) return context.Error("axis {} is listed twice", axes[i]);
      seen[*axis] = true;
      if (lengths[i] < 0) return context.Error("shape entry {} is negative", lengths[i]);
      out_dims[*axis] = lengths[i];
    }
    std::vector<std::vector<int64_t>> maps(rank);
    for (size_t d = 0; d < rank; ++d) {
      const int64_t in = data->shape()[d], out = out_dims[d];
      // Input index of output index 0: positive when cropping, negative when padding.
      const int64_t offset = in >= out ? (in - out) / 2 : -((out - in) / 2);
      maps[d].resize(static_cast<size_t>(out));
      for (int64_t o = 0; o < out; ++o) {
        const int64_t i = o + offset;
        maps[d][static_cast<size_t>(o)] = i >= 0 && i < in ? i : -1;
      }
    }
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, data->dtype(), TensorShape(out_dims)));
    if (output->NumElements() == 0) return Status::OK();
    AxisMapCopy(data->dtype(), data->RawData(), data->shape().dims(), output->MutableRawData(),
                out_dims, maps, nullptr, context.thread_pool());
    return Status::OK();
  }

 private:
  std::vector<int64_t> axes_;
};

}  // namespace

void RegisterCenterCropPadKernels(KernelRegistry& registry) {
  registry.Add<CenterCropPad>(
      KernelDef("CenterCropPad").Versions(18).Input(0, AllDataTypes()).HostInput(1));
}

}  // namespace ort
