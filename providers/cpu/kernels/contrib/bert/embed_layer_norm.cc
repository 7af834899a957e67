// com.microsoft EmbedLayerNormalization (opset 1), float, with ONNX Runtime's CPU semantics: per
// token, word_embedding[input_ids] + position_embedding[position] (+ segment_embedding
// [segment_ids]), layer-normalized over the hidden axis with gamma and beta. The position is the
// token's index in its sequence unless position_ids ([B,S] or [1,S]) gives it. Outputs: the
// normalized [B,S,H]; mask_index [B], the count of ones per row of mask (zeros without a mask);
// embedding_sum, the sum before normalization.
#include <atomic>
#include <cmath>
#include <cstring>

#include "providers/common/bert/embed_layer_norm_inputs.h"
#include "providers/cpu/kernels/contrib/bert/contrib_bert_kernels.h"

namespace ort {
namespace {

class EmbedLayerNormalization final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(epsilon_, ParseEmbedLayerNormEpsilon(info));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const EmbedLayerNormInputs in, ReadEmbedLayerNormInputs(context));
    const Tensor *input_ids = in.input_ids, *segment_ids = in.segment_ids, *word = in.word;
    const Tensor *position = in.position, *segment = in.segment, *mask = in.mask;
    const Tensor* position_ids = in.position_ids;
    const int64_t batch = in.batch, sequence = in.sequence, hidden = in.hidden;
    const bool shared_positions = in.shared_positions;

    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, DataType::kFloat,
                                                         TensorShape({batch, sequence, hidden})));
    float* sum_out = nullptr;
    if (context.IsOutputUsed(2)) {
      ORT_ASSIGN_OR_RETURN(Tensor * sum, context.Output(2, DataType::kFloat,
                                                        TensorShape({batch, sequence, hidden})));
      sum_out = sum->MutableData<float>();
    }

    const int32_t* ids = input_ids->Data<int32_t>();
    const int32_t* segments = segment_ids != nullptr ? segment_ids->Data<int32_t>() : nullptr;
    const int32_t* positions = position_ids != nullptr ? position_ids->Data<int32_t>() : nullptr;
    const float* word_data = word->Data<float>();
    const float* position_data = position->Data<float>();
    const float* segment_data = segment != nullptr ? segment->Data<float>() : nullptr;
    const float* gamma_data = in.gamma->Data<float>();
    const float* beta_data = in.beta->Data<float>();
    const int64_t word_rows = word->shape()[0], position_rows = position->shape()[0];
    const int64_t segment_rows = segment != nullptr ? segment->shape()[0] : 0;
    float* out = output->MutableData<float>();
    std::atomic<bool> out_of_range{false};
    ThreadPool::TryParallelFor(
        context.thread_pool(), batch * sequence, 8.0 * hidden, [&](int64_t begin, int64_t end) {
          for (int64_t token = begin; token < end; ++token) {
            const int64_t s = token % sequence;
            const int64_t word_id = ids[token];
            const int64_t position_id =
                positions == nullptr ? s : positions[shared_positions ? s : token];
            const int64_t segment_id = segments != nullptr ? segments[token] : 0;
            if (word_id < 0 || word_id >= word_rows || position_id < 0 ||
                position_id >= position_rows ||
                (segments != nullptr && (segment_id < 0 || segment_id >= segment_rows))) {
              out_of_range = true;
              return;
            }
            const float* w = word_data + word_id * hidden;
            const float* p = position_data + position_id * hidden;
            float* y = out + token * hidden;
            double total = 0.0;
            for (int64_t i = 0; i < hidden; ++i) {
              float value = w[i] + p[i];
              if (segments != nullptr) value += segment_data[segment_id * hidden + i];
              y[i] = value;
              total += value;
            }
            if (sum_out != nullptr)
              std::memcpy(sum_out + token * hidden, y, sizeof(float) * hidden);
            const float mean = static_cast<float>(total / static_cast<double>(hidden));
            double squares = 0.0;
            for (int64_t i = 0; i < hidden; ++i) {
              const float centered = y[i] - mean;
              y[i] = centered;
              squares += static_cast<double>(centered) * centered;
            }
            const float inv_std = 1.0f / std::sqrt(static_cast<float>(squares / hidden) + epsilon_);
            for (int64_t i = 0; i < hidden; ++i)
              y[i] = y[i] * inv_std * gamma_data[i] + beta_data[i];
          }
        });
    if (out_of_range) {
      return context.Error("an input, segment or position id is out of its embedding's range");
    }

    if (context.IsOutputUsed(1)) {
      ORT_ASSIGN_OR_RETURN(Tensor * mask_index,
                           context.Output(1, DataType::kInt32, TensorShape({batch})));
      int32_t* counts = mask_index->MutableData<int32_t>();
      for (int64_t b = 0; b < batch; ++b) {
        int32_t count = 0;
        if (mask != nullptr) {
          const int32_t* row = mask->Data<int32_t>() + b * sequence;
          for (int64_t s = 0; s < sequence; ++s) count += row[s] == 1 ? 1 : 0;
        }
        counts[b] = count;
      }
    }
    return Status::OK();
  }

 private:
  float epsilon_ = 1e-12f;
};

}  // namespace

void RegisterEmbedLayerNormalizationKernels(KernelRegistry& registry) {
  registry.Add<EmbedLayerNormalization>(KernelDef("EmbedLayerNormalization", std::string(kMsDomain))
                                            .Versions(1)
                                            .Input(0, {DataType::kInt32})
                                            .Input(2, {DataType::kFloat}));
}

}  // namespace ort
