// Einsum: explicit or implicit output, repeated labels (diagonals), ellipsis broadcasting.
// Operands are contracted left to right: labels no later operand or the output needs are summed
// away first, then each pair becomes a batched matrix product (batch x kept-left x contracted)
// times (batch x contracted x kept-right) on the shared GEMM, and the result is permuted into
// the output order.
#include <type_traits>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/onnx/math/einsum_equation.h"
#include "providers/cpu/kernels/onnx/math/math_kernels.h"

namespace ort {
namespace {

using EinsumTypes = TypeList<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t,
                             uint8_t, uint16_t, uint32_t, uint64_t>;

/// Arithmetic type: float for half types, 64-bit for integers (cast back wraps like T would).
template <typename T>
using AccType = std::conditional_t<std::is_floating_point_v<ComputeType<T>>, ComputeType<T>,
                                   std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>;

/// A dense intermediate: one label per dimension (labels unique after Diagonal).
template <typename C>
struct Operand {
  std::vector<int> labels;
  std::vector<int64_t> dims;
  std::vector<C> data;

  int Find(int label) const {
    for (size_t i = 0; i < labels.size(); ++i) {
      if (labels[i] == label) return static_cast<int>(i);
    }
    return -1;
  }
};

/// out[index over dims] = in[sum index[d] * strides[d]] (a permutation, diagonal or broadcast).
template <typename C>
std::vector<C> Gather(const C* in, const std::vector<int64_t>& dims,
                      const std::vector<int64_t>& strides) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  std::vector<C> out(static_cast<size_t>(count));
  std::vector<int64_t> index(dims.size(), 0);
  int64_t offset = 0;
  for (int64_t i = 0; i < count; ++i) {
    out[i] = in[offset];
    for (size_t d = dims.size(); d-- > 0;) {
      offset += strides[d];
      if (++index[d] < dims[d]) break;
      offset -= index[d] * strides[d];
      index[d] = 0;
    }
  }
  return out;
}

std::vector<int64_t> Strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) strides[d - 1] = strides[d] * dims[d];
  return strides;
}

/// Folds repeated labels into their diagonal.
template <typename C>
void Diagonal(Operand<C>& x) {
  const std::vector<int64_t> strides = Strides(x.dims);
  std::vector<int> labels;
  std::vector<int64_t> dims, gather_strides;
  for (size_t d = 0; d < x.labels.size(); ++d) {
    auto it = std::find(labels.begin(), labels.end(), x.labels[d]);
    if (it != labels.end()) {
      gather_strides[it - labels.begin()] += strides[d];
      continue;
    }
    labels.push_back(x.labels[d]);
    dims.push_back(x.dims[d]);
    gather_strides.push_back(strides[d]);
  }
  if (labels.size() == x.labels.size()) return;
  x.data = Gather(x.data.data(), dims, gather_strides);
  x.labels = std::move(labels);
  x.dims = std::move(dims);
}

/// Reorders dimensions so that `order` (labels of x) comes out in that order.
template <typename C>
void Permute(Operand<C>& x, const std::vector<int>& order) {
  if (order == x.labels) return;
  const std::vector<int64_t> strides = Strides(x.dims);
  std::vector<int64_t> dims, gather_strides;
  for (int label : order) {
    const int d = x.Find(label);
    dims.push_back(x.dims[d]);
    gather_strides.push_back(strides[d]);
  }
  x.data = Gather(x.data.data(), dims, gather_strides);
  x.labels = order;
  x.dims = std::move(dims);
}

/// Sums x over the dimension labelled `label`.
template <typename C>
void SumOut(Operand<C>& x, int label) {
  const int d = x.Find(label);
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < d; ++i) outer *= x.dims[i];
  for (size_t i = d + 1; i < x.dims.size(); ++i) inner *= x.dims[i];
  const int64_t n = x.dims[d];
  std::vector<C> out(static_cast<size_t>(outer * inner), C(0));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < n; ++k) {
      const C* row = x.data.data() + (o * n + k) * inner;
      for (int64_t i = 0; i < inner; ++i) out[o * inner + i] += row[i];
    }
  }
  x.data = std::move(out);
  x.labels.erase(x.labels.begin() + d);
  x.dims.erase(x.dims.begin() + d);
}

