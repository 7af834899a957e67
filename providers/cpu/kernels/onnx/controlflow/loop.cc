// Loop (opsets 1, 11, 13, 16): runs `body` while the iteration count is below M (when given) and
// the condition holds. Loop-carried values (tensors, sequences, optionals) feed the next
// iteration; scan outputs of every iteration are stacked along a new first axis.
#include "providers/cpu/kernels/onnx/controlflow/control_flow_utils.h"
#include "providers/cpu/kernels/onnx/controlflow/controlflow_kernels.h"

namespace ort {
namespace {

// A scalar of the rank the body declares for its input (rank 1 models exist).
template <typename T>
Tensor MakeCounter(T value, bool rank_one) {
  return rank_one ? Tensor::FromVector<T>(TensorShape{1}, {value}) : Tensor::Scalar<T>(value);
}

bool DeclaresRankOne(const SubgraphRunner& runner, size_t input_index) {
  const ValueInfo* info = runner.graph().FindValueInfo(runner.input_names()[input_index]);
  return info != nullptr && info->type.shape && info->type.shape->size() == 1;
}

class Loop final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(body_.Bind(info, "body"));
    const std::string describe = info.node().Describe();
    if (info.InputCount() < 2) {
      return ORT_ERROR(kInvalidModel, "expected at least 2 inputs (M, cond)").WithNode(describe);
    }
    carried_ = info.InputCount() - 2;
    const auto& runner = body_.runner();
    if (runner.input_names().size() != carried_ + 2) {
      return ORT_ERROR(kInvalidModel, "the body takes {} inputs, expected {}",
                       runner.input_names().size(), carried_ + 2)
          .WithNode(describe);
    }
    if (info.OutputCount() < carried_ || runner.output_names().size() != 1 + info.OutputCount()) {
      return ORT_ERROR(kInvalidModel,
                       "the body has {} outputs; with {} loop-carried values and {} node "
                       "outputs it needs {}",
                       runner.output_names().size(), carried_, info.OutputCount(),
                       1 + info.OutputCount())
          .WithNode(describe);
    }
    scans_ = info.OutputCount() - carried_;
    iteration_rank_one_ = DeclaresRankOne(runner, 0);
    condition_rank_one_ = DeclaresRankOne(runner, 1);
    for (size_t k = 0; k < scans_; ++k) {
      empty_scan_shapes_.push_back(DeclaredShape(runner, 1 + carried_ + k));
      DataType type = DeclaredElementType(runner, 1 + carried_ + k);
      const ValueType* output_type = info.OutputType(carried_ + k);
      if (type == DataType::kUndefined && output_type != nullptr) type = output_type->elem_type;
      empty_scan_types_.push_back(type == DataType::kUndefined ? DataType::kFloat : type);
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    int64_t trip_count = INT64_MAX;
    if (const Tensor* m = context.Input(0)) {
      if (m->dtype() != DataType::kInt64 || m->NumElements() != 1) {
        return context.Error("M must be a single int64, got {}", m->Describe());
      }
      trip_count = m->Data<int64_t>()[0];
    }
    bool condition = true;
    if (const Tensor* cond = context.Input(1)) {
      ORT_RETURN_IF_ERROR(ReadCondition(context, *cond, &condition));
    }

    std::vector<Value> inputs(2 + carried_);
    for (size_t j = 0; j < carried_; ++j) {
      const Value* value = context.InputValue(2 + j);
      if (value == nullptr) return context.Error("loop-carried input {} is missing", j);
      inputs[2 + j] = *value;
    }
    std::vector<std::vector<Tensor>> scanned(scans_);
    std::vector<Value> outputs;
    for (int64_t iteration = 0; iteration < trip_count && condition; ++iteration) {
      if (context.run().Terminated()) return context.Error("the run was terminated");
      inputs[0] = MakeCounter<int64_t>(iteration, iteration_rank_one_);
      inputs[1] = MakeCounter<bool>(condition, condition_rank_one_);
      ORT_RETURN_IF_ERROR(body_.Run(context, inputs, outputs));
      if (!outputs[0].IsTensor()) return context.Error("the body's condition is not a tensor");
      ORT_RETURN_IF_ERROR(ReadCondition(context, outputs[0].tensor(), &condition));
      for (size_t j = 0; j < carried_; ++j) inputs[2 + j] = std::move(outputs[1 + j]);
      for (size_t k = 0; k < scans_; ++k) {
        Value& value = outputs[1 + carried_ + k];
        if (!value.IsTensor()) {
          return context.Error("scan output {} is {}, not a tensor", k, value.Describe());
        }
        scanned[k].push_back(std::move(value.mutable_tensor()));
      }
    }

    for (size_t j = 0; j < carried_; ++j) {
      ORT_RETURN_IF_ERROR(context.SetOutput(j, std::move(inputs[2 + j])));
    }
    for (size_t k = 0; k < scans_; ++k) {
      ORT_RETURN_IF_ERROR(WriteScanOutput(context, k, scanned[k]));
    }
    return Status::OK();
  }

 private:
  static Status ReadCondition(const KernelContext& context, const Tensor& tensor, bool* value) {
    if (tensor.dtype() != DataType::kBool || tensor.NumElements() != 1) {
      return context.Error("the loop condition must be a single bool, got {}", tensor.Describe());
    }
    *value = tensor.Data<bool>()[0];
    return Status::OK();
  }

  Status WriteScanOutput(KernelContext& context, size_t k,
                         const std::vector<Tensor>& pieces) const {
    const size_t index = carried_ + k;
    if (pieces.empty()) {
      // Zero iterations: an empty stack, shaped like the body declares its output when known.
      std::vector<int64_t> dims = {0};
      if (empty_scan_shapes_[k]) {
        const auto& declared = empty_scan_shapes_[k]->dims();
        dims.insert(dims.end(), declared.begin(), declared.end());
      }
      return context.Output(index, empty_scan_types_[k], TensorShape(std::move(dims))).status();
    }
    std::vector<const Tensor*> views;
    views.reserve(pieces.size());
    for (const Tensor& piece : pieces) views.push_back(&piece);
    size_t axis = 0;
    auto shape = JoinedShape(views, 0, /*new_axis=*/true, &axis);
    if (!shape.ok()) {
      return context.Error("scan output {} changes across iterations: {}", k,
                           shape.status().message());
    }
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(index, pieces[0].dtype(), *shape));
    JoinInto(views, axis, /*new_axis=*/true, *output);
    return Status::OK();
  }

  BoundSubgraph body_;
  size_t carried_ = 0;
  size_t scans_ = 0;
  bool iteration_rank_one_ = false;
  bool condition_rank_one_ = false;
  std::vector<std::optional<TensorShape>> empty_scan_shapes_;
  std::vector<DataType> empty_scan_types_;
};

}  // namespace

void RegisterLoopKernels(KernelRegistry& registry) {
  const std::vector<DataType> count = {DataType::kInt64};
  const std::vector<DataType> condition = {DataType::kBool};
  registry.Add<Loop>(KernelDef("Loop").Versions(1, 10).Input(0, count).Input(1, condition));
  registry.Add<Loop>(KernelDef("Loop").Versions(11, 12).Input(0, count).Input(1, condition));
  registry.Add<Loop>(KernelDef("Loop").Versions(13, 15).Input(0, count).Input(1, condition));
  registry.Add<Loop>(KernelDef("Loop").Versions(16).Input(0, count).Input(1, condition));
}

}  // namespace ort
