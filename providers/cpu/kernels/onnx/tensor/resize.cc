// Resize (opsets 10, 11, 13, 18+) and Upsample (7, 9). Resize-10 and Upsample use asymmetric
// coordinates and the legacy nearest rounding; 11+ read every attribute of the spec; 18 adds
// antialias, axes and keep_aspect_ratio_policy (and half_pixel_symmetric, from 19, is accepted).
// Nearest mode is an index map per axis (any element type); linear and cubic interpolate one
// axis at a time.
#include <algorithm>
#include <cmath>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/tensor/resize_interpolation.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

enum class AspectPolicy { kStretch, kNotLarger, kNotSmaller };

Status BadAttribute(const KernelInfo& info, std::string_view name, const std::string& value) {
  return ORT_ERROR(kInvalidModel, "unsupported {} '{}'", name, value)
      .WithNode(info.node().Describe());
}

// Reads a float, double or float16 tensor as doubles.
Result<std::vector<double>> ReadReals(const Tensor& tensor) {
  std::vector<double> values(static_cast<size_t>(tensor.NumElements()));
  Status status = DispatchByType<FloatTypes>(tensor.dtype(), "Resize", [&]<typename T>() {
    const T* data = tensor.Data<T>();
    for (size_t i = 0; i < values.size(); ++i) {
      values[i] = static_cast<double>(static_cast<ComputeType<T>>(data[i]));
    }
    return Status::OK();
  });
  if (!status.ok()) return status;
  return values;
}

