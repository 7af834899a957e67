// com.microsoft Attention (opset 1) on the GPU, float and float16, with the CPU kernel's semantics
// (providers/cpu/kernels/contrib/bert/attention.cc): attributes, mask forms (classified by shape
// here, read on the device), attention_bias, unsupported past/present. One cuBLAS GEMM projects
// input [B,S,D] by the merged weights [D, Hq+Hk+Hv] into QKV; a kernel adds the bias and splits
// the heads into [B,N,S,head]; strided-batched GEMMs over the B*N (batch, head) pairs give the
// scaled scores (kept in float), then, after the masked softmax, the context, which a last kernel
// merges into [B,S,Hv]. Float16 GEMMs accumulate in float.
#include <climits>
#include <cmath>

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

// mask_index's form from its shape alone (its values stay on the device), as the CPU kernel
// classifies it.
Result<cuda::AttentionMask> ClassifyMask(const Tensor* mask, int64_t batch, int64_t sequence) {
  cuda::AttentionMask view;
  if (mask == nullptr) return view;
  view.data = mask->Data<int32_t>();
  const auto& dims = mask->shape().dims();
  if (dims.size() == 1 && dims[0] == batch) {
    view.kind = cuda::AttentionMaskKind::kKeyLengths;
  } else if (dims.size() == 1 && dims[0] == 2 * batch) {
    view.kind = cuda::AttentionMaskKind::kEndStart;
  } else if (dims.size() == 2 && dims[0] == batch && dims[1] == sequence) {
    view.kind = cuda::AttentionMaskKind::kRaw2D;
  } else if (dims.size() == 3 && dims[0] == batch && dims[1] == sequence && dims[2] == sequence) {
    view.kind = cuda::AttentionMaskKind::kRaw3D;
  } else if (dims.size() == 4 && dims[0] == batch && dims[1] == 1 && dims[2] == dims[3] &&
             dims[2] >= sequence) {
    view.kind = cuda::AttentionMaskKind::kRaw4D;
    view.max_sequence = dims[2];
  } else {
    return ORT_ERROR(kInvalidArgument, "mask_index shape {} does not fit batch {} and sequence {}",
                     mask->shape().ToString(), batch, sequence);
  }
  return view;
}

