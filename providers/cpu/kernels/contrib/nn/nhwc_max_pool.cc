// com.microsoft NhwcMaxPool: MaxPool of an 8-bit channels-last tensor [N, spatial..., C] (1 to 3
// spatial dims), what the qlinear_nhwc_layout pass makes of a MaxPool between channels-last
// QLinearConvs. Each output pixel takes the maximum of its in-bounds taps over all channels at
// once (vectorized across channels); padding never wins, as in MaxPool.
#include <algorithm>
#include <limits>

#include "providers/common/nn/pool_attributes.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/contrib/contrib_kernels.h"
#include "providers/cpu/kernels/contrib/nn/contrib_nn_kernels.h"

namespace ort {
namespace {

constexpr size_t kMaxSpatialRank = 3;

/// The window geometry on three spatial axes (depth, height, width), lower ranks padded with
/// leading unit axes.
struct Window3 {
  int64_t in[kMaxSpatialRank], out[kMaxSpatialRank], kernel[kMaxSpatialRank];
  int64_t stride[kMaxSpatialRank], dilation[kMaxSpatialRank], pad[kMaxSpatialRank];

  explicit Window3(const WindowGeometry& g) {
    const size_t lead = kMaxSpatialRank - g.rank();
    for (size_t d = 0; d < kMaxSpatialRank; ++d) {
      const bool real = d >= lead;
      in[d] = real ? g.input[d - lead] : 1;
      out[d] = real ? g.output[d - lead] : 1;
      kernel[d] = real ? g.kernel[d - lead] : 1;
      stride[d] = real ? g.strides[d - lead] : 1;
      dilation[d] = real ? g.dilations[d - lead] : 1;
      pad[d] = real ? g.pads[d - lead] : 0;
    }
  }
};

// best[c] = max(best[c], pixel[c]); restrict so that the loop vectorizes.
template <typename T>
void MaxInto(const T* __restrict pixel, int64_t channels, T* __restrict best) {
  for (int64_t c = 0; c < channels; ++c) best[c] = std::max(best[c], pixel[c]);
}

template <typename T>
void PoolRows(const Window3& w, int64_t channels, const T* x, T* y, int64_t first_row,
              int64_t end_row) {
  const int64_t out_rows_per_image = w.out[0] * w.out[1];
  const int64_t in_pixels = w.in[0] * w.in[1] * w.in[2];
  for (int64_t row = first_row; row < end_row; ++row) {
    const int64_t n = row / out_rows_per_image;
    const int64_t od = row % out_rows_per_image / w.out[1], oh = row % w.out[1];
    const T* image = x + n * in_pixels * channels;
    T* out = y + row * w.out[2] * channels;
    for (int64_t ow = 0; ow < w.out[2]; ++ow, out += channels) {
      std::fill(out, out + channels, std::numeric_limits<T>::lowest());
      for (int64_t kd = 0; kd < w.kernel[0]; ++kd) {
        const int64_t id = od * w.stride[0] - w.pad[0] + kd * w.dilation[0];
        if (id < 0 || id >= w.in[0]) continue;
        for (int64_t kh = 0; kh < w.kernel[1]; ++kh) {
          const int64_t ih = oh * w.stride[1] - w.pad[1] + kh * w.dilation[1];
          if (ih < 0 || ih >= w.in[1]) continue;
          for (int64_t kw = 0; kw < w.kernel[2]; ++kw) {
            const int64_t iw = ow * w.stride[2] - w.pad[2] + kw * w.dilation[2];
            if (iw < 0 || iw >= w.in[2]) continue;
            MaxInto(image + ((id * w.in[1] + ih) * w.in[2] + iw) * channels, channels, out);
          }
        }
      }
    }
  }
}

class NhwcMaxPool final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(attributes_.Parse(info, false));
    const size_t rank = attributes_.window.kernel_shape.size();
    if (rank == 0 || rank > kMaxSpatialRank) {
      return ORT_ERROR(kNotImplemented, "NhwcMaxPool supports 1 to 3 spatial dims, got {}", rank);
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    if (xs.rank() != attributes_.window.kernel_shape.size() + 2) {
      return context.Error("X {} must be [N, spatial..., C] with {} spatial dims", x->Describe(),
                           attributes_.window.kernel_shape.size());
    }
    std::vector<int64_t> first_dims = xs.dims();
    std::rotate(first_dims.begin() + 1, first_dims.end() - 1, first_dims.end());
    const TensorShape channels_first(std::move(first_dims));
    ORT_ASSIGN_OR_RETURN(const WindowGeometry geometry,
                         ResolvePoolWindow(context, attributes_, channels_first));
    std::vector<int64_t> y_dims = PoolOutputShape(channels_first, geometry).dims();
    std::rotate(y_dims.begin() + 1, y_dims.begin() + 2, y_dims.end());
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), TensorShape(y_dims)));
    if (y->NumElements() == 0) return Status::OK();
    const Window3 w(geometry);
    const int64_t channels = xs.dims().back();
    const int64_t rows = xs[0] * w.out[0] * w.out[1];
    const double cost = static_cast<double>(w.out[2] * channels * geometry.KernelSize());
    return DispatchByType<TypeList<int8_t, uint8_t>>(x->dtype(), "NhwcMaxPool", [&]<typename T>() {
      const T* in = x->Data<T>();
      T* out = y->MutableData<T>();
      VectorizedParallelFor(context.thread_pool(), rows, cost, [&](int64_t begin, int64_t end) {
        PoolRows<T>(w, channels, in, out, begin, end);
      });
      return Status::OK();
    });
  }

 private:
  PoolAttributes attributes_;
};

}  // namespace

void RegisterNhwcMaxPoolKernels(KernelRegistry& registry) {
  registry.Add<NhwcMaxPool>(KernelDef("NhwcMaxPool", std::string(kMsDomain))
                                .Versions(1)
                                .Input(0, TypeList<int8_t, uint8_t>::DataTypes()));
}

}  // namespace ort