class Resize final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    upsample_ = info.node().op_type() == "Upsample";
    opset_ = info.opset();
    legacy_ = upsample_ || opset_ < 11;
    ORT_ASSIGN_OR_RETURN(const std::string mode,
                         info.GetAttributeOr<std::string>("mode", "nearest"));
    if (mode == "nearest") {
      options_.mode = ResizeMode::kNearest;
    } else if (mode == "linear" || (legacy_ && mode == "bilinear")) {
      options_.mode = ResizeMode::kLinear;
    } else if (mode == "cubic" && !legacy_) {
      options_.mode = ResizeMode::kCubic;
    } else {
      return BadAttribute(info, "mode", mode);
    }
    if (legacy_) {
      options_.coordinate = CoordinateMode::kAsymmetric;
      options_.nearest = NearestMode::kSimple;
      if (upsample_ && opset_ < 9) {
        ORT_ASSIGN_OR_RETURN(scales_attribute_, info.GetAttribute<std::vector<float>>("scales"));
      }
      return Status::OK();
    }
    ORT_RETURN_IF_ERROR(ParseOptions(info));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    const size_t rank = data->shape().rank();
    std::vector<ResizeAxis> axes(rank);
    for (size_t d = 0; d < rank; ++d) {
      axes[d].in = data->shape()[d];
      axes[d].out = axes[d].in;
      axes[d].out_length = static_cast<double>(axes[d].in);
    }
    ORT_RETURN_IF_ERROR(legacy_ ? LegacyAxes(context, axes) : ModernAxes(context, axes));
    std::vector<int64_t> out_dims(rank);
    for (size_t d = 0; d < rank; ++d) {
      out_dims[d] = axes[d].out;
      if (axes[d].in == 0 && axes[d].out > 0) {
        return context.Error("cannot resize the empty axis {} to {}", d, axes[d].out);
      }
    }
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, data->dtype(), TensorShape(out_dims)));
    if (output->NumElements() == 0) return Status::OK();
    if (options_.mode != ResizeMode::kNearest) {
      return Interpolate(options_, axes, *data, *output, context.thread_pool());
    }
    std::vector<std::vector<int64_t>> maps(rank);
    for (size_t d = 0; d < rank; ++d) maps[d] = NearestIndexMap(options_, axes[d]);
    // The extrapolation value as an element of the data type (zero for non-numeric types).
    alignas(16) unsigned char fill[16] = {};
    DispatchByType<NumericTypes>(data->dtype(), "", [&]<typename T>() {
      *reinterpret_cast<T*>(fill) =
          static_cast<T>(static_cast<ComputeType<T>>(options_.extrapolation_value));
      return Status::OK();
    }).IgnoreError();
    const bool numeric = data->dtype() != DataType::kString;
    AxisMapCopy(data->dtype(), data->RawData(), data->shape().dims(), output->MutableRawData(),
                out_dims, maps, numeric ? fill : nullptr, context.thread_pool());
    return Status::OK();
  }

 private:
  Status ParseOptions(const KernelInfo& info) {
    ORT_ASSIGN_OR_RETURN(
        const std::string coordinate,
        info.GetAttributeOr<std::string>("coordinate_transformation_mode", "half_pixel"));
    if (coordinate == "half_pixel") {
      options_.coordinate = CoordinateMode::kHalfPixel;
    } else if (coordinate == "half_pixel_symmetric" && opset_ >= 18) {
      options_.coordinate = CoordinateMode::kHalfPixelSymmetric;
    } else if (coordinate == "pytorch_half_pixel") {
      options_.coordinate = CoordinateMode::kPytorchHalfPixel;
    } else if (coordinate == "align_corners") {
      options_.coordinate = CoordinateMode::kAlignCorners;
    } else if (coordinate == "asymmetric") {
      options_.coordinate = CoordinateMode::kAsymmetric;
    } else if (coordinate == "tf_half_pixel_for_nn" && opset_ < 13) {
      options_.coordinate = CoordinateMode::kTfHalfPixelForNn;
    } else if (coordinate == "tf_crop_and_resize") {
      options_.coordinate = CoordinateMode::kTfCropAndResize;
    } else {
      return BadAttribute(info, "coordinate_transformation_mode", coordinate);
    }
    ORT_ASSIGN_OR_RETURN(const std::string nearest,
                         info.GetAttributeOr<std::string>("nearest_mode", "round_prefer_floor"));
    if (nearest == "round_prefer_floor") {
      options_.nearest = NearestMode::kRoundPreferFloor;
    } else if (nearest == "round_prefer_ceil") {
      options_.nearest = NearestMode::kRoundPreferCeil;
    } else if (nearest == "floor") {
      options_.nearest = NearestMode::kFloor;
    } else if (nearest == "ceil") {
      options_.nearest = NearestMode::kCeil;
    } else {
      return BadAttribute(info, "nearest_mode", nearest);
    }
    ORT_ASSIGN_OR_RETURN(const float cubic_a, info.GetAttributeOr<float>("cubic_coeff_a", -0.75f));
    options_.cubic_a = cubic_a;
    ORT_ASSIGN_OR_RETURN(const int64_t exclude, info.GetAttributeOr<int64_t>("exclude_outside", 0));
    options_.exclude_outside = exclude != 0;
    ORT_ASSIGN_OR_RETURN(options_.extrapolation_value,
                         info.GetAttributeOr<float>("extrapolation_value", 0.0f));
    if (opset_ >= 18) {
      ORT_ASSIGN_OR_RETURN(const int64_t antialias, info.GetAttributeOr<int64_t>("antialias", 0));
      options_.antialias = antialias != 0;
      has_axes_ = info.HasAttribute("axes");
      ORT_ASSIGN_OR_RETURN(axes_attribute_, info.GetAttributeOr<std::vector<int64_t>>("axes", {}));
      ORT_ASSIGN_OR_RETURN(const std::string policy,
                           info.GetAttributeOr<std::string>("keep_aspect_ratio_policy", "stretch"));
      if (policy == "stretch") {
        policy_ = AspectPolicy::kStretch;
      } else if (policy == "not_larger") {
        policy_ = AspectPolicy::kNotLarger;
      } else if (policy == "not_smaller") {
        policy_ = AspectPolicy::kNotSmaller;
      } else {
        return BadAttribute(info, "keep_aspect_ratio_policy", policy);
      }
    }
    return Status::OK();
  }

  // Resize-10 and Upsample: scales only, output size floor(in * scale).
  Status LegacyAxes(const KernelContext& context, std::vector<ResizeAxis>& axes) const {
    std::vector<double> scales(scales_attribute_.begin(), scales_attribute_.end());
    if (!upsample_ || opset_ >= 9) {
      ORT_ASSIGN_OR_RETURN(const Tensor* tensor, context.RequiredInput(1));
      auto read = ReadReals(*tensor);
      if (!read.ok()) return context.Error("scales: {}", read.status().message());
      scales = std::move(read).value();
    }
    if (scales.size() != axes.size()) {
      return context.Error("scales has {} entries for rank {}", scales.size(), axes.size());
    }
    for (size_t d = 0; d < axes.size(); ++d) {
      if (!(scales[d] > 0.0) || (upsample_ && scales[d] < 1.0) || !std::isfinite(scales[d])) {
        return context.Error("invalid scale {} for axis {}", scales[d], d);
      }
      if (!SetScale(axes[d], scales[d])) return context.Error("scale {} is too large", scales[d]);
    }
    return Status::OK();
  }

  // Resize-11+: roi, scales or sizes, optionally over a subset of axes (18+).
  Status ModernAxes(const KernelContext& context, std::vector<ResizeAxis>& axes) const {
    const size_t rank = axes.size();
    std::vector<size_t> selected;
    if (has_axes_) {
      for (int64_t axis : axes_attribute_) {
        auto normalized = NormalizeAxis(axis, rank);
        if (!normalized.ok()) return context.Error("{}", normalized.status().message());
        if (std::find(selected.begin(), selected.end(), *normalized) != selected.end()) {
          return context.Error("axis {} is repeated", axis);
        }
        selected.push_back(*normalized);
      }
    } else {
      for (size_t d = 0; d < rank; ++d) selected.push_back(d);
    }
    const size_t count = selected.size();
    const Tensor* scales = context.Input(2);
    const Tensor* sizes = context.Input(3);
    if (scales != nullptr && scales->NumElements() == 0) scales = nullptr;
    if (sizes != nullptr && sizes->NumElements() == 0) sizes = nullptr;
    if ((scales == nullptr) == (sizes == nullptr)) {
      return context.Error("exactly one of scales and sizes must be given");
    }
    if (options_.coordinate == CoordinateMode::kTfCropAndResize) {
      const Tensor* roi = context.Input(1);
      if (roi == nullptr) return context.Error("tf_crop_and_resize needs roi");
      auto values = ReadReals(*roi);
      if (!values.ok() || values->size() != 2 * count) {
        return context.Error("roi must hold {} values", 2 * count);
      }
      for (size_t i = 0; i < count; ++i) {
        axes[selected[i]].roi_start = (*values)[i];
        axes[selected[i]].roi_end = (*values)[i + count];
      }
    }
    if (scales != nullptr) {
      auto values = ReadReals(*scales);
      if (!values.ok() || values->size() != count) {
        return context.Error("scales must hold {} values", count);
      }
      for (size_t i = 0; i < count; ++i) {
        const double scale = (*values)[i];
        if (!(scale > 0.0) || !std::isfinite(scale) || !SetScale(axes[selected[i]], scale)) {
          return context.Error("invalid scale {} for axis {}", scale, selected[i]);
        }
      }
      return Status::OK();
    }
    auto values = ReadInt64Values(*sizes);
    if (!values.ok() || values->size() != count) {
      return context.Error("sizes must hold {} int64 values", count);
    }
    for (int64_t size : *values) {
      if (size < 0) return context.Error("sizes must not be negative");
    }
    if (policy_ == AspectPolicy::kStretch) {
      for (size_t i = 0; i < count; ++i) {
        ResizeAxis& axis = axes[selected[i]];
        axis.out = (*values)[i];
        axis.out_length = static_cast<double>(axis.out);
        axis.scale = axis.in > 0 ? axis.out_length / static_cast<double>(axis.in) : 1.0;
      }
      return Status::OK();
    }
    // One scale for every selected axis, the largest (not_larger: smallest) that fits.
    double scale = policy_ == AspectPolicy::kNotLarger ? HUGE_VAL : 0.0;
    for (size_t i = 0; i < count; ++i) {
      const ResizeAxis& axis = axes[selected[i]];
      if (axis.in == 0) continue;
      const double ratio = static_cast<double>((*values)[i]) / static_cast<double>(axis.in);
      scale = policy_ == AspectPolicy::kNotLarger ? std::min(scale, ratio) : std::max(scale, ratio);
    }
    if (!(scale > 0.0) || !std::isfinite(scale) || scale > 1e15) {
      return context.Error("sizes do not define a valid scale");
    }
    for (size_t i = 0; i < count; ++i) {
      ResizeAxis& axis = axes[selected[i]];
      axis.scale = scale;
      axis.out_length = scale * static_cast<double>(axis.in);
      if (axis.out_length > 1e15) return context.Error("scale {} is too large", scale);
      axis.out = static_cast<int64_t>(std::floor(axis.out_length + 0.5));
    }
    return Status::OK();
  }

  // False when the output size would be absurdly large.
  [[nodiscard]] static bool SetScale(ResizeAxis& axis, double scale) {
    if (scale * static_cast<double>(axis.in) > 1e15) return false;
    axis.scale = scale;
    axis.out_length = scale * static_cast<double>(axis.in);
    axis.out = static_cast<int64_t>(std::floor(axis.out_length));
    return true;
  }

  bool upsample_ = false;
  bool legacy_ = false;
  int64_t opset_ = 0;
  ResizeOptions options_;
  std::vector<float> scales_attribute_;
  bool has_axes_ = false;
  std::vector<int64_t> axes_attribute_;
  AspectPolicy policy_ = AspectPolicy::kStretch;
};

}  // namespace

void RegisterResizeKernels(KernelRegistry& registry) {
  registry.Add<Resize>(KernelDef("Resize")
                           .Versions(10)
                           .Input(0, AllDataTypes())
                           .HostInput(1)
                           .HostInput(2)
                           .HostInput(3));
  registry.Add<Resize>(KernelDef("Upsample").Versions(7, 9).Input(0, AllDataTypes()).HostInput(1));
}

}  // namespace ort
