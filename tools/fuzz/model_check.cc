#include "tools/fuzz/model_check.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lib/common/logging.h"
#include "lib/session/inference_session.h"
#include "providers/provider_factory.h"

namespace ort::fuzz {
namespace {

// Small values that are valid indices, counts and axes for small shapes (0, 1, 2) and
// distinct, non-integral floats: deterministic, so that a crash reproduces from the model alone.
Result<Tensor> Feed(DataType type, const TensorShape& shape) {
  ORT_ASSIGN_OR_RETURN(Tensor tensor, Tensor::Allocate(type, shape));
  const int64_t count = tensor.NumElements();
  if (IsFourBit(type)) {
    std::memset(tensor.MutableRawData(), 0, tensor.SizeInBytes());
    return tensor;
  }
  ORT_RETURN_IF_ERROR(DispatchByType<AllTensorTypes>(type, "fuzz input", [&]<typename T>() {
    T* data = tensor.MutableData<T>();
    for (int64_t i = 0; i < count; ++i) {
      if constexpr (std::is_same_v<T, std::string>) {
        data[i] = std::string(static_cast<size_t>(i % 3), 'a');
      } else if constexpr (std::is_same_v<T, bool>) {
        data[i] = i % 2 == 0;
      } else if constexpr (std::is_integral_v<T>) {
        data[i] = static_cast<T>(i % 3);
      } else {
        data[i] = T(static_cast<float>(i % 7 - 3) * 0.375f);
      }
    }
    return Status::OK();
  }));
  return tensor;
}

// Feeds for every input, or nullopt when one is not a tensor of a known, small shape.
std::optional<std::vector<NamedValue>> Feeds(const InferenceSession& session) {
  std::vector<NamedValue> feeds;
  int64_t total = 0;
  for (const ValueInfo& info : session.InputInfos()) {
    if (!info.type.IsTensor() || !info.type.shape) return std::nullopt;
    std::vector<int64_t> dims;
    int64_t count = 1;
    for (const auto& dim : *info.type.shape) {
      const int64_t value = dim.IsKnown() ? dim.value : 1;
      if (value < 0 || value > kMaxFeedElements) return std::nullopt;
      count *= value;
      if (count > kMaxFeedElements) return std::nullopt;
      dims.push_back(value);
    }
    total += count;
    if (total > kMaxFeedElements) return std::nullopt;
    Result<Tensor> tensor = Feed(info.type.elem_type, TensorShape(std::move(dims)));
    if (!tensor.ok()) return std::nullopt;
    feeds.emplace_back(info.name, Value(std::move(tensor).value()));
  }
  return feeds;
}

CheckStage CheckAtLevel(std::string_view bytes, OptimizationLevel level) {
  SessionOptions options;
  options.optimization_level = level;
  options.intra_op_threads = 1;
  options.inter_op_threads = 1;
  options.log_severity = LogSeverity::kFatal;
  // Crashes, not capacity, are the question: a mutant's tensors stay small, also where no
  // address-space limit can be set (sanitized builds).
  options.max_tensor_bytes = size_t{1} << 30;
  InferenceSession session(options);
  auto providers = CreateProviders({"cpu"});
  if (!providers.ok()) return CheckStage::kRejected;
  for (auto& provider : *providers) {
    if (!session.RegisterProvider(std::move(provider)).ok()) return CheckStage::kRejected;
  }
  if (!session.LoadFromBytes(bytes.data(), bytes.size()).ok()) return CheckStage::kRejected;
  if (!session.Initialize().ok()) return CheckStage::kLoaded;
  std::optional<std::vector<NamedValue>> feeds = Feeds(session);
  if (!feeds) return CheckStage::kInitialized;
  std::vector<Value> outputs;
  if (!session.Run(RunOptions{}, *feeds, {}, &outputs).ok()) return CheckStage::kInitialized;
  return CheckStage::kRan;
}

}  // namespace

void QuietLogging() { SetLogSeverity(LogSeverity::kFatal); }

CheckStage CheckModelBytes(std::string_view bytes, std::span<const OptimizationLevel> levels) {
  CheckStage deepest = CheckStage::kRejected;
  for (OptimizationLevel level : levels) {
    const CheckStage stage = CheckAtLevel(bytes, level);
    // A model the loader refuses is refused at every level: loading does not depend on it.
    if (stage == CheckStage::kRejected) return deepest;
    deepest = std::max(deepest, stage);
  }
  return deepest;
}

}  // namespace ort::fuzz
