// com.microsoft QLinearAdd and QLinearMul: C = quantize(dequantize(A) op dequantize(B)) on 8-bit
// tensors of one type with numpy broadcasting, rounded half to even and saturated.
//
// The float steps are MLAS's, in its order, so that both engines give the same bytes: in a deep
// int8 network one rounding tie decided differently grows into differences at the output.
// - Add (MLAS's AVX2 kernel): fma(a, sa/sc, fma(b, sb/sc, zc - (sa/sc za + sb/sc zb))) on the
//   stored a and b; a scalar operand joins the constant part, and the other one is `a`. Without
//   FMA, MLAS's SSE2 order: (fixed + a sa/sc) + b sb/sc.
// - Mul (MLAS's SSE2 kernel, on every x86): the exact integer (a - za)(b - zb), times sa sb / sc,
//   plus zc.
// This file is compiled with -ffp-contract=off, so that the compiler fuses no multiply-add that
// MLAS does not.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

#include "providers/cpu/kernels/common/broadcast.h"
#include "providers/cpu/kernels/common/qgemm.h"
#include "providers/cpu/kernels/contrib/math/contrib_math_kernels.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"

namespace ort {
namespace {

using QuantTypes = TypeList<int8_t, uint8_t>;

struct BinaryParams {
  float a_factor, b_factor;  // Add: sa / sc and sb / sc; Mul: sa sb / sc and unused
  float a_zero, b_zero, c_zero;
  float low, high;  // qmin and qmax (loop-invariant loads: GCC then clamps with max/min)
};

// One run: A and B advance by kAStep and kBStep (0 or 1), constants so that the loop
// vectorizes, as it does with the parameters in locals (the 8-bit stores may alias `p`). The
// value is clamped to [qmin, qmax], then rounded by adding 1.5 x 2^23 (ties to even).
template <bool kMul, bool kFma, int kAStep, int kBStep, typename T>
void Run(const T* a, const T* b, T* c, int64_t count, const BinaryParams& p) {
  constexpr float kRound = 12582912.0f;
  const float a_factor = p.a_factor, b_factor = p.b_factor;
  const float a_zero = p.a_zero, b_zero = p.b_zero, c_zero = p.c_zero;
  const float low = p.low;
  const float high = p.high;
  float fixed = kFma ? c_zero - std::fma(a_factor, a_zero, b_factor * b_zero)
                     : c_zero - (a_factor * a_zero + b_factor * b_zero);
  if constexpr (!kMul && kBStep == 0) {
    fixed = kFma ? std::fma(static_cast<float>(b[0]), b_factor, fixed)
                 : fixed + static_cast<float>(b[0]) * b_factor;
  }
  for (int64_t i = 0; i < count; ++i) {
    const float x = static_cast<float>(a[i * kAStep]);
    const float y = static_cast<float>(b[i * kBStep]);
    float value;
    if constexpr (kMul) {
      value = (x - a_zero) * (y - b_zero) * a_factor + c_zero;
    } else if constexpr (kBStep == 0) {
      value = kFma ? std::fma(x, a_factor, fixed) : fixed + x * a_factor;
    } else if constexpr (kFma) {
      value = std::fma(x, a_factor, std::fma(y, b_factor, fixed));
    } else {
      value = (fixed + x * a_factor) + y * b_factor;
    }
    value = std::min(std::max(value, low), high);
    c[i] = static_cast<T>(static_cast<int32_t>((value + kRound) - kRound));
  }
}

template <bool kMul, bool kFma, typename T>
void RunSteps(const T* a, int64_t a_step, const T* b, int64_t b_step, T* c, int64_t count,
              const BinaryParams& p) {
  if (a_step == 1 && b_step == 1) {
    Run<kMul, kFma, 1, 1>(a, b, c, count, p);
  } else if (a_step == 1) {
    Run<kMul, kFma, 1, 0>(a, b, c, count, p);
  } else if (b_step == 1) {
    // MLAS takes the tensor first and the scalar second (Mul's one factor stays first).
    BinaryParams swapped = p;
    std::swap(swapped.a_zero, swapped.b_zero);
    if constexpr (!kMul) std::swap(swapped.a_factor, swapped.b_factor);
    Run<kMul, kFma, 1, 0>(b, a, c, count, swapped);
  } else {
    Run<kMul, kFma, 0, 0>(a, b, c, count, p);
  }
}

template <bool kMul>
class QLinearBinary final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* a_scale, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* b, context.RequiredInput(3));
    ORT_ASSIGN_OR_RETURN(const Tensor* b_scale, context.RequiredInput(4));
    ORT_ASSIGN_OR_RETURN(const Tensor* c_scale, context.RequiredInput(6));
    const std::array<const Tensor*, 3> zeros{context.Input(2), context.Input(5), context.Input(7)};
    if (b->dtype() != a->dtype()) return context.Error("A and B must have one type");
    float scales[3];
    const std::array<const Tensor*, 3> scale_tensors{a_scale, b_scale, c_scale};
    for (size_t i = 0; i < 3; ++i) {
      if (scale_tensors[i]->NumElements() != 1) return context.Error("scales must be scalars");
      ORT_ASSIGN_OR_RETURN(const std::vector<float> value,
                           ReadFloatParams<float>(*scale_tensors[i]));
      scales[i] = value[0];
    }
    float zero_values[3] = {0.0f, 0.0f, 0.0f};
    for (size_t i = 0; i < 3; ++i) {
      if (zeros[i] == nullptr) continue;
      if (zeros[i]->NumElements() != 1 || zeros[i]->dtype() != a->dtype()) {
        return context.Error("zero points must be scalars of A's type");
      }
      zero_values[i] = a->dtype() == DataType::kInt8 ? zeros[i]->Data<int8_t>()[0]
                                                     : zeros[i]->Data<uint8_t>()[0];
    }
    const std::array<TensorShape, 2> shapes{a->shape(), b->shape()};
    auto plan = MakeBroadcastPlan(shapes);
    if (!plan.ok()) return context.Error("{}", plan.status().message());
    ORT_ASSIGN_OR_RETURN(Tensor * c, context.Output(0, a->dtype(), plan->output_shape));
    BinaryParams p{};
    if constexpr (kMul) {
      p.a_factor = RequantizationFactor(scales[0] * scales[1] / scales[2]);
    } else {
      p.a_factor = RequantizationFactor(scales[0] / scales[2]);
      p.b_factor = RequantizationFactor(scales[1] / scales[2]);
    }
    p.a_zero = zero_values[0];
    p.b_zero = zero_values[1];
    p.c_zero = zero_values[2];
    return DispatchByType<QuantTypes>(
        a->dtype(), kMul ? "QLinearMul" : "QLinearAdd", [&]<typename T>() {
          const T* in_a = a->Data<T>();
          const T* in_b = b->Data<T>();
          T* out = c->MutableData<T>();
          BinaryParams params = p;
          params.low = static_cast<float>(std::numeric_limits<T>::min());
          params.high = static_cast<float>(std::numeric_limits<T>::max());
          const int64_t a_step = plan->inner_strides[0];
          const int64_t b_step = plan->inner_strides[1];
          // Inputs of one shape (or one a scalar) make one long run: shared out in pieces. The
          // loops are compiled for the widest instruction set (Vectorized).
          constexpr int64_t kPiece = 16384;
          const int64_t pieces = (plan->inner + kPiece - 1) / kPiece;
          ThreadPool* pool = context.thread_pool();
          const bool fma = MaxCpuIsa() != CpuIsa::kPortable;
          const auto run = [&](int64_t offset, const int64_t* inputs, int64_t first,
                               int64_t length) {
            const T* first_a = in_a + inputs[0] + first * a_step;
            const T* first_b = in_b + inputs[1] + first * b_step;
            T* first_c = out + offset + first;
            if (fma) {
              RunSteps<kMul, true>(first_a, a_step, first_b, b_step, first_c, length, params);
            } else {
              RunSteps<kMul, false>(first_a, a_step, first_b, b_step, first_c, length, params);
            }
          };
          if (pieces > 1 && plan->OuterCount() == 1) {
            const int64_t zero_offsets[2] = {0, 0};
            VectorizedParallelFor(
                pool, pieces, 4.0 * static_cast<double>(kPiece), [&](int64_t begin, int64_t end) {
                  const int64_t first = begin * kPiece;
                  run(0, zero_offsets, first, std::min(plan->inner, end * kPiece) - first);
                });
          } else {
            ParallelForEachBroadcastRun<true>(
                *plan, pool, 4.0, [&](int64_t offset, const int64_t* inputs, int64_t count) {
                  run(offset, inputs, 0, count);
                });
          }
          return Status::OK();
        });
  }
};

}  // namespace

void RegisterQLinearBinaryKernels(KernelRegistry& registry) {
  const auto types = QuantTypes::DataTypes();
  registry.Add<QLinearBinary<false>>(
      KernelDef("QLinearAdd", std::string(kMsDomain)).Versions(1).Input(0, types));
  registry.Add<QLinearBinary<true>>(
      KernelDef("QLinearMul", std::string(kMsDomain)).Versions(1).Input(0, types));
}

}  // namespace ort
