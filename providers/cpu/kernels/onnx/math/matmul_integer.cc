// MatMulInteger (int32 result of 8-bit operands minus their zero points) and QLinearMatMul (the
// same product requantized with a_scale * b_scale / y_scale and y_zero_point). numpy.matmul
// shapes; zero points and scales are per tensor, per row of A or per column of B.
#include <memory>
#include <vector>

#include "providers/common/math/matmul_shape.h"
#include "providers/cpu/kernels/common/qgemm.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/onnx/math/math_kernels.h"
#include "providers/cpu/kernels/onnx/math/matmul_integer.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"

namespace ort {
namespace {

using QuantTypes = TypeList<int8_t, uint8_t>;

/// Checks that a zero point or scale holds one value or `count` values (per row / column).
Status CheckPerChannel(const KernelContext& context, const Tensor* t, int64_t count,
                       const char* name) {
  if (t == nullptr || t->NumElements() == 1 || t->NumElements() == count) return Status::OK();
  return context.Error("{} {} must hold 1 or {} values", name, t->shape().ToString(), count);
}

Result<std::vector<int32_t>> ZeroPoints(const KernelContext& context, const Tensor* t,
                                        DataType data_type, const char* name) {
  if (t == nullptr) return std::vector<int32_t>{0};
  if (t->dtype() != data_type) return context.Error("{} must have its operand's type", name);
  std::vector<int32_t> values(static_cast<size_t>(t->NumElements()));
  ORT_RETURN_IF_ERROR(DispatchByType<QuantTypes>(t->dtype(), name, [&]<typename Z>() {
    for (size_t i = 0; i < values.size(); ++i) values[i] = t->Data<Z>()[i];
    return Status::OK();
  }));
  return values;
}

}  // namespace

Status IntegerProducts(KernelContext& context, const Tensor& a, const Tensor& b,
                       const Tensor* a_zero, const Tensor* b_zero, const MatMulPlan& plan,
                       const PackedQgemmB* packed_b, int32_t* out, const QgemmBlockDone& done) {
  ORT_RETURN_IF_ERROR(CheckPerChannel(context, a_zero, plan.m, "a_zero_point"));
  ORT_RETURN_IF_ERROR(CheckPerChannel(context, b_zero, plan.n, "b_zero_point"));
  ORT_ASSIGN_OR_RETURN(std::vector<int32_t> za,
                       ZeroPoints(context, a_zero, a.dtype(), "a_zero_point"));
  ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> zb,
                       ZeroPoints(context, b_zero, b.dtype(), "b_zero_point"));
  const int64_t m = plan.m, n = plan.n, k = plan.k;
  return DispatchByType<QuantTypes>(a.dtype(), "A", [&]<typename TA>() {
    if (packed_b != nullptr && plan.single_gemm) {
      // One product over the rows of every batch; a per-row zero point repeats per batch.
      const int64_t rows = plan.BatchCount() * m;
      if (za.size() > 1) {
        za.resize(static_cast<size_t>(rows));
        for (int64_t i = m; i < rows; ++i) za[i] = za[i % m];
      }
      QGemmPacked<TA>(rows, a.Data<TA>() + plan.a_offsets[0], k, za, packed_b->view(), out, n,
                      context.thread_pool(), done);
      return Status::OK();
    }
    return DispatchByType<QuantTypes>(b.dtype(), "B", [&]<typename TB>() {
      const auto product = [&](int64_t i, ThreadPool* pool) {
        QGemm<TA, TB>(m, n, k, a.Data<TA>() + plan.a_offsets[i], k, za,
                      b.Data<TB>() + plan.b_offsets[i], n, zb, out + i * m * n, n, pool);
        if (done) done(i * m, m, 0, n, out + i * m * n, n);
      };
      const int64_t batches = plan.BatchCount();
      if (batches == 1) {
        product(0, context.thread_pool());
        return Status::OK();
      }
      // Batches of their own operands (attention's heads: scores of 12 heads of 128 x 64) run
      // one per thread: each product too small to share, B packed by the thread that uses it.
      ThreadPool::TryParallelFor(context.thread_pool(), batches,
                                 2.0 * static_cast<double>(m * n * k),
                                 [&](int64_t begin, int64_t end) {
                                   for (int64_t i = begin; i < end; ++i) product(i, nullptr);
                                 });
      return Status::OK();
    });
  });
}

namespace {

class MatMulInteger final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    packed_b_ = PackConstantQgemmB(info, 1, 3);
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* a, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* b, context.RequiredInput(1));
    auto plan = PlanMatMul(a->shape(), b->shape());
    if (!plan.ok()) return context.Error("{}", plan.status().message());
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kInt32, plan->output_shape));
    return IntegerProducts(context, *a, *b, context.Input(2), context.Input(3), *plan,
                           packed_b_.get(), y->MutableData<int32_t>());
  }

 private:
  std::unique_ptr<PackedQgemmB> packed_b_;
};

