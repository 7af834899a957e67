// MatMul: numpy.matmul semantics (1-D operands, broadcast batch dimensions). Floating types run
// on the shared GEMM; integer types use its wrapping integer loop. A constant 2-D float B
// (weights) is packed once at creation.
#include <memory>

#include "providers/common/math/matmul_shape.h"
#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/onnx/math/math_kernels.h"

namespace ort {
namespace {

using MatMulTypes =
    TypeList<float, double, Float16, BFloat16, int32_t, int64_t, uint32_t, uint64_t>;

class MatMul final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    packed_b_ = PackConstantB(info, 1, false);
    return Status::OK();
  }

  bool PrePackedInput(size_t index) const override { return index == 1 && packed_b_ != nullptr; }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    if (packed_b_ != nullptr) return ComputePacked(context, *a);
    ORT_ASSIGN_OR_RETURN(const Tensor* b, context.RequiredInput(1));
    if (a->dtype() != b->dtype()) {
      return context.Error("A is {} but B is {}", DataTypeName(a->dtype()),
                           DataTypeName(b->dtype()));
    }
    auto plan = PlanMatMul(a->shape(), b->shape());
    if (!plan.ok()) return context.Error("{}", plan.status().message());
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, a->dtype(), plan->output_shape));
    if (y->NumElements() == 0) return Status::OK();
    return DispatchByType<MatMulTypes>(a->dtype(), "MatMul", [&]<typename T>() {
      Run<T>(*plan, a->Data<T>(), b->Data<T>(), y->MutableData<T>(), context.thread_pool());
      return Status::OK();
    });
  }

 private:
  // B is the packed constant: a 2-D B is shared by every batch (b_offsets are all 0).
  Status ComputePacked(KernelContext& context, const Tensor& a) const {
    if (a.dtype() != DataType::kFloat) {
      return context.Error("A is {} but B is float", DataTypeName(a.dtype()));
    }
    auto plan = PlanMatMul(a.shape(), TensorShape({packed_b_->k(), packed_b_->n()}));
    if (!plan.ok()) return context.Error("{}", plan.status().message());
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kFloat, plan->output_shape));
    if (y->NumElements() == 0) return Status::OK();
    const float* a_data = a.Data<float>();
    float* y_data = y->MutableData<float>();
    if (plan->single_gemm) {
      SgemmPackedB(false, plan->BatchCount() * plan->m, 1.0f, a_data, plan->k, *packed_b_, 0.0f,
                   y_data, plan->n, context.thread_pool());
      return Status::OK();
    }
    for (int64_t i = 0; i < plan->BatchCount(); ++i) {
      SgemmPackedB(false, plan->m, 1.0f, a_data + plan->a_offsets[i], plan->k, *packed_b_, 0.0f,
                   y_data + i * plan->m * plan->n, plan->n, context.thread_pool());
    }
    return Status::OK();
  }

  template <typename T>
  static void Run(const MatMulPlan& plan, const T* a, const T* b, T* y, ThreadPool* pool) {
    const int64_t m = plan.m, n = plan.n, k = plan.k;
    if (plan.single_gemm) {
      // B is shared: fold the batches into the rows of one product.
      TypedGemm<T>(false, false, plan.BatchCount() * m, n, k, 1.0f, a, k, b, n, 0.0f, y, n, pool);
      return;
    }
    const int64_t batches = plan.BatchCount();
    const int64_t threads = pool == nullptr ? 1 : pool->DegreeOfParallelism();
    auto one = [&](int64_t i, ThreadPool* inner) {
      TypedGemm<T>(false, false, m, n, k, 1.0f, a + plan.a_offsets[i], k, b + plan.b_offsets[i], n,
                   0.0f, y + i * m * n, n, inner);
    };
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

  std::unique_ptr<PackedSgemmB> packed_b_;
};

}  // namespace

void RegisterMatMulKernels(KernelRegistry& registry) {
  registry.Add<MatMul>(
      KernelDef("MatMul").Versions(1, 8).Input(0, TypeList<float, double, Float16>::DataTypes()));
  registry.Add<MatMul>(KernelDef("MatMul").Versions(9, 12).Input(
      0, TypeList<float, double, Float16, int32_t, int64_t, uint32_t, uint64_t>::DataTypes()));
  registry.Add<MatMul>(KernelDef("MatMul").Versions(13).Input(0, MatMulTypes::DataTypes()));
}

}  // namespace ort
