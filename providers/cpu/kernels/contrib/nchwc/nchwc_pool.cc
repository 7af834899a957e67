// com.microsoft.nchwc MaxPool, AveragePool (2-D windows with pads / auto_pad, strides, ceil_mode;
// dilations for MaxPool, count_include_pad for AveragePool), GlobalMaxPool and
// GlobalAveragePool on blocked tensors: each window reduces whole channel blocks at a time.
#include <algorithm>
#include <limits>
#include <vector>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_kernels.h"
#include "providers/cpu/kernels/onnx/nn/window_attributes.h"

namespace ort {
namespace {

// The widest block any instruction set uses; per-window accumulators live on the stack.
constexpr int64_t kMaxBlock = 16;

Status CheckBlocked(const KernelContext& context, const TensorShape& xs, int64_t block) {
  if (xs.rank() != 4 || xs[1] % block != 0) {
    return context.Error("X {} is not an NCHWc tensor of block {}", xs.ToString(), block);
  }
  return Status::OK();
}

template <bool kMax>
class NchwcPool final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(attributes_.Parse(info, true));
    ORT_ASSIGN_OR_RETURN(const int64_t ceil_mode, info.GetAttributeOr<int64_t>("ceil_mode", 0));
    ceil_mode_ = ceil_mode != 0;
    if constexpr (!kMax) {
      ORT_ASSIGN_OR_RETURN(const int64_t include,
                           info.GetAttributeOr<int64_t>("count_include_pad", 0));
      count_include_pad_ = include != 0;
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    const int64_t block = NchwcBlockSize();
    ORT_RETURN_IF_ERROR(CheckBlocked(context, xs, block));
    auto geometry =
        ResolveWindow(attributes_, {xs.dims().data() + 2, 2}, attributes_.kernel_shape, ceil_mode_);
    if (!geometry.ok()) return context.Error("{}", geometry.status().message());
    const WindowGeometry& g = *geometry;
    const TensorShape y_shape({xs[0], xs[1], g.output[0], g.output[1]});
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kFloat, y_shape));
    const float* in = x->Data<float>();
    float* out = y->MutableData<float>();
    const int64_t in_h = xs[2], in_w = xs[3];
    const int64_t out_h = g.output[0], out_w = g.output[1];
    const int64_t planes = xs[0] * xs[1] / block;
    const double cost = static_cast<double>(out_w * block * g.KernelSize());
    ThreadPool::TryParallelFor(context.thread_pool(), planes * out_h, cost,
                               [&](int64_t begin, int64_t end) {
                                 for (int64_t task = begin; task < end; ++task) {
                                   const int64_t oh = task % out_h;
                                   const float* plane = in + task / out_h * in_h * in_w * block;
                                   float* row = out + task * out_w * block;
                                   if (block == 16) {
                                     PoolRow<16>(g, plane, in_h, in_w, oh, out_w, row);
                                   } else {
                                     PoolRow<8>(g, plane, in_h, in_w, oh, out_w, row);
                                   }
                                 }
                               });
    return Status::OK();
  }

 private:
  /// Taps [begin, end) of one window axis that land inside the input, and how many land inside
  /// the input or its trailing padding (count_include_pad's divisor).
  static void ValidTaps(int64_t origin, int64_t dilation, int64_t taps, int64_t extent,
                        int64_t trailing_pad, int64_t& begin, int64_t& end, int64_t& padded) {
    begin = origin >= 0 ? 0 : (-origin + dilation - 1) / dilation;
    end = extent - origin <= 0 ? 0 : std::min(taps, (extent - origin + dilation - 1) / dilation);
    begin = std::min(begin, end);
    const int64_t padded_extent = extent + trailing_pad - origin;
    padded = padded_extent <= 0 ? 0 : std::min(taps, (padded_extent + dilation - 1) / dilation);
  }

  // A fixed block lets the compiler keep each window's accumulators in vector registers.
  template <int64_t kBlock>
  void PoolRow(const WindowGeometry& g, const float* plane, int64_t in_h, int64_t in_w, int64_t oh,
               int64_t out_w, float* row) const {
    int64_t kh_begin = 0, kh_end = 0, h_padded = 0;
    const int64_t ih0 = oh * g.strides[0] - g.pads[0];
    ValidTaps(ih0, g.dilations[0], g.kernel[0], in_h, g.pads[2], kh_begin, kh_end, h_padded);
    for (int64_t ow = 0; ow < out_w; ++ow) {
      int64_t kw_begin = 0, kw_end = 0, w_padded = 0;
      const int64_t iw0 = ow * g.strides[1] - g.pads[1];
      ValidTaps(iw0, g.dilations[1], g.kernel[1], in_w, g.pads[3], kw_begin, kw_end, w_padded);
      float acc[kBlock];
      for (int64_t b = 0; b < kBlock; ++b) {
        acc[b] = kMax ? std::numeric_limits<float>::lowest() : 0.0f;
      }
      for (int64_t kh = kh_begin; kh < kh_end; ++kh) {
        const float* source = plane + (ih0 + kh * g.dilations[0]) * in_w * kBlock;
        for (int64_t kw = kw_begin; kw < kw_end; ++kw) {
          const float* v = source + (iw0 + kw * g.dilations[1]) * kBlock;
          for (int64_t b = 0; b < kBlock; ++b) {
            if constexpr (kMax) {
              acc[b] = v[b] > acc[b] ? v[b] : acc[b];
            } else {
              acc[b] += v[b];
            }
          }
        }
      }
      float* y = row + ow * kBlock;
      if constexpr (kMax) {
        for (int64_t b = 0; b < kBlock; ++b) y[b] = acc[b];
      } else {
        const int64_t divisor =
            count_include_pad_ ? h_padded * w_padded : (kh_end - kh_begin) * (kw_end - kw_begin);
        const float scale = divisor == 0 ? 0.0f : 1.0f / static_cast<float>(divisor);
        for (int64_t b = 0; b < kBlock; ++b) y[b] = acc[b] * scale;
      }
    }
  }

  WindowAttributes attributes_;
  bool ceil_mode_ = false;
  bool count_include_pad_ = false;
};

