#include "providers/common/bert/embed_layer_norm_inputs.h"

namespace ort {
namespace {

// Checks that `ids` is an int32 [batch, sequence] tensor.
Status CheckIds(const KernelContext& context, const Tensor& ids, const char* what, int64_t batch,
                int64_t sequence) {
  if (ids.shape() != TensorShape({batch, sequence}) || ids.dtype() != DataType::kInt32) {
    return context.Error("{} {} must be int32 of input_ids' shape [{}, {}]", what, ids.Describe(),
                         batch, sequence);
  }
  return Status::OK();
}

}  // namespace

Result<float> ParseEmbedLayerNormEpsilon(const KernelInfo& info) {
  ORT_ASSIGN_OR_RETURN(const float epsilon, info.GetAttributeOr<float>("epsilon", 1e-12f));
  if (epsilon < 0) return ORT_ERROR(kInvalidArgument, "epsilon must not be negative");
  return epsilon;
}

Result<EmbedLayerNormInputs> ReadEmbedLayerNormInputs(const KernelContext& context) {
  EmbedLayerNormInputs in;
  ORT_ASSIGN_OR_RETURN(in.input_ids, context.RequiredInput(0));
  in.segment_ids = context.Input(1);
  ORT_ASSIGN_OR_RETURN(in.word, context.RequiredInput(2));
  ORT_ASSIGN_OR_RETURN(in.position, context.RequiredInput(3));
  in.segment = context.Input(4);
  ORT_ASSIGN_OR_RETURN(in.gamma, context.RequiredInput(5));
  ORT_ASSIGN_OR_RETURN(in.beta, context.RequiredInput(6));
  in.mask = context.Input(7);
  in.position_ids = context.Input(8);

  if (in.input_ids->shape().rank() != 2 || in.input_ids->dtype() != DataType::kInt32) {
    return context.Error("input_ids {} must be int32 [batch, sequence]", in.input_ids->Describe());
  }
  in.batch = in.input_ids->shape()[0];
  in.sequence = in.input_ids->shape()[1];
  if (in.word->shape().rank() != 2) {
    return context.Error("word_embedding {} must be 2-D", in.word->shape().ToString());
  }
  const DataType type = in.word->dtype();
  in.hidden = in.word->shape()[1];
  for (const Tensor* table : {in.position, in.segment}) {
    if (table != nullptr &&
        (table->shape().rank() != 2 || table->shape()[1] != in.hidden || table->dtype() != type)) {
      return context.Error("embedding {} must be [rows, {}] of word_embedding's type",
                           table->Describe(), in.hidden);
    }
  }
  for (const Tensor* vector : {in.gamma, in.beta}) {
    if (vector->shape() != TensorShape({in.hidden}) || vector->dtype() != type) {
      return context.Error("gamma and beta ({}) must be [{}] of word_embedding's type",
                           vector->Describe(), in.hidden);
    }
  }
  if ((in.segment_ids == nullptr) != (in.segment == nullptr)) {
    return context.Error("segment_ids and segment_embedding must be given together");
  }
  if (in.segment_ids != nullptr) {
    ORT_RETURN_IF_ERROR(CheckIds(context, *in.segment_ids, "segment_ids", in.batch, in.sequence));
  }
  if (in.mask != nullptr) {
    ORT_RETURN_IF_ERROR(CheckIds(context, *in.mask, "mask", in.batch, in.sequence));
  }
  in.shared_positions =
      in.position_ids != nullptr && in.position_ids->shape() == TensorShape({1, in.sequence});
  if (in.position_ids != nullptr &&
      (!in.shared_positions || in.position_ids->dtype() != DataType::kInt32)) {
    ORT_RETURN_IF_ERROR(CheckIds(context, *in.position_ids, "position_ids", in.batch, in.sequence));
  }
  return in;
}

}  // namespace ort
