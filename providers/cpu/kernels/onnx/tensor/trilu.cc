// Trilu: keeps the upper (j - i >= k) or lower (j - i <= k) triangle of each trailing matrix
// and zeroes the rest.
#include <algorithm>

#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class Trilu final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const int64_t upper, info.GetAttributeOr<int64_t>("upper", 1));
    upper_ = upper != 0;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    const size_t rank = data->shape().rank();
    if (rank < 2) return context.Error("input must have rank >= 2, got {}", data->Describe());
    int64_t k = 0;
    if (context.HasInput(1)) {
      ORT_ASSIGN_OR_RETURN(const Tensor* k_tensor, context.RequiredInput(1));
      auto values = ReadInt64Values(*k_tensor);
      if (!values.ok() || values->size() != 1) return context.Error("k must be one integer");
      k = values->front();
    }
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, data->dtype(), data->shape()));
    const int64_t rows = data->shape()[rank - 2];
    const int64_t columns = data->shape()[rank - 1];
    const int64_t matrices = data->shape().SizeToDimension(rank - 2);
    // Diagonals beyond the matrix select all or nothing; bounding k avoids overflow below.
    k = std::clamp<int64_t>(k, -rows - 1, columns + 1);
    return DispatchByElementSize(data->dtype(), "Trilu", [&]<typename T>() {
      const T* src = static_cast<const T*>(data->RawData());
      T* dst = static_cast<T*>(output->MutableRawData());
      const T zero{};
      for (int64_t m = 0; m < matrices * rows; ++m) {
        const int64_t i = m % rows;
        const T* in = src + m * columns;
        T* out = dst + m * columns;
        // Columns [0, split) and [split, columns) are the two sides of the diagonal k.
        const int64_t split = std::clamp<int64_t>(upper_ ? i + k : i + k + 1, 0, columns);
        if (upper_) {
          std::fill_n(out, split, zero);
          CopyElements(in + split, out + split, columns - split);
        } else {
          CopyElements(in, out, split);
          std::fill_n(out + split, columns - split, zero);
        }
      }
      return Status::OK();
    });
  }

 private:
  bool upper_ = true;
};

}  // namespace

void RegisterTriluKernels(KernelRegistry& registry) {
  registry.Add<Trilu>(KernelDef("Trilu").Versions(14).Input(0, AllDataTypes()).HostInput(1));
}

}  // namespace ort
