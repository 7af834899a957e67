#include "providers/cpu/kernels/onnx/controlflow/control_flow_utils.h"

#include <algorithm>
#include <cstring>

#include "lib/ir/four_bit.h"

namespace ort {

Status BoundSubgraph::Bind(const KernelInfo& info, std::string_view attribute) {
  const Node& node = info.node();
  runner_ = info.Subgraph(attribute);
  if (runner_ == nullptr) {
    return ORT_ERROR(kInvalidModel, "subgraph attribute '{}' is missing", attribute)
        .WithNode(node.Describe());
  }
  const auto& implicit = node.implicit_inputs();
  implicit_indices_.clear();
  for (const auto& name : runner_->outer_scope_names()) {
    auto it = std::find(implicit.begin(), implicit.end(), name);
    if (it == implicit.end()) {
      return ORT_ERROR(kInvalidModel, "subgraph '{}' reads '{}', which is not an implicit input",
                       attribute, name)
          .WithNode(node.Describe());
    }
    implicit_indices_.push_back(static_cast<size_t>(it - implicit.begin()));
  }
  return Status::OK();
}

Status BoundSubgraph::Run(const KernelContext& context, std::span<const Value> inputs,
                          std::vector<Value>& outputs) const {
  // Outer-scope values are few; a small vector per run is cheaper than any sharing scheme.
  std::vector<const Value*> outer(implicit_indices_.size());
  for (size_t i = 0; i < implicit_indices_.size(); ++i) {
    if (implicit_indices_[i] >= context.ImplicitInputCount()) {
      return context.Error("outer-scope value {} was not provided", i);
    }
    outer[i] = context.ImplicitInput(implicit_indices_[i]);
  }
  return runner_->Run(context.run(), inputs, outer, outputs);
}

void CopyElements(const Tensor& source, int64_t source_offset, Tensor& destination,
                  int64_t destination_offset, int64_t count) {
  if (count <= 0) return;
  if (source.dtype() == DataType::kString) {
    const std::string* from = source.Data<std::string>() + source_offset;
    std::string* to = destination.MutableData<std::string>() + destination_offset;
    std::copy_n(from, count, to);
    return;
  }
  if (IsFourBit(source.dtype())) {
    const bool is_signed = source.dtype() == DataType::kInt4;
    for (int64_t i = 0; i < count; ++i) {
      WriteFourBit(destination.MutableRawData(), destination_offset + i,
                   ReadFourBit(source.RawData(), source_offset + i, is_signed));
    }
    return;
  }
  const size_t size = ElementSize(source.dtype());
  std::memcpy(static_cast<char*>(destination.MutableRawData()) + destination_offset * size,
              static_cast<const char*>(source.RawData()) + source_offset * size,
              static_cast<size_t>(count) * size);
}

Result<TensorShape> JoinedShape(std::span<const Tensor* const> pieces, int64_t axis, bool new_axis,
                                size_t* normalized_axis) {
  if (pieces.empty()) return ORT_ERROR(kInvalidArgument, "there is nothing to join");
  const Tensor& first = *pieces[0];
  const size_t rank = first.shape().rank();
  ORT_ASSIGN_OR_RETURN(*normalized_axis, NormalizeAxis(axis, new_axis ? rank + 1 : rank));
  const size_t join = *normalized_axis;
  int64_t joined = 0;
  for (const Tensor* piece : pieces) {
    if (piece->dtype() != first.dtype()) {
      return ORT_ERROR(kInvalidArgument, "cannot join {} with {}", first.Describe(),
                       piece->Describe());
    }
    if (piece->shape().rank() != rank) {
      return ORT_ERROR(kInvalidArgument, "cannot join shapes {} and {}: ranks differ",
                       first.shape().ToString(), piece->shape().ToString());
    }
    for (size_t d = 0; d < rank; ++d) {
      if ((new_axis || d != join) && piece->shape()[d] != first.shape()[d]) {
        return ORT_ERROR(kInvalidArgument, "cannot join shapes {} and {} along axis {}",
                         first.shape().ToString(), piece->shape().ToString(), axis);
      }
    }
    joined += new_axis ? 1 : piece->shape()[join];
  }
  std::vector<int64_t> dims = first.shape().dims();
  if (new_axis) {
    dims.insert(dims.begin() + static_cast<std::ptrdiff_t>(join), joined);
  } else {
    dims[join] = joined;
  }
  return TensorShape(std::move(dims));
}

void JoinInto(std::span<const Tensor* const> pieces, size_t axis, bool new_axis, Tensor& output) {
  // Each piece contributes one block of `piece_inner` elements per outer position.
  const int64_t outer = output.shape().SizeToDimension(axis);
  const int64_t output_inner = output.shape().SizeFromDimension(axis);
  int64_t offset = 0;
  for (const Tensor* piece : pieces) {
    const int64_t piece_inner = new_axis ? piece->NumElements() / std::max<int64_t>(outer, 1)
                                         : piece->shape().SizeFromDimension(axis);
    if (outer > 0 && piece_inner > 0) {
      for (int64_t o = 0; o < outer; ++o) {
        CopyElements(*piece, o * piece_inner, output, o * output_inner + offset, piece_inner);
      }
    }
    offset += piece_inner;
  }
}

void ExtractSlice(const Tensor& source, size_t axis, int64_t index, Tensor& destination) {
  const int64_t outer = source.shape().SizeToDimension(axis);
  const int64_t length = source.shape()[axis];
  const int64_t inner = source.shape().SizeFromDimension(axis + 1);
  for (int64_t o = 0; o < outer; ++o) {
    CopyElements(source, (o * length + index) * inner, destination, o * inner, inner);
  }
}

std::optional<TensorShape> DeclaredShape(const SubgraphRunner& runner, size_t output_index) {
  const ValueInfo* info = runner.graph().FindValueInfo(runner.output_names()[output_index]);
  if (info == nullptr || !info->type.IsTensor() || !info->type.shape) return std::nullopt;
  std::vector<int64_t> dims;
  for (const auto& dim : *info->type.shape) dims.push_back(dim.IsKnown() ? dim.value : 0);
  return TensorShape(std::move(dims));
}

DataType DeclaredElementType(const SubgraphRunner& runner, size_t output_index) {
  const ValueInfo* info = runner.graph().FindValueInfo(runner.output_names()[output_index]);
  return info == nullptr ? DataType::kUndefined : info->type.elem_type;
}

}  // namespace ort
