// MatMul (numpy broadcasting of batch dimensions), com.microsoft FusedMatMul and Gemm
// (transA/transB, alpha, beta, C broadcast to [M, N]) through cuBLAS, for float and float16 with
// float accumulation; float products use the provider's matrix precision (exact by default).
// Buffers are row-major, cuBLAS is column-major: Y = A B is computed as Y^T = B^T A^T, which reads
// the same memory without copies.
#include "providers/common/math/gemm_attributes.h"
#include "providers/common/math/matmul_shape.h"
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

// cuBLAS as a kernel sees it: its provider's handle, entry points and float compute type.
struct Cublas {
  cublasHandle_t handle = nullptr;
  const CublasApi* api = nullptr;
  cublasComputeType_t float_compute = CUBLAS_COMPUTE_32F;

  cublasComputeType_t ComputeType(DataType type) const {
    return type == DataType::kFloat ? float_compute : CUBLAS_COMPUTE_32F;
  }
};

Cublas CublasOf(const KernelInfo& info) {
  const auto* provider = dynamic_cast<const CudaExecutionProvider*>(&info.provider());
  if (provider == nullptr) return {};
  return {provider->cublas(), provider->cublas_api(), provider->FloatGemmComputeType()};
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
          y, cuda_type, static_cast<int>(n), cublas.ComputeType(type), CUBLAS_GEMM_DEFAULT),
      "cublasGemmEx");
}

// One operand of a row-major product as cuBLAS reads it: matrices `batch_stride` elements apart
// (0: shared by every batch), rows `ld` apart, optionally transposed.
struct Operand {
  const void* data = nullptr;
  int64_t ld = 0;
  int64_t batch_stride = 0;
  bool transpose = false;
};

// `batches` row-major products y_i = alpha op(a_i) op(b_i), each [m, n] and packed in y. In
// cuBLAS's column-major view the stored row-major matrices are their own transposes, so it
// computes y_i^T = op(b_i)^T op(a_i)^T with the operands swapped and the same leading dims.
Status RowMajorBatchedGemm(const Cublas& cublas, DataType type, int64_t batches, int64_t m,
                           int64_t n, int64_t k, float alpha, const Operand& a, const Operand& b,
                           void* y) {
  const cudaDataType_t cuda_type = CudaTypeOf(type);
  const float beta = 0.0f;
  return CublasStatus(
      *cublas.api,
      cublas.api->gemm_strided_batched_ex(
          cublas.handle, b.transpose ? CUBLAS_OP_T : CUBLAS_OP_N,
          a.transpose ? CUBLAS_OP_T : CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(m),
          static_cast<int>(k), &alpha, b.data, cuda_type, static_cast<int>(b.ld), b.batch_stride,
          a.data, cuda_type, static_cast<int>(a.ld), a.batch_stride, &beta, y, cuda_type,
          static_cast<int>(n), m * n, static_cast<int>(batches), cublas.ComputeType(type),
          CUBLAS_GEMM_DEFAULT),
      "cublasGemmStridedBatchedEx");
}

// The distance between consecutive entries when it is the same for all (0 included), else -1.
int64_t UniformStride(const std::vector<int64_t>& values) {
  if (values.size() < 2) return 0;
  const int64_t stride = values[1] - values[0];
  for (size_t i = 1; i < values.size(); ++i) {
    if (values[i] - values[i - 1] != stride) return -1;
  }
  return stride;
}

