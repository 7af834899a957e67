// CumSum (opset 11) and CumProd (26) along an axis given as a scalar input, optionally exclusive
// (the first output is the identity, 0 or 1) and/or reversed. Integers wrap on overflow.
#include <vector>

#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/math/math_kernels.h"

namespace ort {
namespace {

template <bool kProduct>
class Cumulative final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const int64_t exclusive, info.GetAttributeOr<int64_t>("exclusive", 0));
    ORT_ASSIGN_OR_RETURN(const int64_t reverse, info.GetAttributeOr<int64_t>("reverse", 0));
    exclusive_ = exclusive != 0;
    reverse_ = reverse != 0;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* axis_tensor, context.RequiredInput(1));
    if (axis_tensor->NumElements() != 1 || axis_tensor->shape().rank() > 1) {
      return context.Error("axis must be a scalar, got shape {}", axis_tensor->shape().ToString());
    }
    auto axis_values = ReadInt64Values(*axis_tensor);
    if (!axis_values.ok()) return context.Error("{}", axis_values.status().message());
    auto axis = NormalizeAxis((*axis_values)[0], x->shape().rank());
    if (!axis.ok()) return context.Error("{}", axis.status().message());
    const TensorShape& shape = x->shape();
    const int64_t outer = shape.SizeToDimension(*axis);
    const int64_t n = shape[*axis];
    const int64_t inner = shape.SizeFromDimension(*axis + 1);
    return DispatchByType<NumericTypes>(
        x->dtype(), kProduct ? "CumProd" : "CumSum",
        [&]<typename T>() { return ComputeTyped<T>(context, *x, outer, n, inner); });
  }

 private:
  template <typename T>
  Status ComputeTyped(KernelContext& context, const Tensor& input, int64_t outer, int64_t n,
                      int64_t inner) const {
    using C = ComputeType<T>;
    using Acc = WrappingType<C>;
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, DataTypeOf<T>(), input.shape()));
    const T* x = input.Data<T>();
    T* y = output->MutableData<T>();
    const bool exclusive = exclusive_;
    const bool reverse = reverse_;
    ThreadPool::TryParallelFor(context.thread_pool(), outer, 2.0 * static_cast<double>(n * inner),
                               [&](int64_t begin, int64_t end) {
                                 std::vector<Acc> sum(static_cast<size_t>(inner));
                                 for (int64_t o = begin; o < end; ++o) {
                                   std::fill(sum.begin(), sum.end(), kProduct ? Acc(1) : Acc{});
                                   for (int64_t step = 0; step < n; ++step) {
                                     const int64_t r = reverse ? n - 1 - step : step;
                                     const T* in = x + (o * n + r) * inner;
                                     T* out = y + (o * n + r) * inner;
                                     for (int64_t j = 0; j < inner; ++j) {
                                       const Acc value = static_cast<Acc>(static_cast<C>(in[j]));
                                       if (exclusive)
                                         out[j] = static_cast<T>(static_cast<C>(sum[j]));
                                       sum[j] =
                                           kProduct ? Acc(sum[j] * value) : Acc(sum[j] + value);
                                       if (!exclusive)
                                         out[j] = static_cast<T>(static_cast<C>(sum[j]));
                                     }
                                   }
                                 }
                               });
    return Status::OK();
  }

  bool exclusive_ = false;
  bool reverse_ = false;
};

}  // namespace

void RegisterCumulativeKernels(KernelRegistry& registry) {
  registry.Add<Cumulative<false>>(KernelDef("CumSum")
                                      .Versions(11)
                                      .Input(0, NumericTypes::DataTypes())
                                      .Input(1, {DataType::kInt32, DataType::kInt64})
                                      .HostInput(1));
  registry.Add<Cumulative<true>>(KernelDef("CumProd")
                                     .Versions(26)
                                     .Input(0, NumericTypes::DataTypes())
                                     .Input(1, {DataType::kInt32, DataType::kInt64})
                                     .HostInput(1));
}

}  // namespace ort
