// com.microsoft EmbedLayerNormalization (opset 1) on the GPU, float and float16, with the CPU
// kernel's semantics (the CPU provider's contrib/bert/embed_layer_norm.cc) and input checks
// (providers/common/bert/embed_layer_norm_inputs.h). The ids (input_ids, segment_ids, position_ids)
// are read on the host, like Gather's indices: there an id out of its table's range is an error
// naming it, as on the CPU, and each token's three table rows go to the device in one copy. The
// mask stays on the device, where its ones are counted.
#include "providers/common/bert/embed_layer_norm_inputs.h"
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/bert/embed_layer_norm_launch.h"
#include "providers/cuda/kernels/cuda_kernels.h"

namespace ort {
namespace {

const std::vector<DataType> kTypes = {DataType::kFloat, DataType::kFloat16};

// Checks that `id`, token `token`'s value of `what`, is a row of a table of `rows` rows.
Status CheckRow(const KernelContext& context, const char* what, int64_t token, int64_t id,
                int64_t rows) {
  if (id < 0 || id >= rows) {
    return context.Error("{} {} of token {} is out of its embedding's range [0, {})", what, id,
                         token, rows);
  }
  return Status::OK();
}

class EmbedLayerNormalization final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(epsilon_, ParseEmbedLayerNormEpsilon(info));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const EmbedLayerNormInputs in, ReadEmbedLayerNormInputs(context));
    const int64_t batch = in.batch, sequence = in.sequence, hidden = in.hidden;
    const DataType type = in.word->dtype();

    // Each token's word, position and segment rows, checked.
    const int64_t tokens = batch * sequence;
    const int32_t* words = in.input_ids->Data<int32_t>();
    const int32_t* segments = in.segment_ids != nullptr ? in.segment_ids->Data<int32_t>() : nullptr;
    const int32_t* positions =
        in.position_ids != nullptr ? in.position_ids->Data<int32_t>() : nullptr;
    const int64_t segment_rows = in.segment != nullptr ? in.segment->shape()[0] : 0;
    std::vector<int32_t> rows(static_cast<size_t>(3 * tokens));
    for (int64_t token = 0; token < tokens; ++token) {
      const int64_t s = token % sequence;
      const int32_t position_id = positions == nullptr ? static_cast<int32_t>(s)
                                                       : positions[in.shared_positions ? s : token];
      ORT_RETURN_IF_ERROR(CheckRow(context, "input id", token, words[token], in.word->shape()[0]));
      ORT_RETURN_IF_ERROR(
          CheckRow(context, "position id", token, position_id, in.position->shape()[0]));
      if (segments != nullptr) {
        ORT_RETURN_IF_ERROR(CheckRow(context, "segment id", token, segments[token], segment_rows));
      }
      rows[3 * token] = words[token];
      rows[3 * token + 1] = position_id;
      rows[3 * token + 2] = segments != nullptr ? segments[token] : 0;
    }

    const Node& node = context.node();
    const TensorShape output_shape({batch, sequence, hidden});
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, type, output_shape));
    void* sum = nullptr;
    if (context.IsOutputUsed(2)) {
      ORT_ASSIGN_OR_RETURN(Tensor * sum_tensor, context.Output(2, type, output_shape));
      sum = sum_tensor->MutableRawData();
    }
    if (context.IsOutputUsed(1)) {
      ORT_ASSIGN_OR_RETURN(Tensor * mask_index,
                           context.Output(1, DataType::kInt32, TensorShape({batch})));
      if (in.mask != nullptr) {
        ORT_CUDA_RETURN_IF_ERROR(
            cuda::LaunchCountMaskOnes(in.mask->Data<int32_t>(), mask_index->MutableData<int32_t>(),
                                      batch, sequence, stream()),
            node);
      } else {
        ORT_CUDA_RETURN_IF_ERROR(
            cudaMemsetAsync(mask_index->MutableRawData(), 0, mask_index->SizeInBytes(), stream()),
            node);
      }
    }
    if (output->NumElements() == 0) return Status::OK();

    ORT_ASSIGN_OR_RETURN(Tensor device_rows,
                         context.AllocateTemp(DataType::kInt32, TensorShape({3 * tokens})));
    // From pageable memory the copy is staged before the call returns, so `rows` may go.
    ORT_CUDA_RETURN_IF_ERROR(
        cudaMemcpyAsync(device_rows.MutableRawData(), rows.data(), rows.size() * sizeof(int32_t),
                        cudaMemcpyHostToDevice, stream()),
        node);
    const auto kind =
        type == DataType::kFloat ? cuda::ElementKind::kFloat : cuda::ElementKind::kHalf;
    return CudaStatus(
        cuda::LaunchEmbedLayerNorm(
            kind, device_rows.Data<int32_t>(), in.word->RawData(), in.position->RawData(),
            in.segment != nullptr ? in.segment->RawData() : nullptr, in.gamma->RawData(),
            in.beta->RawData(), output->MutableRawData(), sum, tokens, hidden, epsilon_, stream()),
        node);
  }

 private:
  float epsilon_ = 1e-12f;
};

}  // namespace

void RegisterCudaEmbedLayerNormKernels(KernelRegistry& registry) {
  registry.Add<EmbedLayerNormalization>(KernelDef("EmbedLayerNormalization", std::string(kMsDomain))
                                            .Versions(1)
                                            .Input(0, {DataType::kInt32})
                                            .Input(2, kTypes)
                                            .HostInput(0)
                                            .HostInput(1)
                                            .HostInput(8));
}

}  // namespace ort
