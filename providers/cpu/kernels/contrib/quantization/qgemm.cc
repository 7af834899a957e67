// com.microsoft QGemm: Gemm of 8-bit A (a_scale, a_zero_point) and B (b_scale, b_zero_point per
// tensor or per column), as onnxruntime computes it: the int32 product (A - a_zero)(B - b_zero)
// plus the int32 bias C (broadcast to [M, N]), times alpha a_scale b_scale[j]; a float output,
// or with y_scale (and y_zero_point) requantized to 8 bits. What the QDQ Gemm fusion makes of a
// quantized classifier or transformer projection. Constant B is packed once.
#include <memory>
#include <vector>

#include "providers/cpu/kernels/common/qgemm.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/contrib/quantization/contrib_quantization_kernels.h"
#include "providers/cpu/kernels/onnx/nn/conv_integer.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"

namespace ort {
namespace {

class QuantizedGemm final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(alpha_, info.GetAttributeOr<float>("alpha", 1.0f));
    ORT_ASSIGN_OR_RETURN(const int64_t trans_a, info.GetAttributeOr<int64_t>("transA", 0));
    ORT_ASSIGN_OR_RETURN(const int64_t trans_b, info.GetAttributeOr<int64_t>("transB", 0));
    trans_a_ = trans_a != 0;
    trans_b_ = trans_b != 0;
    packed_b_ = PackConstantQgemmB(info, 3, 5, trans_b_);
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    const Tensor* in[6];
    for (size_t i = 0; i < 6; ++i) {
      if (i == 2 || i == 5) {
        in[i] = context.Input(i);
        continue;
      }
      ORT_ASSIGN_OR_RETURN(in[i], context.RequiredInput(i));
    }
    const Tensor& a = *in[0];
    const Tensor& b = *in[3];
    const Tensor* c = context.Input(6);
    const Tensor* y_scale = context.Input(7);
    const Tensor* y_zero = context.Input(8);
    if (a.shape().rank() != 2 || b.shape().rank() != 2) {
      return context.Error("A {} and B {} must be matrices", a.Describe(), b.Describe());
    }
    const int64_t m = a.shape()[trans_a_ ? 1 : 0], k = a.shape()[trans_a_ ? 0 : 1];
    const int64_t n = b.shape()[trans_b_ ? 0 : 1];
    if (b.shape()[trans_b_ ? 1 : 0] != k) {
      return context.Error("A {} and B {} disagree on the inner dimension", a.Describe(),
                           b.Describe());
    }
    if (in[1]->NumElements() != 1) return context.Error("a_scale must hold one value");
    if (in[4]->NumElements() != 1 && in[4]->NumElements() != n) {
      return context.Error("b_scale must hold 1 or {} values", n);
    }
    if (y_scale != nullptr && y_scale->NumElements() != 1) {
      return context.Error("y_scale must hold one value");
    }
    // C broadcasts to [M, N] from a scalar, a row [N] / [1, N], a column [M, 1] or [M, N].
    int64_t c_row_stride = 0, c_col_stride = 0;
    if (c != nullptr) {
      const TensorShape& cs = c->shape();
      const int64_t rows = cs.rank() == 2 ? cs[0] : 1;
      const int64_t cols = cs.rank() == 0 ? 1 : cs[cs.rank() - 1];
      if (c->dtype() != DataType::kInt32 || cs.rank() > 2 || (rows != 1 && rows != m) ||
          (cols != 1 && cols != n)) {
        return context.Error("C {} must be int32 broadcastable to [{}, {}]", c->Describe(), m, n);
      }
      c_row_stride = rows == 1 ? 0 : cols;
      c_col_stride = cols == 1 ? 0 : 1;
    }
    ORT_ASSIGN_OR_RETURN(const std::vector<float> a_scale, ReadFloatParams<float>(*in[1]));
    ORT_ASSIGN_OR_RETURN(const std::vector<float> b_scale, ReadFloatParams<float>(*in[4]));
    ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> a_zero,
                         ReadZeroPoints(context, in[2], a.dtype(), 1, "a_zero_point"));
    ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> b_zero,
                         ReadZeroPoints(context, in[5], b.dtype(), n, "b_zero_point"));
    float y_divisor = 1.0f;
    if (y_scale != nullptr) {
      ORT_ASSIGN_OR_RETURN(const std::vector<float> y, ReadFloatParams<float>(*y_scale));
      y_divisor = y[0];
    }
    std::vector<float> multipliers(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) {
      multipliers[j] = alpha_ * a_scale[0] * b_scale[b_scale.size() == 1 ? 0 : j] / y_divisor;
      // Only an 8-bit output rounds a subnormal product away.
      if (y_scale != nullptr) multipliers[j] = RequantizationFactor(multipliers[j]);
    }
    const DataType y_type = y_scale == nullptr  ? DataType::kFloat
                            : y_zero != nullptr ? y_zero->dtype()
                                                : DataType::kUint8;
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, y_type, TensorShape({m, n})));
    if (m == 0 || n == 0) return Status::OK();
    int32_t y_zero_value = 0;
    if (y_zero != nullptr) {
      ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> z,
                           ReadZeroPoints(context, y_zero, y_zero->dtype(), 1, "y_zero_point"));
      y_zero_value = z[0];
    }
    return DispatchByType<QuantTypes>(a.dtype(), "A", [&]<typename TA>() -> Status {
      std::unique_ptr<PackedQgemmB> per_call;
      const PackedQgemmB* packed = packed_b_.get();
      if (packed == nullptr) {
        ORT_RETURN_IF_ERROR(DispatchByType<QuantTypes>(b.dtype(), "B", [&]<typename TB>() {
          per_call = std::make_unique<PackedQgemmB>(BestQgemmKernelFor(k, n), k, n, b.Data<TB>(),
                                                    trans_b_ ? k : n, b_zero, trans_b_);
          return Status::OK();
        }));
        packed = per_call.get();
      }
      const TA* a_rows = a.Data<TA>();
      std::vector<TA> transposed;
      if (trans_a_) {
        transposed.resize(static_cast<size_t>(m * k));
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t p = 0; p < k; ++p) transposed[i * k + p] = a_rows[p * m + i];
        }
        a_rows = transposed.data();
      }
      const int32_t* bias = c != nullptr ? c->Data<int32_t>() : nullptr;
      const auto finish = [&](int64_t row0, int64_t rows, int64_t col0, int64_t cols,
                              int32_t* block, int64_t ldc) {
        Vectorized([&] {
          for (int64_t r = 0; r < rows; ++r) {
            int32_t* sums = block + r * ldc;
            const int64_t row = row0 + r;
            if (bias != nullptr) {
              const int32_t* c_row = bias + row * c_row_stride + col0 * c_col_stride;
              for (int64_t j = 0; j < cols; ++j) {
                sums[j] = static_cast<int32_t>(static_cast<uint32_t>(sums[j]) +
                                               static_cast<uint32_t>(c_row[j * c_col_stride]));
              }
            }
            const float* factors = multipliers.data() + col0;
            if (y_type == DataType::kFloat) {
              float* out = y->MutableData<float>() + row * n + col0;
              for (int64_t j = 0; j < cols; ++j) out[j] = static_cast<float>(sums[j]) * factors[j];
            } else if (y_type == DataType::kInt8) {
              RequantizeRow<int8_t>(sums, cols, factors, true, y_zero_value,
                                    y->MutableData<int8_t>() + row * n + col0);
            } else {
              RequantizeRow<uint8_t>(sums, cols, factors, true, y_zero_value,
                                     y->MutableData<uint8_t>() + row * n + col0);
            }
          }
        });
      };
      QGemmPacked<TA>(m, a_rows, k, a_zero, packed->view(), nullptr, 0, context.thread_pool(),
                      finish);
      return Status::OK();
    });
  }

 private:
  float alpha_ = 1.0f;
  bool trans_a_ = false;
  bool trans_b_ = false;
  std::unique_ptr<PackedQgemmB> packed_b_;
};

}  // namespace

void RegisterQGemmKernels(KernelRegistry& registry) {
  registry.Add<QuantizedGemm>(KernelDef("QGemm", std::string(kMsDomain))
                                  .Versions(1)
                                  .Input(0, QuantTypes::DataTypes())
                                  .Input(3, QuantTypes::DataTypes()));
}

}  // namespace ort
