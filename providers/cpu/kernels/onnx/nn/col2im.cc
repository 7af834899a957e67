// Col2Im (opset 18): rearranges [N, C * prod(block_shape), L] column blocks into an
// [N, C, image_shape...] image, summing overlapping entries (the adjoint of im2col).
#include <fmt/ranges.h>

#include "providers/common/nn/window_attributes.h"
#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/common/im2col.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

class Col2ImOp final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override { return attributes_.Parse(info, false); }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* image_shape, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* block_shape, context.RequiredInput(2));
    ORT_ASSIGN_OR_RETURN(const std::vector<int64_t> image, ReadInt64Values(*image_shape));
    ORT_ASSIGN_OR_RETURN(const std::vector<int64_t> block, ReadInt64Values(*block_shape));
    const TensorShape& shape = input->shape();
    if (shape.rank() != 3)
      return context.Error("input {} must be [N, C * prod(block), L]", shape.ToString());
    if (image.empty() || image.size() != block.size() || image.size() > kMaxSpatialRank) {
      return context.Error("image_shape [{}] and block_shape [{}] need the same 1 to {} dims",
                           fmt::join(image, ","), fmt::join(block, ","), kMaxSpatialRank);
    }
    for (size_t i = 0; i < block.size(); ++i) {
      if (block[i] <= 0 || image[i] < 0) {
        return context.Error("block_shape must be positive and image_shape non-negative");
      }
    }
    auto geometry = ResolveWindow(attributes_, image, block, false);
    if (!geometry.ok()) return context.Error("{}", geometry.status().message());
    const int64_t block_size = geometry->KernelSize();
    if (shape[1] % block_size != 0 || shape[2] != geometry->OutputSize()) {
      return context.Error(
          "input {} does not fit: dim 1 must be a multiple of {} and dim 2 must "
          "be {} block positions",
          shape.ToString(), block_size, geometry->OutputSize());
    }
    const int64_t channels = shape[1] / block_size;
    std::vector<int64_t> y_dims = {shape[0], channels};
    y_dims.insert(y_dims.end(), image.begin(), image.end());
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, input->dtype(), TensorShape(y_dims)));
    const ConvGeometryView view{channels,          geometry->input,     geometry->kernel,
                                geometry->strides, geometry->dilations, geometry->pads,
                                geometry->output};
    const int64_t image_size = channels * geometry->InputSize();
    const int64_t column_size = shape[1] * shape[2];
    return DispatchByType<NumericTypes>(input->dtype(), "Col2Im", [&]<typename T>() {
      const T* in = input->Data<T>();
      T* out = y->MutableData<T>();
      std::fill(out, out + y->NumElements(), T(0.0f));
      for (int64_t n = 0; n < shape[0]; ++n) {
        if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
          std::vector<float> column(in + n * column_size, in + (n + 1) * column_size);
          std::vector<float> sums(static_cast<size_t>(image_size), 0.0f);
          Col2Im<float>(view, column.data(), sums.data(), context.thread_pool());
          for (int64_t i = 0; i < image_size; ++i) out[n * image_size + i] = T(sums[i]);
        } else {
          Col2Im<T>(view, in + n * column_size, out + n * image_size, context.thread_pool());
        }
      }
      return Status::OK();
    });
  }

 private:
  WindowAttributes attributes_;
};

}  // namespace

void RegisterCol2ImKernels(KernelRegistry& registry) {
  registry.Add<Col2ImOp>(KernelDef("Col2Im")
                             .Versions(18)
                             .Input(0, NumericTypes::DataTypes())
                             .HostInput(1)
                             .HostInput(2));
}

}  // namespace ort
