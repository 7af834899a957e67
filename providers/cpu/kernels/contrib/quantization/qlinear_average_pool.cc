// com.microsoft QLinearAveragePool: AveragePool over 1 to 3 spatial dims of 8-bit X (x_scale,
// x_zero_point) requantized to y_scale and y_zero_point, channels first or, with channels_last =
// 1, last. Bit for bit as onnxruntime computes it: each window's dequantized values summed in
// float in row-major order, divided by the taps inside the input (or, with count_include_pad,
// by the whole kernel, even where a ceil_mode window reaches past the padding), then
// round_half_even(mean / y_scale + y_zero_point), saturated. A window covering the whole image
// unpadded is onnxruntime's global average instead: the exact integer sum times
// x_scale / (y_scale size) in float.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "providers/common/nn/pool_attributes.h"
#include "providers/cpu/kernels/contrib/quantization/contrib_quantization_kernels.h"
#include "providers/cpu/kernels/onnx/nn/conv_integer.h"

namespace ort {
namespace {

constexpr size_t kMaxRank = 3;

/// A window geometry as three axes, lower ranks given leading unit axes.
struct Window3d {
  int64_t in[kMaxRank];
  int64_t out[kMaxRank];
  int64_t kernel[kMaxRank];
  int64_t stride[kMaxRank];
  int64_t pad_begin[kMaxRank];

