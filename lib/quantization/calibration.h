// Calibration for static quantization: runs the float model over sample inputs with the tensors to
// quantize made graph outputs, and derives each tensor's range by min/max, a percentile of |x|,
// or the entropy (KL-divergence) threshold of TensorRT's and ONNX Runtime's calibrators.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/common/status.h"
#include "lib/quantization/quant_params.h"
#include "lib/session/inference_session.h"

namespace ort {

enum class CalibrationMethod { kMinMax, kPercentile, kEntropy };

Result<CalibrationMethod> ParseCalibrationMethod(std::string_view text);
std::string_view CalibrationMethodName(CalibrationMethod method);

struct CalibrationOptions {
  CalibrationMethod method = CalibrationMethod::kMinMax;
  /// kPercentile: the share of |x| (in percent) the range keeps.
  double percentile = 99.999;
  /// Histogram bins of |x| (kPercentile, kEntropy).
  int bins = 2048;
  /// kEntropy: the levels a candidate threshold is quantized to when comparing distributions
  /// (128: the positive half of int8).
  int quantized_bins = 128;
};

/// One value per model input (feeds for one run).
using CalibrationSet = std::vector<NamedValue>;

/// Builds an initialized session on `model`, with the providers the caller chose (the library
/// names none).
using SessionFactory =
    std::function<Result<std::unique_ptr<InferenceSession>>(std::unique_ptr<Model> model)>;

/// A histogram of |x| over [0, limit) in equal bins; values at or past `limit` count in the last.
class AbsHistogram {
 public:
  AbsHistogram(float limit, int bins);
  void Add(std::span<const float> values);
  const std::vector<double>& counts() const { return counts_; }
  /// The width of one bin (0 when the limit is 0).
  float bin_width() const { return bin_width_; }

 private:
  std::vector<double> counts_;
  float bin_width_;
};

/// The upper edge of the bin where the cumulative share of |x| reaches `percentile` percent.
float PercentileThreshold(const AbsHistogram& histogram, double percentile);

/// The threshold t (a bin edge) minimizing KL(P || Q), where P is the histogram cut at t with the
/// counts beyond folded into its last bin, and Q that histogram merged into `quantized_bins`
/// levels and expanded back over its non-empty bins; the bin at zero counts as its neighbour
/// (a Relu output's spike of zeros would otherwise pull the threshold in).
float EntropyThreshold(const AbsHistogram& histogram, int quantized_bins);

/// The range of each tensor in `tensors` (float values the model computes, or model inputs) over
/// `sets`, by `options.method`: histogram methods clip [min, max] to [-t, t]. Errors name a
/// tensor that is not float or holds infinities or NaN.
Result<std::map<std::string, FloatRange>> CollectRanges(const Model& model,
                                                        const std::vector<std::string>& tensors,
                                                        std::span<const CalibrationSet> sets,
                                                        const CalibrationOptions& options,
                                                        const SessionFactory& make_session);

/// A model equal to `model`, through its serialized form (so that added nodes get their schemas
/// and types as a loaded model's).
Result<std::unique_ptr<Model>> ReloadModel(const Model& model);

}  // namespace ort
