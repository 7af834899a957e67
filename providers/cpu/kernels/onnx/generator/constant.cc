// Constant (every value_* attribute; sparse_value arrives densified from the loader) and
// ConstantOfShape. Constant's tensor is built once in Init and handed out as a shared view.
#include <algorithm>

#include "providers/cpu/kernels/onnx/generator/generator_kernels.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"

namespace ort {
namespace {

class Constant final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    const Node& node = info.node();
    if (node.attributes().size() != 1) {
      return ORT_ERROR(kInvalidModel, "needs exactly one value attribute, got {}",
                       node.attributes().size())
          .WithNode(node.Describe());
    }
    const std::string& name = node.attributes().begin()->first;
    if (name == "value" || name == "sparse_value") {
      ORT_ASSIGN_OR_RETURN(value_, info.GetAttribute<Tensor>(name));
    } else if (name == "value_float") {
      ORT_ASSIGN_OR_RETURN(const float v, info.GetAttribute<float>(name));
      value_ = Tensor::Scalar<float>(v);
    } else if (name == "value_floats") {
      ORT_ASSIGN_OR_RETURN(const std::vector<float> v, info.GetAttribute<std::vector<float>>(name));
      value_ = Tensor::FromVector<float>(TensorShape{static_cast<int64_t>(v.size())}, v);
    } else if (name == "value_int") {
      ORT_ASSIGN_OR_RETURN(const int64_t v, info.GetAttribute<int64_t>(name));
      value_ = Tensor::Scalar<int64_t>(v);
    } else if (name == "value_ints") {
      ORT_ASSIGN_OR_RETURN(const std::vector<int64_t> v,
                           info.GetAttribute<std::vector<int64_t>>(name));
      value_ = Tensor::FromVector<int64_t>(TensorShape{static_cast<int64_t>(v.size())}, v);
    } else if (name == "value_string") {
      ORT_ASSIGN_OR_RETURN(const std::string v, info.GetAttribute<std::string>(name));
      value_ = Tensor::Scalar<std::string>(v);
    } else if (name == "value_strings") {
      ORT_ASSIGN_OR_RETURN(const std::vector<std::string> v,
                           info.GetAttribute<std::vector<std::string>>(name));
      value_ = Tensor::FromVector<std::string>(TensorShape{static_cast<int64_t>(v.size())}, v);
    } else {
      return ORT_ERROR(kInvalidModel, "unknown attribute '{}'", name).WithNode(node.Describe());
    }
    if (!value_.IsDefined()) {
      return ORT_ERROR(kInvalidModel, "attribute '{}' holds no tensor", name)
          .WithNode(node.Describe());
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override { return context.SetOutput(0, value_); }

 private:
  Tensor value_;
};

class ConstantOfShape final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    if (info.HasAttribute("value")) {
      ORT_ASSIGN_OR_RETURN(value_, info.GetAttribute<Tensor>("value"));
      if (value_.NumElements() != 1 || value_.dtype() == DataType::kString) {
        return ORT_ERROR(kInvalidModel, "value must be one non-string element, got {}",
                         value_.Describe())
            .WithNode(info.node().Describe());
      }
    } else {
      value_ = Tensor::Scalar<float>(0.0f);
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* shape, context.RequiredInput(0));
    if (shape->shape().rank() != 1) {
      return context.Error("shape must be 1-D, got {}", shape->Describe());
    }
    auto dims = ReadInt64Values(*shape);
    if (!dims.ok()) return context.Error("shape: {}", dims.status().message());
    for (int64_t d : *dims) {
      if (d < 0) return context.Error("shape has a negative dimension {}", d);
    }
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, value_.dtype(), TensorShape(std::move(dims).value())));
    if (IsFourBit(value_.dtype())) {
      const uint8_t nibble = *static_cast<const uint8_t*>(value_.RawData()) & 0x0F;
      auto* bytes = static_cast<uint8_t*>(output->MutableRawData());
      std::fill_n(bytes, output->SizeInBytes(), static_cast<uint8_t>(nibble | (nibble << 4)));
      if (output->NumElements() % 2 == 1) bytes[output->SizeInBytes() - 1] = nibble;
      return Status::OK();
    }
    return DispatchByElementSize(value_.dtype(), "ConstantOfShape", [&]<typename T>() {
      const T value = *static_cast<const T*>(value_.RawData());
      T* out = static_cast<T*>(output->MutableRawData());
      ThreadPool::TryParallelFor(
          context.thread_pool(), output->NumElements(), 0.5,
          [&](int64_t begin, int64_t end) { std::fill(out + begin, out + end, value); });
      return Status::OK();
    });
  }

 private:
  Tensor value_;
};

}  // namespace

void RegisterConstantKernels(KernelRegistry& registry) {
  registry.Add<Constant>(KernelDef("Constant").Versions(1));
  registry.Add<ConstantOfShape>(
      KernelDef("ConstantOfShape").Versions(9).Input(0, {DataType::kInt64}).HostInput(0));
}

}  // namespace ort
