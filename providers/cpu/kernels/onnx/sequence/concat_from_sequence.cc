// ConcatFromSequence (opset 11): concatenates a sequence's tensors along `axis`, or stacks them
// along a new axis inserted at `axis` when new_axis=1.
#include "providers/cpu/kernels/onnx/controlflow/control_flow_utils.h"
#include "providers/cpu/kernels/onnx/sequence/sequence_common.h"
#include "providers/cpu/kernels/onnx/sequence/sequence_kernels.h"

namespace ort {
namespace {

class ConcatFromSequence final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttribute<int64_t>("axis"));
    ORT_ASSIGN_OR_RETURN(int64_t new_axis, info.GetAttributeOr<int64_t>("new_axis", 0));
    if (new_axis != 0 && new_axis != 1) {
      return ORT_ERROR(kInvalidModel, "new_axis must be 0 or 1, got {}", new_axis)
          .WithNode(info.node().Describe());
    }
    new_axis_ = new_axis == 1;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const TensorSequence* sequence, RequiredSequence(context, 0));
    if (sequence->tensors.empty()) return context.Error("the input sequence is empty");
    std::vector<const Tensor*> pieces;
    pieces.reserve(sequence->tensors.size());
    for (const Tensor& tensor : sequence->tensors) pieces.push_back(&tensor);
    size_t axis = 0;
    auto shape = JoinedShape(pieces, axis_, new_axis_, &axis);
    if (!shape.ok()) return context.Error("{}", shape.status().message());
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, pieces[0]->dtype(), *shape));
    JoinInto(pieces, axis, new_axis_, *output);
    return Status::OK();
  }

 private:
  int64_t axis_ = 0;
  bool new_axis_ = false;
};

}  // namespace

void RegisterConcatFromSequenceKernels(KernelRegistry& registry) {
  registry.Add<ConcatFromSequence>(KernelDef("ConcatFromSequence").Versions(11));
}

}  // namespace ort
