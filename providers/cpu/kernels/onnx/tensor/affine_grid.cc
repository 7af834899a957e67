// AffineGrid (opset 20): the sampling grid GridSample takes for affine matrices theta[N, 2, 3]
// (size [N, C, H, W], grid[N, H, W, 2]) or theta[N, 3, 4] (size [N, C, D, H, W],
// grid[N, D, H, W, 3]). Each output position's normalized coordinates (x, y[, z], 1), evenly
// spread over [-1, 1] (at pixel centers unless align_corners; a length-1 axis sits at -1 with
// align_corners and 0 without), are multiplied by theta.
#include <vector>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class AffineGrid final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const int64_t align, info.GetAttributeOr<int64_t>("align_corners", 0));
    align_corners_ = align != 0;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* theta, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* size_tensor, context.RequiredInput(1));
    auto read = ReadInt64Values(*size_tensor);
    if (!read.ok()) return context.Error("size: {}", read.status().message());
    const std::vector<int64_t>& size = *read;
    const TensorShape& ts = theta->shape();
    const int64_t spatial = static_cast<int64_t>(size.size()) - 2;
    if ((spatial != 2 && spatial != 3) || ts.rank() != 3 || ts[0] != size[0] || ts[1] != spatial ||
        ts[2] != spatial + 1) {
      return context.Error(
          "expects theta [N,2,3] with size [N,C,H,W] or theta [N,3,4] with size "
          "[N,C,D,H,W], got {} and size of {} values",
          theta->Describe(), size.size());
    }
    // Output axes D (3-D only), H, W; coordinates are listed x first.
    std::vector<int64_t> out_dims = {size[0]};
    out_dims.insert(out_dims.end(), size.begin() + 2, size.end());
    out_dims.push_back(spatial);
    ORT_ASSIGN_OR_RETURN(Tensor * grid, context.Output(0, theta->dtype(), TensorShape(out_dims)));
    std::vector<std::vector<double>> coordinates(static_cast<size_t>(spatial));
    for (int64_t k = 0; k < spatial; ++k) {
      // Coordinate k (x, y, z) runs along size axis 2 + spatial - 1 - k.
      const int64_t length = size[static_cast<size_t>(2 + spatial - 1 - k)];
      if (length < 0) return context.Error("size holds a negative length {}", length);
      for (int64_t i = 0; i < length; ++i) {
        const auto n = static_cast<double>(length);
        const double value = align_corners_ ? (length == 1 ? -1.0 : -1.0 + 2.0 * i / (n - 1.0))
                                            : -1.0 + (2.0 * i + 1.0) / n;
        coordinates[k].push_back(value);
      }
    }
    return DispatchByType<FloatTypes>(theta->dtype(), "AffineGrid", [&]<typename T>() {
      using C = ComputeType<T>;
      const T* matrices = theta->Data<T>();
      T* out = grid->MutableData<T>();
      const int64_t points = grid->NumElements() / spatial / size[0];
      const int64_t width = size.back(), height = size[size.size() - 2];
      for (int64_t n = 0; n < size[0]; ++n) {
        const T* m = matrices + n * spatial * (spatial + 1);
        for (int64_t p = 0; p < points; ++p) {
          double point[3] = {coordinates[0][p % width], coordinates[1][p / width % height],
                             spatial == 3 ? coordinates[2][p / width / height] : 0.0};
          for (int64_t r = 0; r < spatial; ++r) {
            double sum = static_cast<double>(static_cast<C>(m[r * (spatial + 1) + spatial]));
            for (int64_t k = 0; k < spatial; ++k) {
              sum += static_cast<double>(static_cast<C>(m[r * (spatial + 1) + k])) * point[k];
            }
            out[(n * points + p) * spatial + r] = static_cast<T>(static_cast<C>(sum));
          }
        }
      }
      return Status::OK();
    });
  }

 private:
  bool align_corners_ = false;
};

}  // namespace

void RegisterAffineGridKernels(KernelRegistry& registry) {
  registry.Add<AffineGrid>(
      KernelDef("AffineGrid").Versions(20).Input(0, FloatTypes::DataTypes()).HostInput(1));
}

}  // namespace ort
