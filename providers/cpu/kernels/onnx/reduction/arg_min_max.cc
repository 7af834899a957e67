// ArgMax and ArgMin along one axis to int64 indices: keepdims, and select_last_index (opset 12+)
// to report the last of equal extremes instead of the first. NaN is never selected.
#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/reduction/reduction_kernels.h"

namespace ort {
namespace {

template <bool kMax>
class ArgExtreme final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", 0));
    ORT_ASSIGN_OR_RETURN(const int64_t keepdims, info.GetAttributeOr<int64_t>("keepdims", 1));
    ORT_ASSIGN_OR_RETURN(const int64_t last, info.GetAttributeOr<int64_t>("select_last_index", 0));
    keepdims_ = keepdims != 0;
    select_last_ = last != 0;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& shape = x->shape();
    auto axis = NormalizeAxis(axis_, shape.rank());
    if (!axis.ok()) return context.Error("{}", axis.status().message());
    const int64_t outer = shape.SizeToDimension(*axis);
    const int64_t n = shape[*axis];
    const int64_t inner = shape.SizeFromDimension(*axis + 1);
    std::vector<int64_t> dims = shape.dims();
    if (keepdims_) {
      dims[*axis] = 1;
    } else {
      dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(*axis));
    }
    if (n == 0 && outer * inner != 0) {
      return context.Error("cannot take the {} over the empty axis {}", kMax ? "ArgMax" : "ArgMin",
                           *axis);
    }
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, DataType::kInt64, TensorShape(std::move(dims))));
    int64_t* out = output->MutableData<int64_t>();
    return DispatchByType<NumericTypes>(x->dtype(), context.node().op_type(), [&]<typename T>() {
      using C = ComputeType<T>;
      const T* data = x->Data<T>();
      const bool last = select_last_;
      ThreadPool::TryParallelFor(context.thread_pool(), outer, static_cast<double>(n * inner),
                                 [&](int64_t begin, int64_t end) {
                                   std::vector<C> best(static_cast<size_t>(inner));
                                   for (int64_t o = begin; o < end; ++o) {
                                     const T* block = data + o * n * inner;
                                     int64_t* indices = out + o * inner;
                                     for (int64_t j = 0; j < inner; ++j) {
                                       best[j] = C(block[j]);
                                       indices[j] = 0;
                                     }
                                     for (int64_t r = 1; r < n; ++r) {
                                       const T* row = block + r * inner;
                                       for (int64_t j = 0; j < inner; ++j) {
                                         const C v = C(row[j]);
                                         // A NaN first element is replaced by the first comparable
                                         // one.
                                         const bool better =
                                             (kMax ? (last ? v >= best[j] : v > best[j])
                                                   : (last ? v <= best[j] : v < best[j])) ||
                                             (best[j] != best[j] && v == v);
                                         best[j] = better ? v : best[j];
                                         indices[j] = better ? r : indices[j];
                                       }
                                     }
                                   }
                                 });
      return Status::OK();
    });
  }

 private:
  int64_t axis_ = 0;
  bool keepdims_ = true;
  bool select_last_ = false;
};

}  // namespace

void RegisterArgMinMaxKernels(KernelRegistry& registry) {
  const auto types = NumericTypes::DataTypes();
  registry.Add<ArgExtreme<true>>(KernelDef("ArgMax").Versions(1).Input(0, types));
  registry.Add<ArgExtreme<false>>(KernelDef("ArgMin").Versions(1).Input(0, types));
}

}  // namespace ort
