// MaxPool (with the optional Indices output), AveragePool and LpPool over 1 to 3 spatial dims,
// with pads / auto_pad, strides, dilations and ceil_mode.
#include <cmath>
#include <limits>

#include "providers/common/nn/pool_attributes.h"
#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

enum class PoolKind { kMax, kAverage, kLp };

constexpr size_t kMaxPoolRank = 3;

/// The window geometry as three axes (depth, height, width); lower ranks get leading unit axes.
struct Pool3d {
  int64_t in[kMaxPoolRank];
  int64_t out[kMaxPoolRank];
  int64_t kernel[kMaxPoolRank];
  int64_t stride[kMaxPoolRank];
  int64_t dilation[kMaxPoolRank];
  int64_t pad_begin[kMaxPoolRank];
  int64_t pad_end[kMaxPoolRank];

  explicit Pool3d(const WindowGeometry& g) {
    const size_t lead = kMaxPoolRank - g.rank();
    for (size_t d = 0; d < kMaxPoolRank; ++d) {
      const bool real = d >= lead;
      const size_t s = d - lead;
      in[d] = real ? g.input[s] : 1;
      out[d] = real ? g.output[s] : 1;
      kernel[d] = real ? g.kernel[s] : 1;
      stride[d] = real ? g.strides[s] : 1;
      dilation[d] = real ? g.dilations[s] : 1;
      pad_begin[d] = real ? g.pads[s] : 0;
      pad_end[d] = real ? g.pads[s + g.rank()] : 0;
    }
  }
  int64_t InSize() const { return in[0] * in[1] * in[2]; }
  int64_t OutSize() const { return out[0] * out[1] * out[2]; }
};

struct PoolOptions {
  PoolKind kind = PoolKind::kMax;
  bool count_include_pad = false;
  double p = 2.0;             // LpPool norm (fractional only in opset 1)
  bool column_major = false;  // MaxPool storage_order for Indices
};

// How many taps k in [0, kernel) have k * dilation < limit (dilation > 0): the window's taps
// before position `limit` relative to its start.
int64_t TapsBelow(int64_t limit, int64_t dilation, int64_t kernel) {
  if (limit <= 0) return 0;
  return std::min(kernel, (limit - 1) / dilation + 1);
}

/// Pools one [D, H, W] plane; `indices` (MaxPool only, may be null) receives flattened input
/// positions offset by `index_base`.
template <typename T>
void PoolPlane(const Pool3d& g, const PoolOptions& options, const T* x, T* y, int64_t* indices,
               int64_t index_base) {
  using C = ComputeType<T>;
  int64_t o = 0;
  for (int64_t od = 0; od < g.out[0]; ++od) {
    for (int64_t oh = 0; oh < g.out[1]; ++oh) {
      for (int64_t ow = 0; ow < g.out[2]; ++ow, ++o) {
        const int64_t start[3] = {od * g.stride[0] - g.pad_begin[0],
                                  oh * g.stride[1] - g.pad_begin[1],
                                  ow * g.stride[2] - g.pad_begin[2]};
        C best = std::numeric_limits<C>::lowest();
        int64_t best_index = -1;
        C sum = C(0);
        int64_t count = 0;
        // Per axis, the window taps inside the input and inside the padded extent, worked out
        // instead of visited: a kernel far larger than the input (2^62 with SAME padding) must
        // not cost a step per tap.
        int64_t first[3], last[3];
        int64_t padded_count = 1;
        for (int d = 0; d < 3; ++d) {
          first[d] = TapsBelow(-start[d], g.dilation[d], g.kernel[d]);
          last[d] = TapsBelow(g.in[d] - start[d], g.dilation[d], g.kernel[d]);
          const int64_t taps =
              TapsBelow(g.in[d] + g.pad_end[d] - start[d], g.dilation[d], g.kernel[d]);
          // Only a divisor: saturating keeps a window of 2^62 taps per axis defined.
          if (__builtin_mul_overflow(padded_count, taps, &padded_count)) {
            padded_count = std::numeric_limits<int64_t>::max();
          }
        }
        for (int64_t kd = first[0]; kd < last[0]; ++kd) {
          const int64_t id = start[0] + kd * g.dilation[0];
          for (int64_t kh = first[1]; kh < last[1]; ++kh) {
            const int64_t ih = start[1] + kh * g.dilation[1];
            for (int64_t kw = first[2]; kw < last[2]; ++kw) {
              const int64_t iw = start[2] + kw * g.dilation[2];
              const int64_t offset = (id * g.in[1] + ih) * g.in[2] + iw;
              const C value = C(x[offset]);
              if (options.kind == PoolKind::kMax) {
                if (value > best || best_index < 0) {
                  best = value;
                  best_index = options.column_major ? (iw * g.in[1] + ih) * g.in[0] + id : offset;
                }
              } else if (options.kind == PoolKind::kAverage) {
                sum += value;
              } else {
                const C magnitude = value < C(0) ? -value : value;
                sum += options.p == 1 ? magnitude
                       : options.p == 2
                           ? magnitude * magnitude
                           : static_cast<C>(std::pow(magnitude, static_cast<C>(options.p)));
              }
              ++count;
            }
          }
        }
        if (options.kind == PoolKind::kMax) {
          y[o] = static_cast<T>(best);
          if (indices != nullptr) indices[o] = best_index < 0 ? -1 : index_base + best_index;
        } else if (options.kind == PoolKind::kAverage) {
          const int64_t divisor = options.count_include_pad ? padded_count : count;
          y[o] = static_cast<T>(divisor == 0 ? C(0) : sum / static_cast<C>(divisor));
        } else {
          const C norm = options.p == 1 ? sum
                         : options.p == 2
                             ? static_cast<C>(std::sqrt(sum))
                             : static_cast<C>(std::pow(sum, C(1) / static_cast<C>(options.p)));
          y[o] = static_cast<T>(norm);
        }
      }
    }
  }
}

