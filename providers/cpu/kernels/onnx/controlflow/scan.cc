// Scan. Opset 8: inputs are [sequence_lens], states [batch, ...] and scan inputs
// [batch, sequence, ...]; every batch entry is scanned on its own (up to its sequence length,
// padding scan outputs with zeros) and the results are stacked back along the batch axis.
// Opsets 9, 11, 16: no batch axis; scan inputs are sliced along scan_input_axes (in
// scan_input_directions) and per-iteration outputs are stacked along scan_output_axes (in
// scan_output_directions). Negative axes count from the end.
#include <algorithm>
#include <cstring>

#include "providers/cpu/kernels/onnx/controlflow/control_flow_utils.h"
#include "providers/cpu/kernels/onnx/controlflow/controlflow_kernels.h"

namespace ort {
namespace {

Result<std::vector<int64_t>> ReadFlags(const KernelInfo& info, std::string_view name, size_t count,
                                       int64_t fallback) {
  ORT_ASSIGN_OR_RETURN(auto values, info.GetAttributeOr<std::vector<int64_t>>(
                                        name, std::vector<int64_t>(count, fallback)));
  if (values.size() != count) {
    return ORT_ERROR(kInvalidModel, "attribute '{}' has {} values, expected {}", name,
                     values.size(), count)
        .WithNode(info.node().Describe());
  }
  return values;
}

Result<Tensor> Slice(const KernelContext& context, const Tensor& source, size_t axis,
                     int64_t index) {
  std::vector<int64_t> dims = source.shape().dims();
  dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(axis));
  ORT_ASSIGN_OR_RETURN(Tensor slice, context.AllocateTemp(source.dtype(), TensorShape(dims)));
  ExtractSlice(source, axis, index, slice);
  return slice;
}

class Scan final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(body_.Bind(info, "body"));
    const std::string describe = info.node().Describe();
    batched_ = info.opset() < 9;
    ORT_ASSIGN_OR_RETURN(int64_t scan_inputs, info.GetAttribute<int64_t>("num_scan_inputs"));
    const size_t first = batched_ ? 1 : 0;  // opset 8 starts with sequence_lens
    if (scan_inputs <= 0 || static_cast<size_t>(scan_inputs) + first > info.InputCount()) {
      return ORT_ERROR(kInvalidModel, "num_scan_inputs {} does not fit {} inputs", scan_inputs,
                       info.InputCount())
          .WithNode(describe);
    }
    scan_inputs_ = static_cast<size_t>(scan_inputs);
    states_ = info.InputCount() - first - scan_inputs_;
    if (info.OutputCount() < states_) {
      return ORT_ERROR(kInvalidModel, "{} outputs cannot hold {} states", info.OutputCount(),
                       states_)
          .WithNode(describe);
    }
    scan_outputs_ = info.OutputCount() - states_;
    const auto& runner = body_.runner();
    if (runner.input_names().size() != states_ + scan_inputs_ ||
        runner.output_names().size() != info.OutputCount()) {
      return ORT_ERROR(kInvalidModel,
                       "the body takes {} inputs and gives {} outputs, expected {} and {}",
                       runner.input_names().size(), runner.output_names().size(),
                       states_ + scan_inputs_, info.OutputCount())
          .WithNode(describe);
    }
    if (batched_) {
      ORT_ASSIGN_OR_RETURN(input_reverse_, ReadFlags(info, "directions", scan_inputs_, 0));
      input_axes_.assign(scan_inputs_, 0);
      output_axes_.assign(scan_outputs_, 0);
      output_reverse_.assign(scan_outputs_, 0);
    } else {
      ORT_ASSIGN_OR_RETURN(input_reverse_,
                           ReadFlags(info, "scan_input_directions", scan_inputs_, 0));
      ORT_ASSIGN_OR_RETURN(input_axes_, ReadFlags(info, "scan_input_axes", scan_inputs_, 0));
      ORT_ASSIGN_OR_RETURN(output_reverse_,
                           ReadFlags(info, "scan_output_directions", scan_outputs_, 0));
      ORT_ASSIGN_OR_RETURN(output_axes_, ReadFlags(info, "scan_output_axes", scan_outputs_, 0));
    }
    for (size_t k = 0; k < scan_outputs_; ++k) {
      declared_shapes_.push_back(DeclaredShape(runner, states_ + k));
      DataType type = DeclaredElementType(runner, states_ + k);
      declared_types_.push_back(type == DataType::kUndefined ? DataType::kFloat : type);
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    return batched_ ? ComputeBatched(context) : ComputeUnbatched(context);
  }

