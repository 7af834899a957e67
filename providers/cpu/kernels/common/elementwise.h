// Building blocks for elementwise kernels: the arithmetic type of each element type (half types
// compute in float) and a broadcasting binary loop.
#pragma once

#include <type_traits>

#include "lib/framework/op_kernel.h"
#include "providers/cpu/kernels/common/broadcast.h"

namespace ort {

/// The type arithmetic on T is done in: float for Float16/BFloat16, T otherwise.
template <typename T>
using ComputeType =
    std::conditional_t<std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>, float, T>;

/// out = op(a, b) with numpy broadcasting; `op` maps (ComputeType<In>, ComputeType<In>) to a
/// value convertible to Out. Output 0 is allocated with type Out.
template <typename In, typename Out, typename Op>
Status ComputeBroadcastBinary(KernelContext& context, Op op, double cost_per_element = 1.0) {
  ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
  ORT_ASSIGN_OR_RETURN(const Tensor* b, context.RequiredInput(1));
  const TensorShape shapes[] = {a->shape(), b->shape()};
  auto plan = MakeBroadcastPlan(shapes);
  if (!plan.ok()) return context.Error("{}", plan.status().message());
  ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, DataTypeOf<Out>(), plan->output_shape));
  const In* pa = a->Data<In>();
  const In* pb = b->Data<In>();
  Out* po = output->MutableData<Out>();
  const bool a_runs = plan->inner_strides[0] != 0;
  const bool b_runs = plan->inner_strides[1] != 0;
  using C = ComputeType<In>;
  ParallelForEachBroadcastRun<std::is_floating_point_v<C>>(
      *plan, context.thread_pool(), cost_per_element,
      [&](int64_t out_offset, const int64_t* in, int64_t n) {
        const In* x = pa + in[0];
        const In* y = pb + in[1];
        Out* z = po + out_offset;
        if (a_runs && b_runs) {
          for (int64_t i = 0; i < n; ++i) z[i] = static_cast<Out>(op(C(x[i]), C(y[i])));
        } else if (a_runs) {
          const C yv = C(*y);
          for (int64_t i = 0; i < n; ++i) z[i] = static_cast<Out>(op(C(x[i]), yv));
        } else if (b_runs) {
          const C xv = C(*x);
          for (int64_t i = 0; i < n; ++i) z[i] = static_cast<Out>(op(xv, C(y[i])));
        } else {
          const Out value = static_cast<Out>(op(C(*x), C(*y)));
          for (int64_t i = 0; i < n; ++i) z[i] = value;
        }
      });
  return Status::OK();
}

}  // namespace ort
