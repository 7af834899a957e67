// ConvInteger: the int32 convolution of 8-bit X and W minus their zero points, W's zero point
// per tensor or per output channel. im2col pads with X's zero point so padding contributes
// nothing. QLinearConv (qlinear_conv.cc) falls back on IntegerConv when its filters are not
// constant.
#include <vector>

#include "providers/cpu/kernels/common/im2col.h"
#include "providers/cpu/kernels/common/qgemm.h"
#include "providers/cpu/kernels/onnx/nn/conv_integer.h"
#include "providers/cpu/kernels/onnx/nn/conv_plan.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {

Result<std::vector<int32_t>> ReadZeroPoints(const KernelContext& context, const Tensor* t,
                                            DataType expected, int64_t per_channel_count,
                                            const char* name) {
  if (t == nullptr) return std::vector<int32_t>{0};
  if (t->dtype() != expected) return context.Error("{} must have its operand's type", name);
  if (t->NumElements() != 1 && t->NumElements() != per_channel_count) {
    return context.Error("{} {} must hold 1 or {} values", name, t->shape().ToString(),
                         per_channel_count);
  }
  std::vector<int32_t> values(static_cast<size_t>(t->NumElements()));
  ORT_RETURN_IF_ERROR(DispatchByType<QuantTypes>(t->dtype(), name, [&]<typename Z>() {
    for (size_t i = 0; i < values.size(); ++i) values[i] = t->Data<Z>()[i];
    return Status::OK();
  }));
  return values;
}

namespace {

/// out [N, M, spatial...] = conv(x - x_zero, w - w_zero) in int32.
template <typename TX, typename TW>
void RunIntegerConv(const ConvProblem& p, const TX* x, int32_t x_zero, const TW* w,
                    const std::vector<int32_t>& w_zero, int32_t* out, ThreadPool* pool) {
  const WindowGeometry& g = p.geometry;
  const int64_t group_channels = p.channels / p.group;
  const int64_t group_filters = p.filters / p.group;
  const int64_t depth = group_channels * g.KernelSize();
  const int64_t in_size = g.InputSize();
  const int64_t out_size = g.OutputSize();
  const bool pointwise = g.IsPointwise();
  const ConvGeometryView view{group_channels, g.input, g.kernel, g.strides,
                              g.dilations,    g.pads,  g.output};
  const int32_t x_zero_values[] = {x_zero};
  std::vector<TX> col(pointwise ? 0 : static_cast<size_t>(depth * out_size));
  for (int64_t task = 0; task < p.batch * p.group; ++task) {
    const int64_t n = task / p.group;
    const int64_t grp = task % p.group;
    const TX* image = x + (n * p.channels + grp * group_channels) * in_size;
    if (!pointwise) Im2Col<TX>(view, image, col.data(), static_cast<TX>(x_zero), pool);
    std::span<const int32_t> filter_zero(w_zero);
    if (w_zero.size() > 1) filter_zero = filter_zero.subspan(grp * group_filters, group_filters);
    QGemm<TW, TX>(group_filters, out_size, depth, w + grp * group_filters * depth, depth,
                  filter_zero, pointwise ? image : col.data(), out_size, x_zero_values,
                  out + (n * p.filters + grp * group_filters) * out_size, out_size, pool);
  }
}

}  // namespace

Status IntegerConv(KernelContext& context, const Tensor& x, const Tensor* x_zero, const Tensor& w,
                   const Tensor* w_zero, const ConvProblem& problem, int32_t* out) {
  ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> zx,
                       ReadZeroPoints(context, x_zero, x.dtype(), 1, "x_zero_point"));
  ORT_ASSIGN_OR_RETURN(const std::vector<int32_t> zw,
                       ReadZeroPoints(context, w_zero, w.dtype(), problem.filters, "w_zero_point"));
  return DispatchByType<QuantTypes>(x.dtype(), "X", [&]<typename TX>() {
    return DispatchByType<QuantTypes>(w.dtype(), "W", [&]<typename TW>() {
      RunIntegerConv<TX, TW>(problem, x.Data<TX>(), zx[0], w.Data<TW>(), zw, out,
                             context.thread_pool());
      return Status::OK();
    });
  });
}

namespace {

class ConvInteger final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override { return attributes_.Parse(info, false); }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* w, context.RequiredInput(1));
    auto problem = PlanConv(attributes_, x->shape(), w->shape());
    if (!problem.ok()) return context.Error("{}", problem.status().message());
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kInt32, problem->OutputShape()));
    if (y->NumElements() == 0) return Status::OK();
    return IntegerConv(context, *x, context.Input(2), *w, context.Input(3), *problem,
                       y->MutableData<int32_t>());
  }

 private:
  WindowAttributes attributes_;
};

}  // namespace

void RegisterConvIntegerKernels(KernelRegistry& registry) {
  const auto types = QuantTypes::DataTypes();
  registry.Add<ConvInteger>(KernelDef("ConvInteger").Versions(10).Input(0, types).Input(1, types));
}

}  // namespace ort
