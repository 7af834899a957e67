// ConvTranspose: the adjoint of Conv. Per (image, group): columns = W^T X by GEMM, then Col2Im
// scatters them into the output (initialized with the bias). Output size from pads and
// output_padding, or padding derived from output_shape / auto_pad.
#include <algorithm>
#include <vector>

#include "providers/common/nn/window_attributes.h"
#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/common/im2col.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

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

// True when the windows tile the output without overlap or padding (kernel == stride, no
// dilation, no pads, output exactly input * stride) in 2-D: every output element then comes
// from one column entry, so it is written once instead of filled and accumulated.
bool DisjointWindows2d(const TransposeProblem& p) {
  if (p.input.size() != 2) return false;
  for (size_t i = 0; i < 2; ++i) {
    if (p.kernel[i] != p.strides[i] || p.dilations[i] != 1 || p.pads[i] != 0 ||
        p.pads[i + 2] != 0 || p.output[i] != p.input[i] * p.strides[i]) {
      return false;
    }
  }
  return true;
}

// out[f][h * KH + kh][w * KW + kw] = col[(f, kh, kw)][h][w] + bias[f], rows split over `pool`.
template <typename T>
void ScatterDisjointWindows(const TransposeProblem& p, int64_t filters, const T* col, const T* bias,
                            T* out, ThreadPool* pool) {
  const int64_t in_h = p.input[0], in_w = p.input[1];
  const int64_t k_h = p.kernel[0], k_w = p.kernel[1];
  const int64_t out_w = in_w * k_w, in_size = in_h * in_w;
  ThreadPool::TryParallelFor(pool, filters * in_h, static_cast<double>(k_h * out_w),
                             [&](int64_t begin, int64_t end) {
                               for (int64_t row = begin; row < end; ++row) {
                                 const int64_t f = row / in_h, h = row % in_h;
                                 const T b = bias != nullptr ? bias[f] : T(0);
                                 for (int64_t kh = 0; kh < k_h; ++kh) {
                                   T* __restrict o = out + (f * in_h * k_h + h * k_h + kh) * out_w;
                                   const T* c = col + (f * k_h + kh) * k_w * in_size + h * in_w;
                                   if (k_w == 2) {
                                     // The common 2x2 upsampling: two column rows interleaved,
                                     // written in one pass.
                                     const T* __restrict even = c;
                                     const T* __restrict odd = c + in_size;
                                     for (int64_t w = 0; w < in_w; ++w) {
                                       o[2 * w] = even[w] + b;
                                       o[2 * w + 1] = odd[w] + b;
                                     }
                                     continue;
                                   }
                                   for (int64_t kw = 0; kw < k_w; ++kw) {
                                     const T* __restrict source = c + kw * in_size;
                                     for (int64_t w = 0; w < in_w; ++w)
                                       o[w * k_w + kw] = source[w] + b;
                                   }
                                 }
                               }
                             });
}

// Column buffers come from the context's allocator (the arena), so runs reuse them instead of
// mapping and faulting in fresh pages every time.
template <typename T>
Status RunConvTranspose(const TransposeProblem& p, const T* x, const T* w, const T* bias, T* y,
                        const KernelContext& context) {
  ThreadPool* pool = context.thread_pool();
  const int64_t group_channels = p.channels / p.group;
  const int64_t group_filters = p.filters / p.group;
  const int64_t kernel_size = TransposeProblem::Product(p.kernel);
  const int64_t rows = group_filters * kernel_size;
  const int64_t in_size = TransposeProblem::Product(p.input);
  const int64_t out_size = TransposeProblem::Product(p.output);
  // Col2Im runs "backwards": the output is the image and the input positions are the windows.
  const ConvGeometryView view{group_filters, p.output, p.kernel, p.strides,
                              p.dilations,   p.pads,   p.input};
  const bool disjoint = DisjointWindows2d(p);
  auto run_task = [&](int64_t task, T* col, ThreadPool* inner) {
    const int64_t n = task / p.group;
    const int64_t grp = task % p.group;
    const T* image = x + (n * p.channels + grp * group_channels) * in_size;
    T* out = y + (n * p.filters + grp * group_filters) * out_size;
    TypedGemm<T>(true, false, rows, in_size, group_channels, 1.0f, w + grp * group_channels * rows,
                 rows, image, in_size, 0.0f, col, in_size, inner);
    const T* group_bias = bias != nullptr ? bias + grp * group_filters : nullptr;
    if (disjoint) {
      ScatterDisjointWindows<T>(p, group_filters, col, group_bias, out, inner);
      return;
    }
    for (int64_t f = 0; f < group_filters; ++f) {
      const T value = group_bias != nullptr ? group_bias[f] : T(0);
      std::fill(out + f * out_size, out + (f + 1) * out_size, value);
    }
    Col2Im<T>(view, col, out, inner);
  };
  const int64_t tasks = p.batch * p.group;
  const int64_t threads = pool == nullptr ? 1 : pool->DegreeOfParallelism();
  const int64_t col_size = rows * in_size;
  const bool split_tasks = threads > 1 && (tasks >= 2 * threads || tasks % threads == 0);
  const int64_t buffers = split_tasks ? std::min(threads, tasks) : 1;
  ORT_ASSIGN_OR_RETURN(Tensor cols,
                       context.AllocateTemp(DataTypeOf<T>(), TensorShape({buffers, col_size})));
  T* col_data = cols.MutableData<T>();
  if (split_tasks) {
    // One range per buffer, so no two ranges share a column buffer.
    const double cost = 2.0 * static_cast<double>(rows * in_size * group_channels) *
                        static_cast<double>((tasks + buffers - 1) / buffers);
    ThreadPool::TryParallelFor(pool, buffers, cost, [&](int64_t begin, int64_t end) {
      for (int64_t b = begin; b < end; ++b) {
        for (int64_t task = b; task < tasks; task += buffers) {
          run_task(task, col_data + b * col_size, nullptr);
        }
      }
    });
  } else {
    for (int64_t task = 0; task < tasks; ++task) run_task(task, col_data, pool);
  }
  return Status::OK();
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
    return DispatchByType<FloatTypes>(x->dtype(), "ConvTranspose", [&]<typename T>() {
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        return RunConvTranspose<T>(problem, x->Data<T>(), w->Data<T>(),
                                   bias ? bias->Data<T>() : nullptr, y->MutableData<T>(), context);
      } else {
        // Half types compute in float.
        Status status;
        ComputeInFloat<T, 3>({x, w, bias}, *y, [&](const auto& in, float* out) {
          status = RunConvTranspose<float>(problem, in[0], in[1], in[2], out, context);
        });
        return status;
      }
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
