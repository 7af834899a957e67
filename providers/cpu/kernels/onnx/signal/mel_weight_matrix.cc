// MelWeightMatrix (opset 17): triangular filters, evenly spaced on the mel scale
// mel(f) = 2595 log10(1 + f / 700) between lower_edge_hertz and upper_edge_hertz, mapping the
// floor(dft_length / 2) + 1 bins of a onesided spectrum to num_mel_bins bands. Band edges are
// snapped to whole DFT bins and each triangle peaks at 1, as in the ONNX reference.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "providers/cpu/kernels/onnx/signal/signal_kernels.h"
#include "providers/cpu/kernels/onnx/signal/signal_utils.h"

namespace ort {
namespace {

using MelOutputTypes = NumericTypes;

Result<double> ReadScalarFloat(const KernelContext& context, const Tensor& tensor,
                               std::string_view what) {
  if (tensor.NumElements() != 1) {
    return context.Error("{} must be a scalar, got {}", what, tensor.Describe());
  }
  double value = 0;
  Status status = DispatchByType<FloatTypes>(tensor.dtype(), what, [&]<typename T>() {
    if constexpr (std::is_same_v<T, double>) {
      value = tensor.Data<T>()[0];
    } else {
      value = static_cast<float>(tensor.Data<T>()[0]);
    }
    return Status::OK();
  });
  if (!status.ok()) return context.Error("{}", status.message());
  return value;
}

class MelWeightMatrix final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(
        int64_t type,
        info.GetAttributeOr<int64_t>("output_datatype", static_cast<int64_t>(DataType::kFloat)));
    const auto allowed = MelOutputTypes::DataTypes();
    if (std::find(allowed.begin(), allowed.end(), static_cast<DataType>(type)) == allowed.end()) {
      return ORT_ERROR(kInvalidModel, "unsupported output_datatype {}", type)
          .WithNode(info.node().Describe());
    }
    output_type_ = static_cast<DataType>(type);
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    const Tensor* inputs[5];
    for (size_t i = 0; i < 5; ++i) {
      ORT_ASSIGN_OR_RETURN(inputs[i], context.RequiredInput(i));
    }
    ORT_ASSIGN_OR_RETURN(int64_t mel_bins, ReadScalarInteger(context, *inputs[0], "num_mel_bins"));
    ORT_ASSIGN_OR_RETURN(int64_t dft_length, ReadScalarInteger(context, *inputs[1], "dft_length"));
    ORT_ASSIGN_OR_RETURN(int64_t sample_rate,
                         ReadScalarInteger(context, *inputs[2], "sample_rate"));
    ORT_ASSIGN_OR_RETURN(double lower, ReadScalarFloat(context, *inputs[3], "lower_edge_hertz"));
    ORT_ASSIGN_OR_RETURN(double upper, ReadScalarFloat(context, *inputs[4], "upper_edge_hertz"));
    if (mel_bins <= 0 || dft_length <= 0 || sample_rate <= 0) {
      return context.Error("num_mel_bins, dft_length and sample_rate must be positive");
    }
    if (lower < 0 || upper <= lower) {
      return context.Error("need 0 <= lower_edge_hertz < upper_edge_hertz, got {} and {}", lower,
                           upper);
    }
    const int64_t spectrogram_bins = dft_length / 2 + 1;

    // num_mel_bins + 2 edges; the reference divides the mel range by that count as well.
    auto to_mel = [](double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); };
    const double low_mel = to_mel(lower);
    const double step = (to_mel(upper) - low_mel) / static_cast<double>(mel_bins + 2);
    std::vector<int64_t> edges(static_cast<size_t>(mel_bins + 2));
    for (int64_t i = 0; i < mel_bins + 2; ++i) {
      const double hz =
          700.0 * (std::pow(10.0, (static_cast<double>(i) * step + low_mel) / 2595.0) - 1.0);
      edges[i] = static_cast<int64_t>(
          std::floor(static_cast<double>(dft_length + 1) * hz / static_cast<double>(sample_rate)));
    }

    std::vector<double> weights(static_cast<size_t>(spectrogram_bins * mel_bins), 0.0);
    auto set = [&](int64_t bin, int64_t band, double value) {
      if (bin >= 0 && bin < spectrogram_bins) weights[bin * mel_bins + band] = value;
    };
    for (int64_t band = 0; band < mel_bins; ++band) {
      const int64_t left = edges[band], center = edges[band + 1], right = edges[band + 2];
      if (center == left) {
        set(center, band, 1.0);
      } else {
        for (int64_t j = left; j <= center; ++j) {
          set(j, band, static_cast<double>(j - left) / static_cast<double>(center - left));
        }
      }
      for (int64_t j = center; j < right; ++j) {
        set(j, band, static_cast<double>(right - j) / static_cast<double>(right - center));
      }
    }

    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, output_type_, TensorShape{spectrogram_bins, mel_bins}));
    return DispatchByType<MelOutputTypes>(output_type_, "MelWeightMatrix", [&]<typename T>() {
      T* out = output->MutableData<T>();
      for (size_t i = 0; i < weights.size(); ++i) {
        if constexpr (std::is_integral_v<T> || std::is_same_v<T, double>) {
          out[i] = static_cast<T>(weights[i]);
        } else {
          out[i] = static_cast<T>(static_cast<float>(weights[i]));
        }
      }
      return Status::OK();
    });
  }

 private:
  DataType output_type_ = DataType::kFloat;
};

}  // namespace

void RegisterMelWeightMatrixKernels(KernelRegistry& registry) {
  const std::vector<DataType> integers = {DataType::kInt32, DataType::kInt64};
  registry.Add<MelWeightMatrix>(KernelDef("MelWeightMatrix")
                                    .Versions(17)
                                    .Input(0, integers)
                                    .Input(1, integers)
                                    .Input(2, integers)
                                    .Input(3, FloatTypes::DataTypes())
                                    .Input(4, FloatTypes::DataTypes()));
}

}  // namespace ort
