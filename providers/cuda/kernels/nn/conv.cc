// Conv and com.microsoft FusedConv through cuDNN (NCHW, 1 to 3 spatial axes, float and float16).
// The algorithm is chosen once per input shape by timing cuDNN's candidates
// (cudnnFindConvolutionForwardAlgorithmEx, ONNX Runtime's default "exhaustive" search) and kept
// with the shape's descriptors. FusedConv's Z is summed by cuDNN itself (beta = 1 over a copy of
// Z); the bias and the activation run in one epilogue pass.
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "providers/common/activation/fused_activation.h"
#include "providers/common/nn/window_attributes.h"
#include "providers/cuda/cuda_common.h"
#include "providers/cuda/cuda_provider.h"
#include "providers/cuda/kernels/cuda_kernels.h"
#include "providers/cuda/kernels/nn/conv_launch.h"

namespace ort {
namespace {

const std::vector<DataType> kTypes = {DataType::kFloat, DataType::kFloat16};

// The largest workspace the algorithm search lets an algorithm ask for.
constexpr size_t kMaxWorkspaceBytes = size_t{1} << 30;

Result<cuda::ConvActivation> DeviceActivation(const FusedActivationAttributes& activation) {
  switch (activation.kind) {
    case ActivationKind::kNone:
      return cuda::ConvActivation::kNone;
    case ActivationKind::kRelu:
      return cuda::ConvActivation::kRelu;
    case ActivationKind::kLeakyRelu:
      return cuda::ConvActivation::kLeakyRelu;
    case ActivationKind::kTanh:
      return cuda::ConvActivation::kTanh;
    case ActivationKind::kSigmoid:
      return cuda::ConvActivation::kSigmoid;
    case ActivationKind::kHardSigmoid:
      return cuda::ConvActivation::kHardSigmoid;
    case ActivationKind::kClip:
      return cuda::ConvActivation::kClip;
    default:
      return ORT_ERROR(kNotImplemented, "activation kind {} has no CUDA epilogue",
                       static_cast<int>(activation.kind));
  }
}

// Everything cuDNN needs for one input shape, made on its first run.
struct ConvPlan {
  const CudnnApi* api = nullptr;
  cudnnTensorDescriptor_t x = nullptr;
  cudnnTensorDescriptor_t y = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnConvolutionFwdAlgo_t algorithm = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  size_t workspace_bytes = 0;
  WindowGeometry geometry;
  // Set when the pads are asymmetric: X is first copied into a zero-padded buffer of these
  // spatial dims and cuDNN runs unpadded.
  bool pre_pad = false;
  cuda::PadGeometry pad;

