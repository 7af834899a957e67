// ConvTranspose: the adjoint of Conv. Per (image, group): columns = W^T X by GEMM, then Col2Im
// scatters them into the output (initialized with the bias). Output size from pads and
// output_padding, or padding derived from output_shape / auto_pad.
#include <algorithm>
#include <vector>

#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/common/im2col.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"
#include "providers/cpu/kernels/onnx/nn/window_attributes.h"

namespace ort {
namespace {

struct TransposeProblem {
  int64_t batch = 0;
  int64_t channels = 0;  // input channels C
  int64_t filters = 0;   // output channels M
  int64_t group = 1;
  std::vector<int64_t> input;
  std::vector<int64_t> kernel;
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> pads;
  std::vector<int64_t> output;

  static int64_t Product(const std::vector<int64_t>& values) {
    int64_t product = 1;
    for (int64_t value : values) product *= value;
    return product;
  }
};

template <typename T>
void RunConvTranspose(const TransposeProblem& p, const T* x, const T* w, const T* bias, T* y,
                      ThreadPool* pool) {
  const int64_t group_channels = p.channels / p.group;
  const int64_t group_filters = p.filters / p.group;
  const int64_t kernel_size = TransposeProblem::Product(p.kernel);
  const int64_t rows = group_filters * kernel_size;
  const int64_t in_size = TransposeProblem::Product(p.input);
  const int64_t out_size = TransposeProblem::Product(p.output);
  // Col2Im runs "backwards": the output is the image and the input positions are the windows.
  const ConvGeometryView view{group_filters, p.output, p.kernel, p.strides,
                              p.dilations,   p.pads,   p.input};
  auto run_task = [&](int64_t task, T* col, ThreadPool* inner) {
    const int64_t n = task / p.group;
    const int64_t grp = task % p.group;
    const T* image = x + (n * p.channels + grp * group_channels) * in_size;
    T* out = y + (n * p.filters + grp * group_filters) * out_size;
    TypedGemm<T>(true, false, rows, in_size, group_channels, 1.0f, w + grp * group_channels * rows,
                 rows, image, in_size, 0.0f, col, in_size, inner);
    for (int64_t f = 0; f < group_filters; ++f) {
      const T value = bias != nullptr ? bias[grp * group_filters + f] : T(0);
      std::fill(out + f * out_size, out + (f + 1) * out_size, value);
    }
    Col2Im<T>(view, col, out, inner);
  };
  const int64_t tasks = p.batch * p.group;
  const int64_t threads = pool == nullptr ? 1 : pool->DegreeOfParallelism();
  const auto col_size = static_cast<size_t>(rows * in_size);
  if (threads > 1 && (tasks >= 2 * threads || tasks % threads == 0)) {
    const double cost = 2.0 * static_cast<double>(rows * in_size * group_channels);
    ThreadPool::TryParallelFor(pool, tasks, cost, [&](int64_t begin, int64_t end) {
      std::vector<T> col(col_size);
      for (int64_t task = begin; task < end; ++task) run_task(task, col.data(), nullptr);
    });
  } else {
    std::vector<T> col(col_size);
    for (int64_t task = 0; task < tasks; ++task) run_task(task, col.data(), pool);
  }
}

class ConvTranspose final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(attributes_.Parse(info, false));
    ORT_ASSIGN_OR_RETURN(output_padding_,
                         info.GetAttributeOr<std::vector<int64_t>>("output_padding", {}));
    ORT_ASSIGN_OR_RETURN(output_shape_,
                         info.GetAttributeOr<std::vector<int64_t>>("output_shape", {}));
    for (int64_t value : output_padding_) {
      if (value < 0) return ORT_ERROR(kInvalidArgument, "output_padding must be >= 0");
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* w, context.RequiredInput(1));
    const Tensor* bias = context.Input(2);
    ORT_ASSIGN_OR_RETURN(TransposeProblem problem, Plan(context, *x, *w, bias));
    std::vector<int64_t> y_dims = {problem.batch, problem.filters};
    y_dims.insert(y_dims.end(), problem.output.begin(), problem.output.end());
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), TensorShape(y_dims)));
    if (y->NumElements() == 0) return Status::OK();
    ThreadPool* pool = context.thread_pool();
    return DispatchByType<FloatTypes>(x->dtype(), "ConvTranspose", [&]<typename T>() {
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        RunConvTranspose<T>(problem, x->Data<T>(), w->Data<T>(), bias ? bias->Data<T>() : nullptr,
                            y->MutableData<T>(), pool);
      } else {
        // Half types compute in float.
        ComputeInFloat<T, 3>({x, w, bias}, *y, [&](const auto& in, float* out) {
          RunConvTranspose<float>(problem, in[0], in[1], in[2], out, pool);
        });
      }
      return Status::OK();
    });
  }

 private:
  Result<TransposeProblem> Plan(const KernelContext& context, const Tensor& x, const Tensor& w,
                                const Tensor* bias) const {
    const TensorShape& xs = x.shape();
    const TensorShape& ws = w.shape();
    if (xs.rank() < 3 || xs.rank() - 2 > kMaxSpatialRank || ws.rank() != xs.rank()) {
      return context.Error("X {} must be [N, C, spatial...] and W {} of the same rank",
                           xs.ToString(), ws.ToString());
    }
    if (w.dtype() != x.dtype() || (bias != nullptr && bias->dtype() != x.dtype())) {
      return context.Error("X, W and B must share one element type");
    }
    const size_t rank = xs.rank() - 2;
    TransposeProblem p;
    p.batch = xs[0];
    p.channels = xs[1];
    p.group = attributes_.group;
    p.filters = ws[1] * p.group;
    if (ws[0] != p.channels || p.channels % p.group != 0) {
      return context.Error("W {} must be [C, M / group, kernel...] for X {} and group {}",
                           ws.ToString(), xs.ToString(), p.group);
    }
    if (bias != nullptr && (bias->shape().rank() != 1 || bias->shape()[0] != p.filters)) {
      return context.Error("B {} must be [{}]", bias->shape().ToString(), p.filters);
    }
    p.input.assign(xs.dims().begin() + 2, xs.dims().end());
    p.kernel.assign(ws.dims().begin() + 2, ws.dims().end());
    if (!attributes_.kernel_shape.empty() && attributes_.kernel_shape != p.kernel) {
      return context.Error("kernel_shape does not match W {}", ws.ToString());
    }
    p.strides = attributes_.strides.empty() ? std::vector<int64_t>(rank, 1) : attributes_.strides;
    p.dilations =
        attributes_.dilations.empty() ? std::vector<int64_t>(rank, 1) : attributes_.dilations;
    p.pads = attributes_.pads.empty() ? std::vector<int64_t>(2 * rank, 0) : attributes_.pads;
    const std::vector<int64_t> output_padding =
        output_padding_.empty() ? std::vector<int64_t>(rank, 0) : output_padding_;
    // output_shape may list only the spatial dims or the whole shape.
    std::vector<int64_t> requested = output_shape_;
    if (requested.size() == rank + 2) requested.erase(requested.begin(), requested.begin() + 2);
    if (p.strides.size() != rank || p.dilations.size() != rank || p.pads.size() != 2 * rank ||
        output_padding.size() != rank || (!requested.empty() && requested.size() != rank)) {
      return context.Error(
          "strides, dilations, output_padding, output_shape need {} values and "
          "pads {}",
          rank, 2 * rank);
    }
    p.output.resize(rank);
    for (size_t i = 0; i < rank; ++i) {
      const int64_t full = p.strides[i] * (p.input[i] - 1) + output_padding[i] +
                           (p.kernel[i] - 1) * p.dilations[i] + 1;
      int64_t& begin = p.pads[i];
      int64_t& end = p.pads[i + rank];
      const bool same = attributes_.auto_pad == AutoPad::kSameUpper ||
                        attributes_.auto_pad == AutoPad::kSameLower;
      if (!requested.empty() || same) {
        p.output[i] = !requested.empty() ? requested[i] : p.input[i] * p.strides[i];
        // A requested size beyond the natural one leaves extra end positions at the bias.
        const int64_t total = std::max<int64_t>(0, full - p.output[i]);
        // The odd pixel of padding goes to the end for SAME_UPPER, to the beginning otherwise.
        begin = attributes_.auto_pad == AutoPad::kSameUpper ? total / 2 : total - total / 2;
        end = total - begin;
      } else {
        if (attributes_.auto_pad == AutoPad::kValid) begin = end = 0;
        p.output[i] = full - begin - end;
      }
      if (p.output[i] < 0) {
        return context.Error("spatial axis {}: negative output size {}", i, p.output[i]);
      }
    }
    return p;
  }

  WindowAttributes attributes_;
  std::vector<int64_t> output_padding_;
  std::vector<int64_t> output_shape_;
};

}  // namespace

void RegisterConvTransposeKernels(KernelRegistry& registry) {
  const auto types = FloatTypes::DataTypes();
  registry.Add<ConvTranspose>(KernelDef("ConvTranspose").Versions(1, 10).Input(0, types));
  registry.Add<ConvTranspose>(KernelDef("ConvTranspose").Versions(11).Input(0, types));
}

}  // namespace ort
