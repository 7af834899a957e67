// Helpers shared by the elementwise math, activation and logical kernels: a parallel unary loop,
// a generic unary kernel, a broadcasting binary loop over explicit tensors (possibly of two
// element types) and the legacy `broadcast`/`axis` rule of binary ops before opset 7.
#pragma once

#include <concepts>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/common/vectorize.h"

namespace ort {

template <typename C, bool = std::is_integral_v<C>>
struct WrappingArithmetic {
  using type = C;
};
template <typename C>
struct WrappingArithmetic<C, true> {
  using type = std::make_unsigned_t<decltype(C{} + C{})>;
};
/// The type integer arithmetic on C is done in so that overflow wraps like two's complement
/// hardware (signed overflow, and int-promoted uint16 products, are undefined in C++): unsigned
/// and at least int-sized. C itself for floating point.
template <typename C>
using WrappingType = typename WrappingArithmetic<C>::type;

/// double -> integer the way Cast does it, without undefined behaviour: truncation toward zero,
/// values beyond the range of I wrap modulo 2^bits (through int64, which saturates) like numpy,
/// NaN gives 0.
template <typename I>
I DoubleToInteger(double value) {
  constexpr double kTwo63 = 9223372036854775808.0;
  if (!(value == value)) return 0;
  if constexpr (std::is_same_v<I, uint64_t>) {
    if (value >= kTwo63) {
      return value >= 2 * kTwo63 ? std::numeric_limits<uint64_t>::max()
                                 : static_cast<uint64_t>(value);
    }
  }
  int64_t wide;
  if (value <= -kTwo63) {
    wide = std::numeric_limits<int64_t>::min();
  } else if (value >= kTwo63) {
    wide = std::numeric_limits<int64_t>::max();
  } else {
    wide = static_cast<int64_t>(value);
  }
  return static_cast<I>(wide);
}

/// `value` in compute type C: a reference when it already is one (no string copies).
template <typename C, typename T>
decltype(auto) AsCompute(const T& value) {
  if constexpr (std::is_same_v<C, T>) {
    return (value);
  } else {
    return static_cast<C>(value);
  }
}

/// A functor that also maps whole float ranges at once, through a kernel written for the ISA
/// (`void Floats(const float* in, float* out, int64_t count) const`).
template <typename F>
concept FloatRangeFunctor = requires(const F functor, const float* in, float* out, int64_t count) {
  functor.Floats(in, out, count);
};

/// Output 0 = op(input 0) elementwise; `op` maps ComputeType<In> to a value convertible to Out.
template <typename In, typename Out, typename Op>
Status ComputeUnary(KernelContext& context, const Op& op, double cost_per_element = 1.0) {
  ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
  ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataTypeOf<Out>(), x->shape()));
  const In* in = x->Data<In>();
  Out* out = y->MutableData<Out>();
  using C = ComputeType<In>;
  if constexpr (FloatRangeFunctor<Op> && std::is_same_v<In, float> && std::is_same_v<Out, float>) {
    ThreadPool::TryParallelFor(
        context.thread_pool(), x->NumElements(), cost_per_element,
        [&](int64_t begin, int64_t end) { op.Floats(in + begin, out + begin, end - begin); });
    return Status::OK();
  }
  auto run = [&](int64_t begin, int64_t end) {
    // A local copy: stores through `out` could alias a referenced functor, which would keep its
    // fields from being hoisted.
    const Op local_op = op;
    for (int64_t i = begin; i < end; ++i) out[i] = static_cast<Out>(local_op(AsCompute<C>(in[i])));
  };
  if constexpr (std::is_floating_point_v<C>) {
    VectorizedParallelFor(context.thread_pool(), x->NumElements(), cost_per_element, run);
  } else {
    ThreadPool::TryParallelFor(context.thread_pool(), x->NumElements(), cost_per_element, run);
  }
  return Status::OK();
}

/// A functor with attributes parses them in `Status Init(const KernelInfo&)`.
template <typename F>
concept InitializableFunctor = requires(F functor, const KernelInfo& info) {
  { functor.Init(info) } -> std::same_as<Status>;
};

