// GridSample: samples input[N, C, H, W] at the normalized locations of grid[N, Ho, Wo, 2] with
// nearest, bilinear or bicubic interpolation, following PyTorch's grid_sample: border/reflection
// padding clips or reflects the coordinate (each tap for bicubic), zeros padding reads 0 outside
// the input. Opset 20 names the modes nearest/linear/cubic and adds volumes:
// input[N, C, D, H, W] with grid[N, Do, Ho, Wo, 3] (x, y, z), nearest or trilinear.
#include <algorithm>
#include <array>
#include <cmath>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

enum class SampleMode { kNearest, kBilinear, kBicubic };
enum class PaddingMode { kZeros, kBorder, kReflection };

// Reflects x into [low, high] repeatedly, then clips it (as PyTorch does).
double Reflect(double x, double low, double high) {
  const double span = high - low;
  if (span <= 0.0) return std::max(low, 0.0);
  if (x < low || x > high) {
    const double distance = x < low ? low - x : x - high;
    const double flips = std::floor(distance / span);
    const double rest = distance - flips * span;
    const bool even = std::fmod(flips, 2.0) == 0.0;
    x = x < low ? (even ? low + rest : high - rest) : (even ? high - rest : low + rest);
  }
  return x;
}

std::array<double, 4> CubicWeights(double t) {
  constexpr double a = -0.75;
  const auto near = [](double x) { return ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0; };
  const auto far = [](double x) { return ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a; };
  return {far(t + 1.0), near(t), near(1.0 - t), far(2.0 - t)};
}