  ConvPlan() = default;
  ConvPlan(const ConvPlan&) = delete;
  ConvPlan& operator=(const ConvPlan&) = delete;
  ~ConvPlan() {
    if (api == nullptr) return;
    if (x != nullptr) api->destroy_tensor(x);
    if (y != nullptr) api->destroy_tensor(y);
    if (w != nullptr) api->destroy_filter(w);
    if (conv != nullptr) api->destroy_convolution(conv);
  }
};

// Dims as cuDNN wants them: at least 4, a 1-D convolution becoming a 2-D one of height 1.
std::vector<int> CudnnDims(int64_t first, int64_t second, std::span<const int64_t> spatial) {
  std::vector<int> dims = {static_cast<int>(first), static_cast<int>(second)};
  if (spatial.size() == 1) dims.push_back(1);
  for (int64_t d : spatial) dims.push_back(static_cast<int>(d));
  return dims;
}

std::vector<int> PackedStrides(const std::vector<int>& dims) {
  std::vector<int> strides(dims.size(), 1);
  for (size_t i = dims.size() - 1; i > 0; --i) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

class Conv : public CudaKernel {
 public:
  Status InitAttributes(const KernelInfo& info) override {
    const auto* provider = dynamic_cast<const CudaExecutionProvider*>(&info.provider());
    if (provider != nullptr) {
      cudnn_ = provider->cudnn();
      api_ = provider->cudnn_api();
      float_math_ = provider->FloatConvMathType();
    }
    ORT_RETURN_IF_ERROR(attributes_.Parse(info, false));
    if (fused_) {
      ORT_ASSIGN_OR_RETURN(const FusedActivationAttributes activation, ParseConvActivation(info));
      ORT_ASSIGN_OR_RETURN(activation_, DeviceActivation(activation));
      alpha_ = activation.alpha;
      beta_ = activation.beta;
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* w, context.RequiredInput(1));
    const Tensor* bias = context.Input(2);
    const Tensor* z = fused_ ? context.Input(3) : nullptr;
    const TensorShape& xs = x->shape();
    const TensorShape& ws = w->shape();
    const size_t spatial = xs.rank() < 2 ? 0 : xs.rank() - 2;
    if (spatial < 1 || spatial > static_cast<size_t>(cuda::kMaxConvSpatialRank) ||
        ws.rank() != xs.rank() || w->dtype() != x->dtype()) {
      return context.Error("X {} and W {} must be NC + 1 to 3 spatial axes of one type",
                           x->Describe(), w->Describe());
    }
    const int64_t group = attributes_.group;
    if (group <= 0 || xs[1] != ws[1] * group || ws[0] % group != 0) {
      return context.Error("X {} has not group {} times W {}'s channels", x->Describe(), group,
                           w->Describe());
    }
    if (bias != nullptr && (bias->NumElements() != ws[0] || bias->dtype() != x->dtype())) {
      return context.Error("B {} must hold {} values of X's type", bias->Describe(), ws[0]);
    }
    ORT_ASSIGN_OR_RETURN(const ConvPlan* plan, PlanFor(context, *x, *w));
    std::vector<int64_t> y_dims = {xs[0], ws[0]};
    for (int64_t d : plan->geometry.output) y_dims.push_back(d);
    const TensorShape y_shape(y_dims);
    if (z != nullptr && (z->shape() != y_shape || z->dtype() != x->dtype())) {
      return context.Error("Z {} must be shaped like Y [{}]", z->Describe(),
                           fmt::join(y_dims, ", "));
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), y_shape));
    if (y->NumElements() == 0) return Status::OK();
    const Node& node = context.node();
    const void* input = x->RawData();
    Tensor padded;
    if (plan->pre_pad) {
      std::vector<int64_t> padded_dims = {xs[0], xs[1]};
      for (int d = 0; d < plan->pad.rank; ++d) padded_dims.push_back(plan->pad.output[d]);
      ORT_ASSIGN_OR_RETURN(padded, context.AllocateTemp(x->dtype(), TensorShape(padded_dims)));
      ORT_CUDA_RETURN_IF_ERROR(
          cuda::LaunchPadSpatial(KindOf(*x), x->RawData(), padded.MutableRawData(), xs[0] * xs[1],
                                 plan->pad, stream()),
          node);
      input = padded.RawData();
    }
    float beta = 0.0f;
    if (z != nullptr) {
      if (z->RawData() != y->RawData()) {
        ORT_CUDA_RETURN_IF_ERROR(
            cudaMemcpyAsync(y->MutableRawData(), z->RawData(), y->SizeInBytes(),
                            cudaMemcpyDeviceToDevice, stream()),
            node);
      }
      beta = 1.0f;
    }
    // Most algorithms need no workspace: cuDNN then takes a null pointer.
    Tensor workspace;
    void* workspace_data = nullptr;
    if (plan->workspace_bytes > 0) {
      ORT_ASSIGN_OR_RETURN(
          workspace,
          context.AllocateTemp(DataType::kUint8,
                               TensorShape{static_cast<int64_t>(plan->workspace_bytes)}));
      workspace_data = workspace.MutableRawData();
    }
    const float alpha = 1.0f;
    ORT_RETURN_IF_ERROR(
        CudnnStatus(*api_,
                    api_->forward(cudnn_, &alpha, plan->x, input, plan->w, w->RawData(), plan->conv,
                                  plan->algorithm, workspace_data, plan->workspace_bytes, &beta,
                                  plan->y, y->MutableRawData()),
                    node));
    if (bias == nullptr && activation_ == cuda::ConvActivation::kNone) return Status::OK();
    return CudaStatus(
        cuda::LaunchConvEpilogue(KindOf(*x), y->MutableRawData(),
                                 bias != nullptr ? bias->RawData() : nullptr, y_dims[0], y_dims[1],
                                 plan->geometry.OutputSize(), activation_, alpha_, beta_, stream()),
        node);
  }

 protected:
  bool fused_ = false;

 private:
  static cuda::ElementKind KindOf(const Tensor& x) {
    return x.dtype() == DataType::kFloat ? cuda::ElementKind::kFloat : cuda::ElementKind::kHalf;
  }

  // The cached plan for X's shape, made (and the algorithm timed) on the shape's first run.
  Result<const ConvPlan*> PlanFor(KernelContext& context, const Tensor& x, const Tensor& w) const {
    if (api_ == nullptr) return context.Error("the CUDA provider has no cuDNN");
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = plans_.find(x.shape().dims());
    if (found != plans_.end()) return found->second.get();
    auto made = MakePlan(context, x, w);
    if (!made.ok()) return made.status();
    const ConvPlan* plan = made->get();
    plans_.emplace(x.shape().dims(), std::move(made).value());
    return plan;
  }

