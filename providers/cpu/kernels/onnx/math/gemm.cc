// Gemm: Y = alpha * op(A) * op(B) + beta * C, with C broadcast to [M, N] (opsets 1-6 only when
// the legacy `broadcast` attribute is set; C optional from opset 11).
#include "providers/cpu/kernels/onnx/math/gemm_kernel.h"

#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/onnx/math/math_kernels.h"

namespace ort {
namespace {

using GemmTypes = TypeList<float, double, Float16, BFloat16, int32_t, int64_t, uint32_t, uint64_t>;

template <typename T>
void BroadcastC(const T* c, const TensorShape& shape, int64_t m, int64_t n, T* out) {
  const size_t rank = shape.rank();
  const int64_t column_step = rank >= 1 && shape[rank - 1] == n ? 1 : 0;
  const int64_t row_step = rank == 2 && shape[0] == m ? shape[1] : 0;
  for (int64_t i = 0; i < m; ++i) {
    const T* row = c + i * row_step;
    for (int64_t j = 0; j < n; ++j) out[i * n + j] = row[j * column_step];
  }
}

}  // namespace

Status Gemm::Init(const KernelInfo& info) {
  ORT_RETURN_IF_ERROR(attributes_.Parse(info));
  if (info.opset() < 7 && info.node().domain().empty()) {
    ORT_ASSIGN_OR_RETURN(const int64_t broadcast, info.GetAttributeOr<int64_t>("broadcast", 0));
    exact_c_ = broadcast == 0;
  }
  packed_b_ = PackConstantB(info, 1, attributes_.trans_b);
  return Status::OK();
}

Status Gemm::Compute(KernelContext& context) const {
  ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
  // A packed constant B is never read again (the session may have freed it).
  const Tensor* b = nullptr;
  if (packed_b_ == nullptr) {
    ORT_ASSIGN_OR_RETURN(b, context.RequiredInput(1));
  }
  const Tensor* c = context.Input(2);
  const TensorShape b_shape =
      b != nullptr ? b->shape()
                   : (attributes_.trans_b ? TensorShape({packed_b_->n(), packed_b_->k()})
                                          : TensorShape({packed_b_->k(), packed_b_->n()}));
  const DataType b_type = b != nullptr ? b->dtype() : DataType::kFloat;
  if (a->shape().rank() != 2 || b_shape.rank() != 2) {
    return context.Error("A and B must be 2-D, got {} and {}", a->shape().ToString(),
                         b_shape.ToString());
  }
  if (a->dtype() != b_type || (c != nullptr && c->dtype() != a->dtype())) {
    return context.Error("A, B and C must share one element type");
  }
  const int64_t m = attributes_.trans_a ? a->shape()[1] : a->shape()[0];
  const int64_t k = attributes_.trans_a ? a->shape()[0] : a->shape()[1];
  const int64_t kb = attributes_.trans_b ? b_shape[1] : b_shape[0];
  const int64_t n = attributes_.trans_b ? b_shape[0] : b_shape[1];
  if (k != kb) {
    return context.Error("inner dimensions differ: op(A) is [{}, {}], op(B) is [{}, {}]", m, k, kb,
                         n);
  }
  const bool use_c = c != nullptr && attributes_.beta != 0.0f;
  if (c != nullptr) ORT_RETURN_IF_ERROR(CheckC(context, c->shape(), m, n));
  ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, a->dtype(), TensorShape{m, n}));
  if (m == 0 || n == 0) return Status::OK();
  return DispatchByType<GemmTypes>(a->dtype(), "Gemm", [&]<typename T>() {
    T* out = y->MutableData<T>();
    if (use_c) BroadcastC(c->Data<T>(), c->shape(), m, n, out);
    if constexpr (std::is_same_v<T, float>) {
      if (packed_b_ != nullptr) {
        SgemmPackedB(attributes_.trans_a, m, attributes_.alpha, a->Data<float>(), a->shape()[1],
                     *packed_b_, use_c ? attributes_.beta : 0.0f, out, n, context.thread_pool());
      } else {
        Sgemm(attributes_.trans_a, attributes_.trans_b, m, n, k, attributes_.alpha,
              a->Data<float>(), a->shape()[1], b->Data<float>(), b->shape()[1],
              use_c ? attributes_.beta : 0.0f, out, n, context.thread_pool());
      }
    } else {
      TypedGemm<T>(attributes_.trans_a, attributes_.trans_b, m, n, k, attributes_.alpha,
                   a->Data<T>(), a->shape()[1], b->Data<T>(), b->shape()[1],
                   use_c ? attributes_.beta : 0.0f, out, n, context.thread_pool());
    }
    if (!activation_.enabled()) return Status::OK();
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      ThreadPool::TryParallelFor(
          context.thread_pool(), m * n, 8.0,
          [&](int64_t begin, int64_t end) { activation_.Apply(out + begin, end - begin); });
      return Status::OK();
    } else {
      return context.Error("activations apply to float and double only, not {}",
                           DataTypeName(a->dtype()));
    }
  });
}

Status Gemm::CheckC(const KernelContext& context, const TensorShape& shape, int64_t m,
                    int64_t n) const {
  if (exact_c_) {
    if (shape != TensorShape{m, n}) {
      return context.Error("C is {} but must be [{}, {}] when broadcast is 0", shape.ToString(), m,
                           n);
    }
    return Status::OK();
  }
  const size_t rank = shape.rank();
  const bool ok = rank <= 2 && (rank < 1 || shape[rank - 1] == 1 || shape[rank - 1] == n) &&
                  (rank < 2 || shape[0] == 1 || shape[0] == m);
  if (!ok) return context.Error("C {} does not broadcast to [{}, {}]", shape.ToString(), m, n);
  return Status::OK();
}

void RegisterGemmKernels(KernelRegistry& registry) {
  const auto float_types = TypeList<float, double, Float16>::DataTypes();
  const auto types_9 =
      TypeList<float, double, Float16, int32_t, int64_t, uint32_t, uint64_t>::DataTypes();
  registry.Add<Gemm>(KernelDef("Gemm").Versions(1, 5).Input(0, float_types));
  registry.Add<Gemm>(KernelDef("Gemm").Versions(6, 6).Input(0, float_types));
  registry.Add<Gemm>(KernelDef("Gemm").Versions(7, 8).Input(0, float_types));
  registry.Add<Gemm>(KernelDef("Gemm").Versions(9, 10).Input(0, types_9));
  registry.Add<Gemm>(KernelDef("Gemm").Versions(11, 12).Input(0, types_9));
  registry.Add<Gemm>(KernelDef("Gemm").Versions(13).Input(0, GemmTypes::DataTypes()));
}

}  // namespace ort
