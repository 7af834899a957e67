// PRelu: y = x < 0 ? slope * x : x, the slope broadcast onto x (numpy-style from opset 7; before
// that a 1-D slope holds one value per channel, dimension 1).
#include "providers/cpu/kernels/onnx/activation/activation_kernels.h"
#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/math/fast_math.h"

namespace ort {
namespace {

using PReluTypes = TypeList<float, double, Float16, BFloat16, int32_t, int64_t, uint32_t, uint64_t>;

class PRelu final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    per_channel_ = info.opset() < 7;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* slope, context.RequiredInput(1));
    if (slope->dtype() != x->dtype()) {
      return context.Error("slope has type {}, X has {}", DataTypeName(slope->dtype()),
                           DataTypeName(x->dtype()));
    }
    TensorShape slope_shape = slope->shape();
    const TensorShape& x_shape = x->shape();
    if (per_channel_ && slope_shape.rank() == 1 && x_shape.rank() > 2 &&
        slope_shape[0] == x_shape[1] && slope_shape[0] != 1) {
      std::vector<int64_t> dims(x_shape.rank() - 1, 1);
      dims[0] = slope_shape[0];
      slope_shape = TensorShape(std::move(dims));
    }
    auto broadcast = BroadcastShapes(x_shape, slope_shape);
    if (!broadcast.ok() || *broadcast != x_shape) {
      return context.Error("slope of shape {} cannot be broadcast to X of shape {}",
                           slope->shape().ToString(), x_shape.ToString());
    }
    ORT_ASSIGN_OR_RETURN(const Tensor reshaped, slope->Reshaped(slope_shape));
    return DispatchByType<PReluTypes>(x->dtype(), "PRelu", [&]<typename T>() {
      using C = ComputeType<T>;
      return BroadcastBinaryTensors<T, T, T>(context, *x, reshaped, [](C v, C s) {
        const C scaled = static_cast<C>(WrappingType<C>(v) * WrappingType<C>(s));
        return Pick(v < C(0), scaled, v);
      });
    });
  }

 private:
  bool per_channel_ = false;
};

}  // namespace

void RegisterPReluKernels(KernelRegistry& registry) {
  const auto types = PReluTypes::DataTypes();
  registry.Add<PRelu>(KernelDef("PRelu").Versions(1, 6).Input(0, types));
  registry.Add<PRelu>(KernelDef("PRelu").Versions(7).Input(0, types));
}

}  // namespace ort
