// com.microsoft.nchwc ReorderInput (NCHW or NHWC to NCHWc, padding channels with zeros) and
// ReorderOutput (NCHWc to NCHW or NHWC, dropping the padding channels).
//
// Frames (this engine's extension, made only in sessions by nchwc_framed_conv): ReorderInput of a
// 5-D [N, C, T, H, W] input writes each clip's T frames as blocked images, [N, T, C, H, W];
// ReorderOutput of such a 5-D tensor writes them back as [N, C, T, H, W]. A convolution within
// frames (1 x KH x KW) then runs as a blocked 2-D one over N*T images, Winograd's included.
#include <algorithm>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/common/transpose_floats.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_kernels.h"

namespace ort {
namespace {

class ReorderInput final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(channels_last_, info.GetAttributeOr<int64_t>("channels_last", 0));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    const bool framed = xs.rank() == 5 && channels_last_ == 0;
    if (xs.rank() != 4 && !framed) {
      return context.Error("X {} must be 4-D (5-D [N, C, T, H, W] channels first)", xs.ToString());
    }
    const int64_t block = NchwcBlockSize();
    const int64_t frames = framed ? xs[2] : 1;
    const int64_t batch = xs[0] * frames;
    const int64_t channels = channels_last_ != 0 ? xs[3] : xs[1];
    const int64_t height = framed ? xs[3] : channels_last_ != 0 ? xs[1] : xs[2];
    const int64_t width = framed ? xs[4] : channels_last_ != 0 ? xs[2] : xs[3];
    const int64_t spatial = height * width;
    const int64_t padded = (channels + block - 1) / block * block;
    const TensorShape y_shape = framed ? TensorShape({xs[0], frames, padded, height, width})
                                       : TensorShape({batch, padded, height, width});
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kFloat, y_shape));
    const float* in = x->Data<float>();
    float* out = y->MutableData<float>();
    const int64_t blocks = padded / block;
    ThreadPool::TryParallelFor(
        context.thread_pool(), batch * blocks, static_cast<double>(spatial * block),
        [&](int64_t begin, int64_t end) {
          for (int64_t task = begin; task < end; ++task) {
            const int64_t image = task / blocks;
            const int64_t c0 = task % blocks * block;
            const int64_t valid = std::min(block, channels - c0);
            float* dst = out + task * spatial * block;
            if (channels_last_ != 0) {
              const float* src = in + image * spatial * channels + c0;
              for (int64_t s = 0; s < spatial; ++s) {
                std::copy(src + s * channels, src + s * channels + valid, dst + s * block);
                std::fill(dst + s * block + valid, dst + (s + 1) * block, 0.0f);
              }
              continue;
            }
            // Frame t of clip n: its channels' planes lie T planes apart.
            const int64_t n = image / frames, t = image % frames;
            const float* src = in + ((n * channels + c0) * frames + t) * spatial;
            if (valid < block) std::fill(dst, dst + spatial * block, 0.0f);
            TransposeFloats(src, frames * spatial, dst, block, valid, spatial);
          }
        });
    return Status::OK();
  }

 private:
  int64_t channels_last_ = 0;
};

class ReorderOutput final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(channels_, info.GetAttributeOr<int64_t>("channels", 0));
    ORT_ASSIGN_OR_RETURN(channels_last_, info.GetAttributeOr<int64_t>("channels_last", 0));
    if (channels_ <= 0) return ORT_ERROR(kInvalidArgument, "channels must be positive");
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    const int64_t block = NchwcBlockSize();
    const bool framed = xs.rank() == 5 && channels_last_ == 0;
    const size_t c_axis = framed ? 2 : 1;
    if ((xs.rank() != 4 && !framed) || xs[c_axis] % block != 0 || channels_ > xs[c_axis]) {
      return context.Error("X {} is not an NCHWc tensor of block {} holding {} channels",
                           xs.ToString(), block, channels_);
    }
    const int64_t frames = framed ? xs[1] : 1;
    const int64_t batch = xs[0] * frames;
    const int64_t height = xs[c_axis + 1], width = xs[c_axis + 2];
    const int64_t spatial = height * width;
    const TensorShape y_shape = framed ? TensorShape({xs[0], channels_, frames, height, width})
                                : channels_last_ != 0
                                    ? TensorShape({batch, height, width, channels_})
                                    : TensorShape({batch, channels_, height, width});
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kFloat, y_shape));
    const float* in = x->Data<float>();
    float* out = y->MutableData<float>();
    const int64_t blocks = xs[c_axis] / block;
    const int64_t used_blocks = (channels_ + block - 1) / block;
    ThreadPool::TryParallelFor(
        context.thread_pool(), batch * used_blocks, static_cast<double>(spatial * block),
        [&](int64_t begin, int64_t end) {
          for (int64_t task = begin; task < end; ++task) {
            const int64_t image = task / used_blocks;
            const int64_t c0 = task % used_blocks * block;
            const int64_t valid = std::min(block, channels_ - c0);
            const float* src = in + (image * blocks + c0 / block) * spatial * block;
            if (channels_last_ != 0) {
              float* dst = out + image * spatial * channels_ + c0;
              for (int64_t s = 0; s < spatial; ++s) {
                std::copy(src + s * block, src + s * block + valid, dst + s * channels_);
              }
              continue;
            }
            const int64_t n = image / frames, t = image % frames;
            TransposeFloats(src, block, out + ((n * channels_ + c0) * frames + t) * spatial,
                            frames * spatial, spatial, valid);
          }
        });
    return Status::OK();
  }

 private:
  int64_t channels_ = 0;
  int64_t channels_last_ = 0;
};

}  // namespace

void RegisterNchwcReorderKernels(KernelRegistry& registry) {
  registry.Add<ReorderInput>(
      KernelDef("ReorderInput", kNchwcDomain).Versions(1).Input(0, {DataType::kFloat}));
  registry.Add<ReorderOutput>(
      KernelDef("ReorderOutput", kNchwcDomain).Versions(1).Input(0, {DataType::kFloat}));
}

}  // namespace ort
