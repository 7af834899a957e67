// Slice on the GPU: one strided copy (elementwise_launch.h) reading the input from the first
// selected element with each axis's stride times its step, so negative steps walk backwards. The
// starts, ends, axes and steps are attributes before opset 10 and host inputs from then on; they
// are clamped as the spec describes. Any element type of 1 to 8 bytes.
#include <algorithm>
#include <climits>

#include "providers/cuda/cuda_common.h"
#include "providers/cuda/kernels/cuda_kernels.h"
#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort {
namespace {

class Slice final : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    from_attributes_ = info.opset() < 10;
    if (!from_attributes_) return Status::OK();
    ORT_ASSIGN_OR_RETURN(starts_, info.GetAttribute<std::vector<int64_t>>("starts"));
    ORT_ASSIGN_OR_RETURN(ends_, info.GetAttribute<std::vector<int64_t>>("ends"));
    has_axes_ = info.HasAttribute("axes");
    ORT_ASSIGN_OR_RETURN(axes_, info.GetAttributeOr<std::vector<int64_t>>("axes", {}));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    std::vector<int64_t> starts = starts_, ends = ends_, axes = axes_, steps;
    bool has_axes = has_axes_;
    if (!from_attributes_) {
      ORT_RETURN_IF_ERROR(ReadInput(context, 1, starts));
      ORT_RETURN_IF_ERROR(ReadInput(context, 2, ends));
      has_axes = context.HasInput(3);
      if (has_axes) ORT_RETURN_IF_ERROR(ReadInput(context, 3, axes));
      if (context.HasInput(4)) ORT_RETURN_IF_ERROR(ReadInput(context, 4, steps));
    }
    const size_t count = starts.size();
    if (ends.size() != count || (has_axes && axes.size() != count) ||
        (!steps.empty() && steps.size() != count)) {
      return context.Error("starts ({}), ends ({}), axes ({}) and steps ({}) differ in length",
                           count, ends.size(), axes.size(), steps.size());
    }
    const TensorShape& shape = data->shape();
    const size_t rank = shape.rank();
    if (rank > static_cast<size_t>(cuda::kMaxBroadcastRank)) {
      return context.Error("rank {} of {} exceeds the {} the CUDA kernel handles", rank,
                           data->Describe(), cuda::kMaxBroadcastRank);
    }
    if (!has_axes) {
      if (count > rank) return context.Error("{} starts for {}", count, data->Describe());
      for (size_t i = 0; i < count; ++i) axes.push_back(static_cast<int64_t>(i));
    }

    std::vector<int64_t> dims = shape.dims();
    std::vector<int64_t> first(rank, 0), step_of(rank, 1);
    std::vector<bool> seen(rank, false);
    for (size_t i = 0; i < count; ++i) {
      auto axis = NormalizeAxis(axes[i], rank);
      if (!axis.ok()) return context.Error("axes: {}", axis.status().message());
      if (seen[*axis]) return context.Error("axis {} is repeated", axes[i]);
      seen[*axis] = true;
      const int64_t dim = shape[*axis];
      int64_t step = steps.empty() ? 1 : steps[i];
      if (step == 0) return context.Error("steps must not be 0");
      if (dim == 0) continue;
      // A step longer than the axis takes one element; bounding it keeps the products below (and
      // the copy's strides) from overflowing.
      step = std::clamp<int64_t>(step, -dim - 1, dim + 1);
      int64_t start = starts[i] < 0 ? starts[i] + dim : starts[i];
      int64_t end = ends[i] < 0 ? ends[i] + dim : ends[i];
      if (step > 0) {
        start = std::clamp<int64_t>(start, 0, dim);
        end = std::clamp<int64_t>(end, 0, dim);
        dims[*axis] = end > start ? 1 + (end - start - 1) / step : 0;
      } else {
        start = std::clamp<int64_t>(start, 0, dim - 1);
        end = std::clamp<int64_t>(end, -1, dim - 1);
        dims[*axis] = start > end ? 1 + (start - end - 1) / -step : 0;
      }
      first[*axis] = start;
      step_of[*axis] = step;
    }

    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, data->dtype(), TensorShape(dims)));
    if (output->NumElements() == 0) return Status::OK();
    const std::vector<int64_t> in_strides = ContiguousStrides(shape);
    cuda::BroadcastStrides copy;
    copy.rank = static_cast<int>(rank);
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d) {
      copy.output_dims[d] = dims[d];
      copy.a_strides[d] = in_strides[d] * step_of[d];
      offset += first[d] * in_strides[d];
    }
    const size_t element = ElementSize(data->dtype());
    return CudaStatus(
        cuda::LaunchStridedCopy(
            element,
            static_cast<const char*>(data->RawData()) + static_cast<size_t>(offset) * element,
            output->MutableRawData(), output->NumElements(), copy, stream()),
        context.node().Describe());
  }

 private:
  static Status ReadInput(const KernelContext& context, size_t index,
                          std::vector<int64_t>& values) {
    ORT_ASSIGN_OR_RETURN(const Tensor* tensor, context.RequiredInput(index));
    if (tensor->shape().rank() != 1) {
      return context.Error("input {} must be 1-D, got {}", index, tensor->Describe());
    }
    auto read = ReadInt64Values(*tensor);
    if (!read.ok()) return context.Error("input {}: {}", index, read.status().message());
    values = std::move(read).value();
    return Status::OK();
  }

  bool from_attributes_ = false;
  bool has_axes_ = false;
  std::vector<int64_t> starts_;
  std::vector<int64_t> ends_;
  std::vector<int64_t> axes_;
};

// From opset 10 starts, ends, axes and steps are inputs, read on the host.
void AddSlice(KernelRegistry& registry, int since, int until) {
  KernelDef def = KernelDef("Slice").Versions(since, until).Input(0, CudaTensorTypes());
  if (since >= 10) def.HostInput(1).HostInput(2).HostInput(3).HostInput(4);
  registry.Add<Slice>(std::move(def));
}

}  // namespace

void RegisterCudaSliceKernels(KernelRegistry& registry) {
  AddSlice(registry, 1, 9);
  AddSlice(registry, 10, 10);
  AddSlice(registry, 11, 12);
  AddSlice(registry, 13, INT_MAX);
}

}  // namespace ort
