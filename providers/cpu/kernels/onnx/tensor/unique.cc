// Unique: the distinct elements (or slices along `axis`), sorted or in order of first
// occurrence, with the first-occurrence indices, the inverse indices and the counts.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

// A strict weak order for T that places NaN after every number and treats NaNs as equal.
template <typename T>
int CompareElements(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
    return CompareElements(static_cast<float>(a), static_cast<float>(b));
  } else if constexpr (std::is_floating_point_v<T>) {
    const bool a_nan = std::isnan(a);
    const bool b_nan = std::isnan(b);
    if (a_nan || b_nan) return a_nan == b_nan ? 0 : (a_nan ? 1 : -1);
    return a < b ? -1 : (b < a ? 1 : 0);
  } else {
    return a < b ? -1 : (b < a ? 1 : 0);
  }
}

class Unique final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    has_axis_ = info.HasAttribute("axis");
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", 0));
    ORT_ASSIGN_OR_RETURN(const int64_t sorted, info.GetAttributeOr<int64_t>("sorted", 1));
    sorted_ = sorted != 0;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    return DispatchByType<AllTensorTypes>(
        data->dtype(), "Unique", [&]<typename T>() { return ComputeTyped<T>(context, *data); });
  }

 private:
  template <typename T>
  Status ComputeTyped(KernelContext& context, const Tensor& data) const {
    // Items are the slices x[outer, i, inner] for i along the axis (single elements without one).
    int64_t outer = 1;
    int64_t dim = data.NumElements();
    int64_t inner = 1;
    size_t axis = 0;
    if (has_axis_) {
      auto normalized = NormalizeAxis(axis_, data.shape().rank());
      if (!normalized.ok()) return context.Error("{}", normalized.status().message());
      axis = *normalized;
      outer = data.shape().SizeToDimension(axis);
      dim = data.shape()[axis];
      inner = data.shape().SizeFromDimension(axis + 1);
    }
    const T* values = data.Data<T>();
    const auto compare_items = [&](int64_t a, int64_t b) {
      for (int64_t o = 0; o < outer; ++o) {
        const T* x = values + (o * dim + a) * inner;
        const T* y = values + (o * dim + b) * inner;
        for (int64_t i = 0; i < inner; ++i) {
          if (const int c = CompareElements(x[i], y[i]); c != 0) return c;
        }
      }
      return 0;
    };
    std::vector<int64_t> order(static_cast<size_t>(dim));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return compare_items(a, b) < 0; });
    // Groups of equal items in sorted order; the first member is the first occurrence.
    std::vector<int64_t> first;
    std::vector<int64_t> counts;
    std::vector<int64_t> inverse(static_cast<size_t>(dim));
    for (size_t k = 0; k < order.size(); ++k) {
      if (k == 0 || compare_items(order[k - 1], order[k]) != 0) {
        first.push_back(order[k]);
        counts.push_back(0);
      }
      ++counts.back();
      inverse[static_cast<size_t>(order[k])] = static_cast<int64_t>(first.size()) - 1;
    }
    const size_t unique = first.size();
    if (!sorted_) {
      // Renumber the groups by first occurrence.
      std::vector<size_t> by_occurrence(unique);
      std::iota(by_occurrence.begin(), by_occurrence.end(), 0);
      std::sort(by_occurrence.begin(), by_occurrence.end(),
                [&](size_t a, size_t b) { return first[a] < first[b]; });
      std::vector<int64_t> rank_of(unique);
      for (size_t r = 0; r < unique; ++r) rank_of[by_occurrence[r]] = static_cast<int64_t>(r);
      std::vector<int64_t> new_first(unique);
      std::vector<int64_t> new_counts(unique);
      for (size_t g = 0; g < unique; ++g) {
        new_first[static_cast<size_t>(rank_of[g])] = first[g];
        new_counts[static_cast<size_t>(rank_of[g])] = counts[g];
      }
      for (int64_t& group : inverse) group = rank_of[static_cast<size_t>(group)];
      first = std::move(new_first);
      counts = std::move(new_counts);
    }

    const auto unique_count = static_cast<int64_t>(unique);
    std::vector<int64_t> y_dims = {unique_count};
    if (has_axis_) {
      y_dims = data.shape().dims();
      y_dims[axis] = unique_count;
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y,
                         context.Output(0, data.dtype(), TensorShape(std::move(y_dims))));
    T* out = y->MutableData<T>();
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t u = 0; u < unique_count; ++u) {
        CopyElements(values + (o * dim + first[static_cast<size_t>(u)]) * inner,
                     out + (o * unique_count + u) * inner, inner);
      }
    }
    ORT_RETURN_IF_ERROR(WriteIndices(context, 1, first));
    ORT_RETURN_IF_ERROR(WriteIndices(context, 2, inverse));
    return WriteIndices(context, 3, counts);
  }

  static Status WriteIndices(KernelContext& context, size_t index,
                             const std::vector<int64_t>& values) {
    if (index >= context.OutputCount()) return Status::OK();
    ORT_ASSIGN_OR_RETURN(
        Tensor * output,
        context.Output(index, DataType::kInt64, TensorShape{static_cast<int64_t>(values.size())}));
    std::copy(values.begin(), values.end(), output->MutableData<int64_t>());
    return Status::OK();
  }

  bool has_axis_ = false;
  int64_t axis_ = 0;
  bool sorted_ = true;
};

}  // namespace

void RegisterUniqueKernels(KernelRegistry& registry) {
  registry.Add<Unique>(KernelDef("Unique").Versions(11).Input(0, AllTensorTypes::DataTypes()));
}

}  // namespace ort