template <bool kMax>
class NchwcGlobalPool final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    const int64_t block = NchwcBlockSize();
    ORT_RETURN_IF_ERROR(CheckBlocked(context, xs, block));
    ORT_ASSIGN_OR_RETURN(Tensor * y,
                         context.Output(0, DataType::kFloat, TensorShape({xs[0], xs[1], 1, 1})));
    const float* in = x->Data<float>();
    float* out = y->MutableData<float>();
    const int64_t size = xs[2] * xs[3];
    const int64_t planes = xs[0] * xs[1] / block;
    ThreadPool::TryParallelFor(
        context.thread_pool(), planes, static_cast<double>(size * block),
        [&](int64_t begin, int64_t end) {
          for (int64_t p = begin; p < end; ++p) {
            float acc[kMaxBlock];
            std::fill(acc, acc + block, kMax ? std::numeric_limits<float>::lowest() : 0.0f);
            const float* plane = in + p * size * block;
            for (int64_t s = 0; s < size; ++s) {
              for (int64_t b = 0; b < block; ++b) {
                acc[b] =
                    kMax ? std::max(acc[b], plane[s * block + b]) : acc[b] + plane[s * block + b];
              }
            }
            const float scale = kMax || size == 0 ? 1.0f : 1.0f / static_cast<float>(size);
            for (int64_t b = 0; b < block; ++b) out[p * block + b] = acc[b] * scale;
          }
        });
    return Status::OK();
  }
};

}  // namespace

void RegisterNchwcPoolKernels(KernelRegistry& registry) {
  const std::vector<DataType> types{DataType::kFloat};
  registry.Add<NchwcPool<true>>(KernelDef("MaxPool", kNchwcDomain).Versions(1).Input(0, types));
  registry.Add<NchwcPool<false>>(
      KernelDef("AveragePool", kNchwcDomain).Versions(1).Input(0, types));
  registry.Add<NchwcGlobalPool<true>>(
      KernelDef("GlobalMaxPool", kNchwcDomain).Versions(1).Input(0, types));
  registry.Add<NchwcGlobalPool<false>>(
      KernelDef("GlobalAveragePool", kNchwcDomain).Versions(1).Input(0, types));
}

}  // namespace ort
