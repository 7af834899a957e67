// ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2, ReduceLogSum,
// ReduceLogSumExp and ReduceSumSquare. Axes come from the `axes` attribute (ReduceSum before 13,
// the others before 18) or from the optional second input with `noop_with_empty_axes`. No axes
// reduces everything (or nothing with noop_with_empty_axes=1: each element is then reduced alone,
// so ReduceSumSquare still squares). Reducing an empty set gives the identity: 0 for sums, 1 for
// products, -inf/+inf (or the integer limits) for max/min, NaN for the mean of floats.
#include <algorithm>
#include <cmath>
#include <limits>

#include "providers/common/reduction/reduce_attributes.h"
#include "providers/common/reduction/reduce_plan.h"
#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/math/fast_math.h"
#include "providers/cpu/kernels/onnx/reduction/reduction_kernels.h"

namespace ort {
namespace {

using MaxMinTypes = TypeList<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t,
                             uint8_t, uint16_t, uint32_t, uint64_t, bool>;

enum class ReduceKind { kSum, kMean, kMax, kMin, kProd, kL1, kL2, kLogSum, kLogSumExp, kSumSquare };

// The accumulator of a reduction on compute type C: integers add and multiply modulo 2^64 (the
// result is then exact whenever it fits, and wraps like the output type otherwise); max/min
// compare in C; LogSumExp of integers works in double.
template <ReduceKind kKind, typename C>
struct Reducer {
  static constexpr bool kOrdered = kKind == ReduceKind::kMax || kKind == ReduceKind::kMin;
  using Acc =
      std::conditional_t<std::is_floating_point_v<C> || kOrdered, C,
                         std::conditional_t<kKind == ReduceKind::kLogSumExp, double, uint64_t>>;

  static Acc Identity() {
    if constexpr (kKind == ReduceKind::kMax) {
      if constexpr (std::numeric_limits<C>::has_infinity)
        return -std::numeric_limits<C>::infinity();
      return std::numeric_limits<C>::lowest();
    } else if constexpr (kKind == ReduceKind::kMin) {
      if constexpr (std::numeric_limits<C>::has_infinity) return std::numeric_limits<C>::infinity();
      return std::numeric_limits<C>::max();
    } else if constexpr (kKind == ReduceKind::kProd) {
      return Acc(1);
    } else {
      return Acc(0);
    }
  }

  // One element's contribution; `shift` is the running maximum subtracted by LogSumExp.
  static Acc Map(C x, Acc shift) {
    if constexpr (kKind == ReduceKind::kL1) {
      if constexpr (std::is_floating_point_v<C>) return std::abs(x);
      if constexpr (std::is_signed_v<C>) return x < 0 ? Acc(0) - Acc(x) : Acc(x);
      return Acc(x);
    } else if constexpr (kKind == ReduceKind::kL2 || kKind == ReduceKind::kSumSquare) {
      return Acc(x) * Acc(x);
    } else if constexpr (kKind == ReduceKind::kLogSumExp) {
      if constexpr (std::is_same_v<Acc, float>) return FastExp(x - shift);
      return std::exp(Acc(x) - shift);
    } else {
      (void)shift;
      return Acc(x);
    }
  }

  static Acc Combine(Acc a, Acc b) {
    if constexpr (kKind == ReduceKind::kMax) {
      // NaN sticks, as with numpy.max.
      return Pick((b > a) | (b != b), b, a);
    } else if constexpr (kKind == ReduceKind::kMin) {
      return Pick((b < a) | (b != b), b, a);
    } else if constexpr (kKind == ReduceKind::kProd) {
      return a * b;
    } else {
      return a + b;
    }
  }

