// SequenceMap (opset 17): runs `body` once per element of the input sequence. Additional inputs
// that are sequences (of the same length) contribute their element at the same position; tensors
// are passed whole every time. Each body output is collected into an output sequence.
#include "providers/cpu/kernels/onnx/controlflow/control_flow_utils.h"
#include "providers/cpu/kernels/onnx/sequence/sequence_common.h"
#include "providers/cpu/kernels/onnx/sequence/sequence_kernels.h"

namespace ort {
namespace {

class SequenceMap final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(body_.Bind(info, "body"));
    const auto& runner = body_.runner();
    if (runner.input_names().size() != info.InputCount() ||
        runner.output_names().size() != info.OutputCount()) {
      return ORT_ERROR(kInvalidModel,
                       "the body takes {} inputs and gives {} outputs, expected {} and {}",
                       runner.input_names().size(), runner.output_names().size(), info.InputCount(),
                       info.OutputCount())
          .WithNode(info.node().Describe());
    }
    // Element types for outputs that end up empty: the node's declared type, else the body's.
    for (size_t k = 0; k < info.OutputCount(); ++k) {
      DataType type = DeclaredElementType(runner, k);
      const ValueType* declared = info.OutputType(k);
      if (declared != nullptr && declared->kind == ValueType::Kind::kSequence &&
          declared->element && declared->element->elem_type != DataType::kUndefined) {
        type = declared->element->elem_type;
      }
      output_types_.push_back(type);
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const TensorSequence* sequence, RequiredSequence(context, 0));
    const size_t count = sequence->tensors.size();
    std::vector<const Value*> extra;
    for (size_t i = 1; i < context.InputCount(); ++i) {
      const Value* value = context.InputValue(i);
      if (value == nullptr || !(value->IsTensor() || value->IsSequence())) {
        return context.Error("input {} must be a tensor or a sequence", i);
      }
      if (value->IsSequence() && value->sequence().tensors.size() != count) {
        return context.Error("input {} has {} elements but input 0 has {}", i,
                             value->sequence().tensors.size(), count);
      }
      extra.push_back(value);
    }

    std::vector<TensorSequence> results(context.OutputCount());
    for (size_t k = 0; k < results.size(); ++k) results[k].elem_type = output_types_[k];
    std::vector<Value> feeds(context.InputCount());
    std::vector<Value> outputs;
    for (size_t t = 0; t < count; ++t) {
      if (context.run().Terminated()) return context.Error("the run was terminated");
      feeds[0] = sequence->tensors[t];
      for (size_t i = 0; i < extra.size(); ++i) {
        feeds[1 + i] = extra[i]->IsSequence() ? Value(extra[i]->sequence().tensors[t]) : *extra[i];
      }
      ORT_RETURN_IF_ERROR(body_.Run(context, feeds, outputs));
      for (size_t k = 0; k < results.size(); ++k) {
        if (!outputs[k].IsTensor()) {
          return context.Error("body output {} is {}, not a tensor", k, outputs[k].Describe());
        }
        TensorSequence& result = results[k];
        const Tensor& tensor = outputs[k].tensor();
        if (result.tensors.empty()) result.elem_type = tensor.dtype();
        if (tensor.dtype() != result.elem_type) {
          return context.Error("body output {} changes type from {} to {}", k,
                               DataTypeName(result.elem_type), DataTypeName(tensor.dtype()));
        }
        result.tensors.push_back(tensor);
      }
    }
    for (size_t k = 0; k < results.size(); ++k) {
      ORT_RETURN_IF_ERROR(context.SetOutput(k, std::move(results[k])));
    }
    return Status::OK();
  }

 private:
  BoundSubgraph body_;
  std::vector<DataType> output_types_;
};

}  // namespace

void RegisterSequenceMapKernels(KernelRegistry& registry) {
  registry.Add<SequenceMap>(KernelDef("SequenceMap").Versions(17));
}

}  // namespace ort
