// NonMaxSuppression (opsets 10, 11): per batch and class, boxes scoring above score_threshold are
// taken in decreasing score order (ties: lower index first) and kept unless their IoU with an
// already kept box exceeds iou_threshold, up to max_output_boxes_per_class boxes. Output rows
// are [batch, class, box], grouped by batch then class, in selection order.
#include <algorithm>
#include <numeric>

#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/onnx/object_detection/object_detection_kernels.h"

namespace ort {
namespace {

// A box as its min/max corners.
struct Corners {
  float y_min, x_min, y_max, x_max;
  float Area() const { return (y_max - y_min) * (x_max - x_min); }
};

Corners ToCorners(const float* box, bool center_point) {
  if (center_point) {
    // [x_center, y_center, width, height]
    const float half_w = box[2] / 2, half_h = box[3] / 2;
    return {box[1] - half_h, box[0] - half_w, box[1] + half_h, box[0] + half_w};
  }
  // [y1, x1, y2, x2]: any two opposite corners.
  return {std::min(box[0], box[2]), std::min(box[1], box[3]), std::max(box[0], box[2]),
          std::max(box[1], box[3])};
}

// The kept boxes of one class as columns, so that a candidate is tested against 16 of them per
// instruction: torchvision's batched NMS offsets every class into one call, where each candidate
// meets thousands of kept boxes. The float operations are the scalar test's, in its order, so the
// decisions are the same.
class KeptBoxes {
 public:
  void Clear() { y_min_.clear(), x_min_.clear(), y_max_.clear(), x_max_.clear(), area_.clear(); }
  size_t size() const { return area_.size(); }
  void Add(const Corners& box) {
    y_min_.push_back(box.y_min), x_min_.push_back(box.x_min), y_max_.push_back(box.y_max);
    x_max_.push_back(box.x_max), area_.push_back(box.Area());
  }

  // Whether a kept box has IoU above iou_threshold with `box` (boxes without area overlap none).
  bool AnyOverlaps(const Corners& box, float iou_threshold) const {
    const float area = box.Area();
    if (!(area > 0)) return false;
    constexpr size_t kBlock = 16;
    bool overlaps = false;
    Vectorized([&] {
      for (size_t start = 0; start < size() && !overlaps; start += kBlock) {
        const size_t end = std::min(size(), start + kBlock);
        int hits = 0;
        for (size_t k = start; k < end; ++k) {
          const float y0 = std::max(y_min_[k], box.y_min), x0 = std::max(x_min_[k], box.x_min);
          const float y1 = std::min(y_max_[k], box.y_max), x1 = std::min(x_max_[k], box.x_max);
          const float intersection = std::max(0.0f, y1 - y0) * std::max(0.0f, x1 - x0);
          const float iou = intersection / (area_[k] + area - intersection);
          hits |= static_cast<int>(area_[k] > 0) & static_cast<int>(intersection > 0) &
                  static_cast<int>(iou > iou_threshold);
        }
        overlaps = hits != 0;
      }
    });
    return overlaps;
  }

 private:
  std::vector<float> y_min_, x_min_, y_max_, x_max_, area_;
};

Result<float> ReadFloatScalar(const KernelContext& context, size_t index, float fallback) {
  const Tensor* tensor = context.Input(index);
  if (tensor == nullptr) return fallback;
  if (tensor->dtype() != DataType::kFloat || tensor->NumElements() != 1) {
    return context.Error("input {} must be a single float, got {}", index, tensor->Describe());
  }
  return tensor->Data<float>()[0];
}

class NonMaxSuppression final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(int64_t center, info.GetAttributeOr<int64_t>("center_point_box", 0));
    if (center != 0 && center != 1) {
      return ORT_ERROR(kInvalidModel, "center_point_box must be 0 or 1, got {}", center)
          .WithNode(info.node().Describe());
    }
    center_point_ = center == 1;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* boxes, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* scores, context.RequiredInput(1));
    if (boxes->dtype() != DataType::kFloat || scores->dtype() != DataType::kFloat) {
      return context.Error("boxes and scores must be float, got {} and {}", boxes->Describe(),
                           scores->Describe());
    }
    const TensorShape& box_shape = boxes->shape();
    const TensorShape& score_shape = scores->shape();
    if (box_shape.rank() != 3 || box_shape[2] != 4) {
      return context.Error("boxes must be [batches, boxes, 4], got {}", box_shape.ToString());
    }
    if (score_shape.rank() != 3 || score_shape[0] != box_shape[0] ||
        score_shape[2] != box_shape[1]) {
      return context.Error("scores must be [{}, classes, {}], got {}", box_shape[0], box_shape[1],
                           score_shape.ToString());
    }
    int64_t max_per_class = 0;
    if (const Tensor* max_tensor = context.Input(2)) {
      if (max_tensor->dtype() != DataType::kInt64 || max_tensor->NumElements() != 1) {
        return context.Error("max_output_boxes_per_class must be a single int64, got {}",
                             max_tensor->Describe());
      }
      max_per_class = max_tensor->Data<int64_t>()[0];
    }
    ORT_ASSIGN_OR_RETURN(float iou_threshold, ReadFloatScalar(context, 3, 0.0f));
    if (iou_threshold < 0 || iou_threshold > 1) {
      return context.Error("iou_threshold must be in [0, 1], got {}", iou_threshold);
    }
    const bool has_score_threshold = context.Input(4) != nullptr;
    ORT_ASSIGN_OR_RETURN(float score_threshold, ReadFloatScalar(context, 4, 0.0f));

    const int64_t batches = box_shape[0], count = box_shape[1], classes = score_shape[1];
    std::vector<int64_t> selected;  // flattened [batch, class, box] triples
    if (max_per_class > 0) {
      std::vector<Corners> corners(static_cast<size_t>(count));
      std::vector<int64_t> order;
      KeptBoxes kept;
      for (int64_t b = 0; b < batches; ++b) {
        const float* batch_boxes = boxes->Data<float>() + b * count * 4;
        for (int64_t i = 0; i < count; ++i)
          corners[i] = ToCorners(batch_boxes + i * 4, center_point_);
        for (int64_t c = 0; c < classes; ++c) {
          const float* s = scores->Data<float>() + (b * classes + c) * count;
          order.clear();
          for (int64_t i = 0; i < count; ++i) {
            if (!has_score_threshold || s[i] > score_threshold) order.push_back(i);
          }
          std::stable_sort(order.begin(), order.end(),
                           [&](int64_t x, int64_t y) { return s[x] > s[y]; });
          kept.Clear();
          for (int64_t candidate : order) {
            if (static_cast<int64_t>(kept.size()) >= max_per_class) break;
            if (kept.AnyOverlaps(corners[candidate], iou_threshold)) continue;
            kept.Add(corners[candidate]);
            selected.insert(selected.end(), {b, c, candidate});
          }
        }
      }
    }
    const auto rows = static_cast<int64_t>(selected.size() / 3);
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, DataType::kInt64, TensorShape{rows, 3}));
    std::copy(selected.begin(), selected.end(), output->MutableData<int64_t>());
    return Status::OK();
  }

 private:
  bool center_point_ = false;
};

}  // namespace

void RegisterNonMaxSuppressionKernels(KernelRegistry& registry) {
  const std::vector<DataType> floats = {DataType::kFloat};
  registry.Add<NonMaxSuppression>(
      KernelDef("NonMaxSuppression").Versions(10, 10).Input(0, floats).Input(1, floats));
  registry.Add<NonMaxSuppression>(
      KernelDef("NonMaxSuppression").Versions(11).Input(0, floats).Input(1, floats));
}

}  // namespace ort
