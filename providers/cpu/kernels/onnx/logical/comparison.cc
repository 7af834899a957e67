// Equal, Greater, Less, GreaterOrEqual, LessOrEqual to bool with numpy broadcasting (the legacy
// broadcast/axis attributes before opset 7). Equal also compares bools and strings.
#include <climits>

#include "providers/cpu/kernels/onnx/logical/logical_kernels.h"
#include "providers/cpu/kernels/onnx/math/elementwise_util.h"

namespace ort {
namespace {

enum class CompareOp { kEqual, kGreater, kLess, kGreaterOrEqual, kLessOrEqual };

using EqualTypes = TypeList<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t,
                            uint8_t, uint16_t, uint32_t, uint64_t, bool, std::string>;

template <CompareOp kOp, typename Types>
class Compare final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override { return legacy_.Init(info); }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* b, context.RequiredInput(1));
    if (a->dtype() != b->dtype()) {
      return context.Error("inputs have different types {} and {}", DataTypeName(a->dtype()),
                           DataTypeName(b->dtype()));
    }
    return DispatchByType<Types>(a->dtype(), context.node().op_type(), [&]<typename T>() {
      using C = ComputeType<T>;
      return ComputeBinary<T, T, bool>(context, legacy_, [](const C& x, const C& y) {
        if constexpr (kOp == CompareOp::kEqual) return x == y;
        if constexpr (kOp == CompareOp::kGreater) return x > y;
        if constexpr (kOp == CompareOp::kLess) return x < y;
        if constexpr (kOp == CompareOp::kGreaterOrEqual) return x >= y;
        return x <= y;
      });
    });
  }

 private:
  LegacyBroadcast legacy_;
};

template <CompareOp kOp, typename Types>
void Register(KernelRegistry& registry, const char* name, int since, int until = INT_MAX) {
  registry.Add<Compare<kOp, Types>>(
      KernelDef(name).Versions(since, until).Input(0, Types::DataTypes()));
}

}  // namespace

void RegisterComparisonKernels(KernelRegistry& registry) {
  // Before opset 7 (Equal: 11, Greater/Less: 9) fewer types were allowed; serving more is harmless.
  Register<CompareOp::kEqual, EqualTypes>(registry, "Equal", 1, 6);
  Register<CompareOp::kEqual, EqualTypes>(registry, "Equal", 7);
  Register<CompareOp::kGreater, NumericTypes>(registry, "Greater", 1, 6);
  Register<CompareOp::kGreater, NumericTypes>(registry, "Greater", 7);
  Register<CompareOp::kLess, NumericTypes>(registry, "Less", 1, 6);
  Register<CompareOp::kLess, NumericTypes>(registry, "Less", 7);
  Register<CompareOp::kGreaterOrEqual, NumericTypes>(registry, "GreaterOrEqual", 12);
  Register<CompareOp::kLessOrEqual, NumericTypes>(registry, "LessOrEqual", 12);
}

}  // namespace ort
