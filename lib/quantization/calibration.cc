#include "lib/quantization/calibration.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "lib/onnx/model_loader.h"
#include "lib/onnx/model_proto.h"

namespace ort {

Result<CalibrationMethod> ParseCalibrationMethod(std::string_view text) {
  if (text == "minmax") return CalibrationMethod::kMinMax;
  if (text == "percentile") return CalibrationMethod::kPercentile;
  if (text == "entropy") return CalibrationMethod::kEntropy;
  return ORT_ERROR(kInvalidArgument,
                   "unknown calibration method '{}' (expected minmax, percentile or entropy)",
                   text);
}

std::string_view CalibrationMethodName(CalibrationMethod method) {
  switch (method) {
    case CalibrationMethod::kMinMax:
      return "minmax";
    case CalibrationMethod::kPercentile:
      return "percentile";
    case CalibrationMethod::kEntropy:
      return "entropy";
  }
  return "?";
}

AbsHistogram::AbsHistogram(float limit, int bins)
    : counts_(static_cast<size_t>(std::max(bins, 1)), 0.0),
      bin_width_(limit / static_cast<float>(counts_.size())) {}

void AbsHistogram::Add(std::span<const float> values) {
  const size_t last = counts_.size() - 1;
  for (const float value : values) {
    const double position = bin_width_ > 0 ? std::fabs(value) / bin_width_ : 0.0;
    const size_t bin = static_cast<size_t>(std::min(static_cast<double>(last), position));
    counts_[bin] += 1;
  }
}

float PercentileThreshold(const AbsHistogram& histogram, double percentile) {
  const auto& counts = histogram.counts();
  double total = 0;
  for (const double count : counts) total += count;
  if (total == 0) return 0;
  const double target = total * std::clamp(percentile, 0.0, 100.0) / 100.0;
  double cumulative = 0;
  for (size_t bin = 0; bin < counts.size(); ++bin) {
    cumulative += counts[bin];
    if (cumulative >= target) return histogram.bin_width() * static_cast<float>(bin + 1);
  }
  return histogram.bin_width() * static_cast<float>(counts.size());
}

namespace {

// ONNX Runtime's smooth_distribution: moves `epsilon` of count onto every empty bin, taken evenly
// from the others, so that KL(P || Q) stays finite. False when every bin is empty.
bool Smooth(std::vector<double>& distribution) {
  constexpr double kEpsilon = 1e-4;
  const size_t zeros =
      static_cast<size_t>(std::count(distribution.begin(), distribution.end(), 0.0));
  const size_t nonzeros = distribution.size() - zeros;
  if (nonzeros == 0) return false;
  const double taken = kEpsilon * static_cast<double>(zeros) / static_cast<double>(nonzeros);
  for (double& p : distribution) p = p == 0 ? kEpsilon : p - taken;
  return true;
}

void Normalize(std::vector<double>& distribution) {
  double total = 0;
  for (const double p : distribution) total += p;
  if (total > 0) {
    for (double& p : distribution) p /= total;
  }
}

double KlDivergence(const std::vector<double>& p, const std::vector<double>& q) {
  double divergence = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] > 0 && q[i] > 0) divergence += p[i] * std::log(p[i] / q[i]);
  }
  return divergence;
}

}  // namespace

float EntropyThreshold(const AbsHistogram& histogram, int quantized_bins) {
  // The spike at zero of a Relu's (or any sparse) output is set to its neighbour's count, as
  // NVIDIA's pytorch-quantization does: otherwise no merged level can match it, every cut that
  // merges bins looks worse than the smallest one, and the range shrinks to a few sigma.
  std::vector<double> counts = histogram.counts();
  if (counts.size() > 1) counts[0] = counts[1];
  const size_t bins = counts.size();
  const size_t levels = static_cast<size_t>(std::max(quantized_bins, 1));
  if (bins <= levels) return histogram.bin_width() * static_cast<float>(bins);
  double best_divergence = std::numeric_limits<double>::infinity();
  size_t best = bins;
  std::vector<double> reference;
  std::vector<double> candidate;
  for (size_t cut = levels; cut <= bins; ++cut) {
    reference.assign(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(cut));
    double outliers = 0;
    for (size_t i = cut; i < bins; ++i) outliers += counts[i];
    reference.back() += outliers;

    candidate.assign(cut, 0.0);
    for (size_t level = 0; level < levels; ++level) {
      const size_t start = level * cut / levels;
      const size_t end = level + 1 == levels ? cut : (level + 1) * cut / levels;
      double total = 0;
      size_t nonempty = 0;
      for (size_t i = start; i < end; ++i) {
        total += counts[i];
        nonempty += counts[i] != 0 ? 1 : 0;
      }
      if (nonempty == 0) continue;
      for (size_t i = start; i < end; ++i) {
        if (counts[i] != 0) candidate[i] = total / static_cast<double>(nonempty);
      }
    }
    // Smoothed as counts, as ONNX Runtime does: epsilon is then negligible beside a bin's mass.
    // On probabilities it outweighs the sparse bins of a long tail, and the smallest cut won.
    if (!Smooth(reference) || !Smooth(candidate)) continue;
    Normalize(reference);
    Normalize(candidate);
    const double divergence = KlDivergence(reference, candidate);
    if (divergence < best_divergence) {
      best_divergence = divergence;
      best = cut;
    }
  }
  return histogram.bin_width() * static_cast<float>(best);
}

