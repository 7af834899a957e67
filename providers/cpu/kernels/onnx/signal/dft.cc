// DFT (opset 17+; opset 20 moved axis to an optional input, default -2): the discrete Fourier
// transform along `axis` of a real ([..., 1]) or complex ([..., 2]) signal whose first axis is the
// batch. The optional dft_length input zero-pads or truncates the signal; onesided keeps the first
// floor(n/2)+1 bins; inverse computes the scaled inverse transform. Output is complex [..., 2].
#include <cmath>
#include <complex>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/signal/fft.h"
#include "providers/cpu/kernels/onnx/signal/signal_kernels.h"
#include "providers/cpu/kernels/onnx/signal/signal_utils.h"

namespace ort {
namespace {

using SignalTypes = FloatTypes;

class Dft final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    axis_from_input_ = info.opset() >= 20;
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", axis_from_input_ ? -2 : 1));
    ORT_ASSIGN_OR_RETURN(int64_t inverse, info.GetAttributeOr<int64_t>("inverse", 0));
    ORT_ASSIGN_OR_RETURN(int64_t onesided, info.GetAttributeOr<int64_t>("onesided", 0));
    inverse_ = inverse != 0;
    onesided_ = onesided != 0;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
    return DispatchByType<SignalTypes>(
        input->dtype(), "DFT", [&]<typename T>() { return ComputeTyped<T>(context, *input); });
  }

 private:
  template <typename T>
  Status ComputeTyped(KernelContext& context, const Tensor& input) const {
    const TensorShape& shape = input.shape();
    const size_t rank = shape.rank();
    if (rank < 3 || (shape[rank - 1] != 1 && shape[rank - 1] != 2)) {
      return context.Error("input must be [batch, signal..., 1 or 2], got {}", shape.ToString());
    }
    int64_t requested = axis_;
    if (axis_from_input_ && context.Input(2) != nullptr) {
      ORT_ASSIGN_OR_RETURN(requested, ReadScalarInteger(context, *context.Input(2), "axis"));
    }
    const int64_t axis = requested < 0 ? requested + static_cast<int64_t>(rank) : requested;
    if (axis < 0 || axis > static_cast<int64_t>(rank) - 2) {
      return context.Error("axis {} is out of range for input rank {}", requested, rank);
    }
    const int64_t components = shape[rank - 1];
    const int64_t available = shape[axis];
    int64_t n = available;
    if (const Tensor* length = context.Input(1)) {
      ORT_ASSIGN_OR_RETURN(n, ReadScalarInteger(context, *length, "dft_length"));
      if (n <= 0) return context.Error("dft_length must be positive, got {}", n);
    }
    const int64_t bins = onesided_ ? n / 2 + 1 : n;
    std::vector<int64_t> dims = shape.dims();
    dims[axis] = bins;
    dims[rank - 1] = 2;
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, input.dtype(), TensorShape(dims)));
    if (output->NumElements() == 0 || n == 0) return Status::OK();

    const int64_t outer = shape.SizeToDimension(axis);
    const int64_t inner = shape.SizeFromDimension(axis + 1) / components;
    const int64_t used = std::min(n, available);
    const FftPlan plan(n, inverse_);
    const T* in = input.Data<T>();
    T* out = output->MutableData<T>();
    using C = ComputeType<T>;
    const double cost = 10.0 * static_cast<double>(n) * std::log2(static_cast<double>(n) + 1);
    ThreadPool::TryParallelFor(
        context.thread_pool(), outer * inner, cost, [&](int64_t begin, int64_t end) {
          std::vector<std::complex<double>> line(static_cast<size_t>(n));
          std::vector<std::complex<double>> scratch(plan.ScratchSize());
          for (int64_t index = begin; index < end; ++index) {
            const int64_t o = index / inner;
            const int64_t i = index % inner;
            for (int64_t j = 0; j < used; ++j) {
              const T* value = in + ((o * available + j) * inner + i) * components;
              const double real = static_cast<double>(static_cast<C>(value[0]));
              const double imag =
                  components == 2 ? static_cast<double>(static_cast<C>(value[1])) : 0;
              line[j] = {real, imag};
            }
            for (int64_t j = used; j < n; ++j) line[j] = {0.0, 0.0};
            plan.Transform(line.data(), scratch.data());
            for (int64_t k = 0; k < bins; ++k) {
              T* result = out + ((o * bins + k) * inner + i) * 2;
              result[0] = static_cast<T>(static_cast<C>(line[k].real()));
              result[1] = static_cast<T>(static_cast<C>(line[k].imag()));
            }
          }
        });
    return Status::OK();
  }

  int64_t axis_ = 1;
  bool inverse_ = false;
  bool onesided_ = false;
  bool axis_from_input_ = false;
};

}  // namespace

void RegisterDftKernels(KernelRegistry& registry) {
  registry.Add<Dft>(KernelDef("DFT")
                        .Versions(17, 19)
                        .Input(0, SignalTypes::DataTypes())
                        .Input(1, {DataType::kInt32, DataType::kInt64}));
  registry.Add<Dft>(KernelDef("DFT")
                        .Versions(20)
                        .Input(0, SignalTypes::DataTypes())
                        .Input(1, {DataType::kInt32, DataType::kInt64})
                        .HostInput(2));
}

}  // namespace ort
