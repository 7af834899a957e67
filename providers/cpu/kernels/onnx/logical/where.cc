// Where(condition, X, Y) with numpy broadcasting of all three inputs, for every element type.
#include "providers/common/logical/where_inputs.h"
#include "providers/cpu/kernels/common/broadcast.h"
#include "providers/cpu/kernels/onnx/logical/logical_kernels.h"
#include "providers/cpu/kernels/onnx/math/elementwise_util.h"

namespace ort {
namespace {

// One broadcast run; each input either advances (k* = true) or repeats its first element. Both
// values are read before choosing so that the loop has no conditional load and vectorizes.
template <bool kCondRuns, bool kXRuns, bool kYRuns, typename T>
void SelectRun(const bool* condition, const T* x, const T* y, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const T& a = x[kXRuns ? i : 0];
    const T& b = y[kYRuns ? i : 0];
    out[i] = condition[kCondRuns ? i : 0] ? a : b;
  }
}

template <typename T>
using SelectRunFn = void (*)(const bool*, const T*, const T*, T*, int64_t);

template <typename T>
SelectRunFn<T> PickSelectRun(bool c, bool x, bool y) {
  const SelectRunFn<T> table[8] = {
      SelectRun<false, false, false, T>, SelectRun<false, false, true, T>,
      SelectRun<false, true, false, T>,  SelectRun<false, true, true, T>,
      SelectRun<true, false, false, T>,  SelectRun<true, false, true, T>,
      SelectRun<true, true, false, T>,   SelectRun<true, true, true, T>};
  return table[(c ? 4 : 0) + (x ? 2 : 0) + (y ? 1 : 0)];
}

class Where final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const WhereInputs inputs, ReadWhereInputs(context));
    const BroadcastPlan& plan = inputs.plan;
    return DispatchByType<AllTensorTypes>(inputs.x->dtype(), "Where", [&]<typename T>() -> Status {
      ORT_ASSIGN_OR_RETURN(Tensor * output,
                           context.Output(0, inputs.x->dtype(), plan.output_shape));
      const bool* pc = inputs.condition->Data<bool>();
      const T* px = inputs.x->Data<T>();
      const T* py = inputs.y->Data<T>();
      T* po = output->MutableData<T>();
      const SelectRunFn<T> run = PickSelectRun<T>(
          plan.inner_strides[0] != 0, plan.inner_strides[1] != 0, plan.inner_strides[2] != 0);
      const double cost = std::is_same_v<T, std::string> ? 20.0 : 1.0;
      ParallelForEachBroadcastRun(plan, context.thread_pool(), cost,
                                  [&](int64_t out_offset, const int64_t* in, int64_t n) {
                                    run(pc + in[0], px + in[1], py + in[2], po + out_offset, n);
                                  });
      return Status::OK();
    });
  }
};

}  // namespace

void RegisterWhereKernels(KernelRegistry& registry) {
  registry.Add<Where>(KernelDef("Where")
                          .Versions(9)
                          .Input(0, {DataType::kBool})
                          .Input(1, AllTensorTypes::DataTypes()));
}

}  // namespace ort
