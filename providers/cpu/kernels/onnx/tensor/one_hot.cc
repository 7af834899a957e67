// OneHot: inserts an axis of length `depth` holding on_value at each index and off_value
// elsewhere. Negative indices count from depth; indices outside [-depth, depth) give all off.
#include <cmath>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

// Reads a numeric tensor as int64 (floating values are truncated, as a cast would).
Result<std::vector<int64_t>> ReadAsInt64(const Tensor& tensor) {
  std::vector<int64_t> result(static_cast<size_t>(tensor.NumElements()));
  Status status = DispatchByType<NumericTypes>(tensor.dtype(), "OneHot", [&]<typename T>() {
    const T* values = tensor.Data<T>();
    for (size_t i = 0; i < result.size(); ++i) {
      if constexpr (std::is_integral_v<ComputeType<T>>) {
        result[i] = static_cast<int64_t>(values[i]);
      } else {
        const double value = static_cast<double>(static_cast<ComputeType<T>>(values[i]));
        if (!std::isfinite(value) || std::fabs(value) >= 9.2e18) {
          return ORT_ERROR(kInvalidArgument, "value {} is not a valid index", value);
        }
        result[i] = static_cast<int64_t>(value);
      }
    }
    return Status::OK();
  });
  if (!status.ok()) return status;
  return result;
}

class OneHot final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", -1));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* indices, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* depth_tensor, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* values, context.RequiredInput(2));
    auto depth_values = ReadAsInt64(*depth_tensor);
    if (!depth_values.ok() || depth_values->size() != 1) {
      return context.Error("depth must be one number");
    }
    const int64_t depth = depth_values->front();
    if (depth <= 0) return context.Error("depth must be positive, got {}", depth);
    if (values->NumElements() != 2) {
      return context.Error("values must hold [off_value, on_value], got {}", values->Describe());
    }
    auto index_values = ReadAsInt64(*indices);
    if (!index_values.ok()) return context.Error("indices: {}", index_values.status().message());
    const size_t out_rank = indices->shape().rank() + 1;
    auto normalized = NormalizeAxis(axis_, out_rank);
    if (!normalized.ok()) return context.Error("{}", normalized.status().message());
    const size_t axis = *normalized;
    std::vector<int64_t> out_dims = indices->shape().dims();
    out_dims.insert(out_dims.begin() + static_cast<ptrdiff_t>(axis), depth);
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, values->dtype(), TensorShape(std::move(out_dims))));
    const int64_t prefix = indices->shape().SizeToDimension(axis);
    const int64_t suffix = indices->shape().SizeFromDimension(axis);
    return DispatchByElementSize(values->dtype(), "OneHot", [&]<typename T>() {
      const T* pair = static_cast<const T*>(values->RawData());
      T* out = static_cast<T*>(output->MutableRawData());
      std::fill_n(out, output->NumElements(), pair[0]);
      for (int64_t p = 0; p < prefix; ++p) {
        for (int64_t s = 0; s < suffix; ++s) {
          int64_t index = (*index_values)[static_cast<size_t>(p * suffix + s)];
          if (index < -depth || index >= depth) continue;
          if (index < 0) index += depth;
          out[(p * depth + index) * suffix + s] = pair[1];
        }
      }
      return Status::OK();
    });
  }

 private:
  int64_t axis_ = -1;
};

}  // namespace

void RegisterOneHotKernels(KernelRegistry& registry) {
  registry.Add<OneHot>(KernelDef("OneHot")
                           .Versions(9)
                           .Input(0, NumericTypes::DataTypes())
                           .Input(1, NumericTypes::DataTypes())
                           .Input(2, AllDataTypes())
                           .HostInput(1));
}

}  // namespace ort
