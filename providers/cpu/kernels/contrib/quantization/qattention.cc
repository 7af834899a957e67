// com.microsoft QAttention (opset 1), with ONNX Runtime's CPU semantics: the QKV projection of a
// uint8 input [B,S,D] by 8-bit weights [D, 3 hidden] is one integer GEMM, (x - x_zero)(W - w_zero),
// dequantized by input_scale * weight_scale (per tensor or per column) plus the float bias; then
// the float Attention kernel's attention (ComputeProjectedAttention): num_heads heads, scale,
// mask_filter_value, unidirectional, mask_index as key lengths [B], end/start positions [2B] or raw
// [B,T] and [B,S,T] (T = P + S keys; [B,1] masks nothing). past [2,B,N,P,H] puts earlier keys and
// values before this call's; present returns them all. As onnxruntime's CPU kernel: no int8
// input, no 4-D mask, no do_rotary and no past_present_share_buffer.
#include <memory>
#include <span>
#include <vector>

#include "providers/common/bert/attention_common.h"
#include "providers/cpu/kernels/common/qgemm.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/contrib/bert/attention_core.h"
#include "providers/cpu/kernels/contrib/quantization/contrib_quantization_kernels.h"
#include "providers/cpu/kernels/onnx/nn/conv_integer.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"

