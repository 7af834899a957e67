// Max, Min, Sum, Mean over any number of inputs: numpy broadcasting from opset 8, equal shapes
// before. Max and Min propagate NaN like numpy.maximum / numpy.minimum.
#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/math/fast_math.h"
#include "providers/cpu/kernels/onnx/math/math_kernels.h"

namespace ort {
namespace {

enum class VariadicOp { kMax, kMin, kSum, kMean };

template <VariadicOp kOp, typename C>
C Combine(C a, C b) {
  if constexpr (kOp == VariadicOp::kMax || kOp == VariadicOp::kMin) {
    const bool keep_a = kOp == VariadicOp::kMax ? a > b : a < b;
    if constexpr (std::is_floating_point_v<C>) {
      return Select(keep_a | (a != a), a, b);
    } else {
      return keep_a ? a : b;
    }
  } else if constexpr (std::is_integral_v<C>) {
    return static_cast<C>(WrappingType<C>(a) + WrappingType<C>(b));
  } else {
    return a + b;
  }
}

template <VariadicOp kOp, typename Types>
class Variadic final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    broadcast_ = info.opset() >= 8;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    const size_t count = context.InputCount();
    if (count == 0) return context.Error("needs at least one input");
    std::vector<const Tensor*> inputs(count);
    std::vector<TensorShape> shapes(count);
    for (size_t k = 0; k < count; ++k) {
      ORT_ASSIGN_OR_RETURN(inputs[k], context.RequiredInput(k));
      if (inputs[k]->dtype() != inputs[0]->dtype()) {
        return context.Error("input {} has type {}, input 0 has {}", k,
                             DataTypeName(inputs[k]->dtype()), DataTypeName(inputs[0]->dtype()));
      }
      if (!broadcast_ && inputs[k]->shape() != inputs[0]->shape()) {
        return context.Error("input shapes {} and {} differ (no broadcasting before opset 8)",
                             inputs[0]->shape().ToString(), inputs[k]->shape().ToString());
      }
      shapes[k] = inputs[k]->shape();
    }
    auto plan = MakeBroadcastPlan(shapes);
    if (!plan.ok()) return context.Error("{}", plan.status().message());
    return DispatchByType<Types>(inputs[0]->dtype(), context.node().op_type(), [&]<typename T>() {
      return ComputeTyped<T>(context, inputs, *plan);
    });
  }

 private:
  template <typename T>
  static Status ComputeTyped(KernelContext& context, const std::vector<const Tensor*>& inputs,
                             const BroadcastPlan& plan) {
    using C = ComputeType<T>;
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, DataTypeOf<T>(), plan.output_shape));
    T* out = output->MutableData<T>();
    const size_t count = inputs.size();
    ParallelForEachBroadcastRun(plan, context.thread_pool(), static_cast<double>(count),
                                [&](int64_t out_offset, const int64_t* offsets, int64_t n) {
                                  T* z = out + out_offset;
                                  const T* first = inputs[0]->Data<T>() + offsets[0];
                                  if (plan.inner_strides[0] != 0) {
                                    for (int64_t i = 0; i < n; ++i) z[i] = first[i];
                                  } else {
                                    for (int64_t i = 0; i < n; ++i) z[i] = *first;
                                  }
                                  for (size_t k = 1; k < count; ++k) {
                                    const T* x = inputs[k]->Data<T>() + offsets[k];
                                    if (plan.inner_strides[k] != 0) {
                                      for (int64_t i = 0; i < n; ++i)
                                        z[i] = static_cast<T>(Combine<kOp>(C(z[i]), C(x[i])));
                                    } else {
                                      const C value = C(*x);
                                      for (int64_t i = 0; i < n; ++i)
                                        z[i] = static_cast<T>(Combine<kOp>(C(z[i]), value));
                                    }
                                  }
                                  if constexpr (kOp == VariadicOp::kMean) {
                                    const C divisor = static_cast<C>(count);
                                    for (int64_t i = 0; i < n; ++i)
                                      z[i] = static_cast<T>(C(z[i]) / divisor);
                                  }
                                });
    return Status::OK();
  }

  bool broadcast_ = true;
};

template <VariadicOp kOp>
void Register(KernelRegistry& registry, const char* name, bool numeric_from_12) {
  // Opset 1 also had `consumed_inputs`, an optimization hint that is ignored.
  const auto float_types = FloatTypes::DataTypes();
  registry.Add<Variadic<kOp, FloatTypes>>(KernelDef(name).Versions(1, 7).Input(0, float_types));
  if (!numeric_from_12) {
    registry.Add<Variadic<kOp, FloatTypes>>(KernelDef(name).Versions(8).Input(0, float_types));
    return;
  }
  registry.Add<Variadic<kOp, FloatTypes>>(KernelDef(name).Versions(8, 11).Input(0, float_types));
  registry.Add<Variadic<kOp, NumericTypes>>(
      KernelDef(name).Versions(12).Input(0, NumericTypes::DataTypes()));
}

}  // namespace

void RegisterVariadicKernels(KernelRegistry& registry) {
  Register<VariadicOp::kMax>(registry, "Max", true);
  Register<VariadicOp::kMin>(registry, "Min", true);
  Register<VariadicOp::kSum>(registry, "Sum", false);
  Register<VariadicOp::kMean>(registry, "Mean", false);
}

}  // namespace ort
