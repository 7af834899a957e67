// com.microsoft QLinearAdd and QLinearMul: C = quantize(dequantize(A) op dequantize(B)) on 8-bit
// tensors of one type with numpy broadcasting, computed as onnxruntime's MLAS does, in float
// with the scale ratios folded: Add: (sa / sc)(a - za) + (sb / sc)(b - zb) + zc;
// Mul: (sa sb / sc)(a - za)(b - zb) + zc; rounded half to even and saturated.
#include <algorithm>
#include <array>
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
};

// One run: A and B advance by kAStep and kBStep (0 or 1), constants so that the loop
// vectorizes, as it does with the parameters in locals (the 8-bit stores may alias `p`). The
// value is clamped to the integers [qmin - zc, qmax - zc], then rounded by adding 1.5 x 2^23
// (ties to even), as MLAS rounds.
template <bool kMul, int kAStep, int kBStep, typename T>
void Run(const T* a, const T* b, T* c, int64_t count, const BinaryParams& p) {
  constexpr float kRound = 12582912.0f;
  const float a_factor = p.a_factor, b_factor = p.b_factor;
  const float a_zero = p.a_zero, b_zero = p.b_zero, c_zero = p.c_zero;
  const float low = static_cast<float>(std::numeric_limits<T>::min()) - c_zero;
  const float high = static_cast<float>(std::numeric_limits<T>::max()) - c_zero;
  for (int64_t i = 0; i < count; ++i) {
    const float x = static_cast<float>(a[i * kAStep]) - a_zero;
    const float y = static_cast<float>(b[i * kBStep]) - b_zero;
    float value = kMul ? a_factor * x * y : a_factor * x + b_factor * y;
    value = value > low ? value : low;
    value = value < high ? value : high;
    c[i] = static_cast<T>(static_cast<int32_t>((value + kRound) - kRound + c_zero));
  }
}

template <bool kMul, typename T>
void RunSteps(const T* a, int64_t a_step, const T* b, int64_t b_step, T* c, int64_t count,
              const BinaryParams& p) {
  if (a_step == 1 && b_step == 1) {
    Run<kMul, 1, 1>(a, b, c, count, p);
  } else if (a_step == 1) {
    Run<kMul, 1, 0>(a, b, c, count, p);
  } else if (b_step == 1) {
    Run<kMul, 0, 1>(a, b, c, count, p);
  } else {
    Run<kMul, 0, 0>(a, b, c, count, p);
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
          const int64_t a_step = plan->inner_strides[0];
          const int64_t b_step = plan->inner_strides[1];
          // Inputs of one shape (or one a scalar) make one long run: shared out in pieces. The
          // loops are compiled for the widest instruction set (Vectorized).
          constexpr int64_t kPiece = 16384;
          const int64_t pieces = (plan->inner + kPiece - 1) / kPiece;
          ThreadPool* pool = context.thread_pool();
          const auto run = [&](int64_t offset, const int64_t* inputs, int64_t first,
                               int64_t length) {
            RunSteps<kMul>(in_a + inputs[0] + first * a_step, a_step,
                           in_b + inputs[1] + first * b_step, b_step, out + offset + first, length,
                           p);
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