  Result<std::unique_ptr<ConvPlan>> MakePlan(KernelContext& context, const Tensor& x,
                                             const Tensor& w) const {
    const TensorShape& xs = x.shape();
    const TensorShape& ws = w.shape();
    const std::vector<int64_t> x_spatial(xs.dims().begin() + 2, xs.dims().end());
    const std::vector<int64_t> kernel(ws.dims().begin() + 2, ws.dims().end());
    auto geometry = ResolveWindow(attributes_, x_spatial, kernel, false);
    if (!geometry.ok()) return context.Error("{}", geometry.status().message());
    auto plan = std::make_unique<ConvPlan>();
    plan->api = api_;
    plan->geometry = std::move(geometry).value();
    const size_t rank = x_spatial.size();
    std::vector<int64_t> input_spatial = x_spatial;
    std::vector<int> pads(rank);
    for (size_t d = 0; d < rank; ++d) {
      plan->pre_pad = plan->pre_pad || plan->geometry.pads[d] != plan->geometry.pads[d + rank];
    }
    if (plan->pre_pad) {
      plan->pad.rank = static_cast<int>(rank);
      for (size_t d = 0; d < rank; ++d) {
        plan->pad.input[d] = x_spatial[d];
        plan->pad.begin[d] = plan->geometry.pads[d];
        plan->pad.output[d] = x_spatial[d] + plan->geometry.pads[d] + plan->geometry.pads[d + rank];
        input_spatial[d] = plan->pad.output[d];
      }
    } else {
      for (size_t d = 0; d < rank; ++d) pads[d] = static_cast<int>(plan->geometry.pads[d]);
    }
    std::vector<int> strides, dilations;
    for (size_t d = 0; d < rank; ++d) {
      strides.push_back(static_cast<int>(plan->geometry.strides[d]));
      dilations.push_back(static_cast<int>(plan->geometry.dilations[d]));
    }
    if (rank == 1) {
      pads.insert(pads.begin(), 0);
      strides.insert(strides.begin(), 1);
      dilations.insert(dilations.begin(), 1);
    }
    const bool is_float = x.dtype() == DataType::kFloat;
    const cudnnDataType_t type = is_float ? CUDNN_DATA_FLOAT : CUDNN_DATA_HALF;
    const Node& node = context.node();
    const std::vector<int> x_dims = CudnnDims(xs[0], xs[1], input_spatial);
    const std::vector<int> w_dims = CudnnDims(ws[0], ws[1], kernel);
    const std::vector<int> y_dims = CudnnDims(xs[0], ws[0], plan->geometry.output);
    const int nb = static_cast<int>(x_dims.size());
    const CudnnApi& api = *api_;
    ORT_RETURN_IF_ERROR(CudnnStatus(api, api.create_tensor(&plan->x), node));
    ORT_RETURN_IF_ERROR(CudnnStatus(api, api.create_tensor(&plan->y), node));
    ORT_RETURN_IF_ERROR(CudnnStatus(api, api.create_filter(&plan->w), node));
    ORT_RETURN_IF_ERROR(CudnnStatus(api, api.create_convolution(&plan->conv), node));
    ORT_RETURN_IF_ERROR(CudnnStatus(
        api, api.set_tensor(plan->x, type, nb, x_dims.data(), PackedStrides(x_dims).data()), node));
    ORT_RETURN_IF_ERROR(CudnnStatus(
        api, api.set_tensor(plan->y, type, nb, y_dims.data(), PackedStrides(y_dims).data()), node));
    ORT_RETURN_IF_ERROR(CudnnStatus(
        api, api.set_filter(plan->w, type, CUDNN_TENSOR_NCHW, nb, w_dims.data()), node));
    ORT_RETURN_IF_ERROR(CudnnStatus(
        api,
        api.set_convolution(plan->conv, nb - 2, pads.data(), strides.data(), dilations.data(),
                            CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
        node));
    ORT_RETURN_IF_ERROR(CudnnStatus(
        api, api.set_group_count(plan->conv, static_cast<int>(attributes_.group)), node));
    const cudnnMathType_t math = is_float ? float_math_ : CUDNN_TENSOR_OP_MATH;
    ORT_RETURN_IF_ERROR(CudnnStatus(api, api.set_math_type(plan->conv, math), node));
    ORT_RETURN_IF_ERROR(FindAlgorithm(context, x, w, *plan, math).WithNode(node.Describe()));
    return plan;
  }

  // Times cuDNN's candidates on this shape (into a scratch Y, so that a Y sharing Z's buffer
  // keeps Z) and keeps the fastest one the math type allows. Its CUDA errors name this step; the
  // caller puts the node in front.
  Status FindAlgorithm(KernelContext& context, const Tensor& x, const Tensor& w, ConvPlan& plan,
                       cudnnMathType_t math) const {
    const CudnnApi& api = *api_;
    const std::string_view where = "choosing a cuDNN algorithm";
    int64_t x_elements = x.shape()[0] * x.shape()[1], y_elements = x.shape()[0] * w.shape()[0];
    for (size_t d = 0; d < plan.geometry.rank(); ++d) {
      x_elements *= plan.pre_pad ? plan.pad.output[d] : plan.geometry.input[d];
      y_elements *= plan.geometry.output[d];
    }
    // A zero input is as fast as any other and needs no copy of X's (maybe unpadded) values.
    ORT_ASSIGN_OR_RETURN(Tensor scratch_x, context.AllocateTemp(x.dtype(), {x_elements}));
    ORT_ASSIGN_OR_RETURN(Tensor scratch_y, context.AllocateTemp(x.dtype(), {y_elements}));
    ORT_CUDA_RETURN_IF_ERROR(
        cudaMemsetAsync(scratch_x.MutableRawData(), 0, scratch_x.SizeInBytes(), stream()), where);
    size_t free_bytes = 0, total_bytes = 0;
    ORT_CUDA_RETURN_IF_ERROR(cudaMemGetInfo(&free_bytes, &total_bytes), where);
    const size_t limit = std::min(kMaxWorkspaceBytes, free_bytes / 2);
    ORT_ASSIGN_OR_RETURN(Tensor workspace,
                         context.AllocateTemp(DataType::kUint8, {static_cast<int64_t>(limit)}));
    constexpr int kCandidates = CUDNN_CONVOLUTION_FWD_ALGO_COUNT;
    cudnnConvolutionFwdAlgoPerf_t results[kCandidates];
    int returned = 0;
    ORT_RETURN_IF_ERROR(
        CudnnStatus(api,
                    api.find_forward(cudnn_, plan.x, scratch_x.RawData(), plan.w, w.RawData(),
                                     plan.conv, plan.y, scratch_y.MutableRawData(), kCandidates,
                                     &returned, results, workspace.MutableRawData(), limit),
                    where));
    // Results come fastest first. Exact float mode keeps its FMA-only math type; the others take
    // the math type the winner was timed with.
    for (int i = 0; i < returned; ++i) {
      const auto& result = results[i];
      if (result.status != CUDNN_STATUS_SUCCESS || result.memory > limit) continue;
      plan.algorithm = result.algo;
      if (math != CUDNN_FMA_MATH) {
        ORT_RETURN_IF_ERROR(CudnnStatus(api, api.set_math_type(plan.conv, result.mathType), where));
      }
      return CudnnStatus(api,
                         api.forward_workspace(cudnn_, plan.x, plan.w, plan.conv, plan.y,
                                               plan.algorithm, &plan.workspace_bytes),
                         where);
    }
    return context.Error("cuDNN has no algorithm for X {} and W {}", x.Describe(), w.Describe());
  }

  WindowAttributes attributes_;
  cudnnHandle_t cudnn_ = nullptr;
  const CudnnApi* api_ = nullptr;
  cudnnMathType_t float_math_ = CUDNN_FMA_MATH;
  cuda::ConvActivation activation_ = cuda::ConvActivation::kNone;
  float alpha_ = 0.0f;
  float beta_ = 0.0f;
  mutable std::mutex mutex_;
  mutable std::map<std::vector<int64_t>, std::unique_ptr<ConvPlan>> plans_;
};

class FusedConv final : public Conv {
 public:
  FusedConv() { fused_ = true; }
};

}  // namespace

void RegisterCudaConvKernels(KernelRegistry& registry) {
  registry.Add<Conv>(KernelDef("Conv").Versions(1, 10).Input(0, kTypes));
  registry.Add<Conv>(KernelDef("Conv").Versions(11).Input(0, kTypes));
  // Y may take Z's buffer: cuDNN adds the convolution onto it (beta = 1).
  registry.Add<FusedConv>(
      KernelDef("FusedConv", std::string(kMsDomain)).Versions(1).Input(0, kTypes).MayInplace(3, 0));
}

}  // namespace ort