Result<std::unique_ptr<Model>> ReloadModel(const Model& model) {
  ORT_ASSIGN_OR_RETURN(std::string bytes, SerializeModel(model));
  ORT_ASSIGN_OR_RETURN(
      std::unique_ptr<Model> reloaded,
      LoadModelFromBytes(bytes.data(), bytes.size(), model.base_directory.string()));
  reloaded->path = model.path;
  return reloaded;
}

namespace {

using Observer = std::function<Status(const std::string& name, std::span<const float> values)>;

// Runs every set once and shows `observe` each tensor's values: model inputs from the feeds, the
// rest from `session`, which outputs `computed`.
Status ObserveTensors(std::span<const CalibrationSet> sets, const std::vector<std::string>& fed,
                      const InferenceSession* session, const std::vector<std::string>& computed,
                      const Observer& observe) {
  auto float_values = [](const std::string& name, const Value& value) -> Result<Tensor> {
    if (!value.IsTensor() || value.tensor().dtype() != DataType::kFloat) {
      return ORT_ERROR(kInvalidArgument, "tensor '{}' is {}, not float: it cannot be calibrated",
                       name, value.Describe());
    }
    return value.tensor();
  };
  std::vector<Value> outputs;
  for (const CalibrationSet& set : sets) {
    for (const std::string& name : fed) {
      const auto it = std::find_if(set.begin(), set.end(),
                                   [&](const NamedValue& feed) { return feed.first == name; });
      if (it == set.end())
        return ORT_ERROR(kInvalidArgument, "no calibration value for '{}'", name);
      ORT_ASSIGN_OR_RETURN(Tensor tensor, float_values(name, it->second));
      ORT_RETURN_IF_ERROR(observe(name, tensor.Span<float>()));
    }
    if (session == nullptr) continue;
    outputs.clear();
    ORT_RETURN_IF_ERROR(session->Run(RunOptions{}, set, computed, &outputs));
    for (size_t i = 0; i < computed.size(); ++i) {
      ORT_ASSIGN_OR_RETURN(Tensor tensor, float_values(computed[i], outputs[i]));
      ORT_RETURN_IF_ERROR(observe(computed[i], tensor.Span<float>()));
    }
  }
  return Status::OK();
}

}  // namespace

Result<std::map<std::string, FloatRange>> CollectRanges(const Model& model,
                                                        const std::vector<std::string>& tensors,
                                                        std::span<const CalibrationSet> sets,
                                                        const CalibrationOptions& options,
                                                        const SessionFactory& make_session) {
  ORT_RETURN_IF_NOT(!sets.empty(), "calibration needs at least one set of inputs");
  const std::vector<std::string>& inputs = model.graph().inputs();
  std::vector<std::string> fed;
  std::vector<std::string> computed;
  for (const std::string& name : tensors) {
    const bool is_input = std::find(inputs.begin(), inputs.end(), name) != inputs.end();
    (is_input ? fed : computed).push_back(name);
  }
  std::unique_ptr<InferenceSession> session;
  if (!computed.empty()) {
    ORT_ASSIGN_OR_RETURN(std::unique_ptr<Model> probe, ReloadModel(model));
    probe->graph().set_outputs(computed);
    auto made = make_session(std::move(probe));
    if (!made.ok()) return made.status().WithContext("calibration model");
    session = std::move(made).value();
  }

  std::map<std::string, FloatRange> ranges;
  for (const std::string& name : tensors) {
    ranges[name] = {std::numeric_limits<float>::max(), std::numeric_limits<float>::lowest()};
  }
  ORT_RETURN_IF_ERROR(ObserveTensors(
      sets, fed, session.get(), computed,
      [&ranges](const std::string& name, std::span<const float> values) -> Status {
        FloatRange& range = ranges[name];
        for (const float value : values) {
          if (!std::isfinite(value)) {
            return ORT_ERROR(kInvalidArgument,
                             "tensor '{}' holds {} on a calibration input: it cannot be quantized",
                             name, value);
          }
          range.min = std::min(range.min, value);
          range.max = std::max(range.max, value);
        }
        return Status::OK();
      }));
  for (auto& [name, range] : ranges) {
    // An empty tensor has no range; zeros quantize it exactly.
    if (range.min > range.max) range = FloatRange{};
  }
  if (options.method == CalibrationMethod::kMinMax) return ranges;

  std::map<std::string, AbsHistogram> histograms;
  for (const auto& [name, range] : ranges) {
    histograms.emplace(
        name, AbsHistogram(std::max(std::fabs(range.min), std::fabs(range.max)), options.bins));
  }
  ORT_RETURN_IF_ERROR(
      ObserveTensors(sets, fed, session.get(), computed,
                     [&histograms](const std::string& name, std::span<const float> values) {
                       histograms.at(name).Add(values);
                       return Status::OK();
                     }));
  for (auto& [name, range] : ranges) {
    const AbsHistogram& histogram = histograms.at(name);
    const float threshold = options.method == CalibrationMethod::kPercentile
                                ? PercentileThreshold(histogram, options.percentile)
                                : EntropyThreshold(histogram, options.quantized_bins);
    // The observed range bounds the threshold's, so that a tensor of one sign (a Relu's output)
    // spends no levels on the other.
    range.min = std::max(range.min, -threshold);
    range.max = std::min(range.max, threshold);
  }
  return ranges;
}

}  // namespace ort
