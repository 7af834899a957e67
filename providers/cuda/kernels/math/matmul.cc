// MatMul (numpy broadcasting of batch dimensions) and Gemm (transA/transB, alpha, beta, C
// broadcast to [M, N]) through cuBLAS, for float and float16 with float accumulation. Buffers are
// row-major, cuBLAS is column-major: Y = A B is computed as Y^T = B^T A^T, which reads the same
// memory without copies.
#include "providers/cpu/kernels/onnx/math/matmul_shape.h"
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/cuda_provider.h"
#include "providers/cuda/kernels/cuda_kernels.h"
#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort {
namespace {

const std::vector<DataType> kTypes = {DataType::kFloat, DataType::kFloat16};

cudaDataType_t CudaTypeOf(DataType type) {
  return type == DataType::kFloat ? CUDA_R_32F : CUDA_R_16F;
}

// cuBLAS as a kernel sees it: its provider's handle and entry points.
struct Cublas {
  cublasHandle_t handle = nullptr;
  const CublasApi* api = nullptr;
};

Cublas CublasOf(const KernelInfo& info) {
  const auto* provider = dynamic_cast<const CudaExecutionProvider*>(&info.provider());
  if (provider == nullptr) return {};
  return {provider->cublas(), provider->cublas_api()};
}

// Row-major y[m, n] = alpha * op(a) op(b) + beta * y, with op(a) [m, k] and op(b) [k, n].
Status RowMajorGemm(const Cublas& cublas, DataType type, bool trans_a, bool trans_b, int64_t m,
                    int64_t n, int64_t k, float alpha, const void* a, const void* b, float beta,
                    void* y) {
  const cudaDataType_t cuda_type = CudaTypeOf(type);
  return CublasStatus(
      *cublas.api,
      cublas.api->gemm_ex(
          cublas.handle, trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, trans_a ? CUBLAS_OP_T : CUBLAS_OP_N,
          static_cast<int>(n), static_cast<int>(m), static_cast<int>(k), &alpha, b, cuda_type,
          static_cast<int>(trans_b ? k : n), a, cuda_type, static_cast<int>(trans_a ? m : k), &beta,
          y, cuda_type, static_cast<int>(n), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
      "cublasGemmEx");
}

class MatMul final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    cublas_ = CublasOf(info);
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* b, context.RequiredInput(1));
    if (a->dtype() != b->dtype()) return context.Error("A and B must have one type");
    auto plan = PlanMatMul(a->shape(), b->shape());
    if (!plan.ok()) return context.Error("{}", plan.status().message());
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, a->dtype(), plan->output_shape));
    if (y->NumElements() == 0) return Status::OK();
    const size_t element = ElementSize(a->dtype());
    if (plan->k == 0) {
      return CudaStatus(cudaMemsetAsync(y->MutableRawData(), 0, y->SizeInBytes(), stream()),
                        context.node().Describe());
    }
    const auto* ad = static_cast<const char*>(a->RawData());
    const auto* bd = static_cast<const char*>(b->RawData());
    auto* yd = static_cast<char*>(y->MutableRawData());
    if (plan->single_gemm) {
      return RowMajorGemm(cublas_, a->dtype(), false, false, plan->BatchCount() * plan->m, plan->n,
                          plan->k, 1.0f, ad, bd, 0.0f, yd);
    }
    for (int64_t batch = 0; batch < plan->BatchCount(); ++batch) {
      ORT_RETURN_IF_ERROR(RowMajorGemm(cublas_, a->dtype(), false, false, plan->m, plan->n, plan->k,
                                       1.0f, ad + plan->a_offsets[batch] * element,
                                       bd + plan->b_offsets[batch] * element, 0.0f,
                                       yd + batch * plan->m * plan->n * element));
    }
    return Status::OK();
  }

 private:
  Cublas cublas_;
};

class Gemm final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    cublas_ = CublasOf(info);
    ORT_ASSIGN_OR_RETURN(const int64_t trans_a, info.GetAttributeOr<int64_t>("transA", 0));
    ORT_ASSIGN_OR_RETURN(const int64_t trans_b, info.GetAttributeOr<int64_t>("transB", 0));
    ORT_ASSIGN_OR_RETURN(alpha_, info.GetAttributeOr<float>("alpha", 1.0f));
    ORT_ASSIGN_OR_RETURN(beta_, info.GetAttributeOr<float>("beta", 1.0f));
    trans_a_ = trans_a != 0;
    trans_b_ = trans_b != 0;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* b, context.RequiredInput(1));
    const Tensor* c = context.Input(2);
    if (a->shape().rank() != 2 || b->shape().rank() != 2 || a->dtype() != b->dtype() ||
        (c != nullptr && c->dtype() != a->dtype())) {
      return context.Error("A {} and B {} must be matrices of one type (C too)", a->Describe(),
                           b->Describe());
    }
    const int64_t m = a->shape()[trans_a_ ? 1 : 0], k = a->shape()[trans_a_ ? 0 : 1];
    const int64_t n = b->shape()[trans_b_ ? 0 : 1];
    if (b->shape()[trans_b_ ? 1 : 0] != k) {
      return context.Error("A {} and B {} do not multiply", a->Describe(), b->Describe());
    }
    const TensorShape y_shape({m, n});
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, a->dtype(), y_shape));
    if (y->NumElements() == 0) return Status::OK();
    float beta = 0.0f;
    if (c != nullptr && beta_ != 0.0f) {
      auto broadcast = BroadcastShapes(c->shape(), y_shape);
      if (!broadcast.ok() || *broadcast != y_shape) {
        return context.Error("C {} does not broadcast to [{}, {}]", c->Describe(), m, n);
      }
      cuda::BroadcastStrides strides;
      strides.rank = 2;
      strides.output_dims[0] = m;
      strides.output_dims[1] = n;
      const TensorShape& cs = c->shape();
      const int64_t c_rows = cs.rank() == 2 ? cs[0] : 1;
      const int64_t c_cols = cs.rank() >= 1 ? cs[cs.rank() - 1] : 1;
      strides.a_strides[0] = c_rows == 1 ? 0 : c_cols;
      strides.a_strides[1] = c_cols == 1 ? 0 : 1;
      ORT_RETURN_IF_ERROR(CudaStatus(
          cuda::LaunchStridedCopy(ElementSize(a->dtype()), c->RawData(), y->MutableRawData(),
                                  y->NumElements(), strides, stream()),
          context.node().Describe()));
      beta = beta_;
    }
    if (k == 0) {
      if (beta != 0.0f) return Status::OK();
      return CudaStatus(cudaMemsetAsync(y->MutableRawData(), 0, y->SizeInBytes(), stream()),
                        context.node().Describe());
    }
    return RowMajorGemm(cublas_, a->dtype(), trans_a_, trans_b_, m, n, k, alpha_, a->RawData(),
                        b->RawData(), beta, y->MutableRawData());
  }

 private:
  Cublas cublas_;
  bool trans_a_ = false;
  bool trans_b_ = false;
  float alpha_ = 1.0f;
  float beta_ = 1.0f;
};

}  // namespace

void RegisterCudaMatMulKernels(KernelRegistry& registry) {
  registry.Add<MatMul>(KernelDef("MatMul").Versions(1).Input(0, kTypes).Input(1, kTypes));
  registry.Add<Gemm>(KernelDef("Gemm").Versions(7).Input(0, kTypes).Input(1, kTypes));
}

}  // namespace ort
