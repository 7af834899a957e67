// TopK: the k largest (or, opset 11+, smallest) values along an axis with their indices. Equal
// values keep index order; NaN counts as larger than every number. k is an attribute in opset 1
// and an input from opset 10.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

template <typename C>
bool IsNan(C value) {
  if constexpr (std::is_floating_point_v<C>) {
    return std::isnan(value);
  } else {
    return false;
  }
}

class TopK final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    k_from_attribute_ = info.opset() < 10;
    if (k_from_attribute_) {
      ORT_ASSIGN_OR_RETURN(k_, info.GetAttribute<int64_t>("k"));
    }
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttributeOr<int64_t>("axis", -1));
    if (info.opset() >= 11) {
      ORT_ASSIGN_OR_RETURN(const int64_t largest, info.GetAttributeOr<int64_t>("largest", 1));
      largest_ = largest != 0;
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    int64_t k = k_;
    if (!k_from_attribute_) {
      ORT_ASSIGN_OR_RETURN(const Tensor* k_tensor, context.RequiredInput(1));
      auto values = ReadInt64Values(*k_tensor);
      if (!values.ok() || values->size() != 1) return context.Error("K must be one integer");
      k = values->front();
    }
    auto normalized = NormalizeAxis(axis_, data->shape().rank());
    if (!normalized.ok()) return context.Error("{}", normalized.status().message());
    const size_t axis = *normalized;
    const int64_t dim = data->shape()[axis];
    if (k < 0 || k > dim) {
      return context.Error("k = {} is outside [0, {}] for axis {}", k, dim, axis);
    }
    std::vector<int64_t> out_dims = data->shape().dims();
    out_dims[axis] = k;
    ORT_ASSIGN_OR_RETURN(Tensor * values_out,
                         context.Output(0, data->dtype(), TensorShape(out_dims)));
    ORT_ASSIGN_OR_RETURN(Tensor * indices_out,
                         context.Output(1, DataType::kInt64, TensorShape(out_dims)));
    if (values_out->NumElements() == 0) return Status::OK();
    return DispatchByType<NumericTypes>(data->dtype(), "TopK", [&]<typename T>() {
      Run<T>(context, *data, axis, k, *values_out, *indices_out);
      return Status::OK();
    });
  }

 private:
  template <typename T>
  void Run(const KernelContext& context, const Tensor& data, size_t axis, int64_t k,
           Tensor& values_out, Tensor& indices_out) const {
    using C = ComputeType<T>;
    const int64_t dim = data.shape()[axis];
    const int64_t inner = data.shape().SizeFromDimension(axis + 1);
    const int64_t lines = data.NumElements() / dim;
    const T* src = data.Data<T>();
    T* values = values_out.MutableData<T>();
    int64_t* indices = indices_out.MutableData<int64_t>();
    const bool largest = largest_;
    const double cost = static_cast<double>(dim) * std::log2(static_cast<double>(k) + 2.0) * 4.0;
    ThreadPool::TryParallelFor(context.thread_pool(), lines, cost, [&](int64_t begin, int64_t end) {
      std::vector<C> line(static_cast<size_t>(dim));
      std::vector<int64_t> order(static_cast<size_t>(dim));
      // True when element a must come before element b in the output.
      const auto before = [&](int64_t a, int64_t b) {
        const C x = line[static_cast<size_t>(a)];
        const C y = line[static_cast<size_t>(b)];
        const bool x_nan = IsNan(x);
        const bool y_nan = IsNan(y);
        if (x_nan || y_nan) {
          if (x_nan == y_nan) return a < b;
          return largest ? x_nan : y_nan;
        }
        if (x != y) return largest ? x > y : x < y;
        return a < b;
      };
      for (int64_t l = begin; l < end; ++l) {
        const int64_t o = l / inner;
        const int64_t i = l % inner;
        const T* in = src + o * dim * inner + i;
        for (int64_t j = 0; j < dim; ++j) line[static_cast<size_t>(j)] = C(in[j * inner]);
        std::iota(order.begin(), order.end(), 0);
        std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
        T* out_values = values + o * k * inner + i;
        int64_t* out_indices = indices + o * k * inner + i;
        for (int64_t j = 0; j < k; ++j) {
          const int64_t index = order[static_cast<size_t>(j)];
          out_values[j * inner] = in[index * inner];
          out_indices[j * inner] = index;
        }
      }
    });
  }

  bool k_from_attribute_ = false;
  int64_t k_ = 0;
  int64_t axis_ = -1;
  bool largest_ = true;
};

}  // namespace

void RegisterTopKKernels(KernelRegistry& registry) {
  registry.Add<TopK>(
      KernelDef("TopK").Versions(1).Input(0, NumericTypes::DataTypes()).HostInput(1));
}

}  // namespace ort
