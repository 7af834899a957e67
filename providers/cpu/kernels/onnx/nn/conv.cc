// Conv (1-D to 3-D and beyond, groups, dilations, strides, pads, auto_pad, optional bias):
// im2col + GEMM per (image, group), a cache-sized slab of output positions at a time; 1x1 stride-1
// unpadded kernels multiply the image directly, and 2-D convolutions with one input channel per
// group (depthwise) run a direct loop. Float convolutions with one group and constant weights
// multiply W^T packed once instead. FusedConv's Z is loaded into the output before accumulation and
// its activation applied to each finished block while it is still in cache.
#include "providers/cpu/kernels/onnx/nn/conv.h"

#include <algorithm>
#include <vector>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/common/im2col.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

// Elements of one column slab (4 MB): each slab is a GEMM of its own, which packs the filter bank
// again, so slabs much smaller cost more than they save (r2plus1d_18 at 64K, 256K and 1M elements:
// 1418, 933 and 857 ms per run, against 1184 with the whole column matrix).
constexpr int64_t kColumnSlabElements = int64_t{1024} << 10;
// Output positions per slab of the packed-weights path: the GEMM's rows, enough for full tiles.
constexpr int64_t kPackedSlabColumns = 512;

/// 2-D convolution where every filter reads a single input channel (group == C, any depth
/// multiplier): accumulates each kernel tap as a scaled row into the output, no im2col.
template <typename T>
void RunDepthwise2d(const ConvProblem& p, const T* x, const T* w, const T* bias, const T* sum,
                    const FusedActivation& activation, T* y, ThreadPool* pool) {
  const WindowGeometry& g = p.geometry;
  const int64_t multiplier = p.filters / p.group;
  const int64_t in_h = g.input[0], in_w = g.input[1];
  const int64_t out_h = g.output[0], out_w = g.output[1];
  const int64_t k_h = g.kernel[0], k_w = g.kernel[1];
  const int64_t stride_h = g.strides[0], stride_w = g.strides[1];
  const int64_t dil_h = g.dilations[0], dil_w = g.dilations[1];
  const int64_t pad_h = g.pads[0], pad_w = g.pads[1];
  // Output columns [first, last) of kernel column kw read inside the input row.
  std::vector<int64_t> first(k_w), last(k_w);
  for (int64_t kw = 0; kw < k_w; ++kw) {
    const int64_t offset = kw * dil_w - pad_w;
    first[kw] = std::min(out_w, offset >= 0 ? 0 : (-offset + stride_w - 1) / stride_w);
    last[kw] = std::clamp<int64_t>(in_w - offset <= 0 ? 0 : (in_w - offset - 1) / stride_w + 1,
                                   first[kw], out_w);
  }
  const int64_t planes = p.batch * p.filters;
  const double cost = 2.0 * static_cast<double>(out_h * out_w * k_h * k_w);
  ThreadPool::TryParallelFor(pool, planes, cost, [&](int64_t begin, int64_t end) {
    for (int64_t plane = begin; plane < end; ++plane) {
      const int64_t filter = plane % p.filters;
      const T* image = x + (plane / p.filters * p.channels + filter / multiplier) * in_h * in_w;
      const T* kernel = w + filter * k_h * k_w;
      const int64_t plane_size = out_h * out_w;
      T* out = y + plane * plane_size;
      const T initial = bias != nullptr ? bias[filter] : T(0);
      if (sum != nullptr) {
        const T* z = sum + plane * plane_size;
        for (int64_t i = 0; i < plane_size; ++i) out[i] = z[i] + initial;
      } else {
        std::fill(out, out + plane_size, initial);
      }
      for (int64_t oh = 0; oh < out_h; ++oh) {
        T* __restrict row = out + oh * out_w;
        for (int64_t kh = 0; kh < k_h; ++kh) {
          const int64_t ih = oh * stride_h - pad_h + kh * dil_h;
          if (ih < 0 || ih >= in_h) continue;
          for (int64_t kw = 0; kw < k_w; ++kw) {
            const T weight = kernel[kh * k_w + kw];
            const T* __restrict in = image + ih * in_w + kw * dil_w - pad_w;
            if (stride_w == 1) {
              for (int64_t ow = first[kw]; ow < last[kw]; ++ow) row[ow] += weight * in[ow];
            } else {
              for (int64_t ow = first[kw]; ow < last[kw]; ++ow)
                row[ow] += weight * in[ow * stride_w];
            }
          }
        }
      }
      activation.Apply(out, plane_size);
    }
  });
}