namespace ort {
namespace {

// qkv [rows, n] = (x - x_zero)(W - w_zero) * multipliers[j] + bias[j], each block of the integer
// product dequantized while in cache.
void ProjectQkv(int64_t rows, const uint8_t* x, std::span<const int32_t> x_zero,
                const QgemmPackedBView& weights, const float* multipliers, const float* bias,
                float* qkv, ThreadPool* pool) {
  const int64_t n = weights.n;
  QGemmPacked<uint8_t>(rows, x, weights.k, x_zero, weights, nullptr, 0, pool,
                       [&](int64_t row0, int64_t block_rows, int64_t col0, int64_t cols,
                           int32_t* block, int64_t ldc) {
                         Vectorized([&] {
                           for (int64_t r = 0; r < block_rows; ++r) {
                             const int32_t* sums = block + r * ldc;
                             float* row = qkv + (row0 + r) * n + col0;
                             for (int64_t j = 0; j < cols; ++j) {
                               row[j] = static_cast<float>(sums[j]) * multipliers[col0 + j] +
                                        bias[col0 + j];
                             }
                           }
                         });
                       });
}

class QAttention final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(attributes_.ParseQuantized(info));
    packed_weights_ = PackConstantQgemmB(info, 1, 7);
    if (packed_weights_ != nullptr) weights_type_ = info.ConstantInput(1)->dtype();
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
    ORT_ASSIGN_OR_RETURN(const Tensor* bias, context.RequiredInput(2));
    ORT_ASSIGN_OR_RETURN(const Tensor* input_scale, context.RequiredInput(3));
    ORT_ASSIGN_OR_RETURN(const Tensor* weight_scale, context.RequiredInput(4));
    const Tensor* past = context.Input(8);
    AttentionInputs inputs;
    inputs.input = input;
    inputs.weights = weights;
    inputs.weights_shape =
        weights != nullptr ? weights->shape()
                           : TensorShape({packed_weights_->view().k, packed_weights_->view().n});
    inputs.bias = bias;
    inputs.mask = context.Input(5);
    inputs.past = past;
    for (const Tensor* tensor : {bias, input_scale, weight_scale, past}) {
      if (tensor != nullptr && tensor->dtype() != DataType::kFloat) {
        return context.Error("bias, input_scale, weight_scale and past ({}) must be float",
                             tensor->Describe());
      }
    }
    if (inputs.mask != nullptr && inputs.mask->dtype() != DataType::kInt32) {
      return context.Error("mask_index {} must be int32", inputs.mask->Describe());
    }
    ORT_ASSIGN_OR_RETURN(const AttentionSizes sizes,
                         CheckAttentionShapes(context, attributes_, inputs));
    if (sizes.mask.kind == AttentionMaskKind::kRaw4D) {
      return context.Error("a 4-D mask_index {} is not supported (as by onnxruntime's CPU kernel)",
                           inputs.mask->shape().ToString());
    }
    const int64_t rows = sizes.batch * sizes.sequence, k = sizes.input_hidden, n = sizes.total;
    if (k == 0 || n == 0) {
      return context.Error("weights {} must not be empty", inputs.weights_shape.ToString());
    }
    if (input_scale->NumElements() != 1) {
      return context.Error("input_scale {} must hold one value", input_scale->Describe());
    }
    if (weight_scale->NumElements() != 1 && weight_scale->NumElements() != n) {
      return context.Error("weight_scale {} must hold 1 or {} values", weight_scale->Describe(), n);
    }
    const DataType weights_type = weights != nullptr ? weights->dtype() : weights_type_;
    ORT_ASSIGN_OR_RETURN(
        const std::vector<int32_t> input_zero,
        ReadZeroPoints(context, context.Input(6), DataType::kUint8, 1, "input_zero_point"));
    ORT_ASSIGN_OR_RETURN(
        const std::vector<int32_t> weight_zero,
        ReadZeroPoints(context, context.Input(7), weights_type, n, "weight_zero_point"));
    ORT_ASSIGN_OR_RETURN(const std::vector<float> scales, ReadFloatParams<float>(*weight_scale));
    const float x_scale = input_scale->Data<float>()[0];

    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, DataType::kFloat,
                                        TensorShape({sizes.batch, sizes.sequence, sizes.hidden})));
    float* present = nullptr;
    if (context.IsOutputUsed(1)) {
      ORT_ASSIGN_OR_RETURN(Tensor * out,
                           context.Output(1, DataType::kFloat,
                                          TensorShape({2, sizes.batch, attributes_.num_heads,
                                                       sizes.keys, sizes.head})));
      present = out->MutableData<float>();
    }

    std::unique_ptr<PackedQgemmB> per_call;
    const PackedQgemmB* packed = packed_weights_.get();
    if (packed == nullptr) {
      ORT_RETURN_IF_ERROR(DispatchByType<QuantTypes>(weights_type, "weight", [&]<typename TB>() {
        per_call = std::make_unique<PackedQgemmB>(BestQgemmKernelFor(k, n), k, n,
                                                  weights->Data<TB>(), n, weight_zero);
        return Status::OK();
      }));
      packed = per_call.get();
    }
    std::vector<float> multipliers(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) multipliers[j] = x_scale * scales[scales.size() == 1 ? 0 : j];
    ORT_ASSIGN_OR_RETURN(Tensor qkv,
                         context.AllocateTemp(DataType::kFloat, TensorShape({rows, n})));
    ProjectQkv(rows, input->Data<uint8_t>(), input_zero, packed->view(), multipliers.data(),
               bias->Data<float>(), qkv.MutableData<float>(), context.thread_pool());
    return ComputeProjectedAttention(context, attributes_, sizes, qkv.Data<float>(), nullptr,
                                     past != nullptr ? past->Data<float>() : nullptr, present,
                                     output->MutableData<float>());
  }

 private:
  AttentionAttributes attributes_;
  /// Constant weights (with a constant or absent weight_zero_point), packed at creation.
  std::unique_ptr<PackedQgemmB> packed_weights_;
  DataType weights_type_ = DataType::kUint8;
};

}  // namespace

void RegisterQAttentionKernels(KernelRegistry& registry) {
  registry.Add<QAttention>(KernelDef("QAttention", std::string(kMsDomain))
                               .Versions(1)
                               .Input(0, TypeList<uint8_t>::DataTypes())
                               .Input(1, QuantTypes::DataTypes()));
}

}  // namespace ort
