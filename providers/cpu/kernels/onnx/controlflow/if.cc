// If (opsets 1, 11, 13, 16): runs then_branch or else_branch and forwards its outputs, which
// may be tensors, sequences or optionals.
#include "providers/cpu/kernels/onnx/controlflow/control_flow_utils.h"
#include "providers/cpu/kernels/onnx/controlflow/controlflow_kernels.h"

namespace ort {
namespace {

class If final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(then_branch_.Bind(info, "then_branch"));
    ORT_RETURN_IF_ERROR(else_branch_.Bind(info, "else_branch"));
    for (const BoundSubgraph* branch : {&then_branch_, &else_branch_}) {
      if (branch->runner().output_names().size() != info.OutputCount()) {
        return ORT_ERROR(kInvalidModel, "a branch has {} outputs but the node has {}",
                         branch->runner().output_names().size(), info.OutputCount())
            .WithNode(info.node().Describe());
      }
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* condition, context.RequiredInput(0));
    if (condition->dtype() != DataType::kBool || condition->NumElements() != 1) {
      return context.Error("cond must be a single bool, got {}", condition->Describe());
    }
    const BoundSubgraph& branch = condition->Data<bool>()[0] ? then_branch_ : else_branch_;
    std::vector<Value> outputs;
    ORT_RETURN_IF_ERROR(branch.Run(context, {}, outputs));
    for (size_t i = 0; i < outputs.size(); ++i) {
      ORT_RETURN_IF_ERROR(context.SetOutput(i, std::move(outputs[i])));
    }
    return Status::OK();
  }

 private:
  BoundSubgraph then_branch_;
  BoundSubgraph else_branch_;
};

}  // namespace

void RegisterIfKernels(KernelRegistry& registry) {
  const std::vector<DataType> condition = {DataType::kBool};
  registry.Add<If>(KernelDef("If").Versions(1, 10).Input(0, condition));
  registry.Add<If>(KernelDef("If").Versions(11, 12).Input(0, condition));
  registry.Add<If>(KernelDef("If").Versions(13, 15).Input(0, condition));
  registry.Add<If>(KernelDef("If").Versions(16).Input(0, condition));
}

}  // namespace ort
