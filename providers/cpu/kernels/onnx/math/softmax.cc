// Softmax, LogSoftmax and Hardmax, along the axis softmax_axis.h resolves: opsets 1-12 normalize
// each row of the flattened trailing dimensions, from 13 along `axis` alone.
#include <cmath>
#include <vector>

#include "providers/common/math/softmax_axis.h"
#include "providers/cpu/kernels/common/row_reduce.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/math/fast_math.h"
#include "providers/cpu/kernels/onnx/math/math_kernels.h"

namespace ort {
namespace {

enum class SoftmaxKind { kSoftmax, kLogSoftmax, kHardmax };

// Of a shifted score, x <= 0.
template <typename C>
C Exp(C x) {
  if constexpr (std::is_same_v<C, float>) {
    return SoftmaxExp(x);
  } else {
    return std::exp(x);
  }
}

// One contiguous row of n elements; y may not alias x.
template <SoftmaxKind kKind, typename C>
void NormalizeRow(const C* x, C* y, int64_t n) {
  if (n == 0) return;
  if constexpr (kKind == SoftmaxKind::kHardmax) {
    int64_t best = 0;
    for (int64_t i = 1; i < n; ++i) best = x[i] > x[best] ? i : best;
    for (int64_t i = 0; i < n; ++i) y[i] = C(0);
    y[best] = C(1);
  } else {
    const C max = RowMax(x, n);
    for (int64_t i = 0; i < n; ++i) y[i] = Exp(x[i] - max);
    const C sum = RowSum(y, n);
    if constexpr (kKind == SoftmaxKind::kSoftmax) {
      const C scale = C(1) / sum;
      for (int64_t i = 0; i < n; ++i) y[i] *= scale;
    } else {
      const C shift = max + std::log(sum);
      for (int64_t i = 0; i < n; ++i) y[i] = x[i] - shift;
    }
  }
}

// A [n, inner] block normalized along n: each of the `inner` columns independently, walking rows
// so that the inner loops run over contiguous memory.
template <SoftmaxKind kKind, typename C>
void NormalizeColumns(const C* x, C* y, int64_t n, int64_t inner, std::vector<C>& max,
                      std::vector<C>& sum) {
  if (n == 0) return;
  max.assign(x, x + inner);
  for (int64_t r = 1; r < n; ++r) {
    const C* row = x + r * inner;
    for (int64_t j = 0; j < inner; ++j) max[j] = Select(row[j] > max[j], row[j], max[j]);
  }
  if constexpr (kKind == SoftmaxKind::kHardmax) {
    // The first maximum of each column gets the 1.
    sum.assign(inner, C(0));  // 1 once a column's 1 has been placed
    for (int64_t r = 0; r < n; ++r) {
      for (int64_t j = 0; j < inner; ++j) {
        const bool hit = sum[j] == C(0) && x[r * inner + j] == max[j];
        y[r * inner + j] = hit ? C(1) : C(0);
        sum[j] = hit ? C(1) : sum[j];
      }
    }
  } else {
    sum.assign(inner, C(0));
    for (int64_t r = 0; r < n; ++r) {
      for (int64_t j = 0; j < inner; ++j) {
        const C e = Exp(x[r * inner + j] - max[j]);
        y[r * inner + j] = e;
        sum[j] += e;
      }
    }
    if constexpr (kKind == SoftmaxKind::kSoftmax) {
      for (int64_t j = 0; j < inner; ++j) sum[j] = C(1) / sum[j];
      for (int64_t r = 0; r < n; ++r) {
        for (int64_t j = 0; j < inner; ++j) y[r * inner + j] *= sum[j];
      }
    } else {
      for (int64_t j = 0; j < inner; ++j) sum[j] = max[j] + std::log(sum[j]);
      for (int64_t r = 0; r < n; ++r) {
        for (int64_t j = 0; j < inner; ++j) y[r * inner + j] = x[r * inner + j] - sum[j];
      }
    }
  }
}

template <SoftmaxKind kKind>
class Softmax final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override { return axis_.Parse(info); }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const SoftmaxBlocks blocks, axis_.Resolve(context, x->shape()));
    const int64_t outer = blocks.outer, n = blocks.length, inner = blocks.inner;
    return DispatchByType<FloatTypes>(x->dtype(), context.node().op_type(), [&]<typename T>() {
      return ComputeTyped<T>(context, *x, outer, n, inner);
    });
  }

 private:
  template <typename T>
  static Status ComputeTyped(KernelContext& context, const Tensor& input, int64_t outer, int64_t n,
                             int64_t inner) {
    using C = ComputeType<T>;
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, DataTypeOf<T>(), input.shape()));
    const T* x = input.Data<T>();
    T* y = output->MutableData<T>();
    const int64_t block = n * inner;
    const double cost = kKind == SoftmaxKind::kHardmax ? 2.0 * static_cast<double>(block)
                                                       : 12.0 * static_cast<double>(block);
    VectorizedParallelFor(context.thread_pool(), outer, cost, [&](int64_t begin, int64_t end) {
      std::vector<C> max, sum, in_buffer, out_buffer;
      for (int64_t o = begin; o < end; ++o) {
        const C* src;
        C* dst;
        if constexpr (std::is_same_v<T, C>) {
          src = x + o * block;
          dst = y + o * block;
        } else {
          in_buffer.assign(x + o * block, x + (o + 1) * block);
          out_buffer.resize(static_cast<size_t>(block));
          src = in_buffer.data();
          dst = out_buffer.data();
        }
        if (inner == 1) {
          NormalizeRow<kKind>(src, dst, n);
        } else {
          NormalizeColumns<kKind>(src, dst, n, inner, max, sum);
        }
        if constexpr (!std::is_same_v<T, C>) {
          for (int64_t i = 0; i < block; ++i) y[o * block + i] = static_cast<T>(dst[i]);
        }
      }
    });
    return Status::OK();
  }

  SoftmaxAxis axis_;
};

template <SoftmaxKind kKind>
void Register(KernelRegistry& registry, const char* name) {
  const auto types = FloatTypes::DataTypes();
  registry.Add<Softmax<kKind>>(KernelDef(name).Versions(1, 12).Input(0, types));
  registry.Add<Softmax<kKind>>(KernelDef(name).Versions(13).Input(0, types));
}

}  // namespace

void RegisterSoftmaxKernels(KernelRegistry& registry) {
  Register<SoftmaxKind::kSoftmax>(registry, "Softmax");
  Register<SoftmaxKind::kLogSoftmax>(registry, "LogSoftmax");
  Register<SoftmaxKind::kHardmax>(registry, "Hardmax");
}

}  // namespace ort