/// Y = activation(conv(X, W) + B + Z) on contiguous float or double buffers; `bias` and `sum`
/// (Z) may be null.
template <typename T>
void RunConv(const ConvProblem& p, const T* x, const T* w, const T* bias, const T* sum,
             const FusedActivation& activation, T* y, ThreadPool* pool) {
  const WindowGeometry& g = p.geometry;
  const int64_t group_channels = p.channels / p.group;
  if (group_channels == 1 && p.group > 1 && g.rank() == 2) {
    RunDepthwise2d<T>(p, x, w, bias, sum, activation, y, pool);
    return;
  }
  const int64_t group_filters = p.filters / p.group;
  const int64_t depth = group_channels * g.KernelSize();
  const int64_t in_size = g.InputSize();
  const int64_t out_size = g.OutputSize();
  const bool pointwise = g.IsPointwise();
  const ConvGeometryView view{group_channels, g.input, g.kernel, g.strides,
                              g.dilations,    g.pads,  g.output};
  // The columns of one (image, group) are built and multiplied a slab of output runs at a time
  // (a run: the positions along the last axis), sized to stay in cache: the whole column matrix
  // of a video convolution is tens of megabytes, written once, faulted in and read back cold.
  const int64_t width = g.output[g.rank() - 1];
  const int64_t runs = out_size / width;
  const int64_t slab_runs =
      pointwise ? runs : std::clamp<int64_t>(kColumnSlabElements / (depth * width), 1, runs);
  const int64_t slabs = (runs + slab_runs - 1) / slab_runs;
  // One work item is one slab of one (image, group) pair.
  auto run_item = [&](int64_t item, T* col, ThreadPool* inner) {
    const int64_t task = item / slabs;
    const int64_t first_run = item % slabs * slab_runs;
    const int64_t columns = (std::min(runs, first_run + slab_runs) - first_run) * width;
    const int64_t first_column = first_run * width;
    const int64_t n = task / p.group;
    const int64_t grp = task % p.group;
    const T* image = x + (n * p.channels + grp * group_channels) * in_size;
    const int64_t out_offset = (n * p.filters + grp * group_filters) * out_size + first_column;
    T* out = y + out_offset;
    const T* b = image + first_column;
    int64_t ldb = out_size;
    if (!pointwise) {
      Im2ColRuns<T>(view, image, col, T(0), first_run, first_run + columns / width, inner);
      b = col;
      ldb = columns;
    }
    // The GEMM accumulates onto B + Z when either is present.
    if (sum != nullptr || bias != nullptr) {
      for (int64_t f = 0; f < group_filters; ++f) {
        const T initial = bias != nullptr ? bias[grp * group_filters + f] : T(0);
        T* row = out + f * out_size;
        if (sum != nullptr) {
          const T* z = sum + out_offset + f * out_size;
          for (int64_t i = 0; i < columns; ++i) row[i] = z[i] + initial;
        } else {
          std::fill(row, row + columns, initial);
        }
      }
    }
    const bool accumulate = bias != nullptr || sum != nullptr;
    TypedGemm<T>(false, false, group_filters, columns, depth, 1.0f, w + grp * group_filters * depth,
                 depth, b, ldb, accumulate ? 1.0f : 0.0f, out, out_size, inner);
    if (!activation.enabled()) return;
    ThreadPool::TryParallelFor(inner, group_filters, 8.0 * static_cast<double>(columns),
                               [&](int64_t begin, int64_t end) {
                                 for (int64_t f = begin; f < end; ++f)
                                   activation.Apply(out + f * out_size, columns);
                               });
  };
  const int64_t items = p.batch * p.group * slabs;
  const int64_t threads = pool == nullptr ? 1 : pool->DegreeOfParallelism();
  const size_t col_size = pointwise ? 0 : static_cast<size_t>(depth * slab_runs * width);
  if (threads > 1 && (items >= 2 * threads || items % threads == 0)) {
    // Enough independent products: one per thread at a time, each with its own columns.
    const double cost = 2.0 * static_cast<double>(group_filters * depth * slab_runs * width);
    ThreadPool::TryParallelFor(pool, items, cost, [&](int64_t begin, int64_t end) {
      std::vector<T> col(col_size);
      for (int64_t item = begin; item < end; ++item) run_item(item, col.data(), nullptr);
    });
  } else {
    std::vector<T> col(col_size);
    for (int64_t item = 0; item < items; ++item) run_item(item, col.data(), pool);
  }
}

