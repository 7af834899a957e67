// EyeLike: a 2-D tensor shaped like the input with ones on diagonal k and zeros elsewhere, of
// the `dtype` attribute's type (the input's when absent).
#include <algorithm>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/generator/generator_kernels.h"

namespace ort {
namespace {

using EyeTypes = TypeList<float, double, Float16, int8_t, int16_t, int32_t, int64_t, uint8_t,
                          uint16_t, uint32_t, uint64_t, bool>;

class EyeLike final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(k_, info.GetAttributeOr<int64_t>("k", 0));
    if (info.HasAttribute("dtype")) {
      ORT_ASSIGN_OR_RETURN(const int64_t dtype, info.GetAttribute<int64_t>("dtype"));
      if (!IsKnownDataType(static_cast<int32_t>(dtype))) {
        return ORT_ERROR(kInvalidModel, "unknown dtype {}", dtype).WithNode(info.node().Describe());
      }
      dtype_ = static_cast<DataType>(dtype);
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
    if (input->shape().rank() != 2) {
      return context.Error("input must be 2-D, got {}", input->Describe());
    }
    const DataType type = dtype_ == DataType::kUndefined ? input->dtype() : dtype_;
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, type, input->shape()));
    const int64_t rows = input->shape()[0];
    const int64_t columns = input->shape()[1];
    // Diagonals outside the matrix are empty; bounding k keeps the arithmetic below exact.
    const int64_t k = std::clamp<int64_t>(k_, -rows - 1, columns + 1);
    return DispatchByType<EyeTypes>(type, "EyeLike", [&]<typename T>() {
      T* out = output->MutableData<T>();
      std::fill_n(out, output->NumElements(), T(ComputeType<T>(0)));
      // Rows whose diagonal element j = i + k lies inside the matrix.
      const int64_t first = std::clamp<int64_t>(-k, 0, rows);
      const int64_t last = std::clamp<int64_t>(columns - k, 0, rows);
      for (int64_t i = first; i < last; ++i) out[i * columns + i + k] = T(ComputeType<T>(1));
      return Status::OK();
    });
  }

 private:
  int64_t k_ = 0;
  DataType dtype_ = DataType::kUndefined;
};

}  // namespace

void RegisterEyeLikeKernels(KernelRegistry& registry) {
  registry.Add<EyeLike>(KernelDef("EyeLike").Versions(9).Input(0, EyeTypes::DataTypes()));
}

}  // namespace ort