template <PoolKind kKind>
class Pool final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(attributes_.Parse(info, kKind == PoolKind::kAverage));
    const size_t rank = attributes_.window.kernel_shape.size();
    if (rank == 0 || rank > kMaxPoolRank) {
      return ORT_ERROR(kNotImplemented, "pooling supports 1 to 3 spatial dims, kernel_shape has {}",
                       rank);
    }
    options_.kind = kKind;
    options_.count_include_pad = attributes_.count_include_pad;
    if constexpr (kKind == PoolKind::kMax) {
      ORT_ASSIGN_OR_RETURN(const int64_t order, info.GetAttributeOr<int64_t>("storage_order", 0));
      if (order != 0 && order != 1) {
        return ORT_ERROR(kInvalidArgument, "storage_order must be 0 or 1, got {}", order);
      }
      options_.column_major = order == 1;
    } else if constexpr (kKind == PoolKind::kLp) {
      if (info.opset() < 2) {
        // LpPool-1 declared p as a float.
        ORT_ASSIGN_OR_RETURN(const float p, info.GetAttributeOr<float>("p", 2.0f));
        options_.p = p;
      } else {
        ORT_ASSIGN_OR_RETURN(const int64_t p, info.GetAttributeOr<int64_t>("p", 2));
        options_.p = static_cast<double>(p);
      }
      if (!(options_.p > 0)) return ORT_ERROR(kInvalidArgument, "p must be positive");
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& xs = x->shape();
    ORT_ASSIGN_OR_RETURN(const WindowGeometry geometry,
                         ResolvePoolWindow(context, attributes_, xs));
    const TensorShape y_shape = PoolOutputShape(xs, geometry);
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), y_shape));
    Tensor* indices = nullptr;
    if (kKind == PoolKind::kMax && context.IsOutputUsed(1)) {
      ORT_ASSIGN_OR_RETURN(indices, context.Output(1, DataType::kInt64, y_shape));
    }
    const Pool3d g(geometry);
    const int64_t planes = xs[0] * xs[1];
    const double cost =
        static_cast<double>(g.OutSize()) * static_cast<double>(geometry.KernelSize()) * 2.0;
    auto run = [&]<typename T>() {
      const T* in = x->Data<T>();
      T* out = y->MutableData<T>();
      int64_t* index_out = indices != nullptr ? indices->MutableData<int64_t>() : nullptr;
      ThreadPool::TryParallelFor(context.thread_pool(), planes, cost, [&](int64_t b, int64_t e) {
        for (int64_t plane = b; plane < e; ++plane) {
          PoolPlane<T>(g, options_, in + plane * g.InSize(), out + plane * g.OutSize(),
                       index_out != nullptr ? index_out + plane * g.OutSize() : nullptr,
                       plane * g.InSize());
        }
      });
      return Status::OK();
    };
    if constexpr (kKind == PoolKind::kMax) {
      return DispatchByType<TypeList<float, double, Float16, BFloat16, int8_t, uint8_t>>(
          x->dtype(), "MaxPool", run);
    } else {
      return DispatchByType<FloatTypes>(x->dtype(), context.node().op_type(), run);
    }
  }

 private:
  PoolAttributes attributes_;
  PoolOptions options_;
};

}  // namespace

void RegisterPoolKernels(KernelRegistry& registry) {
  using MaxPool = Pool<PoolKind::kMax>;
  using AveragePool = Pool<PoolKind::kAverage>;
  using LpPool = Pool<PoolKind::kLp>;
  // bfloat16 is accepted too (opset 22 adds it; same computation).
  const auto floats = FloatTypes::DataTypes();
  const auto max_types = TypeList<float, double, Float16, BFloat16, int8_t, uint8_t>::DataTypes();
  registry.Add<MaxPool>(KernelDef("MaxPool").Versions(1, 7).Input(0, floats));
  registry.Add<MaxPool>(KernelDef("MaxPool").Versions(8, 9).Input(0, floats));
  registry.Add<MaxPool>(KernelDef("MaxPool").Versions(10, 10).Input(0, floats));
  registry.Add<MaxPool>(KernelDef("MaxPool").Versions(11, 11).Input(0, floats));
  registry.Add<MaxPool>(KernelDef("MaxPool").Versions(12).Input(0, max_types));
  registry.Add<AveragePool>(KernelDef("AveragePool").Versions(1, 6).Input(0, floats));
  registry.Add<AveragePool>(KernelDef("AveragePool").Versions(7, 9).Input(0, floats));
  registry.Add<AveragePool>(KernelDef("AveragePool").Versions(10, 10).Input(0, floats));
  registry.Add<AveragePool>(KernelDef("AveragePool").Versions(11, 18).Input(0, floats));
  registry.Add<AveragePool>(KernelDef("AveragePool").Versions(19).Input(0, floats));
  registry.Add<LpPool>(KernelDef("LpPool").Versions(1, 1).Input(0, floats));
  registry.Add<LpPool>(KernelDef("LpPool").Versions(2, 10).Input(0, floats));
  registry.Add<LpPool>(KernelDef("LpPool").Versions(11, 17).Input(0, floats));
  registry.Add<LpPool>(KernelDef("LpPool").Versions(18).Input(0, floats));
}

}  // namespace ort