  static C Finalize(Acc a, int64_t count, Acc shift) {
    // Integer accumulators are read back as the signedness of C.
    using Wide = std::conditional_t<std::is_signed_v<C>, int64_t, uint64_t>;
    if constexpr (kKind == ReduceKind::kMean) {
      if constexpr (std::is_floating_point_v<C>) return a / static_cast<C>(count);
      if (count == 0) return C(0);
      return static_cast<C>(static_cast<Wide>(a) / static_cast<Wide>(count));
    } else if constexpr (kKind == ReduceKind::kL2 || kKind == ReduceKind::kLogSum) {
      double value;
      if constexpr (std::is_floating_point_v<C>) {
        value = a;
      } else {
        value = static_cast<double>(static_cast<Wide>(a));
      }
      value = kKind == ReduceKind::kL2 ? std::sqrt(value) : std::log(value);
      if constexpr (std::is_floating_point_v<C>) return static_cast<C>(value);
      return DoubleToInteger<C>(value);
    } else if constexpr (kKind == ReduceKind::kLogSumExp) {
      const Acc value = shift + std::log(a);
      if constexpr (std::is_floating_point_v<C>) return value;
      return DoubleToInteger<C>(value);
    } else {
      return static_cast<C>(a);
    }
  }
};

// Folds a contiguous run into `acc` with eight independent lanes so that the loop vectorizes
// without reassociating floating-point math.
template <typename R, typename T>
typename R::Acc FoldRun(const T* x, int64_t n, typename R::Acc acc, typename R::Acc shift) {
  using Acc = typename R::Acc;
  using C = ComputeType<T>;
  constexpr int kLanes = 8;
  int64_t i = 0;
  Acc lanes[kLanes];
  for (int j = 0; j < kLanes; ++j) lanes[j] = R::Identity();
  for (; i + kLanes <= n; i += kLanes) {
    // Kept as a loop for the loop vectorizer: fully unrolled, GCC 12's straight-line vectorizer
    // leaves selects (max/min) scalar.
#pragma GCC unroll 1
    for (int j = 0; j < kLanes; ++j) lanes[j] = R::Combine(lanes[j], R::Map(C(x[i + j]), shift));
  }
  for (int j = 0; j < kLanes; ++j) acc = R::Combine(acc, lanes[j]);
  for (; i < n; ++i) acc = R::Combine(acc, R::Map(C(x[i]), shift));
  return acc;
}

// Runs reducer R over `plan`, writing outputs `out`; `shifts` (one per output) feeds LogSumExp.
template <typename R, typename T, typename Out>
void RunReduce(const ReducePlan& plan, const T* x, Out* out, const typename R::Acc* shifts,
               ThreadPool* pool) {
  using Acc = typename R::Acc;
  const double cost = static_cast<double>(std::max<int64_t>(plan.reduce_count, 1)) * 2.0;
  if (plan.run_reduced) {
    ThreadPool::TryParallelFor(pool, static_cast<int64_t>(plan.kept_offsets.size()), cost,
                               [&](int64_t begin, int64_t end) {
                                 for (int64_t o = begin; o < end; ++o) {
                                   const Acc shift = shifts ? shifts[o] : Acc(0);
                                   Acc acc = R::Identity();
                                   const T* base = x + plan.kept_offsets[o];
                                   for (int64_t r : plan.reduce_offsets) {
                                     acc = FoldRun<R>(base + r, plan.run, acc, shift);
                                   }
                                   out[o] =
                                       static_cast<Out>(R::Finalize(acc, plan.reduce_count, shift));
                                 }
                               });
    return;
  }
  // The run is kept: fold whole rows into blocks of up to kBlock neighbouring outputs.
  constexpr int64_t kBlock = 256;
  const int64_t blocks = (plan.run + kBlock - 1) / kBlock;
  const int64_t groups = static_cast<int64_t>(plan.kept_offsets.size());
  ThreadPool::TryParallelFor(
      pool, groups * blocks, cost * static_cast<double>(std::min(kBlock, plan.run)),
      [&](int64_t begin, int64_t end) {
        Acc acc[kBlock];
        for (int64_t unit = begin; unit < end; ++unit) {
          const int64_t g = unit / blocks;
          const int64_t j0 = (unit % blocks) * kBlock;
          const int64_t width = std::min(kBlock, plan.run - j0);
          const int64_t first_output = g * plan.run + j0;
          for (int64_t j = 0; j < width; ++j) acc[j] = R::Identity();
          const T* base = x + plan.kept_offsets[g] + j0;
          for (int64_t r : plan.reduce_offsets) {
            const T* row = base + r;
            for (int64_t j = 0; j < width; ++j) {
              const Acc shift = shifts ? shifts[first_output + j] : Acc(0);
              acc[j] = R::Combine(acc[j], R::Map(ComputeType<T>(row[j]), shift));
            }
          }
          for (int64_t j = 0; j < width; ++j) {
            const Acc shift = shifts ? shifts[first_output + j] : Acc(0);
            out[first_output + j] = static_cast<Out>(R::Finalize(acc[j], plan.reduce_count, shift));
          }
        }
      });
}

template <ReduceKind kKind>
class Reduce final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override { return attributes_.Parse(info); }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const std::vector<size_t> normalized,
                         attributes_.ResolveAxes(context, x->shape()));
    using Types = std::conditional_t<kKind == ReduceKind::kMax || kKind == ReduceKind::kMin,
                                     MaxMinTypes, NumericTypes>;
    return DispatchByType<Types>(x->dtype(), context.node().op_type(), [&]<typename T>() {
      return ComputeTyped<T>(context, *x, normalized);
    });
  }

 private:
  template <typename T>
  Status ComputeTyped(KernelContext& context, const Tensor& input,
                      const std::vector<size_t>& axes) const {
    using C = ComputeType<T>;
    using R = Reducer<kKind, C>;
    const TensorShape& shape = input.shape();
    if (input.NumElements() == 0) {
      const TensorShape output_shape = ReducedShape(shape, axes, attributes_.keepdims);
      ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, DataTypeOf<T>(), output_shape));
      const T identity = static_cast<T>(R::Finalize(R::Identity(), 0, R::Identity()));
      std::fill_n(output->MutableData<T>(), output->NumElements(), identity);
      return Status::OK();
    }
    const ReducePlan plan = MakeReducePlan(shape, axes, attributes_.keepdims);
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, DataTypeOf<T>(), plan.output_shape));
    T* out = output->MutableData<T>();
    if constexpr (kKind == ReduceKind::kLogSumExp) {
      // Subtract each output's maximum first so that exp cannot overflow.
      std::vector<typename R::Acc> max(static_cast<size_t>(plan.OutputCount()));
      using MaxReducer = Reducer<ReduceKind::kMax, typename R::Acc>;
      if constexpr (std::is_same_v<C, typename R::Acc>) {
        RunReduce<MaxReducer>(plan, input.Data<T>(), max.data(), nullptr, context.thread_pool());
      } else {
        std::vector<typename R::Acc> wide(input.Data<T>(), input.Data<T>() + input.NumElements());
        RunReduce<MaxReducer>(plan, wide.data(), max.data(), nullptr, context.thread_pool());
      }
      // An infinite maximum would turn x - max into NaN; exp then sees -inf or 0 instead.
      for (auto& m : max) m = std::isinf(m) ? 0 : m;
      RunReduce<R>(plan, input.Data<T>(), out, max.data(), context.thread_pool());
    } else {
      RunReduce<R>(plan, input.Data<T>(), out, nullptr, context.thread_pool());
    }
    return Status::OK();
  }

  ReduceAttributes attributes_;
};

