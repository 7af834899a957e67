// com.microsoft.nchwc Upsample: integer scale factors on H and W of a blocked tensor, nearest
// (asymmetric, floor) or linear (asymmetric, half_pixel or align_corners coordinates, edges
// clamped as ai.onnx Resize does).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_kernels.h"

namespace ort {
namespace {

enum class CoordinateMode { kAsymmetric, kHalfPixel, kAlignCorners };

// Source position and interpolation weight along one axis.
struct Tap {
  int64_t lo;
  int64_t hi;
  float weight;  // of hi
};

std::vector<Tap> LinearTaps(int64_t in, int64_t out, int64_t scale, CoordinateMode mode) {
  std::vector<Tap> taps(static_cast<size_t>(out));
  for (int64_t o = 0; o < out; ++o) {
    float position = static_cast<float>(o) / static_cast<float>(scale);
    if (mode == CoordinateMode::kHalfPixel) {
      position = (static_cast<float>(o) + 0.5f) / static_cast<float>(scale) - 0.5f;
    } else if (mode == CoordinateMode::kAlignCorners) {
      position = out == 1 ? 0.0f
                          : static_cast<float>(o) * static_cast<float>(in - 1) /
                                static_cast<float>(out - 1);
    }
    position = std::clamp(position, 0.0f, static_cast<float>(in - 1));
    const int64_t lo = static_cast<int64_t>(position);
    taps[o] = {lo, std::min(lo + 1, in - 1), position - static_cast<float>(lo)};
  }
  return taps;
}

class NchwcUpsample final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(scales_, info.GetAttribute<std::vector<int64_t>>("scales"));
    if (scales_.size() != 4 || scales_[0] != 1 || scales_[1] != 1 || scales_[2] < 1 ||
        scales_[3] < 1) {
      return ORT_ERROR(kInvalidArgument, "scales must be [1, 1, h >= 1, w >= 1]");
    }
    ORT_ASSIGN_OR_RETURN(const std::string mode,
                         info.GetAttributeOr<std::string>("mode", "nearest"));
    if (mode != "nearest" && mode != "linear") {
      return ORT_ERROR(kInvalidArgument, "mode '{}' is neither nearest nor linear", mode);
    }
    linear_ = mode == "linear";
    ORT_ASSIGN_OR_RETURN(
        const std::string coordinates,
        info.GetAttributeOr<std::string>("coordinate_transformation_mode", "asymmetric"));
    if (coordinates == "half_pixel") {
      mode_ = CoordinateMode::kHalfPixel;
    } else if (coordinates == "align_corners") {
      mode_ = CoordinateMode::kAlignCorners;
    } else if (coordinates != "asymmetric") {
      return ORT_ERROR(kInvalidArgument, "coordinate_transformation_mode '{}' is not supported",
                       coordinates);
    }
    if (!linear_ && mode_ != CoordinateMode::kAsymmetric) {
      return ORT_ERROR(kInvalidArgument, "nearest takes asymmetric coordinates only");
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    const int64_t block = NchwcBlockSize();
    if (xs.rank() != 4 || xs[1] % block != 0) {
      return context.Error("X {} is not an NCHWc tensor of block {}", xs.ToString(), block);
    }
    const int64_t in_h = xs[2], in_w = xs[3];
    const int64_t out_h = in_h * scales_[2], out_w = in_w * scales_[3];
    ORT_ASSIGN_OR_RETURN(
        Tensor * y, context.Output(0, DataType::kFloat, TensorShape({xs[0], xs[1], out_h, out_w})));
    const float* in = x->Data<float>();
    float* out = y->MutableData<float>();
    const int64_t planes = xs[0] * xs[1] / block;
    std::vector<Tap> rows, columns;
    if (linear_) {
      rows = LinearTaps(in_h, out_h, scales_[2], mode_);
      columns = LinearTaps(in_w, out_w, scales_[3], mode_);
    }
    ThreadPool::TryParallelFor(
        context.thread_pool(), planes * out_h, static_cast<double>(out_w * block * 4),
        [&](int64_t begin, int64_t end) {
          for (int64_t task = begin; task < end; ++task) {
            const int64_t oh = task % out_h;
            const float* plane = in + task / out_h * in_h * in_w * block;
            float* row = out + task * out_w * block;
            if (!linear_) {
              const float* src = plane + oh / scales_[2] * in_w * block;
              for (int64_t ow = 0; ow < out_w; ++ow) {
                const float* v = src + ow / scales_[3] * block;
                std::copy(v, v + block, row + ow * block);
              }
              continue;
            }
            const Tap& r = rows[oh];
            const float* top = plane + r.lo * in_w * block;
            const float* bottom = plane + r.hi * in_w * block;
            for (int64_t ow = 0; ow < out_w; ++ow) {
              const Tap& c = columns[ow];
              float* dst = row + ow * block;
              for (int64_t b = 0; b < block; ++b) {
                const float t = top[c.lo * block + b] +
                                c.weight * (top[c.hi * block + b] - top[c.lo * block + b]);
                const float d = bottom[c.lo * block + b] +
                                c.weight * (bottom[c.hi * block + b] - bottom[c.lo * block + b]);
                dst[b] = t + r.weight * (d - t);
              }
            }
          }
        });
    return Status::OK();
  }

 private:
  std::vector<int64_t> scales_;
  bool linear_ = false;
  CoordinateMode mode_ = CoordinateMode::kAsymmetric;
};

}  // namespace

void RegisterNchwcUpsampleKernels(KernelRegistry& registry) {
  registry.Add<NchwcUpsample>(
      KernelDef("Upsample", kNchwcDomain).Versions(1).Input(0, {DataType::kFloat}));
}

}  // namespace ort
