// com.microsoft Attention (opset 1), float, with ONNX Runtime's CPU semantics: one GEMM projects
// input [B,S,D] by the merged weights [D, Hq+Hk+Hv] (+ bias) into Q, K and V; each of the
// num_heads heads computes softmax(scale * Q K^T + mask + attention_bias) V (attention_core.h),
// written back to [B,S,Hv]. Masks (0 = masked, mask_filter_value added to the score): raw [B,T],
// [B,S,T], [B,1,M,M] (Megatron), key lengths [B] (right padding) and end/start positions [2B];
// ONNX Runtime's [B,1] or [1,1] masks nothing.
// unidirectional hides every key after the query's position. past/present are not supported.
#include <cstring>
#include <memory>

#include "providers/common/bert/attention_common.h"
#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/contrib/bert/attention_core.h"
#include "providers/cpu/kernels/contrib/bert/contrib_bert_kernels.h"

namespace ort {
namespace {

class Attention final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(attributes_.Parse(info));
    packed_weights_ = PackConstantB(info, 1, false);
    return Status::OK();
  }

  bool PrePackedInput(size_t index) const override {
    return index == 1 && packed_weights_ != nullptr;
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
    // Packed constant weights are never read again (the session may have freed them).
    const Tensor* weights = nullptr;
    if (packed_weights_ == nullptr) {
      ORT_ASSIGN_OR_RETURN(weights, context.RequiredInput(1));
    }
    const AttentionInputs inputs{input,
                                 weights,
                                 weights != nullptr
                                     ? weights->shape()
                                     : TensorShape({packed_weights_->k(), packed_weights_->n()}),
                                 context.Input(2),
                                 context.Input(3),
                                 context.Input(5)};
    ORT_ASSIGN_OR_RETURN(const AttentionSizes sizes,
                         CheckAttentionInputs(context, attributes_, inputs));
    const int64_t batch = sizes.batch, sequence = sizes.sequence;
    const int64_t input_hidden = sizes.input_hidden, total = sizes.total;
    const Tensor* bias = inputs.bias;
    ORT_ASSIGN_OR_RETURN(
        Tensor * output,
        context.Output(0, DataType::kFloat, TensorShape({batch, sequence, sizes.v_hidden})));
    const int64_t rows = batch * sequence;
    if (rows == 0) return Status::OK();

    // QKV [B*S, total]: bias rows, then the projection accumulated onto them.
    ORT_ASSIGN_OR_RETURN(Tensor qkv,
                         context.AllocateTemp(DataType::kFloat, TensorShape({rows, total})));
    float* qkv_data = qkv.MutableData<float>();
    if (bias != nullptr) {
      for (int64_t r = 0; r < rows; ++r) {
        std::memcpy(qkv_data + r * total, bias->Data<float>(), sizeof(float) * total);
      }
    }
    if (packed_weights_ != nullptr) {
      SgemmPackedB(false, rows, 1.0f, input->Data<float>(), input_hidden, *packed_weights_,
                   bias != nullptr ? 1.0f : 0.0f, qkv_data, total, context.thread_pool());
    } else {
      Sgemm(false, false, rows, total, input_hidden, 1.0f, input->Data<float>(), input_hidden,
            weights->Data<float>(), total, bias != nullptr ? 1.0f : 0.0f, qkv_data, total,
            context.thread_pool());
    }
    const Tensor* attention_bias = inputs.attention_bias;
    return ComputeProjectedAttention(
        context, attributes_, sizes, qkv_data,
        attention_bias != nullptr ? attention_bias->Data<float>() : nullptr, nullptr, nullptr,
        output->MutableData<float>());
  }

 private:
  AttentionAttributes attributes_;
  /// Constant QKV weights, packed at creation.
  std::unique_ptr<PackedSgemmB> packed_weights_;
};

}  // namespace

void RegisterAttentionKernels(KernelRegistry& registry) {
  registry.Add<Attention>(KernelDef("Attention", std::string(kMsDomain))
                              .Versions(1)
                              .Input(0, {DataType::kFloat})
                              .Input(3, {DataType::kInt32}));
}

}  // namespace ort
