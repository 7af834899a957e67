// STFT (opset 17): frames of frame_length samples taken every frame_step samples from a real
// ([batch, length, 1]) or complex ([batch, length, 2]) signal, each multiplied by the optional
// window and Fourier transformed. Output [batch, frames, bins, 2] with bins = frame_length / 2 + 1
// when onesided (the default), frame_length otherwise.
#include <cmath>
#include <complex>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/signal/fft.h"
#include "providers/cpu/kernels/onnx/signal/signal_kernels.h"
#include "providers/cpu/kernels/onnx/signal/signal_utils.h"

namespace ort {
namespace {

using SignalTypes = FloatTypes;

class Stft final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(int64_t onesided, info.GetAttributeOr<int64_t>("onesided", 1));
    onesided_ = onesided != 0;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* signal, context.RequiredInput(0));
    return DispatchByType<SignalTypes>(
        signal->dtype(), "STFT", [&]<typename T>() { return ComputeTyped<T>(context, *signal); });
  }

 private:
  template <typename T>
  Status ComputeTyped(KernelContext& context, const Tensor& signal) const {
    using C = ComputeType<T>;
    const TensorShape& shape = signal.shape();
    if (shape.rank() != 3 || (shape[2] != 1 && shape[2] != 2)) {
      return context.Error("signal must be [batch, length, 1 or 2], got {}", shape.ToString());
    }
    const int64_t batch = shape[0], length = shape[1], components = shape[2];
    ORT_ASSIGN_OR_RETURN(const Tensor* step_tensor, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(int64_t step, ReadScalarInteger(context, *step_tensor, "frame_step"));
    if (step <= 0) return context.Error("frame_step must be positive, got {}", step);

    const Tensor* window = context.Input(2);
    int64_t frame_length = -1;
    if (window != nullptr) {
      if (window->shape().rank() != 1 || window->dtype() != signal.dtype()) {
        return context.Error("window must be a 1-D {} tensor, got {}", DataTypeName(signal.dtype()),
                             window->Describe());
      }
      frame_length = window->shape()[0];
    }
    if (const Tensor* length_tensor = context.Input(3)) {
      ORT_ASSIGN_OR_RETURN(int64_t given,
                           ReadScalarInteger(context, *length_tensor, "frame_length"));
      if (frame_length >= 0 && given != frame_length) {
        return context.Error("frame_length {} differs from the window length {}", given,
                             frame_length);
      }
      frame_length = given;
    }
    if (frame_length < 0) return context.Error("needs a window or a frame_length");
    if (frame_length == 0 || frame_length > length) {
      return context.Error("frame_length {} must be in [1, {}]", frame_length, length);
    }

    const int64_t frames = (length - frame_length) / step + 1;
    const int64_t bins = onesided_ ? frame_length / 2 + 1 : frame_length;
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, signal.dtype(), TensorShape{batch, frames, bins, 2}));
    if (output->NumElements() == 0) return Status::OK();

    std::vector<double> weights(static_cast<size_t>(frame_length), 1.0);
    if (window != nullptr) {
      const T* w = window->Data<T>();
      for (int64_t j = 0; j < frame_length; ++j)
        weights[j] = static_cast<double>(static_cast<C>(w[j]));
    }
    const FftPlan plan(frame_length, false);
    const T* in = signal.Data<T>();
    T* out = output->MutableData<T>();
    const double cost =
        10.0 * static_cast<double>(frame_length) * std::log2(static_cast<double>(frame_length) + 1);
    ThreadPool::TryParallelFor(
        context.thread_pool(), batch * frames, cost, [&](int64_t begin, int64_t end) {
          std::vector<std::complex<double>> line(static_cast<size_t>(frame_length));
          std::vector<std::complex<double>> scratch(plan.ScratchSize());
          for (int64_t index = begin; index < end; ++index) {
            const int64_t b = index / frames;
            const int64_t f = index % frames;
            const T* frame = in + (b * length + f * step) * components;
            for (int64_t j = 0; j < frame_length; ++j) {
              const double real = static_cast<double>(static_cast<C>(frame[j * components]));
              const double imag =
                  components == 2 ? static_cast<double>(static_cast<C>(frame[j * 2 + 1])) : 0;
              line[j] = std::complex<double>(real, imag) * weights[j];
            }
            plan.Transform(line.data(), scratch.data());
            T* result = out + index * bins * 2;
            for (int64_t k = 0; k < bins; ++k) {
              result[2 * k] = static_cast<T>(static_cast<C>(line[k].real()));
              result[2 * k + 1] = static_cast<T>(static_cast<C>(line[k].imag()));
            }
          }
        });
    return Status::OK();
  }

  bool onesided_ = true;
};

}  // namespace

void RegisterStftKernels(KernelRegistry& registry) {
  const std::vector<DataType> integers = {DataType::kInt32, DataType::kInt64};
  registry.Add<Stft>(KernelDef("STFT")
                         .Versions(17)
                         .Input(0, SignalTypes::DataTypes())
                         .Input(1, integers)
                         .Input(3, integers));
}

}  // namespace ort
