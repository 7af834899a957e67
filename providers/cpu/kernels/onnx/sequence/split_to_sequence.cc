// SplitToSequence (opset 11): splits a tensor along `axis` into a sequence, by the lengths in
// `split` (a 1-D list), by chunks of a scalar `split` (the last one may be shorter), or into
// single slices (squeezed unless keepdims=1) when `split` is absent.
#include "providers/cpu/kernels/onnx/controlflow/control_flow_utils.h"
#include "providers/cpu/kernels/onnx/sequence/sequence_common.h"
#include "providers/cpu/kernels/onnx/sequence/sequence_kernels.h"

namespace ort {
namespace {

class SplitToSequence final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", 0));
    ORT_ASSIGN_OR_RETURN(int64_t keepdims, info.GetAttributeOr<int64_t>("keepdims", 1));
    keepdims_ = keepdims != 0;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
    const TensorShape& shape = input->shape();
    auto normalized = NormalizeAxis(axis_, shape.rank());
    if (!normalized.ok()) return context.Error("{}", normalized.status().message());
    const size_t axis = *normalized;
    const int64_t dim = shape[axis];

    std::vector<int64_t> lengths;
    bool squeeze = false;
    if (const Tensor* split = context.Input(1)) {
      if (split->shape().rank() > 1) {
        return context.Error("split must be a scalar or 1-D, got {}", split->Describe());
      }
      auto values = ReadInt64Values(*split);
      if (!values.ok()) return context.Error("split: {}", values.status().message());
      if (split->shape().rank() == 0) {
        const int64_t chunk = (*values)[0];
        if (chunk <= 0) return context.Error("split must be positive, got {}", chunk);
        for (int64_t start = 0; start < dim; start += chunk) {
          lengths.push_back(std::min(chunk, dim - start));
        }
      } else {
        lengths = std::move(values).value();
        int64_t total = 0;
        for (int64_t length : lengths) {
          if (length < 0) return context.Error("split lengths must not be negative");
          total += length;
        }
        if (total != dim) {
          return context.Error("split lengths sum to {} but axis {} has {}", total, axis_, dim);
        }
      }
    } else {
      lengths.assign(static_cast<size_t>(dim), 1);
      squeeze = !keepdims_;
    }

    TensorSequence sequence{input->dtype(), {}};
    const int64_t outer = shape.SizeToDimension(axis);
    const int64_t inner = shape.SizeFromDimension(axis + 1);
    int64_t start = 0;
    for (int64_t length : lengths) {
      std::vector<int64_t> dims = shape.dims();
      if (squeeze) {
        dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(axis));
      } else {
        dims[axis] = length;
      }
      ORT_ASSIGN_OR_RETURN(Tensor piece,
                           context.AllocateTemp(input->dtype(), TensorShape(std::move(dims))));
      for (int64_t o = 0; o < outer; ++o) {
        CopyElements(*input, (o * dim + start) * inner, piece, o * length * inner, length * inner);
      }
      sequence.tensors.push_back(std::move(piece));
      start += length;
    }
    return context.SetOutput(0, std::move(sequence));
  }

 private:
  int64_t axis_ = 0;
  bool keepdims_ = true;
};

}  // namespace

void RegisterSplitToSequenceKernels(KernelRegistry& registry) {
  registry.Add<SplitToSequence>(KernelDef("SplitToSequence")
                                    .Versions(11)
                                    .Input(0, SequenceElementTypes())
                                    .Input(1, {DataType::kInt32, DataType::kInt64}));
}

}  // namespace ort
