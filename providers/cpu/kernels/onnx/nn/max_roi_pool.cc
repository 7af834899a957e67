// MaxRoiPool (Fast R-CNN): each region of interest, scaled to the feature map and rounded to whole
// pixels, is split into a pooled_shape grid of bins; each bin takes the maximum of its pixels and
// an empty bin gives 0, matching the Caffe formulation ONNX Runtime follows.
#include <algorithm>
#include <cmath>
#include <limits>

#include "providers/cpu/kernels/onnx/nn/float_params.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

class MaxRoiPool final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const std::vector<int64_t> pooled,
                         info.GetAttribute<std::vector<int64_t>>("pooled_shape"));
    if (pooled.size() != 2 || pooled[0] <= 0 || pooled[1] <= 0) {
      return ORT_ERROR(kInvalidArgument, "pooled_shape must be two positive sizes");
    }
    pooled_height_ = pooled[0];
    pooled_width_ = pooled[1];
    ORT_ASSIGN_OR_RETURN(spatial_scale_, info.GetAttributeOr<float>("spatial_scale", 1.0f));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* rois, context.RequiredInput(1));
    const TensorShape& xs = x->shape();
    if (xs.rank() != 4) return context.Error("X {} must be [N, C, H, W]", xs.ToString());
    if (rois->shape().rank() != 2 || rois->shape()[1] != 5) {
      return context.Error("rois {} must be [num_rois, 5]", rois->shape().ToString());
    }
    const int64_t num_rois = rois->shape()[0];
    const int64_t channels = xs[1], height = xs[2], width = xs[3];
    ORT_ASSIGN_OR_RETURN(
        Tensor * y, context.Output(0, x->dtype(),
                                   TensorShape{num_rois, channels, pooled_height_, pooled_width_}));
    ORT_ASSIGN_OR_RETURN(const std::vector<double> boxes, ReadFloatParams<double>(*rois));
    for (int64_t r = 0; r < num_rois; ++r) {
      const double batch = boxes[r * 5];
      if (batch < 0 || batch >= static_cast<double>(xs[0])) {
        return context.Error("roi {} refers to batch {} of {}", r, batch, xs[0]);
      }
    }
    return DispatchByType<TypeList<float, double>>(x->dtype(), "MaxRoiPool", [&]<typename T>() {
      const T* in = x->Data<T>();
      T* out = y->MutableData<T>();
      for (int64_t r = 0; r < num_rois; ++r) {
        const double* box = &boxes[r * 5];
        const int64_t batch = static_cast<int64_t>(box[0]);
        const int64_t start_w = std::lround(box[1] * spatial_scale_);
        const int64_t start_h = std::lround(box[2] * spatial_scale_);
        const int64_t end_w = std::lround(box[3] * spatial_scale_);
        const int64_t end_h = std::lround(box[4] * spatial_scale_);
        const double bin_h =
            static_cast<double>(std::max<int64_t>(end_h - start_h + 1, 1)) / pooled_height_;
        const double bin_w =
            static_cast<double>(std::max<int64_t>(end_w - start_w + 1, 1)) / pooled_width_;
        for (int64_t c = 0; c < channels; ++c) {
          const T* plane = in + (batch * channels + c) * height * width;
          T* dst = out + (r * channels + c) * pooled_height_ * pooled_width_;
          for (int64_t ph = 0; ph < pooled_height_; ++ph) {
            const int64_t h0 = std::clamp<int64_t>(
                static_cast<int64_t>(std::floor(ph * bin_h)) + start_h, 0, height);
            const int64_t h1 = std::clamp<int64_t>(
                static_cast<int64_t>(std::ceil((ph + 1) * bin_h)) + start_h, 0, height);
            for (int64_t pw = 0; pw < pooled_width_; ++pw) {
              const int64_t w0 = std::clamp<int64_t>(
                  static_cast<int64_t>(std::floor(pw * bin_w)) + start_w, 0, width);
              const int64_t w1 = std::clamp<int64_t>(
                  static_cast<int64_t>(std::ceil((pw + 1) * bin_w)) + start_w, 0, width);
              T best = h1 <= h0 || w1 <= w0 ? T(0) : std::numeric_limits<T>::lowest();
              for (int64_t h = h0; h < h1; ++h) {
                for (int64_t w = w0; w < w1; ++w) best = std::max(best, plane[h * width + w]);
              }
              dst[ph * pooled_width_ + pw] = best;
            }
          }
        }
      }
      return Status::OK();
    });
  }

 private:
  int64_t pooled_height_ = 1;
  int64_t pooled_width_ = 1;
  float spatial_scale_ = 1.0f;
};

}  // namespace

void RegisterMaxRoiPoolKernels(KernelRegistry& registry) {
  registry.Add<MaxRoiPool>(
      KernelDef("MaxRoiPool").Versions(1).Input(0, TypeList<float, double>::DataTypes()));
}

}  // namespace ort