/// Float convolution with one group and constant weights, as Y^T = col^T W^T with W^T packed
/// once: a slab of output positions at a time (its columns built in cache), each slab one GEMM
/// that packs only its columns, then transposed into Y with the bias, Z and activation. Packing
/// the filter bank per slab instead (the generic path) costs as much as the product for short
/// slabs, and one slab of a whole video frame set does not stay in cache.
void RunPackedWeightsConv(const ConvProblem& p, const float* x, const PackedSgemmB& weights,
                          const float* bias, const float* sum, const FusedActivation& activation,
                          float* y, ThreadPool* pool) {
  const WindowGeometry& g = p.geometry;
  const int64_t depth = p.channels * g.KernelSize();
  const int64_t in_size = g.InputSize();
  const int64_t out_size = g.OutputSize();
  const bool pointwise = g.IsPointwise();
  const ConvGeometryView view{p.channels,  g.input, g.kernel, g.strides,
                              g.dilations, g.pads,  g.output};
  const int64_t width = g.output[g.rank() - 1];
  const int64_t runs = out_size / width;
  int64_t slab_runs = std::clamp<int64_t>(kPackedSlabColumns / width, 1, runs);
  if (!pointwise) {
    slab_runs = std::min(slab_runs, std::max<int64_t>(1, kColumnSlabElements / (depth * width)));
  }
  const int64_t slabs = (runs + slab_runs - 1) / slab_runs;
  const int64_t slab_columns = slab_runs * width;
  auto run_item = [&](int64_t item, float* col, float* transposed, ThreadPool* inner) {
    const int64_t n = item / slabs;
    const int64_t first_run = item % slabs * slab_runs;
    const int64_t first_column = first_run * width;
    const int64_t columns = std::min(out_size - first_column, slab_columns);
    const float* image = x + n * p.channels * in_size;
    const float* a = image + first_column;
    int64_t lda = out_size;
    if (!pointwise) {
      Im2ColRuns<float>(view, image, col, 0.0f, first_run, first_run + columns / width, inner);
      a = col;
      lda = columns;
    }
    SgemmPackedB(true, columns, 1.0f, a, lda, weights, 0.0f, transposed, p.filters, inner);
    const int64_t out_offset = n * p.filters * out_size + first_column;
    for (int64_t f = 0; f < p.filters; ++f) {
      float* out = y + out_offset + f * out_size;
      const float initial = bias != nullptr ? bias[f] : 0.0f;
      const float* z = sum != nullptr ? sum + out_offset + f * out_size : nullptr;
      if (z != nullptr) {
        for (int64_t i = 0; i < columns; ++i)
          out[i] = transposed[i * p.filters + f] + initial + z[i];
      } else {
        for (int64_t i = 0; i < columns; ++i) out[i] = transposed[i * p.filters + f] + initial;
      }
      activation.Apply(out, columns);
    }
  };
  const int64_t items = p.batch * slabs;
  const int64_t threads = pool == nullptr ? 1 : pool->DegreeOfParallelism();
  const size_t col_size = pointwise ? 0 : static_cast<size_t>(depth * slab_columns);
  const size_t transposed_size = static_cast<size_t>(slab_columns * p.filters);
  // Kept per thread across runs: fresh buffers of megabytes are fresh pages, zeroed by the kernel
  // on every run.
  const auto run_items = [&](int64_t begin, int64_t end, ThreadPool* inner) {
    thread_local std::vector<float> col, transposed;
    if (col.size() < col_size) col.resize(col_size);
    if (transposed.size() < transposed_size) transposed.resize(transposed_size);
    for (int64_t item = begin; item < end; ++item)
      run_item(item, col.data(), transposed.data(), inner);
  };
  if (threads > 1 && (items >= 2 * threads || items % threads == 0)) {
    const double cost = 2.0 * static_cast<double>(p.filters * depth * slab_columns);
    ThreadPool::TryParallelFor(pool, items, cost,
                               [&](int64_t begin, int64_t end) { run_items(begin, end, nullptr); });
  } else {
    run_items(0, items, pool);
  }
}

}  // namespace

