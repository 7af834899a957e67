// MaxUnpool: scatters pooled values back to the positions MaxPool took them from (flattened
// indices into the unpooled shape (in - 1) * stride + kernel - pads); everything else is zero.
// A larger output_shape keeps those coordinates and pads with zeros at the end of each axis.
#include <fmt/ranges.h>

#include <vector>

#include "providers/common/nn/window_attributes.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

class MaxUnpool final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override { return attributes_.Parse(info, true); }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* indices, context.RequiredInput(1));
    const Tensor* output_shape = context.Input(2);
    const TensorShape& xs = x->shape();
    const size_t rank = attributes_.kernel_shape.size();
    if (xs.rank() != rank + 2) {
      return context.Error("X {} must be [N, C] plus {} spatial dims", xs.ToString(), rank);
    }
    if (indices->dtype() != DataType::kInt64 || indices->shape() != xs) {
      return context.Error("I must be int64 with the shape of X {}", xs.ToString());
    }
    const std::vector<int64_t> strides =
        attributes_.strides.empty() ? std::vector<int64_t>(rank, 1) : attributes_.strides;
    const std::vector<int64_t> pads =
        attributes_.pads.empty() ? std::vector<int64_t>(2 * rank, 0) : attributes_.pads;
    if (strides.size() != rank || pads.size() != 2 * rank) {
      return context.Error("strides need {} values and pads {}", rank, 2 * rank);
    }
    std::vector<int64_t> inferred = {xs[0], xs[1]};
    for (size_t i = 0; i < rank; ++i) {
      inferred.push_back((xs[i + 2] - 1) * strides[i] + attributes_.kernel_shape[i] - pads[i] -
                         pads[i + rank]);
      if (inferred.back() < 0) return context.Error("negative unpooled size on axis {}", i);
    }
    std::vector<int64_t> dims = inferred;
    if (output_shape != nullptr) {
      ORT_ASSIGN_OR_RETURN(dims, ReadInt64Values(*output_shape));
      bool fits = dims.size() == inferred.size();
      for (size_t i = 0; fits && i < dims.size(); ++i) {
        fits = i < 2 ? dims[i] == inferred[i] : dims[i] >= inferred[i];
      }
      if (!fits) {
        return context.Error(
            "output_shape [{}] must keep N, C and be at least the unpooled "
            "shape {}",
            fmt::join(dims, ","), TensorShape(inferred).ToString());
      }
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), TensorShape(dims)));
    const int64_t inferred_size = TensorShape(inferred).NumElements();
    const std::vector<int64_t> out_strides = ContiguousStrides(TensorShape(dims));
    const int64_t* index = indices->Data<int64_t>();
    const int64_t count = x->NumElements();
    return DispatchByType<FloatTypes>(x->dtype(), "MaxUnpool", [&]<typename T>() -> Status {
      const T* in = x->Data<T>();
      T* out = y->MutableData<T>();
      std::fill(out, out + y->NumElements(), T(0.0f));
      for (int64_t i = 0; i < count; ++i) {
        int64_t position = index[i];
        if (position < 0 || position >= inferred_size) {
          return context.Error("index {} at position {} is outside [0, {})", position, i,
                               inferred_size);
        }
        // Re-express the index, given in the unpooled shape, in the output's coordinates.
        int64_t offset = 0;
        for (size_t d = inferred.size(); d-- > 0;) {
          offset += (position % inferred[d]) * out_strides[d];
          position /= inferred[d];
        }
        out[offset] = in[i];
      }
      return Status::OK();
    });
  }

 private:
  WindowAttributes attributes_;
};

}  // namespace

void RegisterMaxUnpoolKernels(KernelRegistry& registry) {
  const auto types = FloatTypes::DataTypes();
  registry.Add<MaxUnpool>(KernelDef("MaxUnpool").Versions(9, 10).Input(0, types).HostInput(2));
  registry.Add<MaxUnpool>(KernelDef("MaxUnpool").Versions(11).Input(0, types).HostInput(2));
}

}  // namespace ort
