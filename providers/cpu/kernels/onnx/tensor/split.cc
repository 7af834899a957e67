// Split: the split lengths come from the `split` attribute (opsets 1-12; opset 1 also as input
// 1), the `split` input (13+), `num_outputs` (18+), or default to equal parts.
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class Split final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    opset_ = info.opset();
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", 0));
    if (opset_ < 13) {
      has_split_attribute_ = info.HasAttribute("split");
      ORT_ASSIGN_OR_RETURN(split_attribute_,
                           info.GetAttributeOr<std::vector<int64_t>>("split", {}));
    }
    if (opset_ >= 18) {
      ORT_ASSIGN_OR_RETURN(num_outputs_, info.GetAttributeOr<int64_t>("num_outputs", 0));
      if (info.HasAttribute("num_outputs") && num_outputs_ <= 0) {
        return ORT_ERROR(kInvalidModel, "num_outputs must be positive")
            .WithNode(info.node().Describe());
      }
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    const size_t rank = data->shape().rank();
    auto normalized = NormalizeAxis(axis_, rank);
    if (!normalized.ok()) return context.Error("{}", normalized.status().message());
    const size_t axis = *normalized;
    const int64_t length = data->shape()[axis];
    const auto outputs = static_cast<int64_t>(context.OutputCount());

    std::vector<int64_t> split;
    bool has_split = has_split_attribute_;
    if (has_split) split = split_attribute_;
    if ((opset_ >= 13 || opset_ == 1) && context.HasInput(1)) {
      ORT_ASSIGN_OR_RETURN(const Tensor* tensor, context.RequiredInput(1));
      auto values = ReadInt64Values(*tensor);
      if (!values.ok()) return context.Error("split: {}", values.status().message());
      split = std::move(values).value();
      has_split = true;
    }
    if (has_split) {
      if (static_cast<int64_t>(split.size()) != outputs) {
        return context.Error("split has {} entries for {} outputs", split.size(), outputs);
      }
      int64_t sum = 0;
      for (int64_t s : split) {
        if (s < 0) return context.Error("split lengths must not be negative");
        sum += s;
      }
      if (sum != length) {
        return context.Error("split lengths sum to {} but axis {} has {}", sum, axis, length);
      }
    } else if (num_outputs_ > 0) {
      if (num_outputs_ != outputs) {
        return context.Error("num_outputs is {} but the node has {} outputs", num_outputs_,
                             outputs);
      }
      // Parts of ceil(length / n); the last one takes the remainder.
      const int64_t part = (length + outputs - 1) / outputs;
      int64_t left = length;
      for (int64_t i = 0; i < outputs; ++i) {
        split.push_back(std::min(part, left));
        left -= split.back();
      }
    } else {
      if (length % outputs != 0) {
        return context.Error("axis {} of length {} does not split into {} equal parts", axis,
                             length, outputs);
      }
      split.assign(static_cast<size_t>(outputs), length / outputs);
    }

    const std::vector<int64_t> in_strides = ContiguousStrides(data->shape());
    int64_t offset = 0;
    for (int64_t i = 0; i < outputs; ++i) {
      std::vector<int64_t> dims = data->shape().dims();
      dims[axis] = split[static_cast<size_t>(i)];
      ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(static_cast<size_t>(i), data->dtype(),
                                                           TensorShape(dims)));
      const std::vector<int64_t> out_strides = ContiguousStrides(output->shape());
      StridedCopy(data->dtype(), dims,
                  ElementAt(data->RawData(), data->dtype(), offset * in_strides[axis]), in_strides,
                  output->MutableRawData(), out_strides, context.thread_pool());
      offset += dims[axis];
    }
    return Status::OK();
  }

 private:
  int64_t opset_ = 0;
  int64_t axis_ = 0;
  bool has_split_attribute_ = false;
  std::vector<int64_t> split_attribute_;
  int64_t num_outputs_ = 0;
};

}  // namespace

void RegisterSplitKernels(KernelRegistry& registry) {
  registry.Add<Split>(KernelDef("Split").Versions(1).Input(0, AllDataTypes()).HostInput(1));
}

}  // namespace ort