class Attention final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    if (const auto* provider = dynamic_cast<const CudaExecutionProvider*>(&info.provider())) {
      cublas_ = {provider->cublas(), provider->cublas_api(), provider->FloatGemmComputeType()};
    }
    ORT_ASSIGN_OR_RETURN(num_heads_, info.GetAttribute<int64_t>("num_heads"));
    if (num_heads_ <= 0) return ORT_ERROR(kInvalidArgument, "num_heads must be positive");
    ORT_ASSIGN_OR_RETURN(mask_filter_value_,
                         info.GetAttributeOr<float>("mask_filter_value", -10000.0f));
    ORT_ASSIGN_OR_RETURN(scale_, info.GetAttributeOr<float>("scale", 0.0f));
    ORT_ASSIGN_OR_RETURN(const int64_t unidirectional,
                         info.GetAttributeOr<int64_t>("unidirectional", 0));
    unidirectional_ = unidirectional != 0;
    ORT_ASSIGN_OR_RETURN(const int64_t rotary, info.GetAttributeOr<int64_t>("do_rotary", 0));
    ORT_ASSIGN_OR_RETURN(const int64_t shared,
                         info.GetAttributeOr<int64_t>("past_present_share_buffer", 0));
    if (rotary != 0 || shared != 0) {
      return ORT_ERROR(kNotImplemented,
                       "Attention: do_rotary and past_present_share_buffer are not supported");
    }
    ORT_ASSIGN_OR_RETURN(qkv_hidden_sizes_, info.GetAttributeOr<std::vector<int64_t>>(
                                                "qkv_hidden_sizes", std::vector<int64_t>{}));
    if (!qkv_hidden_sizes_.empty() &&
        (qkv_hidden_sizes_.size() != 3 || qkv_hidden_sizes_[0] != qkv_hidden_sizes_[1])) {
      return ORT_ERROR(kInvalidArgument,
                       "Attention: qkv_hidden_sizes must hold 3 sizes with Q and K equal");
    }
    if (info.InputCount() > 4 && info.node().HasInput(4)) {
      return ORT_ERROR(kNotImplemented, "Attention: the past input is not supported");
    }
    if (info.OutputCount() > 1 && info.node().HasOutput(1)) {
      return ORT_ERROR(kNotImplemented, "Attention: the present output is not supported");
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* weights, context.RequiredInput(1));
    const Tensor* bias = context.Input(2);
    const Tensor* mask = context.Input(3);
    const Tensor* attention_bias = context.Input(5);
    const auto& in = input->shape().dims();
    const auto& w = weights->shape().dims();
    if (in.size() != 3 || w.size() != 2 || w[0] != in[2]) {
      return context.Error("input {} and weights {} must be [B,S,D] and [D, 3 hidden]",
                           input->shape().ToString(), weights->shape().ToString());
    }
    const DataType type = input->dtype();
    for (const Tensor* tensor : {weights, bias, attention_bias}) {
      if (tensor != nullptr && tensor->dtype() != type) {
        return context.Error("weights, bias and attention_bias ({}) must have input's type {}",
                             tensor->Describe(), DataTypeName(type));
      }
    }
    if (mask != nullptr && mask->dtype() != DataType::kInt32) {
      return context.Error("mask_index {} must be int32", mask->Describe());
    }
    const int64_t batch = in[0], sequence = in[1], input_hidden = in[2], total = w[1];
    const int64_t hidden = qkv_hidden_sizes_.empty() ? total / 3 : qkv_hidden_sizes_[0];
    const int64_t v_hidden = qkv_hidden_sizes_.empty() ? total / 3 : qkv_hidden_sizes_[2];
    if (2 * hidden + v_hidden != total || hidden % num_heads_ != 0 || v_hidden % num_heads_ != 0) {
      return context.Error("weights {} do not split into Q, K and V of {} heads",
                           weights->shape().ToString(), num_heads_);
    }
    if (bias != nullptr && bias->shape() != TensorShape({total})) {
      return context.Error("bias {} must be [{}]", bias->shape().ToString(), total);
    }
    auto mask_view = ClassifyMask(mask, batch, sequence);
    if (!mask_view.ok()) return context.Error("{}", mask_view.status().message());
    int64_t bias_batch = 1, bias_heads = 1;
    if (attention_bias != nullptr) {
      const auto& d = attention_bias->shape().dims();
      if (d.size() != 4 || (d[0] != 1 && d[0] != batch) || (d[1] != 1 && d[1] != num_heads_) ||
          d[2] != sequence || d[3] != sequence) {
        return context.Error("attention_bias {} must be [B or 1, N or 1, S, S]",
                             attention_bias->shape().ToString());
      }
      bias_batch = d[0];
      bias_heads = d[1];
    }
    const int64_t head = hidden / num_heads_, v_head = v_hidden / num_heads_;
    const float scale = scale_ == 0.0f ? 1.0f / std::sqrt(static_cast<float>(head)) : scale_;
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, type, TensorShape({batch, sequence, v_hidden})));
    if (output->NumElements() == 0) return Status::OK();
    const int64_t rows = batch * sequence, units = batch * num_heads_;
    if (rows > INT_MAX || total > INT_MAX || input_hidden > INT_MAX || units > INT_MAX) {
      return context.Error("input {} and weights {} exceed cuBLAS's int sizes",
                           input->shape().ToString(), weights->shape().ToString());
    }

    cuda::AttentionMask device_mask = *mask_view;
    device_mask.causal = unidirectional_ && sequence > 1;
    device_mask.filter = mask_filter_value_;
    const cuda::AttentionDims dims{batch, sequence, num_heads_, head, v_head};
    const bool is_float = type == DataType::kFloat;
    const auto kind = is_float ? cuda::ElementKind::kFloat : cuda::ElementKind::kHalf;
    const cudaDataType_t cuda_type = is_float ? CUDA_R_32F : CUDA_R_16F;
    const cublasComputeType_t compute = is_float ? cublas_.float_compute : CUBLAS_COMPUTE_32F;
    const std::string what = context.node().Describe();

    ORT_ASSIGN_OR_RETURN(Tensor qkv, context.AllocateTemp(type, TensorShape({rows, total})));
    if (input_hidden == 0) {
      ORT_CUDA_RETURN_IF_ERROR(
          cudaMemsetAsync(qkv.MutableRawData(), 0, qkv.SizeInBytes(), stream()), what);
    } else {
      ORT_RETURN_IF_ERROR(RowMajorBatchedGemm(cublas_, {cuda_type, cuda_type, compute}, false, 1,
                                              rows, total, input_hidden, 1.0f, input->RawData(), 0,
                                              weights->RawData(), 0, qkv.MutableRawData(), 0));
    }
    ORT_ASSIGN_OR_RETURN(Tensor heads, context.AllocateTemp(type, TensorShape({rows, total})));
    ORT_CUDA_RETURN_IF_ERROR(cuda::LaunchAddBiasSplitHeads(
                                 kind, qkv.RawData(), bias != nullptr ? bias->RawData() : nullptr,
                                 heads.MutableRawData(), dims, stream()),
                             what);
    const size_t q_bytes = static_cast<size_t>(rows * hidden) * ElementSize(type);
    const char* q = static_cast<const char*>(heads.RawData());
    const char* k = q + q_bytes;
    const char* v = k + q_bytes;

    ORT_ASSIGN_OR_RETURN(
        Tensor scores,
        context.AllocateTemp(DataType::kFloat, TensorShape({units, sequence, sequence})));
    if (head == 0) {
      ORT_CUDA_RETURN_IF_ERROR(
          cudaMemsetAsync(scores.MutableRawData(), 0, scores.SizeInBytes(), stream()), what);
    } else {
      ORT_RETURN_IF_ERROR(RowMajorBatchedGemm(
          cublas_, {cuda_type, CUDA_R_32F, compute}, true, units, sequence, sequence, head, scale,
          q, sequence * head, k, sequence * head, scores.MutableRawData(), sequence * sequence));
    }
    // Float probabilities overwrite the scores; float16 ones need their own buffer.
    Tensor half_probs;
    if (!is_float) {
      ORT_ASSIGN_OR_RETURN(half_probs,
                           context.AllocateTemp(type, TensorShape({units, sequence, sequence})));
    }
    void* probs = is_float ? scores.MutableRawData() : half_probs.MutableRawData();
    ORT_CUDA_RETURN_IF_ERROR(cuda::LaunchAttentionSoftmax(
                                 kind, scores.Data<float>(),
                                 attention_bias != nullptr ? attention_bias->RawData() : nullptr,
                                 bias_batch, bias_heads, device_mask, probs, dims, stream()),
                             what);

    // The projection is dead once split: its buffer takes the [B,N,S,v_head] context.
    void* heads_context = qkv.MutableRawData();
    ORT_RETURN_IF_ERROR(RowMajorBatchedGemm(
        cublas_, {cuda_type, cuda_type, compute}, false, units, sequence, v_head, sequence, 1.0f,
        probs, sequence * sequence, v, sequence * v_head, heads_context, sequence * v_head));
    return CudaStatus(
        cuda::LaunchMergeHeads(kind, heads_context, output->MutableRawData(), dims, stream()),
        what);
  }

 private:
  Cublas cublas_;
  int64_t num_heads_ = 0;
  float mask_filter_value_ = -10000.0f;
  float scale_ = 0.0f;
  bool unidirectional_ = false;
  std::vector<int64_t> qkv_hidden_sizes_;
};

}  // namespace

void RegisterCudaAttentionKernels(KernelRegistry& registry) {
  registry.Add<Attention>(KernelDef("Attention", std::string(kMsDomain))
                              .Versions(1)
                              .Input(0, kTypes)
                              .Input(3, {DataType::kInt32}));
}

}  // namespace ort
