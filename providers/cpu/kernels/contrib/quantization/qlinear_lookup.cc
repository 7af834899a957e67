// com.microsoft QLinearSigmoid and QLinearLeakyRelu (onnxruntime's), and QLinearHardSigmoid (this
// engine's, made in sessions only): an elementwise function of an 8-bit tensor, X (X_scale,
// X_zero_point) to Y (Y_scale, Y_zero_point) of X's type, through a table of its 256 values,
// each quantize(f(dequantize(x))) as the DequantizeLinear -> f -> QuantizeLinear group computes
// it (f in float, the quotient by Y_scale rounded half to even and saturated).
#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include "providers/cpu/kernels/common/byte_lookup.h"
#include "providers/cpu/kernels/contrib/quantization/contrib_quantization_kernels.h"
#include "providers/cpu/kernels/onnx/nn/conv_integer.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"

namespace ort {
namespace {

enum class Function { kSigmoid, kLeakyRelu, kHardSigmoid };

struct FunctionParams {
  Function function = Function::kSigmoid;
  float alpha = 0.0f;
  float beta = 0.0f;
};

float Apply(const FunctionParams& f, float x) {
  switch (f.function) {
    case Function::kSigmoid:
      return 1.0f / (1.0f + std::exp(-x));
    case Function::kLeakyRelu:
      return x >= 0.0f ? x : f.alpha * x;
    case Function::kHardSigmoid:
      return std::max(0.0f, std::min(1.0f, f.alpha * x + f.beta));
  }
  return x;
}

class QLinearLookup final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    const std::string& op = info.node().op_type();
    if (op == "QLinearLeakyRelu") {
      params_.function = Function::kLeakyRelu;
      ORT_ASSIGN_OR_RETURN(params_.alpha, info.GetAttributeOr<float>("alpha", 0.01f));
    } else if (op == "QLinearHardSigmoid") {
      params_.function = Function::kHardSigmoid;
      ORT_ASSIGN_OR_RETURN(params_.alpha, info.GetAttributeOr<float>("alpha", 0.2f));
      ORT_ASSIGN_OR_RETURN(params_.beta, info.GetAttributeOr<float>("beta", 0.5f));
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* x_scale, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* y_scale, context.RequiredInput(3));
    const Tensor* x_zero = context.Input(2);
    const Tensor* y_zero = context.Input(4);
    if (x_scale->NumElements() != 1 || y_scale->NumElements() != 1) {
      return context.Error("X_scale and Y_scale must hold one value");
    }
    ORT_ASSIGN_OR_RETURN(const std::vector<float> sx, ReadFloatParams<float>(*x_scale));
    ORT_ASSIGN_OR_RETURN(const std::vector<float> sy, ReadFloatParams<float>(*y_scale));
    ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> x_zp,
                         ReadZeroPoints(context, x_zero, x->dtype(), 1, "X_zero_point"));
    ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> y_zp,
                         ReadZeroPoints(context, y_zero, x->dtype(), 1, "Y_zero_point"));
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), x->shape()));
    return DispatchByType<QuantTypes>(x->dtype(), context.node().op_type(), [&]<typename T>() {
      const std::array<uint8_t, 256> table = QuantizedTable<T>(
          [this](float x) { return Apply(params_, x); }, sx[0], x_zp[0], sy[0], y_zp[0]);
      const auto* in = reinterpret_cast<const uint8_t*>(x->Data<T>());
      auto* out = reinterpret_cast<uint8_t*>(y->MutableData<T>());
      ThreadPool::TryParallelFor(context.thread_pool(), x->NumElements(), 1.0,
                                 [&](int64_t begin, int64_t end) {
                                   LookupBytes(table.data(), in + begin, out + begin, end - begin);
                                 });
      return Status::OK();
    });
  }

 private:
  FunctionParams params_;
};

}  // namespace

void RegisterQLinearLookupKernels(KernelRegistry& registry) {
  for (const char* op : {"QLinearSigmoid", "QLinearLeakyRelu", "QLinearHardSigmoid"}) {
    registry.Add<QLinearLookup>(
        KernelDef(op, std::string(kMsDomain)).Versions(1).Input(0, QuantTypes::DataTypes()));
  }
}

}  // namespace ort
