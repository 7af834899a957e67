#include "lib/framework/op_kernel.h"

#include "lib/framework/execution_provider.h"

namespace ort {
namespace {

Status WrongType(const Node& node, const Attribute& attribute, std::string_view expected) {
  return ORT_ERROR(kInvalidModel, "attribute '{}' is {}, expected {}", attribute.name,
                   AttributeTypeName(attribute.type), expected)
      .WithNode(node.Describe());
}

}  // namespace

std::shared_ptr<IAllocator> KernelInfo::allocator() const { return provider_.allocator(); }

#define ORT_ATTRIBUTE_GETTER(cpp_type, attr_type, member, label)                     \
  template <>                                                                        \
  Result<cpp_type> KernelInfo::GetAttribute<cpp_type>(std::string_view name) const { \
    const Attribute* attribute = node_.FindAttribute(name);                          \
    if (attribute == nullptr) {                                                      \
      return ORT_ERROR(kInvalidModel, "required attribute '{}' is missing", name)    \
          .WithNode(node_.Describe());                                               \
    }                                                                                \
    if (attribute->type != AttributeType::attr_type) {                               \
      return WrongType(node_, *attribute, label);                                    \
    }                                                                                \
    return cpp_type(attribute->member);                                              \
  }

ORT_ATTRIBUTE_GETTER(int64_t, kInt, i, "int")
ORT_ATTRIBUTE_GETTER(float, kFloat, f, "float")
ORT_ATTRIBUTE_GETTER(std::string, kString, s, "string")
ORT_ATTRIBUTE_GETTER(std::vector<int64_t>, kInts, ints, "ints")
ORT_ATTRIBUTE_GETTER(std::vector<float>, kFloats, floats, "floats")
ORT_ATTRIBUTE_GETTER(std::vector<std::string>, kStrings, strings, "strings")
#undef ORT_ATTRIBUTE_GETTER

template <>
Result<Tensor> KernelInfo::GetAttribute<Tensor>(std::string_view name) const {
  const Attribute* attribute = node_.FindAttribute(name);
  if (attribute == nullptr) {
    return ORT_ERROR(kInvalidModel, "required attribute '{}' is missing", name)
        .WithNode(node_.Describe());
  }
  if (attribute->type != AttributeType::kTensor &&
      attribute->type != AttributeType::kSparseTensor) {
    return WrongType(node_, *attribute, "tensor");
  }
  return attribute->t;
}

const Tensor* KernelInfo::ConstantInput(size_t index) const {
  if (!node_.HasInput(index)) return nullptr;
  return node_.graph().GetConstantInitializer(node_.inputs()[index], /*search_outer_scope=*/true);
}

const ValueType* KernelInfo::InputType(size_t index) const {
  if (!node_.HasInput(index)) return nullptr;
  return node_.graph().FindTypeInScope(node_.inputs()[index]);
}

const ValueType* KernelInfo::OutputType(size_t index) const {
  if (!node_.HasOutput(index)) return nullptr;
  return node_.graph().FindTypeInScope(node_.outputs()[index]);
}

const SubgraphRunner* KernelInfo::Subgraph(std::string_view attribute) const {
  return subgraphs_ == nullptr ? nullptr : subgraphs_->Find(node_, attribute);
}

const Tensor* KernelContext::Input(size_t index) const {
  const Value* value = InputValue(index);
  return value != nullptr && value->IsTensor() ? &value->tensor() : nullptr;
}

Result<const Tensor*> KernelContext::RequiredInput(size_t index) const {
  const Value* value = InputValue(index);
  if (value == nullptr) {
    return ORT_ERROR(kInvalidArgument, "required input {} is missing", index)
        .WithNode(node_.Describe());
  }
  if (!value->IsTensor()) {
    return ORT_ERROR(kInvalidArgument, "input {} ('{}') is {}, expected a tensor", index,
                     node_.inputs()[index], value->Describe())
        .WithNode(node_.Describe());
  }
  return &value->tensor();
}

Result<Tensor*> KernelContext::Output(size_t index, DataType type, TensorShape shape) {
  if (index >= outputs_.size()) {
    return ORT_ERROR(kInvalidModel, "output {} does not exist (the node has {})", index,
                     outputs_.size())
        .WithNode(node_.Describe());
  }
  ORT_RETURN_IF_ERROR(CheckedBytes(static_cast<int64_t>(index), type, shape).status());
  if (planned_ != nullptr) {
    Tensor placed = planned_->Allocate(index, type, shape);
    if (placed.IsDefined()) {
      *outputs_[index] = std::move(placed);
      return &outputs_[index]->mutable_tensor();
    }
  }
  const auto& allocator =
      index < output_allocators_.size() ? output_allocators_[index] : allocator_;
  auto tensor = Tensor::Allocate(type, std::move(shape), allocator);
  if (!tensor.ok()) return tensor.status().WithNode(node_.Describe());
  *outputs_[index] = std::move(tensor).value();
  return &outputs_[index]->mutable_tensor();
}

Status KernelContext::SetOutput(size_t index, Value value) {
  if (index >= outputs_.size()) {
    return ORT_ERROR(kInvalidModel, "output {} does not exist (the node has {})", index,
                     outputs_.size())
        .WithNode(node_.Describe());
  }
  *outputs_[index] = std::move(value);
  return Status::OK();
}

Result<Tensor> KernelContext::AllocateTemp(DataType type, TensorShape shape) const {
  ORT_RETURN_IF_ERROR(CheckedBytes(-1, type, shape).status());
  auto tensor = Tensor::Allocate(type, std::move(shape), allocator_);
  if (!tensor.ok()) return tensor.status().WithNode(node_.Describe());
  return tensor;
}

Result<size_t> KernelContext::CheckedBytes(int64_t output, DataType type,
                                           const TensorShape& shape) const {
  // Named only on failure: this runs for every output of every node.
  const auto what = [&] {
    if (output < 0) return std::string("a scratch tensor");
    const auto index = static_cast<size_t>(output);
    return index < node_.outputs().size() ? fmt::format("output '{}'", node_.outputs()[index])
                                          : fmt::format("output {}", index);
  };
  auto bytes = TensorBytes(type, shape);
  if (!bytes.ok()) return Error("{}: {}", what(), bytes.status().message());
  if (*bytes > run_.max_tensor_bytes) {
    return Error("{} ({}{}) would need {}, above the max-tensor-bytes limit of {}", what(),
                 DataTypeName(type), shape.ToString(), FormatBytes(*bytes),
                 FormatBytes(run_.max_tensor_bytes));
  }
  return bytes;
}

}  // namespace ort