/// y = f(x) with the same shape and type, for every type of `Types`. `Functor` has a const
/// templated `operator()(C x)` over the compute type, a `static constexpr double kCost` in cycles
/// per element and optionally `Status Init(const KernelInfo&)`.
template <typename Functor, typename Types>
class UnaryElementwiseKernel final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    if constexpr (InitializableFunctor<Functor>) return functor_.Init(info);
    (void)info;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    return DispatchByType<Types>(x->dtype(), context.node().op_type(), [&]<typename T>() {
      return ComputeUnary<T, T>(context, functor_, Functor::kCost);
    });
  }

 private:
  Functor functor_;
};

/// Output `output_index` = op(a, b) with numpy broadcasting; `op` maps (ComputeType<A>,
/// ComputeType<B>) to a value convertible to Out.
template <typename A, typename B, typename Out, typename Op>
Status BroadcastBinaryTensors(KernelContext& context, const Tensor& a, const Tensor& b, Op op,
                              double cost_per_element = 1.0, size_t output_index = 0) {
  // The kernel picked A and B from one input's type; a model whose inputs disagree (Div of uint8
  // by float) would otherwise be read as the wrong type, past the end of the smaller buffer.
  if (a.dtype() != DataTypeOf<A>() || b.dtype() != DataTypeOf<B>()) {
    return context.Error("inputs of types {} and {}, but this kernel computes {} with {}",
                         DataTypeName(a.dtype()), DataTypeName(b.dtype()),
                         DataTypeName(DataTypeOf<A>()), DataTypeName(DataTypeOf<B>()));
  }
  const TensorShape shapes[] = {a.shape(), b.shape()};
  auto plan = MakeBroadcastPlan(shapes);
  if (!plan.ok()) return context.Error("{}", plan.status().message());
  ORT_ASSIGN_OR_RETURN(Tensor * output,
                       context.Output(output_index, DataTypeOf<Out>(), plan->output_shape));
  const A* pa = a.Data<A>();
  const B* pb = b.Data<B>();
  Out* po = output->MutableData<Out>();
  const bool a_runs = plan->inner_strides[0] != 0;
  const bool b_runs = plan->inner_strides[1] != 0;
  using CA = ComputeType<A>;
  using CB = ComputeType<B>;
  constexpr bool kVectorize = std::is_floating_point_v<CA> && std::is_floating_point_v<CB>;
  // A short run of one input repeated along the last outer dimension while the other advances
  // (an NCHWc block's channel scale over every pixel, 16 elements a run) is looped over in one
  // call per outer position: one call per run cost three times its arithmetic.
  constexpr int64_t kShortRun = 64;
  const size_t rank = plan->outer_dims.size();
  if (a_runs && b_runs && plan->inner <= kShortRun && rank > 0) {
    const int64_t sa = plan->outer_strides[0][rank - 1], sb = plan->outer_strides[1][rank - 1];
    const int64_t inner = plan->inner, repeats = plan->outer_dims[rank - 1];
    if ((sa == inner && sb == 0) || (sa == 0 && sb == inner)) {
      BroadcastPlan repeated = *plan;
      repeated.inner = inner * repeats;
      repeated.outer_dims.pop_back();
      for (auto& strides : repeated.outer_strides) strides.pop_back();
      ParallelForEachBroadcastRun<kVectorize>(
          repeated, context.thread_pool(), cost_per_element,
          [&](int64_t out_offset, const int64_t* in, int64_t) {
            for (int64_t j = 0; j < repeats; ++j) {
              const A* x = pa + in[0] + j * sa;
              const B* y = pb + in[1] + j * sb;
              Out* z = po + out_offset + j * inner;
              for (int64_t i = 0; i < inner; ++i) {
                z[i] = static_cast<Out>(op(AsCompute<CA>(x[i]), AsCompute<CB>(y[i])));
              }
            }
          });
      return Status::OK();
    }
  }
  ParallelForEachBroadcastRun<kVectorize>(
      *plan, context.thread_pool(), cost_per_element,
      [&](int64_t out_offset, const int64_t* in, int64_t n) {
        const A* x = pa + in[0];
        const B* y = pb + in[1];
        Out* z = po + out_offset;
        if (a_runs && b_runs) {
          for (int64_t i = 0; i < n; ++i) {
            z[i] = static_cast<Out>(op(AsCompute<CA>(x[i]), AsCompute<CB>(y[i])));
          }
        } else if (a_runs) {
          const CB yv = CB(*y);
          for (int64_t i = 0; i < n; ++i) z[i] = static_cast<Out>(op(AsCompute<CA>(x[i]), yv));
        } else if (b_runs) {
          const CA xv = CA(*x);
          for (int64_t i = 0; i < n; ++i) z[i] = static_cast<Out>(op(xv, AsCompute<CB>(y[i])));
        } else {
          const Out value = static_cast<Out>(op(AsCompute<CA>(*x), AsCompute<CB>(*y)));
          for (int64_t i = 0; i < n; ++i) z[i] = value;
        }
      });
  return Status::OK();
}