 private:
  // Runs the body `length` times. `states` are updated in place; `slices[k]` receives scan output
  // k of every iteration in iteration order.
  Status RunIterations(KernelContext& context, std::vector<Value>& states,
                       std::span<const Tensor* const> inputs, std::span<const size_t> axes,
                       int64_t length, std::vector<std::vector<Tensor>>& slices) const {
    slices.assign(scan_outputs_, {});
    std::vector<Value> feeds(states_ + scan_inputs_);
    std::vector<Value> outputs;
    for (int64_t t = 0; t < length; ++t) {
      if (context.run().Terminated()) return context.Error("the run was terminated");
      for (size_t i = 0; i < states_; ++i) feeds[i] = std::move(states[i]);
      for (size_t j = 0; j < scan_inputs_; ++j) {
        const int64_t index = input_reverse_[j] ? length - 1 - t : t;
        ORT_ASSIGN_OR_RETURN(Tensor slice, Slice(context, *inputs[j], axes[j], index));
        feeds[states_ + j] = std::move(slice);
      }
      ORT_RETURN_IF_ERROR(body_.Run(context, feeds, outputs));
      for (size_t i = 0; i < states_; ++i) states[i] = std::move(outputs[i]);
      for (size_t k = 0; k < scan_outputs_; ++k) {
        Value& value = outputs[states_ + k];
        if (!value.IsTensor()) return context.Error("scan output {} is not a tensor", k);
        slices[k].push_back(std::move(value.mutable_tensor()));
      }
    }
    return Status::OK();
  }

  // Stacks `pieces` along `axis` of the result (reversed when asked) into output `index`.
  Status Stack(KernelContext& context, size_t k, std::vector<Tensor>& pieces,
               Tensor* stacked) const {
    if (output_reverse_[k]) std::reverse(pieces.begin(), pieces.end());
    if (pieces.empty()) {
      std::vector<int64_t> dims;
      if (declared_shapes_[k]) dims = declared_shapes_[k]->dims();
      auto axis = NormalizeAxis(output_axes_[k], dims.size() + 1);
      if (!axis.ok()) return context.Error("scan output {}: {}", k, axis.status().message());
      dims.insert(dims.begin() + static_cast<std::ptrdiff_t>(*axis), 0);
      ORT_ASSIGN_OR_RETURN(*stacked,
                           context.AllocateTemp(declared_types_[k], TensorShape(std::move(dims))));
      return Status::OK();
    }
    std::vector<const Tensor*> views;
    for (const Tensor& piece : pieces) views.push_back(&piece);
    size_t axis = 0;
    auto shape = JoinedShape(views, output_axes_[k], /*new_axis=*/true, &axis);
    if (!shape.ok()) return context.Error("scan output {}: {}", k, shape.status().message());
    ORT_ASSIGN_OR_RETURN(*stacked, context.AllocateTemp(pieces[0].dtype(), *shape));
    JoinInto(views, axis, /*new_axis=*/true, *stacked);
    return Status::OK();
  }

  Status ComputeUnbatched(KernelContext& context) const {
    std::vector<Value> states(states_);
    for (size_t i = 0; i < states_; ++i) {
      const Value* value = context.InputValue(i);
      if (value == nullptr) return context.Error("state input {} is missing", i);
      states[i] = *value;
    }
    std::vector<const Tensor*> inputs(scan_inputs_);
    std::vector<size_t> axes(scan_inputs_);
    int64_t length = -1;
    for (size_t j = 0; j < scan_inputs_; ++j) {
      ORT_ASSIGN_OR_RETURN(inputs[j], context.RequiredInput(states_ + j));
      auto axis = NormalizeAxis(input_axes_[j], inputs[j]->shape().rank());
      if (!axis.ok()) return context.Error("scan input {}: {}", j, axis.status().message());
      axes[j] = *axis;
      const int64_t this_length = inputs[j]->shape()[axes[j]];
      if (length >= 0 && this_length != length) {
        return context.Error("scan inputs have different lengths ({} and {})", length, this_length);
      }
      length = this_length;
    }
    std::vector<std::vector<Tensor>> slices;
    ORT_RETURN_IF_ERROR(RunIterations(context, states, inputs, axes, length, slices));
    for (size_t i = 0; i < states_; ++i) {
      ORT_RETURN_IF_ERROR(context.SetOutput(i, std::move(states[i])));
    }
    for (size_t k = 0; k < scan_outputs_; ++k) {
      Tensor stacked;
      ORT_RETURN_IF_ERROR(Stack(context, k, slices[k], &stacked));
      ORT_RETURN_IF_ERROR(context.SetOutput(states_ + k, std::move(stacked)));
    }
    return Status::OK();
  }

