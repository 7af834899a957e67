// Helpers shared by the subgraph-running kernels (If, Loop, Scan, SequenceMap) and the sequence
// kernels: wiring outer-scope values into a subgraph run, and copying tensor slices in and out of
// stacked or concatenated tensors for any element type (strings included).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "lib/framework/op_kernel.h"

namespace ort {

/// A subgraph attribute's runner plus where each of its outer-scope values sits among the
/// node's implicit inputs. Computed once in Init.
class BoundSubgraph {
 public:
  /// Finds subgraph attribute `attribute` and maps its outer-scope values.
  Status Bind(const KernelInfo& info, std::string_view attribute);

  const SubgraphRunner& runner() const { return *runner_; }
  /// Runs the subgraph with `inputs`, reading outer-scope values from `context`.
  Status Run(const KernelContext& context, std::span<const Value> inputs,
             std::vector<Value>& outputs) const;

 private:
  const SubgraphRunner* runner_ = nullptr;
  std::vector<size_t> implicit_indices_;
};

/// Copies `count` elements from `source` (starting at element `source_offset`) into
/// `destination` (starting at `destination_offset`); both of one element type.
void CopyElements(const Tensor& source, int64_t source_offset, Tensor& destination,
                  int64_t destination_offset, int64_t count);

/// The shape of `pieces` joined along `axis`: concatenated along an existing axis, or stacked
/// along a new axis inserted at `axis` when `new_axis`. `axis` may be negative. Errors say why the
/// pieces do not fit.
Result<TensorShape> JoinedShape(std::span<const Tensor* const> pieces, int64_t axis, bool new_axis,
                                size_t* normalized_axis);

/// Fills `output` (shaped by JoinedShape) with `pieces` joined along `axis` (normalized).
void JoinInto(std::span<const Tensor* const> pieces, size_t axis, bool new_axis, Tensor& output);

/// Copies the slice at `index` along `axis` of `source` into `destination`, which has
/// `source`'s shape without `axis`.
void ExtractSlice(const Tensor& source, size_t axis, int64_t index, Tensor& destination);

/// The concrete shape a subgraph output declares, with unknown dimensions as 0; nullopt when
/// its rank is unknown. Used to shape empty stacked outputs.
std::optional<TensorShape> DeclaredShape(const SubgraphRunner& runner, size_t output_index);
/// The element type a subgraph output declares (kUndefined when unknown).
DataType DeclaredElementType(const SubgraphRunner& runner, size_t output_index);

}  // namespace ort