class GridSample final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    const bool opset20 = info.opset() >= 20;
    volumes_ = opset20;
    ORT_ASSIGN_OR_RETURN(const std::string mode,
                         info.GetAttributeOr<std::string>("mode", opset20 ? "linear" : "bilinear"));
    ORT_ASSIGN_OR_RETURN(const std::string padding,
                         info.GetAttributeOr<std::string>("padding_mode", "zeros"));
    ORT_ASSIGN_OR_RETURN(const int64_t align, info.GetAttributeOr<int64_t>("align_corners", 0));
    align_corners_ = align != 0;
    if (mode == "nearest") {
      mode_ = SampleMode::kNearest;
    } else if (mode == (opset20 ? "linear" : "bilinear")) {
      mode_ = SampleMode::kBilinear;
    } else if (mode == (opset20 ? "cubic" : "bicubic")) {
      mode_ = SampleMode::kBicubic;
    } else {
      return ORT_ERROR(kInvalidModel, "unsupported mode '{}'", mode)
          .WithNode(info.node().Describe());
    }
    if (padding == "zeros") {
      padding_ = PaddingMode::kZeros;
    } else if (padding == "border") {
      padding_ = PaddingMode::kBorder;
    } else if (padding == "reflection") {
      padding_ = PaddingMode::kReflection;
    } else {
      return ORT_ERROR(kInvalidModel, "unsupported padding_mode '{}'", padding)
          .WithNode(info.node().Describe());
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* grid, context.RequiredInput(1));
    const auto& in = input->shape().dims();
    const auto& g = grid->shape().dims();
    const bool volume = in.size() == 5 && volumes_;
    const size_t rank = volume ? 5 : 4;
    if (in.size() != rank || g.size() != rank || g[0] != in[0] ||
        g[rank - 1] != static_cast<int64_t>(rank) - 2) {
      return context.Error("expects input [N,C,H,W]{} and grid [N,Ho,Wo,2]{}, got {} and {}",
                           volumes_ ? " or [N,C,D,H,W]" : "", volumes_ ? " or [N,Do,Ho,Wo,3]" : "",
                           input->Describe(), grid->Describe());
    }
    if (volume && mode_ == SampleMode::kBicubic) {
      return context.Error("cubic sampling needs a 4-D input, got {}", input->Describe());
    }
    std::vector<double> locations(static_cast<size_t>(grid->NumElements()));
    ORT_RETURN_IF_ERROR(
        DispatchByType<FloatTypes>(grid->dtype(), "GridSample grid", [&]<typename G>() {
          const G* data = grid->Data<G>();
          for (size_t i = 0; i < locations.size(); ++i) {
            locations[i] = static_cast<double>(static_cast<ComputeType<G>>(data[i]));
          }
          return Status::OK();
        }));
    std::vector<int64_t> out_dims = {in[0], in[1]};
    out_dims.insert(out_dims.end(), g.begin() + 1, g.end() - 1);
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, input->dtype(), TensorShape(out_dims)));
    if (output->NumElements() == 0) return Status::OK();
    if (input->shape().SizeFromDimension(2) == 0) {
      return context.Error("cannot sample an empty image");
    }
    return DispatchByType<FloatTypes>(input->dtype(), "GridSample", [&]<typename T>() {
      if (volume) {
        RunVolume<T>(context, *input, locations, *output);
      } else {
        Run<T>(context, *input, locations, g[1], g[2], *output);
      }
      return Status::OK();
    });
  }

 private:
  double Denormalize(double v, int64_t length) const {
    const auto n = static_cast<double>(length);
    return align_corners_ ? (v + 1.0) / 2.0 * (n - 1.0) : ((v + 1.0) * n - 1.0) / 2.0;
  }

  // Border/reflection handling of a coordinate along an axis of `length`.
  double Pad(double x, int64_t length) const {
    const double last = static_cast<double>(length - 1);
    if (padding_ == PaddingMode::kBorder) return std::clamp(x, 0.0, last);
    if (padding_ == PaddingMode::kReflection) {
      x = align_corners_ ? Reflect(x, 0.0, last) : Reflect(x, -0.5, last + 0.5);
      return std::clamp(x, 0.0, last);
    }
    return x;
  }

  template <typename T>
  void Run(const KernelContext& context, const Tensor& input, const std::vector<double>& grid,
           int64_t out_h, int64_t out_w, Tensor& output) const {
    using C = ComputeType<T>;
    const auto& d = input.shape().dims();
    const int64_t channels = d[1];
    const int64_t height = d[2];
    const int64_t width = d[3];
    const T* src = input.Data<T>();
    T* dst = output.MutableData<T>();
    const int64_t plane = height * width;
    const int64_t out_plane = out_h * out_w;
    // The value at the integral position (y, x) of one channel plane, with the padding rule.
    const auto at = [&](const T* image, double y, double x) -> double {
      const bool inside = x >= 0.0 && x <= static_cast<double>(width - 1) && y >= 0.0 &&
                          y <= static_cast<double>(height - 1);
      if (!inside) {
        if (padding_ == PaddingMode::kZeros) return 0.0;
        x = Pad(x, width);
        y = Pad(y, height);
      }
      const auto ix = static_cast<int64_t>(x);
      const auto iy = static_cast<int64_t>(y);
      return static_cast<double>(static_cast<C>(image[iy * width + ix]));
    };
    ThreadPool::TryParallelFor(
        context.thread_pool(), d[0] * out_plane, static_cast<double>(channels) * 20.0,
        [&](int64_t begin, int64_t end) {
          for (int64_t p = begin; p < end; ++p) {
            const int64_t n = p / out_plane;
            const int64_t position = p % out_plane;
            double x = Denormalize(grid[static_cast<size_t>(p * 2)], width);
            double y = Denormalize(grid[static_cast<size_t>(p * 2 + 1)], height);
            // Non-finite locations sample the padding far outside the image.
            if (!std::isfinite(x) || !std::isfinite(y)) x = y = -1e9;
            if (mode_ != SampleMode::kBicubic) {
              x = Pad(x, width);
              y = Pad(y, height);
            }
            for (int64_t c = 0; c < channels; ++c) {
              const T* image = src + (n * channels + c) * plane;
              double value = 0.0;
              if (mode_ == SampleMode::kNearest) {
                value = at(image, std::nearbyint(y), std::nearbyint(x));
              } else if (mode_ == SampleMode::kBilinear) {
                const double x0 = std::floor(x);
                const double y0 = std::floor(y);
                const double dx = x - x0;
                const double dy = y - y0;
                value = (1 - dy) * ((1 - dx) * at(image, y0, x0) + dx * at(image, y0, x0 + 1)) +
                        dy * ((1 - dx) * at(image, y0 + 1, x0) + dx * at(image, y0 + 1, x0 + 1));
              } else {
                const double x0 = std::floor(x);
                const double y0 = std::floor(y);
                const auto wx = CubicWeights(x - x0);
                const auto wy = CubicWeights(y - y0);
                for (size_t r = 0; r < 4; ++r) {
                  double row = 0.0;
                  for (size_t k = 0; k < 4; ++k) {
                    row += wx[k] * at(image, y0 - 1.0 + static_cast<double>(r),
                                      x0 - 1.0 + static_cast<double>(k));
                  }
                  value += wy[r] * row;
                }
              }
              dst[(n * channels + c) * out_plane + position] =
                  static_cast<T>(static_cast<C>(value));
            }
          }
        });
  }

  // Nearest or trilinear sampling of input[N, C, D, H, W] at grid[N, Do, Ho, Wo, 3].
  template <typename T>
  void RunVolume(const KernelContext& context, const Tensor& input, const std::vector<double>& grid,
                 Tensor& output) const {
    using C = ComputeType<T>;
    const auto& d = input.shape().dims();
    const int64_t channels = d[1], depth = d[2], height = d[3], width = d[4];
    const T* src = input.Data<T>();
    T* dst = output.MutableData<T>();
    const int64_t volume = depth * height * width;
    const int64_t out_volume = output.shape().SizeFromDimension(2);
    const auto at = [&](const T* image, double z, double y, double x) -> double {
      const bool inside = x >= 0.0 && x <= static_cast<double>(width - 1) && y >= 0.0 &&
                          y <= static_cast<double>(height - 1) && z >= 0.0 &&
                          z <= static_cast<double>(depth - 1);
      if (!inside) {
        if (padding_ == PaddingMode::kZeros) return 0.0;
        x = Pad(x, width);
        y = Pad(y, height);
        z = Pad(z, depth);
      }
      const auto ix = static_cast<int64_t>(x), iy = static_cast<int64_t>(y);
      const auto iz = static_cast<int64_t>(z);
      return static_cast<double>(static_cast<C>(image[(iz * height + iy) * width + ix]));
    };
    ThreadPool::TryParallelFor(
        context.thread_pool(), d[0] * out_volume, static_cast<double>(channels) * 40.0,
        [&](int64_t begin, int64_t end) {
          for (int64_t p = begin; p < end; ++p) {
            const int64_t n = p / out_volume;
            const int64_t position = p % out_volume;
            double x = Denormalize(grid[static_cast<size_t>(p * 3)], width);
            double y = Denormalize(grid[static_cast<size_t>(p * 3 + 1)], height);
            double z = Denormalize(grid[static_cast<size_t>(p * 3 + 2)], depth);
            if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) x = y = z = -1e9;
            x = Pad(x, width);
            y = Pad(y, height);
            z = Pad(z, depth);
            for (int64_t c = 0; c < channels; ++c) {
              const T* image = src + (n * channels + c) * volume;
              double value = 0.0;
              if (mode_ == SampleMode::kNearest) {
                value = at(image, std::nearbyint(z), std::nearbyint(y), std::nearbyint(x));
              } else {
                const double x0 = std::floor(x), y0 = std::floor(y), z0 = std::floor(z);
                const double dx = x - x0, dy = y - y0, dz = z - z0;
                for (int k = 0; k < 8; ++k) {
                  const int bz = k >> 2, by = (k >> 1) & 1, bx = k & 1;
                  const double weight =
                      (bz ? dz : 1 - dz) * (by ? dy : 1 - dy) * (bx ? dx : 1 - dx);
                  if (weight != 0.0) value += weight * at(image, z0 + bz, y0 + by, x0 + bx);
                }
              }
              dst[(n * channels + c) * out_volume + position] =
                  static_cast<T>(static_cast<C>(value));
            }
          }
        });
  }

  SampleMode mode_ = SampleMode::kBilinear;
  PaddingMode padding_ = PaddingMode::kZeros;
  bool volumes_ = false;  // opset 20+ also samples 5-D inputs
  bool align_corners_ = false;
};

}  // namespace

void RegisterGridSampleKernels(KernelRegistry& registry) {
  registry.Add<GridSample>(KernelDef("GridSample")
                               .Versions(16, 19)
                               .Input(0, FloatTypes::DataTypes())
                               .Input(1, FloatTypes::DataTypes()));
  registry.Add<GridSample>(KernelDef("GridSample")
                               .Versions(20)
                               .Input(0, FloatTypes::DataTypes())
                               .Input(1, FloatTypes::DataTypes()));
}

}  // namespace ort
