// Crop, the experimental opset-1 op ONNX Runtime keeps: an NCHW image cut to
// [top, H - bottom) x [left, W - right) by `border` (left, top, right, bottom), or to a
// `scale` (height, width) window at (top, left) when given. One strided copy.
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class Crop final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(border_, info.GetAttribute<std::vector<int64_t>>("border"));
    ORT_ASSIGN_OR_RETURN(scale_, info.GetAttributeOr<std::vector<int64_t>>("scale", {}));
    if (border_.size() != 4 || (!scale_.empty() && scale_.size() != 2)) {
      return ORT_ERROR(kInvalidModel, "border needs 4 values and scale 2, got {} and {}",
                       border_.size(), scale_.size())
          .WithNode(info.node().Describe());
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    if (xs.rank() != 4) return context.Error("X must be NCHW, got {}", x->Describe());
    const int64_t left = border_[0], top = border_[1], right = border_[2], bottom = border_[3];
    const int64_t out_h = scale_.empty() ? xs[2] - top - bottom : scale_[0];
    const int64_t out_w = scale_.empty() ? xs[3] - left - right : scale_[1];
    if (left < 0 || top < 0 || out_h < 0 || out_w < 0 || top + out_h > xs[2] ||
        left + out_w > xs[3]) {
      return context.Error("border {} {} {} {}{} does not fit {}", left, top, right, bottom,
                           scale_.empty() ? "" : " with scale", x->Describe());
    }
    const std::vector<int64_t> dims = {xs[0], xs[1], out_h, out_w};
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), TensorShape(dims)));
    const std::vector<int64_t> strides = ContiguousStrides(xs);
    StridedCopy(x->dtype(), dims, ElementAt(x->RawData(), x->dtype(), top * strides[2] + left),
                strides, y->MutableRawData(), ContiguousStrides(TensorShape(dims)),
                context.thread_pool());
    return Status::OK();
  }

 private:
  std::vector<int64_t> border_;
  std::vector<int64_t> scale_;
};

}  // namespace

void RegisterCropKernels(KernelRegistry& registry) {
  registry.Add<Crop>(KernelDef("Crop").Versions(1).Input(0, {DataType::kFloat}));
}

}  // namespace ort