Status Conv::Init(const KernelInfo& info) {
  ORT_RETURN_IF_ERROR(attributes_.Parse(info, false));
  const Tensor* w = info.ConstantInput(1);
  if (w != nullptr && w->dtype() == DataType::kFloat && attributes_.group == 1 &&
      w->shape().rank() >= 3 && w->NumElements() > 0) {
    packs_weights_ = true;
    packed_shape_ = w->shape();
    unpacked_weights_ = *w;
  }
  return Status::OK();
}

void Conv::PackWeights(const ConvProblem& problem) const {
  std::call_once(pack_once_, [&] {
    const int64_t filters = packed_shape_[0];
    const int64_t depth = unpacked_weights_.NumElements() / filters;
    const float* w = unpacked_weights_.Data<float>();
    if (PackedFiltersPay(problem)) {
      packed_filters_ = std::make_unique<PackedConvFilters>(filters, depth, w);
    } else {
      packed_weights_ = std::make_unique<PackedSgemmB>(true, depth, filters, w, depth);
    }
    unpacked_weights_ = Tensor();
  });
}

Status Conv::Compute(KernelContext& context) const {
  ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
  const Tensor* w = nullptr;
  if (!packs_weights_) {
    ORT_ASSIGN_OR_RETURN(w, context.RequiredInput(1));
  }
  const Tensor* bias = context.Input(2);
  const Tensor* sum = sum_input_ ? context.Input(3) : nullptr;
  ORT_ASSIGN_OR_RETURN(ConvProblem problem,
                       Plan(context, *x, w != nullptr ? w->dtype() : DataType::kFloat,
                            w != nullptr ? w->shape() : packed_shape_, bias, sum));
  ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), problem.OutputShape()));
  if (y->NumElements() == 0) return Status::OK();
  ThreadPool* pool = context.thread_pool();
  return DispatchByType<FloatTypes>(x->dtype(), "Conv", [&]<typename T>() {
    if constexpr (std::is_same_v<T, float>) {
      if (packs_weights_) {
        PackWeights(problem);
        const float* b = bias ? bias->Data<float>() : nullptr;
        const float* z = sum ? sum->Data<float>() : nullptr;
        if (packed_filters_ != nullptr) {
          RunPackedFiltersConv(problem, x->Data<float>(), *packed_filters_, b, z, activation_,
                               y->MutableData<float>(), pool);
        } else {
          RunPackedWeightsConv(problem, x->Data<float>(), *packed_weights_, b, z, activation_,
                               y->MutableData<float>(), pool);
        }
        return Status::OK();
      }
    }
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      RunConv<T>(problem, x->Data<T>(), w->Data<T>(), bias ? bias->Data<T>() : nullptr,
                 sum ? sum->Data<T>() : nullptr, activation_, y->MutableData<T>(), pool);
    } else {
      // Half types compute in float.
      ComputeInFloat<T, 4>({x, w, bias, sum}, *y, [&](const auto& in, float* out) {
        RunConv<float>(problem, in[0], in[1], in[2], in[3], activation_, out, pool);
      });
    }
    return Status::OK();
  });
}

Result<ConvProblem> Conv::Plan(const KernelContext& context, const Tensor& x, DataType w_type,
                               const TensorShape& w_shape, const Tensor* bias,
                               const Tensor* sum) const {
  if (w_type != x.dtype() || (bias != nullptr && bias->dtype() != x.dtype()) ||
      (sum != nullptr && sum->dtype() != x.dtype())) {
    return context.Error("X, W, B and Z must share one element type");
  }
  auto problem = PlanConv(attributes_, x.shape(), w_shape);
  if (!problem.ok()) return context.Error("{}", problem.status().message());
  if (bias != nullptr && (bias->shape().rank() != 1 || bias->shape()[0] != problem->filters)) {
    return context.Error("B {} must be [{}]", bias->shape().ToString(), problem->filters);
  }
  if (sum != nullptr && sum->shape() != problem->OutputShape()) {
    return context.Error("Z {} must have the output's shape {}", sum->shape().ToString(),
                         problem->OutputShape().ToString());
  }
  return problem;
}

void RegisterConvKernels(KernelRegistry& registry) {
  // bfloat16 is accepted as well (added by opset 22; same computation).
  const auto types = FloatTypes::DataTypes();
  registry.Add<Conv>(KernelDef("Conv").Versions(1, 10).Input(0, types));
  registry.Add<Conv>(KernelDef("Conv").Versions(11).Input(0, types));
}

}  // namespace ort