// MatMul, and com.microsoft FusedMatMul (kFused): alpha, transA/B and transBatchA/B, read as
// strides of the stored operands, so nothing is copied.
template <bool kFused>
class MatMul final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    cublas_ = CublasOf(info);
    if (!kFused) return Status::OK();
    ORT_ASSIGN_OR_RETURN(alpha_, info.GetAttributeOr<float>("alpha", 1.0f));
    const char* names[] = {"transA", "transB", "transBatchA", "transBatchB"};
    bool* flags[] = {&trans_a_, &trans_b_, &trans_batch_a_, &trans_batch_b_};
    for (size_t i = 0; i < 4; ++i) {
      ORT_ASSIGN_OR_RETURN(const int64_t value, info.GetAttributeOr<int64_t>(names[i], 0));
      *flags[i] = value != 0;
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* b, context.RequiredInput(1));
    if (a->dtype() != b->dtype()) return context.Error("A and B must have one type");
    if (a->shape().rank() == 0 || b->shape().rank() == 0) {
      return context.Error("operands must have rank >= 1, got {} and {}", a->Describe(),
                           b->Describe());
    }
    const MatMulOperandLayout la = LayoutMatMulOperand(a->shape(), trans_a_, trans_batch_a_, false);
    const MatMulOperandLayout lb = LayoutMatMulOperand(b->shape(), trans_b_, trans_batch_b_, true);
    auto plan = PlanMatMul(TensorShape(la.logical), TensorShape(lb.logical));
    if (!plan.ok()) {
      return context.Error("{} (stored as {} and {})", plan.status().message(),
                           a->shape().ToString(), b->shape().ToString());
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, a->dtype(), plan->output_shape));
    if (y->NumElements() == 0) return Status::OK();
    const size_t element = ElementSize(a->dtype());
    if (plan->k == 0) {
      return CudaStatus(cudaMemsetAsync(y->MutableRawData(), 0, y->SizeInBytes(), stream()),
                        context.node());
    }
    const int64_t m = plan->m, n = plan->n, k = plan->k;
    // The plan counts contiguous logical matrices; the layouts say where each one is stored.
    std::vector<int64_t> a_starts, b_starts;
    for (int64_t i = 0; i < plan->BatchCount(); ++i) {
      a_starts.push_back(plan->a_offsets[i] / (m * k) * la.batch_stride);
      b_starts.push_back(plan->b_offsets[i] / (k * n) * lb.batch_stride);
    }
    const auto* ad = static_cast<const char*>(a->RawData());
    const auto* bd = static_cast<const char*>(b->RawData());
    auto* yd = static_cast<char*>(y->MutableRawData());
    const auto operand = [element](const char* base, int64_t start, const MatMulOperandLayout& l,
                                   int64_t stride) {
      return Operand{base + start * element, l.ld, stride, l.transpose};
    };
    if (plan->single_gemm && !la.transpose && la.batch_stride == m * k) {
      // Every batch shares B and A's matrices are consecutive rows: one [batches * m, k] GEMM.
      return RowMajorBatchedGemm(cublas_, a->dtype(), 1, plan->BatchCount() * m, n, k, alpha_,
                                 operand(ad, a_starts[0], la, 0), operand(bd, b_starts[0], lb, 0),
                                 yd);
    }
    const int64_t a_stride = UniformStride(a_starts);
    const int64_t b_stride = UniformStride(b_starts);
    if (a_stride >= 0 && b_stride >= 0) {
      return RowMajorBatchedGemm(cublas_, a->dtype(), plan->BatchCount(), m, n, k, alpha_,
                                 operand(ad, a_starts[0], la, a_stride),
                                 operand(bd, b_starts[0], lb, b_stride), yd);
    }
    for (int64_t i = 0; i < plan->BatchCount(); ++i) {
      ORT_RETURN_IF_ERROR(RowMajorBatchedGemm(
          cublas_, a->dtype(), 1, m, n, k, alpha_, operand(ad, a_starts[i], la, 0),
          operand(bd, b_starts[i], lb, 0), yd + i * m * n * element));
    }
    return Status::OK();
  }

 private:
  Cublas cublas_;
  float alpha_ = 1.0f;
  bool trans_a_ = false;
  bool trans_b_ = false;
  bool trans_batch_a_ = false;
  bool trans_batch_b_ = false;
};

class Gemm final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    cublas_ = CublasOf(info);
    return attributes_.Parse(info);
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
    const int64_t m = a->shape()[attributes_.trans_a ? 1 : 0],
                  k = a->shape()[attributes_.trans_a ? 0 : 1];
    const int64_t n = b->shape()[attributes_.trans_b ? 0 : 1];
    if (b->shape()[attributes_.trans_b ? 1 : 0] != k) {
      return context.Error("A {} and B {} do not multiply", a->Describe(), b->Describe());
    }
    const TensorShape y_shape({m, n});
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, a->dtype(), y_shape));
    if (y->NumElements() == 0) return Status::OK();
    float beta = 0.0f;
    if (c != nullptr && attributes_.beta != 0.0f) {
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
          context.node()));
      beta = attributes_.beta;
    }
    if (k == 0) {
      if (beta != 0.0f) return Status::OK();
      return CudaStatus(cudaMemsetAsync(y->MutableRawData(), 0, y->SizeInBytes(), stream()),
                        context.node());
    }
    return RowMajorGemm(cublas_, a->dtype(), attributes_.trans_a, attributes_.trans_b, m, n, k,
                        attributes_.alpha, a->RawData(), b->RawData(), beta, y->MutableRawData());
  }

 private:
  Cublas cublas_;
  GemmAttributes attributes_;
};

}  // namespace

void RegisterCudaMatMulKernels(KernelRegistry& registry) {
  registry.Add<MatMul<false>>(KernelDef("MatMul").Versions(1).Input(0, kTypes).Input(1, kTypes));
  registry.Add<MatMul<true>>(KernelDef("FusedMatMul", std::string(kMsDomain))
                                 .Versions(1)
                                 .Input(0, kTypes)
                                 .Input(1, kTypes));
  registry.Add<Gemm>(KernelDef("Gemm").Versions(7).Input(0, kTypes).Input(1, kTypes));
}

}  // namespace ort