class QLinearMatMul final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    packed_b_ = PackConstantQgemmB(info, 3, 5);
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    const Tensor* inputs[8];
    for (size_t i = 0; i < 8; ++i) {
      ORT_ASSIGN_OR_RETURN(inputs[i], context.RequiredInput(i));
    }
    const Tensor& a = *inputs[0];
    const Tensor& b = *inputs[3];
    const Tensor& y_zero = *inputs[7];
    auto plan = PlanMatMul(a.shape(), b.shape());
    if (!plan.ok()) return context.Error("{}", plan.status().message());
    ORT_RETURN_IF_ERROR(CheckPerChannel(context, inputs[1], plan->m, "a_scale"));
    ORT_RETURN_IF_ERROR(CheckPerChannel(context, inputs[4], plan->n, "b_scale"));
    if (inputs[6]->NumElements() != 1 || y_zero.NumElements() != 1) {
      return context.Error("y_scale and y_zero_point must be scalars");
    }
    ORT_ASSIGN_OR_RETURN(const std::vector<float> a_scale, ReadFloatParams<float>(*inputs[1]));
    ORT_ASSIGN_OR_RETURN(const std::vector<float> b_scale, ReadFloatParams<float>(*inputs[4]));
    ORT_ASSIGN_OR_RETURN(const std::vector<float> y_scale, ReadFloatParams<float>(*inputs[6]));
    ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> y_zp,
                         ZeroPoints(context, &y_zero, y_zero.dtype(), "y_zero_point"));
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, y_zero.dtype(), plan->output_shape));
    // The packed product keeps no int32 C: each block is requantized from its thread's scratch.
    const bool blocks_only = packed_b_ != nullptr && plan->single_gemm;
    // Uninitialized: every product is written before it is read (zeroing it cost attention's
    // score products a tenth of their time).
    const auto products = std::make_unique_for_overwrite<int32_t[]>(
        blocks_only ? 0 : static_cast<size_t>(y->NumElements()));
    const int64_t m = plan->m, n = plan->n;
    // The multipliers a_scale[i] * b_scale[j] / y_scale of one row of A (all rows alike when
    // a_scale is one value).
    const auto row_multipliers = [&](int64_t i, std::vector<float>& out) {
      out.resize(static_cast<size_t>(n));
      const float a_factor = a_scale[a_scale.size() == 1 ? 0 : i];
      for (int64_t j = 0; j < n; ++j) {
        out[j] = RequantizationFactor(a_factor * b_scale[b_scale.size() == 1 ? 0 : j] / y_scale[0]);
      }
    };
    std::vector<float> shared;
    row_multipliers(0, shared);
    return DispatchByType<QuantTypes>(y->dtype(), "QLinearMatMul", [&]<typename Q>() {
      Q* out = y->MutableData<Q>();
      // Each block of products is requantized by the thread that made it, while in cache.
      const QgemmBlockDone requantize = [&](int64_t row0, int64_t rows, int64_t col0, int64_t cols,
                                            int32_t* block, int64_t ldc) {
        thread_local std::vector<float> own;
        Vectorized([&] {
          for (int64_t r = 0; r < rows; ++r) {
            const int64_t row = row0 + r;
            if (a_scale.size() > 1) row_multipliers(row % m, own);
            const float* factors = (a_scale.size() > 1 ? own : shared).data() + col0;
            RequantizeRow<Q>(block + r * ldc, cols, factors, true, y_zp[0], out + row * n + col0);
          }
        });
      };
      return IntegerProducts(context, a, b, inputs[2], inputs[5], *plan, packed_b_.get(),
                             blocks_only ? nullptr : products.get(), requantize);
    });
  }

 private:
  std::unique_ptr<PackedQgemmB> packed_b_;
};

}  // namespace

void RegisterMatMulIntegerKernels(KernelRegistry& registry) {
  const auto types = QuantTypes::DataTypes();
  registry.Add<MatMulInteger>(
      KernelDef("MatMulInteger").Versions(10).Input(0, types).Input(1, types));
  registry.Add<QLinearMatMul>(
      KernelDef("QLinearMatMul").Versions(10, 20).Input(0, types).Input(3, types));
  // Opset 21 added float8 operands; the 8-bit integer ones are unchanged.
  registry.Add<QLinearMatMul>(
      KernelDef("QLinearMatMul").Versions(21).Input(0, types).Input(3, types));
}

}  // namespace ort