template <ReduceKind kKind>
void Register(KernelRegistry& registry, const char* name) {
  using Types = std::conditional_t<kKind == ReduceKind::kMax || kKind == ReduceKind::kMin,
                                   MaxMinTypes, NumericTypes>;
  const auto types = Types::DataTypes();
  const int axes_input_since = ReduceAxesInputSince(name);
  registry.Add<Reduce<kKind>>(KernelDef(name).Versions(1, axes_input_since - 1).Input(0, types));
  registry.Add<Reduce<kKind>>(
      KernelDef(name).Versions(axes_input_since).Input(0, types).HostInput(1));
}

}  // namespace

void RegisterReduceKernels(KernelRegistry& registry) {
  Register<ReduceKind::kSum>(registry, "ReduceSum");
  Register<ReduceKind::kMean>(registry, "ReduceMean");
  Register<ReduceKind::kMax>(registry, "ReduceMax");
  Register<ReduceKind::kMin>(registry, "ReduceMin");
  Register<ReduceKind::kProd>(registry, "ReduceProd");
  Register<ReduceKind::kL1>(registry, "ReduceL1");
  Register<ReduceKind::kL2>(registry, "ReduceL2");
  Register<ReduceKind::kLogSum>(registry, "ReduceLogSum");
  Register<ReduceKind::kLogSumExp>(registry, "ReduceLogSumExp");
  Register<ReduceKind::kSumSquare>(registry, "ReduceSumSquare");
}

}  // namespace ort