/// The `broadcast` and `axis` attributes of binary ops before opset 7 (Add, And, Equal, ...):
/// without broadcast=1 both shapes must be equal; with it, B is broadcast onto A, its dimensions
/// aligned with A's trailing ones, or with A's from `axis` on when given.
class LegacyBroadcast {
 public:
  Status Init(const KernelInfo& info) {
    legacy_ = info.opset() < 7;
    if (!legacy_) return Status::OK();
    ORT_ASSIGN_OR_RETURN(const int64_t broadcast, info.GetAttributeOr<int64_t>("broadcast", 0));
    enabled_ = broadcast != 0;
    if (info.HasAttribute("axis")) {
      ORT_ASSIGN_OR_RETURN(const int64_t axis, info.GetAttribute<int64_t>("axis"));
      axis_ = axis;
    }
    return Status::OK();
  }

  /// The shape B is read with so that numpy broadcasting against A gives the legacy result.
  Result<TensorShape> ShapeOfB(const KernelContext& context, const TensorShape& a,
                               const TensorShape& b) const {
    if (!legacy_) return b;
    if (!enabled_) {
      if (a != b) {
        return context.Error("shapes {} and {} differ and attribute broadcast is not set",
                             a.ToString(), b.ToString());
      }
      return b;
    }
    std::vector<int64_t> dims = b.dims();
    if (axis_.has_value() && b.rank() > 0) {
      const int64_t rank = static_cast<int64_t>(a.rank());
      const int64_t axis = *axis_ < 0 ? *axis_ + rank : *axis_;
      if (axis < 0 || axis + static_cast<int64_t>(b.rank()) > rank) {
        return context.Error("axis {} does not fit B of shape {} into A of shape {}", *axis_,
                             b.ToString(), a.ToString());
      }
      dims.resize(static_cast<size_t>(rank - axis), 1);
    }
    if (dims.size() > a.rank()) {
      return context.Error("B of shape {} has a higher rank than A of shape {}", b.ToString(),
                           a.ToString());
    }
    const size_t pad = a.rank() - dims.size();
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] != 1 && dims[i] != a[pad + i]) {
        return context.Error("B of shape {} cannot be broadcast onto A of shape {}", b.ToString(),
                             a.ToString());
      }
    }
    return TensorShape(std::move(dims));
  }

 private:
  bool legacy_ = false;
  bool enabled_ = false;
  std::optional<int64_t> axis_;
};

/// Output 0 = op(input 0, input 1) with numpy broadcasting, or the legacy rule before opset 7.
template <typename A, typename B, typename Out, typename Op>
Status ComputeBinary(KernelContext& context, const LegacyBroadcast& legacy, Op op,
                     double cost_per_element = 1.0) {
  ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
  ORT_ASSIGN_OR_RETURN(const Tensor* b, context.RequiredInput(1));
  ORT_ASSIGN_OR_RETURN(TensorShape b_shape, legacy.ShapeOfB(context, a->shape(), b->shape()));
  if (b_shape == b->shape()) {
    return BroadcastBinaryTensors<A, B, Out>(context, *a, *b, op, cost_per_element);
  }
  ORT_ASSIGN_OR_RETURN(Tensor reshaped, b->Reshaped(std::move(b_shape)));
  return BroadcastBinaryTensors<A, B, Out>(context, *a, reshaped, op, cost_per_element);
}

}  // namespace ort
