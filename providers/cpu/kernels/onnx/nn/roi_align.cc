// RoiAlign: for each region of interest, an output_height x output_width grid of bins, each the
// average (or max) of bilinearly sampled points. Opset 10 behaves as "output_half_pixel"
// (no half-pixel shift, regions at least 1x1); opset 16 adds coordinate_transformation_mode
// with "half_pixel" as the default.
#include <cmath>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

/// One bilinear sample: four pixel offsets and their weights (all zero outside the image).
template <typename C>
struct Sample {
  int64_t offsets[4] = {0, 0, 0, 0};
  C weights[4] = {C(0), C(0), C(0), C(0)};
};

template <typename C>
Sample<C> MakeSample(C y, C x, int64_t height, int64_t width) {
  Sample<C> sample;
  if (y < C(-1) || y > static_cast<C>(height) || x < C(-1) || x > static_cast<C>(width)) {
    return sample;
  }
  y = std::max(y, C(0));
  x = std::max(x, C(0));
  auto y_low = static_cast<int64_t>(y);
  auto x_low = static_cast<int64_t>(x);
  int64_t y_high = y_low + 1;
  int64_t x_high = x_low + 1;
  if (y_low >= height - 1) {
    y_low = y_high = height - 1;
    y = static_cast<C>(y_low);
  }
  if (x_low >= width - 1) {
    x_low = x_high = width - 1;
    x = static_cast<C>(x_low);
  }
  const C ly = y - static_cast<C>(y_low), lx = x - static_cast<C>(x_low);
  const C hy = C(1) - ly, hx = C(1) - lx;
  sample.offsets[0] = y_low * width + x_low;
  sample.offsets[1] = y_low * width + x_high;
  sample.offsets[2] = y_high * width + x_low;
  sample.offsets[3] = y_high * width + x_high;
  sample.weights[0] = hy * hx;
  sample.weights[1] = hy * lx;
  sample.weights[2] = ly * hx;
  sample.weights[3] = ly * lx;
  return sample;
}