  Status ComputeBatched(KernelContext& context) const {
    std::vector<const Tensor*> states(states_), inputs(scan_inputs_);
    for (size_t i = 0; i < states_; ++i) {
      ORT_ASSIGN_OR_RETURN(states[i], context.RequiredInput(1 + i));
    }
    for (size_t j = 0; j < scan_inputs_; ++j) {
      ORT_ASSIGN_OR_RETURN(inputs[j], context.RequiredInput(1 + states_ + j));
    }
    const Tensor* reference = states_ > 0 ? states[0] : inputs[0];
    if (reference->shape().rank() < 1) return context.Error("inputs need a batch axis");
    const int64_t batch = reference->shape()[0];
    int64_t max_length = -1;
    for (size_t j = 0; j < scan_inputs_; ++j) {
      const TensorShape& shape = inputs[j]->shape();
      if (shape.rank() < 2 || shape[0] != batch) {
        return context.Error("scan input {} must be [batch={}, sequence, ...], got {}", j, batch,
                             shape.ToString());
      }
      if (max_length >= 0 && shape[1] != max_length) {
        return context.Error("scan inputs have different sequence lengths");
      }
      max_length = shape[1];
    }
    for (size_t i = 0; i < states_; ++i) {
      if (states[i]->shape().rank() < 1 || states[i]->shape()[0] != batch) {
        return context.Error("state {} must start with the batch axis {}, got {}", i, batch,
                             states[i]->shape().ToString());
      }
    }
    std::vector<int64_t> lengths(static_cast<size_t>(batch), max_length);
    if (const Tensor* lens = context.Input(0)) {
      ORT_ASSIGN_OR_RETURN(lengths, ReadInt64Values(*lens));
      if (static_cast<int64_t>(lengths.size()) != batch) {
        return context.Error("sequence_lens has {} values for batch {}", lengths.size(), batch);
      }
      for (int64_t length : lengths) {
        if (length < 0 || length > max_length) {
          return context.Error("sequence length {} is outside [0, {}]", length, max_length);
        }
      }
    }

    std::vector<std::vector<Tensor>> final_states(states_);
    std::vector<std::vector<Tensor>> outputs(scan_outputs_);
    const std::vector<size_t> zero_axes(scan_inputs_, 0);
    for (int64_t b = 0; b < batch; ++b) {
      std::vector<Value> entry_states(states_);
      for (size_t i = 0; i < states_; ++i) {
        ORT_ASSIGN_OR_RETURN(Tensor slice, Slice(context, *states[i], 0, b));
        entry_states[i] = std::move(slice);
      }
      // This entry's scan inputs, cut to its sequence length.
      std::vector<Tensor> entry_inputs(scan_inputs_);
      std::vector<const Tensor*> views(scan_inputs_);
      for (size_t j = 0; j < scan_inputs_; ++j) {
        std::vector<int64_t> dims = inputs[j]->shape().dims();
        dims.erase(dims.begin());
        dims[0] = lengths[b];
        ORT_ASSIGN_OR_RETURN(entry_inputs[j],
                             context.AllocateTemp(inputs[j]->dtype(), TensorShape(dims)));
        const int64_t step = inputs[j]->shape().SizeFromDimension(2);
        CopyElements(*inputs[j], b * max_length * step, entry_inputs[j], 0, lengths[b] * step);
        views[j] = &entry_inputs[j];
      }
      std::vector<std::vector<Tensor>> slices;
      ORT_RETURN_IF_ERROR(
          RunIterations(context, entry_states, views, zero_axes, lengths[b], slices));
      for (size_t i = 0; i < states_; ++i) {
        if (!entry_states[i].IsTensor()) return context.Error("state {} is not a tensor", i);
        final_states[i].push_back(std::move(entry_states[i].mutable_tensor()));
      }
      for (size_t k = 0; k < scan_outputs_; ++k) {
        Tensor stacked;
        ORT_RETURN_IF_ERROR(Stack(context, k, slices[k], &stacked));
        outputs[k].push_back(std::move(stacked));
      }
    }

    for (size_t i = 0; i < states_; ++i) {
      std::vector<int64_t> dims(states[i]->shape().dims().begin() + 1,
                                states[i]->shape().dims().end());
      DataType type = states[i]->dtype();
      if (!final_states[i].empty()) {
        dims = final_states[i][0].shape().dims();
        type = final_states[i][0].dtype();
      }
      ORT_RETURN_IF_ERROR(WriteBatch(context, i, final_states[i], type, dims, -1));
    }
    for (size_t k = 0; k < scan_outputs_; ++k) {
      // Each entry gave [length, step...]; the step shape comes from any non-empty entry.
      std::vector<int64_t> dims;
      DataType type = declared_types_[k];
      if (declared_shapes_[k]) dims = declared_shapes_[k]->dims();
      for (const Tensor& entry : outputs[k]) {
        if (entry.shape().rank() > 0 && entry.shape()[0] > 0) {
          dims.assign(entry.shape().dims().begin() + 1, entry.shape().dims().end());
          type = entry.dtype();
          break;
        }
      }
      dims.insert(dims.begin(), max_length);
      ORT_RETURN_IF_ERROR(WriteBatch(context, states_ + k, outputs[k], type, dims, max_length));
    }
    return Status::OK();
  }

