// Reshape and Flatten: metadata-only ops whose output is a view sharing the input buffer.
#include <fmt/ranges.h>

#include "lib/ir/tensor.h"
#include "providers/common/tensor/view_kernels.h"

namespace ort {
namespace {

class Reshape final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    // Opsets 1-4 carry the target shape as an attribute; later ones as input 1.
    shape_from_attribute_ = info.opset() < 5;
    if (shape_from_attribute_) {
      ORT_ASSIGN_OR_RETURN(shape_attribute_, info.GetAttribute<std::vector<int64_t>>("shape"));
    }
    ORT_ASSIGN_OR_RETURN(const int64_t allow_zero, info.GetAttributeOr<int64_t>("allowzero", 0));
    allow_zero_ = allow_zero != 0;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    std::vector<int64_t> requested = shape_attribute_;
    if (!shape_from_attribute_) {
      ORT_ASSIGN_OR_RETURN(const Tensor* shape, context.RequiredInput(1));
      if (shape->shape().rank() != 1) {
        return context.Error("shape must be 1-D, got {}", shape->Describe());
      }
      auto values = ReadInt64Values(*shape);
      if (!values.ok()) return context.Error("shape: {}", values.status().message());
      requested = std::move(values).value();
    }
    const auto& in_dims = data->shape().dims();
    std::vector<int64_t> dims(requested.size());
    int64_t inferred = -1;
    int64_t known = 1;
    for (size_t i = 0; i < requested.size(); ++i) {
      int64_t d = requested[i];
      if (d == 0 && !allow_zero_) {
        if (i >= in_dims.size()) {
          return context.Error("shape[{}] is 0 but the input {} has no dimension {}", i,
                               data->Describe(), i);
        }
        d = in_dims[i];
      } else if (d == -1) {
        if (inferred >= 0) return context.Error("shape has more than one -1");
        inferred = static_cast<int64_t>(i);
        continue;
      } else if (d < -1) {
        return context.Error("shape[{}] = {} is invalid", i, d);
      }
      dims[i] = d;
      const auto product = CheckedMul(known, d);
      if (!product) {
        return context.Error(
            "shape [{}] has too many elements (its dimensions multiply past int64)",
            fmt::join(requested, ","));
      }
      known = *product;
    }
    const int64_t total = data->NumElements();
    if (inferred >= 0) {
      if (known == 0 || total % known != 0) {
        return context.Error("cannot infer the -1 dimension reshaping {} to [{}]", data->Describe(),
                             fmt::join(requested, ","));
      }
      dims[static_cast<size_t>(inferred)] = total / known;
    } else if (known != total) {
      return context.Error("cannot reshape {} to [{}]", data->Describe(),
                           fmt::join(requested, ","));
    }
    ORT_ASSIGN_OR_RETURN(Tensor view, data->Reshaped(TensorShape(std::move(dims))));
    return context.SetOutput(0, std::move(view));
  }

 private:
  bool shape_from_attribute_ = false;
  std::vector<int64_t> shape_attribute_;
  bool allow_zero_ = false;
};

class Flatten final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", 1));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    const auto rank = static_cast<int64_t>(data->shape().rank());
    const int64_t axis = axis_ < 0 ? axis_ + rank : axis_;
    if (axis < 0 || axis > rank) {
      return context.Error("axis {} is out of range for {}", axis_, data->Describe());
    }
    const auto split = static_cast<size_t>(axis);
    TensorShape shape{data->shape().SizeToDimension(split), data->shape().SizeFromDimension(split)};
    ORT_ASSIGN_OR_RETURN(Tensor view, data->Reshaped(std::move(shape)));
    return context.SetOutput(0, std::move(view));
  }

 private:
  int64_t axis_ = 1;
};

}  // namespace

void RegisterReshapeKernels(KernelRegistry& registry, const std::vector<DataType>& types) {
  registry.Add<Reshape>(KernelDef("Reshape").Versions(1).Input(0, types).HostInput(1).Alias(0, 0));
  registry.Add<Flatten>(KernelDef("Flatten").Versions(1).Input(0, types).Alias(0, 0));
}

}  // namespace ort
