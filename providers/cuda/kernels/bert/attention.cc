// com.microsoft Attention (opset 1) on the GPU, float and float16, with the CPU kernel's semantics
// (the CPU provider's contrib/bert/attention.cc), whose attributes and input checks it shares
// (providers/common/bert/attention_common.h): mask forms (classified by shape on the host, read on
// the device), attention_bias, unsupported past/present. One cuBLAS GEMM projects input [B,S,D] by
// the merged weights [D, Hq+Hk+Hv] into QKV; a kernel adds the bias and splits the heads into
// [B,N,S,head]; strided-batched GEMMs over the B*N (batch, head) pairs give the scaled scores (kept
// in float), then, after the masked softmax, the context, which a last kernel merges into [B,S,Hv].
// Float16 GEMMs accumulate in float.
#include <climits>

#include "providers/common/bert/attention_common.h"
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/cuda_provider.h"
#include "providers/cuda/kernels/bert/attention_launch.h"
#include "providers/cuda/kernels/cuda_kernels.h"

namespace ort {

namespace {

const std::vector<DataType> kTypes = {DataType::kFloat, DataType::kFloat16};

// cuBLAS as the kernel's provider offers it; float GEMMs use the provider's matrix precision.
struct Cublas {
  cublasHandle_t handle = nullptr;
  const CublasApi* api = nullptr;
  cublasComputeType_t float_compute = CUBLAS_COMPUTE_32F;
};

// The element types of one GEMM: inputs a and b share one, the result y may differ.
struct GemmTypes {
  cudaDataType_t inputs = CUDA_R_32F;
  cudaDataType_t result = CUDA_R_32F;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
};

// `batches` row-major products y_i[m, n] = alpha * a_i[m, k] b_i, the operands of consecutive
// batches `*_stride` elements apart; b_i is [k, n], or with `trans_b` stored [n, k] and read
// transposed. cuBLAS is column-major: a row-major [r, c] buffer is its [c, r] matrix with leading
// dimension c. So it computes y_i^T [n, m] = op(b_i)^T [n, k] * a_i^T [k, m]: first operand b_i
// (ld n, or op T with ld k when trans_b), second a_i (op N, ld k), result ld n; matmul.cc's
// RowMajorGemm with trans_a false.
Status RowMajorBatchedGemm(const Cublas& cublas, const GemmTypes& types, bool trans_b,
                           int64_t batches, int64_t m, int64_t n, int64_t k, float alpha,
                           const void* a, int64_t a_stride, const void* b, int64_t b_stride,
                           void* y, int64_t y_stride) {
  const float beta = 0.0f;
  return CublasStatus(
      *cublas.api,
      cublas.api->gemm_strided_batched_ex(
          cublas.handle, trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(n),
          static_cast<int>(m), static_cast<int>(k), &alpha, b, types.inputs,
          static_cast<int>(trans_b ? k : n), b_stride, a, types.inputs, static_cast<int>(k),
          a_stride, &beta, y, types.result, static_cast<int>(n), y_stride,
          static_cast<int>(batches), types.compute, CUBLAS_GEMM_DEFAULT),
      "cublasGemmStridedBatchedEx");
}

class Attention final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    if (const auto* provider = dynamic_cast<const CudaExecutionProvider*>(&info.provider())) {
      cublas_ = {provider->cublas(), provider->cublas_api(), provider->FloatGemmComputeType()};
    }
    return attributes_.Parse(info);
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* weights, context.RequiredInput(1));
    const AttentionInputs inputs{
        input, weights, weights->shape(), context.Input(2), context.Input(3), context.Input(5)};
    ORT_ASSIGN_OR_RETURN(const AttentionSizes sizes,
                         CheckAttentionInputs(context, attributes_, inputs));
    const DataType type = input->dtype();
    const int64_t batch = sizes.batch, sequence = sizes.sequence;
    const int64_t input_hidden = sizes.input_hidden, total = sizes.total;
    const int64_t hidden = sizes.hidden, v_hidden = sizes.v_hidden;
    const int64_t head = sizes.head, v_head = sizes.v_head, num_heads = attributes_.num_heads;
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, type, TensorShape({batch, sequence, v_hidden})));
    if (output->NumElements() == 0) return Status::OK();
    const int64_t rows = batch * sequence, units = batch * num_heads;
    if (rows > INT_MAX || total > INT_MAX || input_hidden > INT_MAX || units > INT_MAX) {
      return context.Error("input {} and weights {} exceed cuBLAS's int sizes",
                           input->shape().ToString(), weights->shape().ToString());
    }

    const cuda::AttentionMask device_mask{sizes.mask, sizes.causal, attributes_.mask_filter_value};
    const cuda::AttentionDims dims{batch, sequence, num_heads, head, v_head};
    const bool is_float = type == DataType::kFloat;
    const auto kind = is_float ? cuda::ElementKind::kFloat : cuda::ElementKind::kHalf;
    const cudaDataType_t cuda_type = is_float ? CUDA_R_32F : CUDA_R_16F;
    const cublasComputeType_t compute = is_float ? cublas_.float_compute : CUBLAS_COMPUTE_32F;
    const Node& node = context.node();

    ORT_ASSIGN_OR_RETURN(Tensor qkv, context.AllocateTemp(type, TensorShape({rows, total})));
    if (input_hidden == 0) {
      ORT_CUDA_RETURN_IF_ERROR(
          cudaMemsetAsync(qkv.MutableRawData(), 0, qkv.SizeInBytes(), stream()), node);
    } else {
      ORT_RETURN_IF_ERROR(RowMajorBatchedGemm(cublas_, {cuda_type, cuda_type, compute}, false, 1,
                                              rows, total, input_hidden, 1.0f, input->RawData(), 0,
                                              weights->RawData(), 0, qkv.MutableRawData(), 0));
    }
    ORT_ASSIGN_OR_RETURN(Tensor heads, context.AllocateTemp(type, TensorShape({rows, total})));
    ORT_CUDA_RETURN_IF_ERROR(
        cuda::LaunchAddBiasSplitHeads(kind, qkv.RawData(),
                                      inputs.bias != nullptr ? inputs.bias->RawData() : nullptr,
                                      heads.MutableRawData(), dims, stream()),
        node);
    const size_t q_bytes = static_cast<size_t>(rows * hidden) * ElementSize(type);
    const char* q = static_cast<const char*>(heads.RawData());
    const char* k = q + q_bytes;
    const char* v = k + q_bytes;

    ORT_ASSIGN_OR_RETURN(
        Tensor scores,
        context.AllocateTemp(DataType::kFloat, TensorShape({units, sequence, sequence})));
    if (head == 0) {
      ORT_CUDA_RETURN_IF_ERROR(
          cudaMemsetAsync(scores.MutableRawData(), 0, scores.SizeInBytes(), stream()), node);
    } else {
      ORT_RETURN_IF_ERROR(RowMajorBatchedGemm(cublas_, {cuda_type, CUDA_R_32F, compute}, true,
                                              units, sequence, sequence, head, sizes.scale, q,
                                              sequence * head, k, sequence * head,
                                              scores.MutableRawData(), sequence * sequence));
    }
    // Float probabilities overwrite the scores; float16 ones need their own buffer.
    Tensor half_probs;
    if (!is_float) {
      ORT_ASSIGN_OR_RETURN(half_probs,
                           context.AllocateTemp(type, TensorShape({units, sequence, sequence})));
    }
    void* probs = is_float ? scores.MutableRawData() : half_probs.MutableRawData();
    ORT_CUDA_RETURN_IF_ERROR(
        cuda::LaunchAttentionSoftmax(
            kind, scores.Data<float>(),
            inputs.attention_bias != nullptr ? inputs.attention_bias->RawData() : nullptr,
            sizes.bias_batch, sizes.bias_heads, device_mask, probs, dims, stream()),
        node);

    // The projection is dead once split: its buffer takes the [B,N,S,v_head] context.
    void* heads_context = qkv.MutableRawData();
    ORT_RETURN_IF_ERROR(RowMajorBatchedGemm(
        cublas_, {cuda_type, cuda_type, compute}, false, units, sequence, v_head, sequence, 1.0f,
        probs, sequence * sequence, v, sequence * v_head, heads_context, sequence * v_head));
    return CudaStatus(
        cuda::LaunchMergeHeads(kind, heads_context, output->MutableRawData(), dims, stream()),
        node);
  }

 private:
  Cublas cublas_;
  AttentionAttributes attributes_;
};

}  // namespace

void RegisterCudaAttentionKernels(KernelRegistry& registry) {
  registry.Add<Attention>(KernelDef("Attention", std::string(kMsDomain))
                              .Versions(1)
                              .Input(0, kTypes)
                              .Input(3, {DataType::kInt32}));
}

}  // namespace ort
