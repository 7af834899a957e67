// com.microsoft.nchwc MaxPool, AveragePool (2-D windows with pads / auto_pad, strides, ceil_mode;
// dilations for MaxPool, count_include_pad for AveragePool), GlobalMaxPool and
// GlobalAveragePool on blocked tensors: each window reduces whole channel blocks at a time.
#include <algorithm>
#include <limits>
#include <vector>

#include "lib/common/cpu_info.h"
#include "providers/common/nn/pool_attributes.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_kernels.h"
#include "providers/cpu/kernels/contrib/nchwc/nchwc_pool_kernel.h"

namespace ort {
namespace {

Status CheckBlocked(const KernelContext& context, const TensorShape& xs, int64_t block) {
  if (xs.rank() != 4 || xs[1] % block != 0) {
    return context.Error("X {} is not an NCHWc tensor of block {}", xs.ToString(), block);
  }
  return Status::OK();
}

template <bool kMax>
class NchwcPool final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override { return attributes_.Parse(info, !kMax); }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    const int64_t block = NchwcBlockSize();
    ORT_RETURN_IF_ERROR(CheckBlocked(context, xs, block));
    auto geometry = ResolveWindow(attributes_.window, {xs.dims().data() + 2, 2},
                                  attributes_.window.kernel_shape, attributes_.ceil_mode);
    if (!geometry.ok()) return context.Error("{}", geometry.status().message());
    const WindowGeometry& g = *geometry;
    const TensorShape y_shape({xs[0], xs[1], g.output[0], g.output[1]});
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kFloat, y_shape));
    NchwcPoolArgs args;
    SetNchwcWindow(g, args);
    args.count_include_pad = attributes_.count_include_pad;
    const NchwcPoolKernels& kernels = BestNchwcPoolKernels();
    const auto pool_row = kMax ? kernels.max_row : kernels.average_row;
    const float* in = x->Data<float>();
    float* out = y->MutableData<float>();
    const int64_t plane_size = args.in_h * args.in_w * block;
    const int64_t planes = xs[0] * xs[1] / block;
    const double cost =
        static_cast<double>(args.out_w * block) * static_cast<double>(g.KernelSize());
    ThreadPool::TryParallelFor(context.thread_pool(), planes * args.out_h, cost,
                               [&](int64_t begin, int64_t end) {
                                 for (int64_t task = begin; task < end; ++task) {
                                   pool_row(args, in + task / args.out_h * plane_size,
                                            task % args.out_h, out + task * args.out_w * block);
                                 }
                               });
    return Status::OK();
  }

 private:
  PoolAttributes attributes_;
};

// Max or mean over the `size` pixels of one blocked plane into `out` (kBlock channels): four
// partial results per lane, so that the reduction is not one chain of dependent adds, with the
// block known at compile time, so that they stay in registers.
template <bool kMax, int kBlock>
void ReduceBlockedPlane(const float* plane, int64_t size, float* out) {
  constexpr int kChains = 4;
  const float initial = kMax ? std::numeric_limits<float>::lowest() : 0.0f;
  float acc[kChains][kBlock];
  for (auto& chain : acc) std::fill(chain, chain + kBlock, initial);
  const auto combine = [](float a, float b) { return kMax ? std::max(a, b) : a + b; };
  int64_t s = 0;
  for (; s + kChains <= size; s += kChains) {
    for (int c = 0; c < kChains; ++c) {
      for (int b = 0; b < kBlock; ++b) acc[c][b] = combine(acc[c][b], plane[(s + c) * kBlock + b]);
    }
  }
  for (; s < size; ++s) {
    for (int b = 0; b < kBlock; ++b) acc[0][b] = combine(acc[0][b], plane[s * kBlock + b]);
  }
  const float scale = kMax || size == 0 ? 1.0f : 1.0f / static_cast<float>(size);
  for (int b = 0; b < kBlock; ++b) {
    out[b] = combine(combine(acc[0][b], acc[1][b]), combine(acc[2][b], acc[3][b])) * scale;
  }
}

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
    VectorizedParallelFor(context.thread_pool(), planes, static_cast<double>(size * block),
                          [&](int64_t begin, int64_t end) {
                            for (int64_t p = begin; p < end; ++p) {
                              const float* plane = in + p * size * block;
                              if (block == 16) {
                                ReduceBlockedPlane<kMax, 16>(plane, size, out + p * block);
                              } else {
                                ReduceBlockedPlane<kMax, 8>(plane, size, out + p * block);
                              }
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
