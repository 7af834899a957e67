// NonZero: the coordinates of the non-zero elements, one row per axis, in row-major order. A
// scalar is treated as a 1-element vector, as numpy does.
#include <complex>

#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

template <typename T>
bool IsNonZero(const T& value) {
  if constexpr (std::is_same_v<T, std::string>) {
    return !value.empty();
  } else if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
    return static_cast<float>(value) != 0.0f;
  } else {
    return value != T{};
  }
}

class NonZero final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    std::vector<int64_t> flat;
    const int64_t count = data->NumElements();
    const auto collect = [&]<typename T>(const T* values) {
      for (int64_t i = 0; i < count; ++i) {
        if (IsNonZero(values[i])) flat.push_back(i);
      }
      return Status::OK();
    };
    if (data->dtype() == DataType::kComplex64) {
      ORT_RETURN_IF_ERROR(collect(static_cast<const std::complex<float>*>(data->RawData())));
    } else if (data->dtype() == DataType::kComplex128) {
      ORT_RETURN_IF_ERROR(collect(static_cast<const std::complex<double>*>(data->RawData())));
    } else {
      ORT_RETURN_IF_ERROR(DispatchByType<AllTensorTypes>(
          data->dtype(), "NonZero", [&]<typename T>() { return collect(data->Data<T>()); }));
    }
    std::vector<int64_t> dims = data->shape().dims();
    if (dims.empty()) dims = {1};
    const auto rank = static_cast<int64_t>(dims.size());
    const auto found = static_cast<int64_t>(flat.size());
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, DataType::kInt64, TensorShape{rank, found}));
    int64_t* out = output->MutableData<int64_t>();
    for (int64_t j = 0; j < found; ++j) {
      int64_t remainder = flat[static_cast<size_t>(j)];
      for (int64_t d = rank; d-- > 0;) {
        out[d * found + j] = remainder % dims[static_cast<size_t>(d)];
        remainder /= dims[static_cast<size_t>(d)];
      }
    }
    return Status::OK();
  }
};

}  // namespace

void RegisterNonZeroKernels(KernelRegistry& registry) {
  registry.Add<NonZero>(KernelDef("NonZero").Versions(9).Input(0, AllDataTypes()));
}

}  // namespace ort
