// Optional (opset 15), OptionalHasElement and OptionalGetElement (opsets 15 and 18). An optional
// holding a value is the value itself; an empty one is a NoneValue carrying its type. From opset
// 18 the latter two also accept plain tensors and sequences, and OptionalHasElement an omitted
// input (which has no element).
#include "providers/cpu/kernels/onnx/sequence/sequence_common.h"
#include "providers/cpu/kernels/onnx/sequence/sequence_kernels.h"

namespace ort {
namespace {

class Optional final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    if (const Attribute* attribute = info.node().FindAttribute("type")) {
      if (attribute->type != AttributeType::kTypeProto || attribute->type_protos.empty()) {
        return ORT_ERROR(kInvalidModel, "attribute 'type' must be a type")
            .WithNode(info.node().Describe());
      }
      type_ = attribute->type_protos[0];
    } else if (const ValueType* input_type = info.InputType(0)) {
      type_ = *input_type;
    }
    if (!info.node().HasInput(0) && type_.kind == ValueType::Kind::kUnknown) {
      return ORT_ERROR(kInvalidModel, "an empty optional needs the 'type' attribute")
          .WithNode(info.node().Describe());
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    if (const Value* value = context.InputValue(0)) return context.SetOutput(0, *value);
    return context.SetOutput(0, NoneValue{type_});
  }

 private:
  ValueType type_;
};

class OptionalHasElement final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    const Value* value = context.InputValue(0);
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, DataType::kBool, TensorShape{}));
    output->MutableData<bool>()[0] = value != nullptr && !value->IsNone() && !value->IsEmpty();
    return Status::OK();
  }
};

class OptionalGetElement final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    const Value* value = context.InputValue(0);
    if (value == nullptr) return context.Error("input 0 is missing");
    if (value->IsNone() || value->IsEmpty()) return context.Error("the optional is empty");
    return context.SetOutput(0, *value);
  }
};

}  // namespace

void RegisterOptionalKernels(KernelRegistry& registry) {
  registry.Add<Optional>(KernelDef("Optional").Versions(15));
  registry.Add<OptionalHasElement>(KernelDef("OptionalHasElement").Versions(15, 17));
  registry.Add<OptionalHasElement>(KernelDef("OptionalHasElement").Versions(18));
  registry.Add<OptionalGetElement>(KernelDef("OptionalGetElement").Versions(15, 17));
  registry.Add<OptionalGetElement>(KernelDef("OptionalGetElement").Versions(18));
}

}  // namespace ort