  explicit Window3d(const WindowGeometry& g) {
    const size_t lead = kMaxRank - g.rank();
    for (size_t d = 0; d < kMaxRank; ++d) {
      const bool real = d >= lead;
      in[d] = real ? g.input[d - lead] : 1;
      out[d] = real ? g.output[d - lead] : 1;
      kernel[d] = real ? g.kernel[d - lead] : 1;
      stride[d] = real ? g.strides[d - lead] : 1;
      pad_begin[d] = real ? g.pads[d - lead] : 0;
    }
  }
  int64_t InSize() const { return in[0] * in[1] * in[2]; }
  int64_t OutSize() const { return out[0] * out[1] * out[2]; }
};

/// Where the values of one image lie: pixel p's `lanes` values start at data[p * lanes] (one
/// lane per channel when channels are last, one per plane otherwise).
template <typename T>
struct Image {
  const T* data;
  T* out;
  int64_t lanes;
};

struct Requantization {
  float y_scale;
  float y_zero;
};

/// q saturated to T; a NaN (of an overflowed x_scale) becomes T's minimum.
template <typename T>
T Saturate(float q) {
  constexpr float kLow = std::numeric_limits<T>::min(), kHigh = std::numeric_limits<T>::max();
  return static_cast<T>(q > kLow ? (q < kHigh ? q : kHigh) : kLow);
}

/// Output position `position` of every lane of `image`; `sums` holds `lanes` floats.
template <typename T>
void PoolPosition(const Window3d& g, bool count_include_pad, const std::array<float, 256>& table,
                  const Requantization& r, const Image<T>& image, int64_t position,
                  std::vector<float>& sums) {
  const int64_t o[kMaxRank] = {position / (g.out[1] * g.out[2]), position / g.out[2] % g.out[1],
                               position % g.out[2]};
  int64_t first[kMaxRank], last[kMaxRank];
  int64_t count = 1, kernel_size = 1;
  for (size_t d = 0; d < kMaxRank; ++d) {
    const int64_t start = o[d] * g.stride[d] - g.pad_begin[d];
    first[d] = std::max<int64_t>(start, 0);
    last[d] = std::min(start + g.kernel[d], g.in[d]);
    count *= last[d] - first[d];
    kernel_size *= g.kernel[d];
  }
  const int64_t lanes = image.lanes;
  std::fill(sums.begin(), sums.end(), 0.0f);
  for (int64_t i0 = first[0]; i0 < last[0]; ++i0) {
    for (int64_t i1 = first[1]; i1 < last[1]; ++i1) {
      for (int64_t i2 = first[2]; i2 < last[2]; ++i2) {
        const auto* pixel = reinterpret_cast<const uint8_t*>(
            image.data + ((i0 * g.in[1] + i1) * g.in[2] + i2) * lanes);
        for (int64_t l = 0; l < lanes; ++l) sums[l] += table[pixel[l]];
      }
    }
  }
  const float divisor = static_cast<float>(count_include_pad ? kernel_size : count);
  T* out = image.out + position * lanes;
  for (int64_t l = 0; l < lanes; ++l) {
    out[l] = Saturate<T>(std::nearbyint(sums[l] / divisor / r.y_scale + r.y_zero));
  }
}

class QLinearAveragePool final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(attributes_.Parse(info, true));
    const WindowAttributes& window = attributes_.window;
    const size_t rank = window.kernel_shape.size();
    if (rank == 0 || rank > kMaxRank) {
      return ORT_ERROR(kNotImplemented,
                       "QLinearAveragePool supports 1 to 3 spatial dims, kernel_shape has {}",
                       rank);
    }
    for (int64_t dilation : window.dilations) {
      if (dilation != 1) return ORT_ERROR(kInvalidArgument, "QLinearAveragePool has no dilations");
    }
    // As onnxruntime, which refuses them too: a window wholly in padding would average nothing.
    for (size_t i = 0; window.auto_pad == AutoPad::kNotSet && i < window.pads.size(); ++i) {
      if (window.pads[i] >= window.kernel_shape[i % rank]) {
        return ORT_ERROR(kInvalidArgument, "pads must be smaller than kernel_shape");
      }
    }
    ORT_ASSIGN_OR_RETURN(const int64_t channels_last,
                         info.GetAttributeOr<int64_t>("channels_last", 0));
    channels_last_ = channels_last != 0;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* x_scale, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* y_scale, context.RequiredInput(3));
    for (const auto& [scale, name] : {std::pair{x_scale, "x_scale"}, {y_scale, "y_scale"}}) {
      if (scale->dtype() != DataType::kFloat || scale->NumElements() != 1 ||
          !(scale->Data<float>()[0] > 0.0f) || std::isinf(scale->Data<float>()[0])) {
        return context.Error("{} {} must be one positive finite float", name, scale->Describe());
      }
    }
    ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> x_zero,
                         ReadZeroPoints(context, context.Input(2), x->dtype(), 1, "x_zero_point"));
    ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> y_zero,
                         ReadZeroPoints(context, context.Input(4), x->dtype(), 1, "y_zero_point"));
    const TensorShape& xs = x->shape();
    const size_t rank = attributes_.window.kernel_shape.size();
    if (xs.rank() != rank + 2) {
      return context.Error("X {} must have a batch, a channel and {} spatial dims (kernel_shape)",
                           x->Describe(), rank);
    }
    const std::span<const int64_t> dims(xs.dims());
    const int64_t batch = dims[0], channels = channels_last_ ? dims.back() : dims[1];
    const auto spatial = dims.subspan(channels_last_ ? 1 : 2, rank);
    auto resolved = ResolveWindow(attributes_.window, spatial, attributes_.window.kernel_shape,
                                  attributes_.ceil_mode);
    if (!resolved.ok()) return context.Error("{}", resolved.status().message());
    WindowGeometry& geometry = *resolved;
    MatchSamePadding(geometry);
    std::vector<int64_t> y_dims = {batch};
    if (!channels_last_) y_dims.push_back(channels);
    y_dims.insert(y_dims.end(), geometry.output.begin(), geometry.output.end());
    if (channels_last_) y_dims.push_back(channels);
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), TensorShape(y_dims)));
    if (y->NumElements() == 0) return Status::OK();
    const float sx = x_scale->Data<float>()[0], sy = y_scale->Data<float>()[0];
    return DispatchByType<QuantTypes>(x->dtype(), "QLinearAveragePool", [&]<typename T>() {
      const Window3d g(geometry);
      // Channels first: an image per plane, one lane; last: an image per batch, a lane each.
      const int64_t images = channels_last_ ? batch : batch * channels;
      const int64_t lanes = channels_last_ ? channels : 1;
      const T* in = x->Data<T>();
      T* out = y->MutableData<T>();
      const bool unpadded = std::all_of(geometry.pads.begin(), geometry.pads.end(),
                                        [](int64_t pad) { return pad == 0; });
      if (unpadded && std::ranges::equal(geometry.input, geometry.kernel)) {
        GlobalAverage<T>(context, in, out, images, g.InSize(), lanes, sx, x_zero[0], sy, y_zero[0]);
        return Status::OK();
      }
      // Dequantized values by byte.
      std::array<float, 256> table;
      for (int v = 0; v < 256; ++v) {
        table[v] = sx * static_cast<float>(static_cast<T>(v) - x_zero[0]);
      }
      const Requantization r{sy, static_cast<float>(y_zero[0])};
      const int64_t positions = g.OutSize();
      const double cost = static_cast<double>(geometry.KernelSize() * lanes);
      ThreadPool::TryParallelFor(
          context.thread_pool(), images * positions, cost, [&](int64_t begin, int64_t end) {
            std::vector<float> sums(static_cast<size_t>(lanes));
            for (int64_t task = begin; task < end; ++task) {
              const int64_t i = task / positions;
              const Image<T> image{in + i * g.InSize() * lanes, out + i * positions * lanes, lanes};
              PoolPosition<T>(g, attributes_.count_include_pad, table, r, image, task % positions,
                              sums);
            }
          });
      return Status::OK();
    });
  }

 private:
  /// onnxruntime pads SAME by (ceil(in / stride) - 1) stride + kernel - in even when that is
  /// negative (a kernel narrower than its stride), which moves every window right, where ONNX
  /// (and ResolveWindow) pad by 0; the output size is the same.
  void MatchSamePadding(WindowGeometry& g) const {
    const AutoPad mode = attributes_.window.auto_pad;
    if (mode != AutoPad::kSameUpper && mode != AutoPad::kSameLower) return;
    for (size_t d = 0; d < g.rank(); ++d) {
      const int64_t outputs = (g.input[d] + g.strides[d] - 1) / g.strides[d];
      const int64_t total = (outputs - 1) * g.strides[d] + g.kernel[d] - g.input[d];
      if (total >= 0) continue;
      // Halved toward zero, as C++ divides.
      g.pads[d] = mode == AutoPad::kSameUpper ? total / 2 : (total + 1) / 2;
      g.pads[d + g.rank()] = total - g.pads[d];
    }
  }

  /// The kernel covers each image: onnxruntime's QLinearGlobalAveragePool arithmetic.
  template <typename T>
  static void GlobalAverage(const KernelContext& context, const T* in, T* out, int64_t images,
                            int64_t size, int64_t lanes, float x_scale, int32_t x_zero,
                            float y_scale, int32_t y_zero) {
    const float factor = x_scale / (y_scale * static_cast<float>(size));
    ThreadPool::TryParallelFor(
        context.thread_pool(), images * lanes, static_cast<double>(size),
        [&](int64_t begin, int64_t end) {
          for (int64_t task = begin; task < end; ++task) {
            const T* image = in + task / lanes * size * lanes + task % lanes;
            int64_t sum = 0;
            for (int64_t p = 0; p < size; ++p) sum += image[p * lanes];
            const float centered = static_cast<float>(sum - size * x_zero);
            out[task] = Saturate<T>(std::nearbyint(centered * factor) + static_cast<float>(y_zero));
          }
        });
  }

  PoolAttributes attributes_;
  bool channels_last_ = false;
};

}  // namespace

void RegisterQLinearAveragePoolKernels(KernelRegistry& registry) {
  registry.Add<QLinearAveragePool>(KernelDef("QLinearAveragePool", std::string(kMsDomain))
                                       .Versions(1)
                                       .Input(0, QuantTypes::DataTypes()));
}

}  // namespace ort
