// Range: start + i * delta for i in [0, max(ceil((limit - start) / delta), 0)).
#include <cmath>

#include "providers/cpu/kernels/onnx/generator/generator_kernels.h"

namespace ort {
namespace {

template <typename T>
Result<int64_t> RangeCount(T start, T limit, T delta) {
  if constexpr (std::is_integral_v<T>) {
    // Wide arithmetic: limit - start may not fit in T.
    const auto span = static_cast<__int128>(limit) - static_cast<__int128>(start);
    const auto step = static_cast<__int128>(delta);
    if ((span > 0) != (step > 0) || span == 0) return int64_t{0};
    const __int128 count = (span + step - (step > 0 ? 1 : -1)) / step;
    return static_cast<int64_t>(count);
  } else {
    const double count = std::ceil((static_cast<double>(limit) - static_cast<double>(start)) /
                                   static_cast<double>(delta));
    if (!std::isfinite(count)) {
      return ORT_ERROR(kInvalidArgument, "the range is not finite");
    }
    if (count > 1e12) return ORT_ERROR(kInvalidArgument, "the range is too long");
    return count > 0 ? static_cast<int64_t>(count) : int64_t{0};
  }
}

class Range final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* start, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* limit, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* delta, context.RequiredInput(2));
    for (const Tensor* t : {start, limit, delta}) {
      if (t->NumElements() != 1 || t->dtype() != start->dtype()) {
        return context.Error("start, limit and delta must be scalars of one type, got {}",
                             t->Describe());
      }
    }
    using Types = TypeList<float, double, int16_t, int32_t, int64_t>;
    return DispatchByType<Types>(start->dtype(), "Range", [&]<typename T>() -> Status {
      const T first = *start->Data<T>();
      const T step = *delta->Data<T>();
      if (step == T{0}) return context.Error("delta must not be 0");
      auto count = RangeCount<T>(first, *limit->Data<T>(), step);
      if (!count.ok()) return context.Error("{}", count.status().message());
      if (*count > (int64_t{1} << 40)) return context.Error("the range is too long");
      ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, start->dtype(), TensorShape{*count}));
      T* out = output->MutableData<T>();
      for (int64_t i = 0; i < *count; ++i) {
        if constexpr (std::is_integral_v<T>) {
          // Unsigned arithmetic wraps instead of overflowing; the result is always in range.
          out[i] = static_cast<T>(static_cast<uint64_t>(static_cast<int64_t>(first)) +
                                  static_cast<uint64_t>(i) *
                                      static_cast<uint64_t>(static_cast<int64_t>(step)));
        } else {
          out[i] = static_cast<T>(first + static_cast<T>(i) * step);
        }
      }
      return Status::OK();
    });
  }
};

}  // namespace

void RegisterRangeKernels(KernelRegistry& registry) {
  registry.Add<Range>(KernelDef("Range").Versions(11).Input(
      0,
      {DataType::kFloat, DataType::kDouble, DataType::kInt16, DataType::kInt32, DataType::kInt64}));
}

}  // namespace ort