/// Repeats a size-1 dimension `label` to `size` entries.
template <typename C>
void Broadcast(Operand<C>& x, int label, int64_t size) {
  const int d = x.Find(label);
  std::vector<int64_t> strides = Strides(x.dims);
  strides[d] = 0;
  x.dims[d] = size;
  x.data = Gather(x.data.data(), x.dims, strides);
}

/// Sums away the labels of x that `keep` does not contain.
template <typename C>
void SumUnneeded(Operand<C>& x, const std::vector<bool>& keep) {
  for (size_t d = x.labels.size(); d-- > 0;) {
    if (!keep[x.labels[d]]) SumOut(x, x.labels[d]);
  }
}

template <typename C>
Operand<C> Contract(Operand<C> a, Operand<C> b, const std::vector<bool>& needed, ThreadPool* pool) {
  std::vector<bool> keep_a = needed, keep_b = needed;
  for (int label : b.labels) keep_a[label] = true;
  for (int label : a.labels) keep_b[label] = true;
  SumUnneeded(a, keep_a);
  SumUnneeded(b, keep_b);
  std::vector<int> batch, left, contracted, right;
  for (int label : std::vector<int>(a.labels)) {
    const int db = b.Find(label);
    if (db < 0) {
      left.push_back(label);
      continue;
    }
    const int64_t size_a = a.dims[a.Find(label)], size_b = b.dims[db];
    if (needed[label]) {
      if (size_a != size_b) {
        // One side is 1 (checked by the caller): repeat it.
        if (size_a == 1)
          Broadcast(a, label, size_b);
        else
          Broadcast(b, label, size_a);
      }
      batch.push_back(label);
    } else if (size_a != size_b) {
      // sum_l a[l] b[l] with a (or b) constant along l: sum the other side alone.
      SumOut(size_a == 1 ? b : a, label);
      SumOut(size_a == 1 ? a : b, label);
    } else {
      contracted.push_back(label);
    }
  }
  for (int label : b.labels) {
    if (a.Find(label) < 0) right.push_back(label);
  }
  auto product = [](const Operand<C>& x, const std::vector<int>& labels) {
    int64_t p = 1;
    for (int label : labels) p *= x.dims[x.Find(label)];
    return p;
  };
  const int64_t batches = product(a, batch), m = product(a, left), k = product(a, contracted),
                n = product(b, right);
  std::vector<int> order_a = batch, order_b = batch;
  order_a.insert(order_a.end(), left.begin(), left.end());
  order_a.insert(order_a.end(), contracted.begin(), contracted.end());
  order_b.insert(order_b.end(), contracted.begin(), contracted.end());
  order_b.insert(order_b.end(), right.begin(), right.end());
  Permute(a, order_a);
  Permute(b, order_b);
  Operand<C> result;
  result.labels = batch;
  result.labels.insert(result.labels.end(), left.begin(), left.end());
  result.labels.insert(result.labels.end(), right.begin(), right.end());
  for (int label : result.labels) {
    const int d = a.Find(label);
    result.dims.push_back(d >= 0 ? a.dims[d] : b.dims[b.Find(label)]);
  }
  result.data.assign(static_cast<size_t>(batches * m * n), C(0));
  for (int64_t i = 0; i < batches; ++i) {
    TypedGemm<C>(false, false, m, n, k, 1.0f, a.data.data() + i * m * k, k,
                 b.data.data() + i * k * n, n, 0.0f, result.data.data() + i * m * n, n, pool);
  }
  return result;
}