class RoiAlign final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const std::string mode, info.GetAttributeOr<std::string>("mode", "avg"));
    if (mode != "avg" && mode != "max") {
      return ORT_ERROR(kInvalidArgument, "mode must be 'avg' or 'max', got '{}'", mode);
    }
    max_mode_ = mode == "max";
    ORT_ASSIGN_OR_RETURN(output_height_, info.GetAttributeOr<int64_t>("output_height", 1));
    ORT_ASSIGN_OR_RETURN(output_width_, info.GetAttributeOr<int64_t>("output_width", 1));
    ORT_ASSIGN_OR_RETURN(sampling_ratio_, info.GetAttributeOr<int64_t>("sampling_ratio", 0));
    ORT_ASSIGN_OR_RETURN(spatial_scale_, info.GetAttributeOr<float>("spatial_scale", 1.0f));
    if (output_height_ <= 0 || output_width_ <= 0 || sampling_ratio_ < 0) {
      return ORT_ERROR(kInvalidArgument,
                       "output_height and output_width must be positive and sampling_ratio >= 0");
    }
    const std::string fallback = info.opset() >= 16 ? "half_pixel" : "output_half_pixel";
    ORT_ASSIGN_OR_RETURN(
        const std::string transform,
        info.GetAttributeOr<std::string>("coordinate_transformation_mode", fallback));
    if (transform != "half_pixel" && transform != "output_half_pixel") {
      return ORT_ERROR(kInvalidArgument, "unknown coordinate_transformation_mode '{}'", transform);
    }
    half_pixel_ = transform == "half_pixel";
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* rois, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* batch_indices, context.RequiredInput(2));
    const TensorShape& xs = x->shape();
    if (xs.rank() != 4) return context.Error("X {} must be [N, C, H, W]", xs.ToString());
    if (rois->shape().rank() != 2 || rois->shape()[1] != 4) {
      return context.Error("rois {} must be [num_rois, 4]", rois->shape().ToString());
    }
    const int64_t num_rois = rois->shape()[0];
    if (batch_indices->shape() != TensorShape{num_rois}) {
      return context.Error("batch_indices {} must be [{}]", batch_indices->shape().ToString(),
                           num_rois);
    }
    ORT_ASSIGN_OR_RETURN(const std::vector<int64_t> batches, ReadInt64Values(*batch_indices));
    for (int64_t i = 0; i < num_rois; ++i) {
      if (batches[i] < 0 || batches[i] >= xs[0]) {
        return context.Error("batch index {} of roi {} is outside [0, {})", batches[i], i, xs[0]);
      }
    }
    ORT_ASSIGN_OR_RETURN(
        Tensor * y,
        context.Output(0, x->dtype(), TensorShape{num_rois, xs[1], output_height_, output_width_}));
    return DispatchByType<FloatTypes>(x->dtype(), "RoiAlign", [&]<typename T>() {
      using C = ComputeType<T>;
      ORT_ASSIGN_OR_RETURN(const std::vector<C> boxes, ReadFloatParams<C>(*rois));
      const int64_t channels = xs[1], height = xs[2], width = xs[3];
      const T* in = x->Data<T>();
      T* out = y->MutableData<T>();
      const int64_t bins = output_height_ * output_width_;
      ThreadPool::TryParallelFor(
          context.thread_pool(), num_rois, static_cast<double>(channels * bins * 16),
          [&](int64_t begin, int64_t end) {
            for (int64_t r = begin; r < end; ++r) {
              RunRoi<T, C>(&boxes[r * 4], in + batches[r] * channels * height * width, channels,
                           height, width, out + r * channels * bins);
            }
          });
      return Status::OK();
    });
  }

 private:
  template <typename T, typename C>
  void RunRoi(const C* box, const T* image, int64_t channels, int64_t height, int64_t width,
              T* out) const {
    const C offset = half_pixel_ ? C(0.5) : C(0);
    const C scale = static_cast<C>(spatial_scale_);
    const C start_w = box[0] * scale - offset, start_h = box[1] * scale - offset;
    C roi_w = box[2] * scale - offset - start_w;
    C roi_h = box[3] * scale - offset - start_h;
    if (!half_pixel_) {
      roi_w = std::max(roi_w, C(1));
      roi_h = std::max(roi_h, C(1));
    }
    const C bin_h = roi_h / static_cast<C>(output_height_);
    const C bin_w = roi_w / static_cast<C>(output_width_);
    const int64_t grid_h = sampling_ratio_ > 0
                               ? sampling_ratio_
                               : static_cast<int64_t>(std::ceil(roi_h / output_height_));
    const int64_t grid_w = sampling_ratio_ > 0
                               ? sampling_ratio_
                               : static_cast<int64_t>(std::ceil(roi_w / output_width_));
    const C count = static_cast<C>(std::max<int64_t>(grid_h * grid_w, 1));
    // The sample positions are shared by every channel.
    std::vector<Sample<C>> samples;
    samples.reserve(static_cast<size_t>(output_height_ * output_width_ * grid_h * grid_w));
    for (int64_t ph = 0; ph < output_height_; ++ph) {
      for (int64_t pw = 0; pw < output_width_; ++pw) {
        for (int64_t iy = 0; iy < grid_h; ++iy) {
          const C yy = start_h + static_cast<C>(ph) * bin_h +
                       (static_cast<C>(iy) + C(0.5)) * bin_h / static_cast<C>(grid_h);
          for (int64_t ix = 0; ix < grid_w; ++ix) {
            const C xx = start_w + static_cast<C>(pw) * bin_w +
                         (static_cast<C>(ix) + C(0.5)) * bin_w / static_cast<C>(grid_w);
            samples.push_back(MakeSample<C>(yy, xx, height, width));
          }
        }
      }
    }
    const int64_t per_bin = grid_h * grid_w;
    const int64_t bins = output_height_ * output_width_;
    for (int64_t c = 0; c < channels; ++c) {
      const T* plane = image + c * height * width;
      for (int64_t bin = 0; bin < bins; ++bin) {
        C value = C(0);
        for (int64_t s = 0; s < per_bin; ++s) {
          const Sample<C>& sample = samples[bin * per_bin + s];
          if (max_mode_) {
            // As ONNX Runtime and the ONNX reference: the largest weighted corner.
            for (int corner = 0; corner < 4; ++corner) {
              const C weighted = sample.weights[corner] * C(plane[sample.offsets[corner]]);
              value = (s == 0 && corner == 0) ? weighted : std::max(value, weighted);
            }
          } else {
            for (int corner = 0; corner < 4; ++corner) {
              value += sample.weights[corner] * C(plane[sample.offsets[corner]]);
            }
          }
        }
        out[c * bins + bin] = static_cast<T>(max_mode_ ? value : value / count);
      }
    }
  }

  bool max_mode_ = false;
  bool half_pixel_ = true;
  int64_t output_height_ = 1;
  int64_t output_width_ = 1;
  int64_t sampling_ratio_ = 0;
  float spatial_scale_ = 1.0f;
};

}  // namespace

void RegisterRoiAlignKernels(KernelRegistry& registry) {
  const auto types = FloatTypes::DataTypes();
  registry.Add<RoiAlign>(KernelDef("RoiAlign").Versions(10, 15).Input(0, types).HostInput(2));
  registry.Add<RoiAlign>(KernelDef("RoiAlign").Versions(16).Input(0, types).HostInput(2));
}

}  // namespace ort
