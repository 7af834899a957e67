// HannWindow, HammingWindow, BlackmanWindow (opset 17): generalized cosine windows
//   w[n] = a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N),  n in [0, size)
// with N = size when periodic (the default) and size - 1 when symmetric, in the element type
// output_datatype names.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <type_traits>

#include "providers/cpu/kernels/onnx/signal/signal_kernels.h"
#include "providers/cpu/kernels/onnx/signal/signal_utils.h"

namespace ort {
namespace {

struct CosineCoefficients {
  double a0;
  double a1;
  double a2;
};

using WindowOutputTypes = NumericTypes;

constexpr CosineCoefficients kHann{0.5, 0.5, 0.0};
constexpr CosineCoefficients kHamming{25.0 / 46.0, 21.0 / 46.0, 0.0};
constexpr CosineCoefficients kBlackman{0.42, 0.5, 0.08};

template <const CosineCoefficients& kCoefficients>
class CosineWindow final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(int64_t periodic, info.GetAttributeOr<int64_t>("periodic", 1));
    periodic_ = periodic != 0;
    ORT_ASSIGN_OR_RETURN(
        int64_t type,
        info.GetAttributeOr<int64_t>("output_datatype", static_cast<int64_t>(DataType::kFloat)));
    const auto allowed = WindowOutputTypes::DataTypes();
    if (std::find(allowed.begin(), allowed.end(), static_cast<DataType>(type)) == allowed.end()) {
      return ORT_ERROR(kInvalidModel, "unsupported output_datatype {}", type)
          .WithNode(info.node().Describe());
    }
    output_type_ = static_cast<DataType>(type);
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* size_tensor, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(int64_t size, ReadScalarInteger(context, *size_tensor, "size"));
    if (size < 0) return context.Error("size must not be negative, got {}", size);
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, output_type_, TensorShape{size}));
    const int64_t period = periodic_ ? size : size - 1;
    return DispatchByType<WindowOutputTypes>(output_type_, "window", [&]<typename T>() {
      T* out = output->MutableData<T>();
      for (int64_t n = 0; n < size; ++n) {
        // A one-point symmetric window has no period; it is the window's peak, 1.
        double value = 1.0;
        if (period > 0) {
          const double phase =
              2.0 * std::numbers::pi * static_cast<double>(n) / static_cast<double>(period);
          value = kCoefficients.a0 - kCoefficients.a1 * std::cos(phase) +
                  kCoefficients.a2 * std::cos(2.0 * phase);
        }
        if constexpr (std::is_integral_v<T> || std::is_same_v<T, double>) {
          out[n] = static_cast<T>(value);
        } else {
          out[n] = static_cast<T>(static_cast<float>(value));
        }
      }
      return Status::OK();
    });
  }

 private:
  bool periodic_ = true;
  DataType output_type_ = DataType::kFloat;
};

}  // namespace

void RegisterWindowKernels(KernelRegistry& registry) {
  const std::vector<DataType> sizes = {DataType::kInt32, DataType::kInt64};
  registry.Add<CosineWindow<kHann>>(KernelDef("HannWindow").Versions(17).Input(0, sizes));
  registry.Add<CosineWindow<kHamming>>(KernelDef("HammingWindow").Versions(17).Input(0, sizes));
  registry.Add<CosineWindow<kBlackman>>(KernelDef("BlackmanWindow").Versions(17).Input(0, sizes));
}

}  // namespace ort
