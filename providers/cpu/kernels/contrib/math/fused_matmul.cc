// com.microsoft FusedMatMul: Y = alpha * matmul(op(A), op(B)) with numpy.matmul batching, where
// op() may move the leading axis behind the batch axes (transBatchA/B: a tensor stored as
// [M, batch..., K] is read as [batch..., M, K]) and then swap the last two (transA/B). Both are
// expressed as strides handed to the shared GEMM; nothing is copied.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "providers/common/math/matmul_shape.h"
#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/contrib/math/contrib_math_kernels.h"

namespace ort {
namespace {

using FusedMatMulTypes = TypeList<float, double, Float16, BFloat16>;

class FusedMatMul final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(alpha_, info.GetAttributeOr<float>("alpha", 1.0f));
    const char* names[] = {"transA", "transB", "transBatchA", "transBatchB"};
    bool* flags[] = {&trans_a_, &trans_b_, &trans_batch_a_, &trans_batch_b_};
    for (size_t i = 0; i < 4; ++i) {
      ORT_ASSIGN_OR_RETURN(const int64_t value, info.GetAttributeOr<int64_t>(names[i], 0));
      *flags[i] = value != 0;
    }
    packed_b_ = PackConstantB(info, 1, trans_b_);
    if (packed_b_ != nullptr) packed_b_shape_ = info.ConstantInput(1)->shape();
    return Status::OK();
  }

  bool PrePackedInput(size_t index) const override { return index == 1 && packed_b_ != nullptr; }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    // A packed constant B is never read again (the session may have freed it).
    const Tensor* b = nullptr;
    if (packed_b_ == nullptr) {
      ORT_ASSIGN_OR_RETURN(b, context.RequiredInput(1));
    }
    const TensorShape b_shape = b != nullptr ? b->shape() : packed_b_shape_;
    const DataType b_type = b != nullptr ? b->dtype() : DataType::kFloat;
    if (a->dtype() != b_type) {
      return context.Error("A is {} but B is {}", DataTypeName(a->dtype()), DataTypeName(b_type));
    }
    if (a->shape().rank() == 0 || b_shape.rank() == 0) {
      return context.Error("operands must have rank >= 1, got {} and {}", a->shape().ToString(),
                           b_shape.ToString());
    }
    const MatMulOperandLayout la = LayoutMatMulOperand(a->shape(), trans_a_, trans_batch_a_, false);
    const MatMulOperandLayout lb = LayoutMatMulOperand(b_shape, trans_b_, trans_batch_b_, true);
    auto plan = PlanMatMul(TensorShape(la.logical), TensorShape(lb.logical));
    if (!plan.ok()) {
      return context.Error("{} (stored as {} and {})", plan.status().message(),
                           a->shape().ToString(), b_shape.ToString());
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, a->dtype(), plan->output_shape));
    if (y->NumElements() == 0) return Status::OK();
    return DispatchByType<FusedMatMulTypes>(a->dtype(), "FusedMatMul", [&]<typename T>() {
      T* out = y->MutableData<T>();
      if (plan->k == 0) {
        std::fill(out, out + y->NumElements(), T(0.0f));
        return Status::OK();
      }
      Run<T>(*plan, la, lb, a->Data<T>(), b != nullptr ? b->Data<T>() : nullptr, out,
             context.thread_pool());
      return Status::OK();
    });
  }

 private:
  template <typename T>
  void Run(const MatMulPlan& plan, const MatMulOperandLayout& la, const MatMulOperandLayout& lb,
           const T* a, const T* b, T* y, ThreadPool* pool) const {
    const int64_t m = plan.m, n = plan.n, k = plan.k;
    // The plan's offsets count contiguous logical matrices; turn them into batch indices.
    const int64_t a_matrix = m * k, b_matrix = k * n;
    if (plan.single_gemm && !la.transpose && la.batch_stride == a_matrix) {
      if constexpr (std::is_same_v<T, float>) {
        if (packed_b_ != nullptr) {
          SgemmPackedB(false, plan.BatchCount() * m, alpha_, a, la.ld, *packed_b_, 0.0f, y, n,
                       pool);
          return;
        }
      }
      TypedGemm<T>(false, lb.transpose, plan.BatchCount() * m, n, k, alpha_, a, la.ld, b, lb.ld,
                   0.0f, y, n, pool);
      return;
    }
    auto one = [&](int64_t i, ThreadPool* inner) {
      const T* pa = a + plan.a_offsets[i] / a_matrix * la.batch_stride;
      if constexpr (std::is_same_v<T, float>) {
        if (packed_b_ != nullptr) {  // a 2-D B: every batch shares it
          SgemmPackedB(la.transpose, m, alpha_, pa, la.ld, *packed_b_, 0.0f, y + i * m * n, n,
                       inner);
          return;
        }
      }
      const T* pb = b + plan.b_offsets[i] / b_matrix * lb.batch_stride;
      TypedGemm<T>(la.transpose, lb.transpose, m, n, k, alpha_, pa, la.ld, pb, lb.ld, 0.0f,
                   y + i * m * n, n, inner);
    };
    const int64_t batches = plan.BatchCount();
    const int64_t threads = pool == nullptr ? 1 : pool->DegreeOfParallelism();
    if (batches >= threads) {
      const double cost =
          2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
      ThreadPool::TryParallelFor(pool, batches, cost, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) one(i, nullptr);
      });
    } else {
      for (int64_t i = 0; i < batches; ++i) one(i, pool);
    }
  }

  float alpha_ = 1.0f;
  bool trans_a_ = false;
  bool trans_b_ = false;
  bool trans_batch_a_ = false;
  bool trans_batch_b_ = false;
  /// A constant 2-D float B, packed at creation (transB applied).
  std::unique_ptr<PackedSgemmB> packed_b_;
  TensorShape packed_b_shape_;
};

}  // namespace

void RegisterFusedMatMulKernels(KernelRegistry& registry) {
  registry.Add<FusedMatMul>(KernelDef("FusedMatMul", std::string(kMsDomain))
                                .Versions(1)
                                .Input(0, FusedMatMulTypes::DataTypes()));
}

}  // namespace ort
