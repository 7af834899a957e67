// The basic sequence ops (opset 11): SequenceEmpty, SequenceConstruct, SequenceAt,
// SequenceInsert, SequenceErase, SequenceLength. Tensors are immutable, so sequences share their
// elements' buffers instead of copying them.
#include "providers/cpu/kernels/onnx/sequence/sequence_common.h"
#include "providers/cpu/kernels/onnx/sequence/sequence_kernels.h"

namespace ort {
namespace {

class SequenceEmpty final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(int64_t dtype, info.GetAttributeOr<int64_t>(
                                            "dtype", static_cast<int64_t>(DataType::kFloat)));
    if (!IsKnownDataType(static_cast<int32_t>(dtype))) {
      return ORT_ERROR(kInvalidModel, "unsupported dtype {}", dtype)
          .WithNode(info.node().Describe());
    }
    type_ = static_cast<DataType>(dtype);
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    return context.SetOutput(0, TensorSequence{type_, {}});
  }

 private:
  DataType type_ = DataType::kFloat;
};

class SequenceConstruct final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    TensorSequence sequence;
    for (size_t i = 0; i < context.InputCount(); ++i) {
      ORT_ASSIGN_OR_RETURN(const Tensor* tensor, context.RequiredInput(i));
      if (i == 0) sequence.elem_type = tensor->dtype();
      if (tensor->dtype() != sequence.elem_type) {
        return context.Error("input {} is {} but the sequence holds {}", i, tensor->Describe(),
                             DataTypeName(sequence.elem_type));
      }
      sequence.tensors.push_back(*tensor);
    }
    if (sequence.tensors.empty()) return context.Error("needs at least one input");
    return context.SetOutput(0, std::move(sequence));
  }
};

class SequenceAt final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const TensorSequence* sequence, RequiredSequence(context, 0));
    ORT_ASSIGN_OR_RETURN(const Tensor* position, context.RequiredInput(1));
    const auto size = static_cast<int64_t>(sequence->tensors.size());
    ORT_ASSIGN_OR_RETURN(int64_t index, ReadPosition(context, *position, size, size - 1));
    return context.SetOutput(0, sequence->tensors[static_cast<size_t>(index)]);
  }
};

class SequenceInsert final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const TensorSequence* sequence, RequiredSequence(context, 0));
    ORT_ASSIGN_OR_RETURN(const Tensor* tensor, context.RequiredInput(1));
    const auto size = static_cast<int64_t>(sequence->tensors.size());
    int64_t index = size;
    if (const Tensor* position = context.Input(2)) {
      ORT_ASSIGN_OR_RETURN(index, ReadPosition(context, *position, size, size));
    }
    TensorSequence result = *sequence;
    if (result.elem_type == DataType::kUndefined) result.elem_type = tensor->dtype();
    if (tensor->dtype() != result.elem_type) {
      return context.Error("cannot insert {} into a sequence of {}", tensor->Describe(),
                           DataTypeName(result.elem_type));
    }
    result.tensors.insert(result.tensors.begin() + index, *tensor);
    return context.SetOutput(0, std::move(result));
  }
};

class SequenceErase final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const TensorSequence* sequence, RequiredSequence(context, 0));
    const auto size = static_cast<int64_t>(sequence->tensors.size());
    if (size == 0) return context.Error("cannot erase from an empty sequence");
    int64_t index = size - 1;
    if (const Tensor* position = context.Input(1)) {
      ORT_ASSIGN_OR_RETURN(index, ReadPosition(context, *position, size, size - 1));
    }
    TensorSequence result = *sequence;
    result.tensors.erase(result.tensors.begin() + index);
    return context.SetOutput(0, std::move(result));
  }
};

class SequenceLength final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const TensorSequence* sequence, RequiredSequence(context, 0));
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, DataType::kInt64, TensorShape{}));
    output->MutableData<int64_t>()[0] = static_cast<int64_t>(sequence->tensors.size());
    return Status::OK();
  }
};

}  // namespace

void RegisterSequenceOpKernels(KernelRegistry& registry) {
  const std::vector<DataType> positions = {DataType::kInt32, DataType::kInt64};
  registry.Add<SequenceEmpty>(KernelDef("SequenceEmpty").Versions(11));
  registry.Add<SequenceConstruct>(
      KernelDef("SequenceConstruct").Versions(11).Input(0, SequenceElementTypes()));
  registry.Add<SequenceAt>(KernelDef("SequenceAt").Versions(11).Input(1, positions));
  registry.Add<SequenceInsert>(KernelDef("SequenceInsert")
                                   .Versions(11)
                                   .Input(1, SequenceElementTypes())
                                   .Input(2, positions));
  registry.Add<SequenceErase>(KernelDef("SequenceErase").Versions(11).Input(1, positions));
  registry.Add<SequenceLength>(KernelDef("SequenceLength").Versions(11));
}

}  // namespace ort