  // Stacks per-batch-entry tensors of shape `entry_dims` into output `index`. With
  // `padded_length` >= 0 entries may be shorter along their first axis; the rest is zeros.
  Status WriteBatch(KernelContext& context, size_t index, const std::vector<Tensor>& entries,
                    DataType type, const std::vector<int64_t>& entry_dims,
                    int64_t padded_length) const {
    std::vector<int64_t> dims = entry_dims;
    dims.insert(dims.begin(), static_cast<int64_t>(entries.size()));
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(index, type, TensorShape(dims)));
    if (type != DataType::kString) std::memset(output->MutableRawData(), 0, output->SizeInBytes());
    const int64_t entry_size = TensorShape(entry_dims).NumElements();
    for (size_t b = 0; b < entries.size(); ++b) {
      const TensorShape& shape = entries[b].shape();
      bool fits = entries[b].dtype() == type && shape.rank() == entry_dims.size();
      for (size_t d = 0; fits && d < entry_dims.size(); ++d) {
        fits = shape[d] == entry_dims[d] ||
               (d == 0 && padded_length >= 0 && shape[d] <= entry_dims[d]);
      }
      if (!fits && entries[b].NumElements() > 0) {
        return context.Error("output {} differs across the batch: {} vs {}", index,
                             entries[b].Describe(), TensorShape(entry_dims).ToString());
      }
      CopyElements(entries[b], 0, *output, static_cast<int64_t>(b) * entry_size,
                   entries[b].NumElements());
    }
    return Status::OK();
  }

  BoundSubgraph body_;
  bool batched_ = false;
  size_t states_ = 0;
  size_t scan_inputs_ = 0;
  size_t scan_outputs_ = 0;
  std::vector<int64_t> input_axes_;
  std::vector<int64_t> input_reverse_;
  std::vector<int64_t> output_axes_;
  std::vector<int64_t> output_reverse_;
  std::vector<std::optional<TensorShape>> declared_shapes_;
  std::vector<DataType> declared_types_;
};

}  // namespace

void RegisterScanKernels(KernelRegistry& registry) {
  registry.Add<Scan>(KernelDef("Scan").Versions(8, 8).Input(0, {DataType::kInt64}));
  registry.Add<Scan>(KernelDef("Scan").Versions(9, 10));
  registry.Add<Scan>(KernelDef("Scan").Versions(11, 15));
  registry.Add<Scan>(KernelDef("Scan").Versions(16));
}

}  // namespace ort
