// DepthToSpace (DCR and CRD modes) and SpaceToDepth on NCHW tensors, each a reshape to 6-D, a
// transpose and a reshape back.
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class SpaceDepthBase : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(blocksize_, info.GetAttribute<int64_t>("blocksize"));
    if (blocksize_ <= 0) {
      return ORT_ERROR(kInvalidModel, "blocksize must be positive, got {}", blocksize_)
          .WithNode(info.node().Describe());
    }
    return Status::OK();
  }

 protected:
  // Transposes `data` viewed as `dims6` by `perm` into output 0 of shape `out_dims`.
  static Status Permute(KernelContext& context, const Tensor& data,
                        const std::vector<int64_t>& dims6, const std::vector<size_t>& perm,
                        std::vector<int64_t> out_dims) {
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, data.dtype(), TensorShape(std::move(out_dims))));
    PermuteCopy(data.dtype(), dims6, perm, data.RawData(), output->MutableRawData(),
                context.thread_pool());
    return Status::OK();
  }

  int64_t blocksize_ = 1;
};

class DepthToSpace final : public SpaceDepthBase {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(SpaceDepthBase::Init(info));
    ORT_ASSIGN_OR_RETURN(const std::string mode, info.GetAttributeOr<std::string>("mode", "DCR"));
    if (mode != "DCR" && mode != "CRD") {
      return ORT_ERROR(kInvalidModel, "unknown mode '{}'", mode).WithNode(info.node().Describe());
    }
    crd_ = mode == "CRD";
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    if (data->shape().rank() != 4)
      return context.Error("input must be 4-D, got {}", data->Describe());
    const auto& d = data->shape().dims();
    const int64_t b = blocksize_;
    if (d[1] % (b * b) != 0) {
      return context.Error("channels {} are not divisible by blocksize^2 = {}", d[1], b * b);
    }
    const int64_t c = d[1] / (b * b);
    std::vector<int64_t> out_dims = {d[0], c, d[2] * b, d[3] * b};
    if (crd_)
      return Permute(context, *data, {d[0], c, b, b, d[2], d[3]}, {0, 1, 4, 2, 5, 3}, out_dims);
    return Permute(context, *data, {d[0], b, b, c, d[2], d[3]}, {0, 3, 4, 1, 5, 2}, out_dims);
  }

 private:
  bool crd_ = false;
};

class SpaceToDepth final : public SpaceDepthBase {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    if (data->shape().rank() != 4)
      return context.Error("input must be 4-D, got {}", data->Describe());
    const auto& d = data->shape().dims();
    const int64_t b = blocksize_;
    if (d[2] % b != 0 || d[3] % b != 0) {
      return context.Error("spatial size {}x{} is not divisible by blocksize {}", d[2], d[3], b);
    }
    return Permute(context, *data, {d[0], d[1], d[2] / b, b, d[3] / b, b}, {0, 3, 5, 1, 2, 4},
                   {d[0], d[1] * b * b, d[2] / b, d[3] / b});
  }
};

}  // namespace

void RegisterDepthToSpaceKernels(KernelRegistry& registry) {
  registry.Add<DepthToSpace>(KernelDef("DepthToSpace").Versions(1).Input(0, AllDataTypes()));
  registry.Add<SpaceToDepth>(KernelDef("SpaceToDepth").Versions(1).Input(0, AllDataTypes()));
}

}  // namespace ort