class Einsum final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(equation_, info.GetAttribute<std::string>("equation"));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    if (context.InputCount() == 0) return context.Error("Einsum needs at least one input");
    std::vector<const Tensor*> inputs;
    std::vector<TensorShape> shapes;
    for (size_t i = 0; i < context.InputCount(); ++i) {
      ORT_ASSIGN_OR_RETURN(const Tensor* t, context.RequiredInput(i));
      if (!inputs.empty() && t->dtype() != inputs[0]->dtype()) {
        return context.Error("all inputs must share one element type");
      }
      inputs.push_back(t);
      shapes.push_back(t->shape());
    }
    auto equation = ParseEinsumEquation(equation_, shapes);
    if (!equation.ok()) return context.Error("{}", equation.status().message());
    // Every label's size: equal across operands, or 1 where it broadcasts (ellipsis dims).
    std::vector<int64_t> sizes(EinsumEquation::kLabelCount, -1);
    for (size_t i = 0; i < inputs.size(); ++i) {
      for (size_t d = 0; d < shapes[i].rank(); ++d) {
        const int label = equation->inputs[i][d];
        int64_t& size = sizes[label];
        const int64_t dim = shapes[i][d];
        const bool broadcastable = label >= EinsumEquation::kEllipsisBase;
        if (size < 0 || (broadcastable && size == 1)) {
          size = dim;
        } else if (dim != size && !(broadcastable && dim == 1)) {
          return context.Error("label dims differ: {} vs {} (input {} axis {})", size, dim, i, d);
        }
      }
    }
    std::vector<int64_t> out_dims;
    for (int label : equation->output) out_dims.push_back(sizes[label]);
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, inputs[0]->dtype(), TensorShape(out_dims)));
    return DispatchByType<EinsumTypes>(inputs[0]->dtype(), "Einsum", [&]<typename T>() {
      Run<T>(*equation, inputs, sizes, *y, context.thread_pool());
      return Status::OK();
    });
  }

 private:
  template <typename T>
  static void Run(const EinsumEquation& equation, const std::vector<const Tensor*>& inputs,
                  const std::vector<int64_t>& sizes, Tensor& y, ThreadPool* pool) {
    using C = AccType<T>;
    std::vector<Operand<C>> operands(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      operands[i].labels = equation.inputs[i];
      operands[i].dims = inputs[i]->shape().dims();
      const T* data = inputs[i]->Data<T>();
      operands[i].data.resize(static_cast<size_t>(inputs[i]->NumElements()));
      for (size_t e = 0; e < operands[i].data.size(); ++e) {
        operands[i].data[e] = static_cast<C>(data[e]);
      }
      Diagonal(operands[i]);
    }
    std::vector<bool> in_output(EinsumEquation::kLabelCount, false);
    for (int label : equation.output) in_output[label] = true;
    Operand<C> result = std::move(operands[0]);
    for (size_t i = 1; i < operands.size(); ++i) {
      // Labels still needed after this contraction: the output's and later operands'.
      std::vector<bool> needed = in_output;
      for (size_t j = i + 1; j < operands.size(); ++j) {
        for (int label : operands[j].labels) needed[label] = true;
      }
      result = Contract(std::move(result), std::move(operands[i]), needed, pool);
    }
    SumUnneeded(result, in_output);
    for (int label : equation.output) {
      const int d = result.Find(label);
      if (result.dims[d] != sizes[label]) Broadcast(result, label, sizes[label]);
    }
    Permute(result, equation.output);
    T* out = y.MutableData<T>();
    for (size_t i = 0; i < result.data.size(); ++i) out[i] = static_cast<T>(result.data[i]);
  }

  std::string equation_;
};

}  // namespace

void RegisterEinsumKernels(KernelRegistry& registry) {
  registry.Add<Einsum>(KernelDef("Einsum").Versions(12).Input(0, EinsumTypes::DataTypes()));
}

}  // namespace ort
