// Det: determinants of the trailing [M, M] matrices, by LU decomposition with partial pivoting
// (computed in double for every element type).
#include <cmath>
#include <vector>

#include "providers/cpu/kernels/onnx/math/math_kernels.h"

namespace ort {
namespace {

double Determinant(std::vector<double>& a, int64_t n) {
  double det = 1.0;
  for (int64_t col = 0; col < n; ++col) {
    int64_t pivot = col;
    for (int64_t row = col + 1; row < n; ++row) {
      if (std::abs(a[row * n + col]) > std::abs(a[pivot * n + col])) pivot = row;
    }
    if (a[pivot * n + col] == 0.0) return 0.0;
    if (pivot != col) {
      for (int64_t j = 0; j < n; ++j) std::swap(a[pivot * n + j], a[col * n + j]);
      det = -det;
    }
    const double diagonal = a[col * n + col];
    det *= diagonal;
    for (int64_t row = col + 1; row < n; ++row) {
      const double factor = a[row * n + col] / diagonal;
      for (int64_t j = col + 1; j < n; ++j) a[row * n + j] -= factor * a[col * n + j];
    }
  }
  return det;
}

class Det final : public OpKernel {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const TensorShape& shape = x->shape();
    const size_t rank = shape.rank();
    if (rank < 2 || shape[rank - 1] != shape[rank - 2]) {
      return context.Error("X {} must be [*, M, M]", shape.ToString());
    }
    const int64_t n = shape[rank - 1];
    ORT_ASSIGN_OR_RETURN(Tensor * y,
                         context.Output(0, x->dtype(),
                                        TensorShape(std::vector<int64_t>(shape.dims().begin(),
                                                                         shape.dims().end() - 2))));
    const int64_t matrices = y->NumElements();
    return DispatchByType<FloatTypes>(x->dtype(), "Det", [&]<typename T>() {
      const T* in = x->Data<T>();
      T* out = y->MutableData<T>();
      ThreadPool::TryParallelFor(context.thread_pool(), matrices, static_cast<double>(n * n * n),
                                 [&](int64_t begin, int64_t end) {
                                   std::vector<double> a(static_cast<size_t>(n * n));
                                   for (int64_t i = begin; i < end; ++i) {
                                     for (int64_t e = 0; e < n * n; ++e)
                                       a[e] = static_cast<double>(in[i * n * n + e]);
                                     out[i] = static_cast<T>(Determinant(a, n));
                                   }
                                 });
      return Status::OK();
    });
  }
};

}  // namespace

void RegisterDetKernels(KernelRegistry& registry) {
  // bfloat16 is accepted too (opset 22 adds it; same computation).
  registry.Add<Det>(KernelDef("Det").Versions(11).Input(0, FloatTypes::DataTypes()));
}

}  // namespace ort
