#include "providers/cpu/kernels/onnx/tensor/resize_interpolation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>

#include "providers/cpu/kernels/common/elementwise.h"

namespace ort {
namespace {

// Filter taps of one axis: `taps` (input index, weight) pairs per output index. An output whose
// first index is -1 takes the extrapolation value.
struct AxisTaps {
  int64_t taps = 0;
  std::vector<int64_t> index;
  std::vector<double> weight;
  bool identity = false;
};

double LinearFilter(double x) { return std::max(0.0, 1.0 - std::fabs(x)); }

double CubicFilter(double x, double a) {
  x = std::fabs(x);
  if (x <= 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0;
  if (x < 2.0) return ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a;
  return 0.0;
}

bool OutsideCrop(const ResizeOptions& options, const ResizeAxis& axis, double x) {
  return options.coordinate == CoordinateMode::kTfCropAndResize &&
         (x < 0.0 || x > static_cast<double>(axis.in - 1));
}

// Keeps far-away coordinates (tiny scales) in a range where integer conversion is safe; every
// tap is clamped to the edge there anyway.
double BoundCoordinate(double x, int64_t in, int64_t taps) {
  const auto margin = static_cast<double>(2 * taps + 2);
  return std::clamp(x, -margin, static_cast<double>(in) + margin);
}

AxisTaps MakeTaps(const ResizeOptions& options, const ResizeAxis& axis) {
  const bool cubic = options.mode == ResizeMode::kCubic;
  // Antialiasing widens the filter by 1/scale when downsampling.
  const double s = options.antialias ? std::min(axis.scale, 1.0) : 1.0;
  const double reach = cubic ? 2.0 : 1.0;
  const int64_t taps = options.antialias
                           ? 2 - 2 * (static_cast<int64_t>(std::floor(-reach / s)) + 1)
                           : (cubic ? 4 : 2);
  AxisTaps result;
  result.taps = taps;
  result.index.resize(static_cast<size_t>(axis.out * taps));
  result.weight.resize(static_cast<size_t>(axis.out * taps));
  bool identity = axis.in == axis.out;
  for (int64_t x = 0; x < axis.out; ++x) {
    int64_t* index = result.index.data() + x * taps;
    double* weight = result.weight.data() + x * taps;
    const double original = OriginalCoordinate(options, axis, x);
    if (OutsideCrop(options, axis, original)) {
      std::fill_n(index, taps, -1);
      std::fill_n(weight, taps, 0.0);
      identity = false;
      continue;
    }
    const double x_ori = BoundCoordinate(original, axis.in, taps);
    // The taps are the `taps` input indices nearest x_ori, preferring the smaller ones.
    const int64_t base = static_cast<int64_t>(std::ceil(x_ori)) - taps / 2;
    double sum = 0.0;
    for (int64_t k = 0; k < taps; ++k) {
      const int64_t j = base + k;
      const double distance = (static_cast<double>(j) - x_ori) * s;
      double w = cubic ? CubicFilter(distance, options.cubic_a) : LinearFilter(distance);
      if (options.exclude_outside && (j < 0 || j >= axis.in)) w = 0.0;
      index[k] = std::clamp<int64_t>(j, 0, axis.in - 1);
      weight[k] = w;
      sum += w;
    }
    if (options.antialias || options.exclude_outside) {
      for (int64_t k = 0; k < taps; ++k) weight[k] = sum != 0.0 ? weight[k] / sum : 0.0;
    }
    double own = 0.0;
    for (int64_t k = 0; k < taps; ++k) {
      if (weight[k] == 0.0) continue;
      if (index[k] != x) identity = false;
      own += weight[k];
    }
    identity = identity && own == 1.0;
  }
  result.identity = identity;
  return result;
}

template <typename Out, typename C>
Out ConvertResult(C value) {
  if constexpr (std::is_integral_v<Out>) {
    // Integer outputs round to nearest and saturate (cubic overshoots the input range).
    const C rounded = std::nearbyint(value);
    if (!(rounded >= static_cast<C>(std::numeric_limits<Out>::lowest()))) {
      return std::isnan(rounded) ? Out{0} : std::numeric_limits<Out>::lowest();
    }
    if (rounded >= static_cast<C>(std::numeric_limits<Out>::max())) {
      return std::numeric_limits<Out>::max();
    }
    return static_cast<Out>(rounded);
  } else {
    return static_cast<Out>(value);
  }
}

// One axis: [outer, in, inner] -> [outer, out, inner].
template <typename In, typename Out, typename C>
void ResizePass(const In* src, Out* dst, int64_t outer, const ResizeAxis& axis, int64_t inner,
                const AxisTaps& taps, C extrapolation, ThreadPool* pool) {
  const int64_t rows = outer * axis.out;
  const int64_t count = taps.taps;
  std::vector<C> weights(taps.weight.size());
  std::transform(taps.weight.begin(), taps.weight.end(), weights.begin(),
                 [](double w) { return static_cast<C>(w); });
  // Intermediate passes accumulate straight into their float output.
  constexpr bool kDirect = std::is_same_v<Out, C>;
  ThreadPool::TryParallelFor(
      pool, rows, static_cast<double>(inner * count) * 2.0, [&](int64_t begin, int64_t end) {
        std::vector<C> scratch(kDirect || inner == 1 ? 0 : static_cast<size_t>(inner));
        int64_t o = begin / axis.out;
        int64_t x = begin % axis.out - 1;
        for (int64_t row = begin; row < end; ++row) {
          if (++x == axis.out) {
            x = 0;
            ++o;
          }
          const int64_t* index = taps.index.data() + x * count;
          const C* weight = weights.data() + x * count;
          Out* target = dst + row * inner;
          if (index[0] < 0) {
            std::fill_n(target, inner, ConvertResult<Out>(extrapolation));
            continue;
          }
          const In* base = src + o * axis.in * inner;
          if (inner == 1) {
            C sum{0};
            for (int64_t k = 0; k < count; ++k) sum += weight[k] * C(base[index[k]]);
            target[0] = ConvertResult<Out>(sum);
            continue;
          }
          C* accumulator;
          if constexpr (kDirect) {
            accumulator = target;
          } else {
            accumulator = scratch.data();
          }
          const In* first = base + index[0] * inner;
          const C w0 = weight[0];
          if (count == 2) {
            const In* second = base + index[1] * inner;
            const C w1 = weight[1];
            for (int64_t i = 0; i < inner; ++i)
              accumulator[i] = w0 * C(first[i]) + w1 * C(second[i]);
          } else {
            for (int64_t i = 0; i < inner; ++i) accumulator[i] = w0 * C(first[i]);
            for (int64_t k = 1; k < count; ++k) {
              const C w = weight[k];
              if (w == C{0}) continue;
              const In* line = base + index[k] * inner;
              for (int64_t i = 0; i < inner; ++i) accumulator[i] += w * C(line[i]);
            }
          }
          if constexpr (!kDirect) {
            for (int64_t i = 0; i < inner; ++i) target[i] = ConvertResult<Out>(accumulator[i]);
          }
        }
      });
}

template <typename T>
Status InterpolateTyped(const ResizeOptions& options, const std::vector<ResizeAxis>& axes,
                        const Tensor& input, Tensor& output, ThreadPool* pool) {
  using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const size_t rank = axes.size();
  std::vector<AxisTaps> taps(rank);
  std::vector<size_t> active;
  // Innermost axes first, as the reference nests them.
  for (size_t d = rank; d-- > 0;) {
    taps[d] = MakeTaps(options, axes[d]);
    if (!taps[d].identity) active.push_back(d);
  }
  const T* src = input.Data<T>();
  T* dst = output.MutableData<T>();
  if (active.empty()) {
    std::copy_n(src, input.NumElements(), dst);
    return Status::OK();
  }
  const auto extrapolation = static_cast<C>(options.extrapolation_value);
  std::vector<int64_t> dims(rank);
  for (size_t d = 0; d < rank; ++d) dims[d] = axes[d].in;
  // Intermediate results between passes (left uninitialized: every element is written).
  std::unique_ptr<C[]> current;
  std::unique_ptr<C[]> next;
  for (size_t step = 0; step < active.size(); ++step) {
    const size_t d = active[step];
    const TensorShape shape(dims);
    const int64_t outer = shape.SizeToDimension(d);
    const int64_t inner = shape.SizeFromDimension(d + 1);
    const bool first = step == 0;
    const bool last = step + 1 == active.size();
    dims[d] = axes[d].out;
    const int64_t produced = TensorShape(dims).NumElements();
    if (!last) next = std::make_unique_for_overwrite<C[]>(static_cast<size_t>(produced));
    if (first && last) {
      ResizePass<T, T, C>(src, dst, outer, axes[d], inner, taps[d], extrapolation, pool);
    } else if (first) {
      ResizePass<T, C, C>(src, next.get(), outer, axes[d], inner, taps[d], extrapolation, pool);
    } else if (last) {
      ResizePass<C, T, C>(current.get(), dst, outer, axes[d], inner, taps[d], extrapolation, pool);
    } else {
      ResizePass<C, C, C>(current.get(), next.get(), outer, axes[d], inner, taps[d], extrapolation,
                          pool);
    }
    std::swap(current, next);
  }
  return Status::OK();
}

}  // namespace

double OriginalCoordinate(const ResizeOptions& options, const ResizeAxis& axis, int64_t x) {
  const auto xr = static_cast<double>(x);
  const auto in = static_cast<double>(axis.in);
  switch (options.coordinate) {
    case CoordinateMode::kHalfPixel:
      return (xr + 0.5) / axis.scale - 0.5;
    case CoordinateMode::kHalfPixelSymmetric: {
      const double adjustment = static_cast<double>(axis.out) / axis.out_length;
      const double offset = in / 2.0 * (1.0 - adjustment);
      return offset + (xr + 0.5) / axis.scale - 0.5;
    }
    case CoordinateMode::kPytorchHalfPixel:
      return axis.out > 1 ? (xr + 0.5) / axis.scale - 0.5 : 0.0;
    case CoordinateMode::kAlignCorners:
      return axis.out_length == 1.0 ? 0.0 : xr * (in - 1.0) / (axis.out_length - 1.0);
    case CoordinateMode::kAsymmetric:
      return xr / axis.scale;
    case CoordinateMode::kTfHalfPixelForNn:
      return (xr + 0.5) / axis.scale;
    case CoordinateMode::kTfCropAndResize:
      if (axis.out_length == 1.0)
        return (axis.roi_end - axis.roi_start) * (in - 1.0) / 2.0 + axis.roi_start * (in - 1.0);
      return xr * (axis.roi_end - axis.roi_start) * (in - 1.0) / (axis.out_length - 1.0) +
             axis.roi_start * (in - 1.0);
  }
  return xr;
}

std::vector<int64_t> NearestIndexMap(const ResizeOptions& options, const ResizeAxis& axis) {
  std::vector<int64_t> map(static_cast<size_t>(axis.out));
  for (int64_t x = 0; x < axis.out; ++x) {
    const double original = OriginalCoordinate(options, axis, x);
    if (OutsideCrop(options, axis, original)) {
      map[static_cast<size_t>(x)] = -1;
      continue;
    }
    const double x_ori = BoundCoordinate(original, axis.in, 1);
    const double below = std::floor(x_ori);
    const double ratio = x_ori - below;
    double chosen = below;
    switch (options.nearest) {
      case NearestMode::kRoundPreferFloor:
        chosen = ratio <= 0.5 ? below : below + 1.0;
        break;
      case NearestMode::kRoundPreferCeil:
        chosen = ratio < 0.5 ? below : below + 1.0;
        break;
      case NearestMode::kFloor:
        chosen = below;
        break;
      case NearestMode::kCeil:
        chosen = std::ceil(x_ori);
        break;
      case NearestMode::kSimple:
        chosen = axis.scale < 1.0 ? std::ceil(x_ori) : std::trunc(x_ori);
        break;
    }
    if (ratio == 0.0) chosen = x_ori;
    map[static_cast<size_t>(x)] = std::clamp<int64_t>(static_cast<int64_t>(chosen), 0, axis.in - 1);
  }
  return map;
}

Status Interpolate(const ResizeOptions& options, const std::vector<ResizeAxis>& axes,
                   const Tensor& input, Tensor& output, ThreadPool* pool) {
  return DispatchByType<NumericTypes>(input.dtype(), "Resize linear/cubic", [&]<typename T>() {
    return InterpolateTyped<T>(options, axes, input, output, pool);
  });
}

}  // namespace ort
