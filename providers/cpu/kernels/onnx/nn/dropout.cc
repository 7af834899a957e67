// Dropout. Inference forwards the input (and an all-true mask). Training (opset 12+
// training_mode input) keeps each element with probability 1 - ratio, scaling kept ones by
// 1 / (1 - ratio). The random stream is MT19937 turned into doubles the way numpy's legacy
// RandomState.uniform does, so a given `seed` reproduces numpy.random.seed(seed) masks.
// Opsets 1-6 always run in inference mode (is_test = 0 training is not honoured: those models
// are run for inference).
#include <random>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

/// A double in [0, 1) with 53 random bits from two 32-bit draws (numpy's random_double).
double NextUniform(std::mt19937& engine) {
  const uint32_t high = engine() >> 5;
  const uint32_t low = engine() >> 6;
  return (high * 67108864.0 + low) / 9007199254740992.0;
}

class Dropout final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    opset_ = info.opset();
    if (opset_ < 12) {
      ORT_ASSIGN_OR_RETURN(ratio_, info.GetAttributeOr<float>("ratio", 0.5f));
    }
    if (info.HasAttribute("seed")) {
      ORT_ASSIGN_OR_RETURN(const int64_t seed, info.GetAttribute<int64_t>("seed"));
      seed_ = static_cast<uint32_t>(seed);
      has_seed_ = true;
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    float ratio = ratio_;
    bool training = false;
    if (opset_ >= 12) {
      if (const Tensor* r = context.Input(1); r != nullptr) {
        if (r->NumElements() != 1) return context.Error("ratio must be a scalar");
        ORT_RETURN_IF_ERROR(DispatchByType<FloatTypes>(r->dtype(), "ratio", [&]<typename R>() {
          ratio = static_cast<float>(r->Data<R>()[0]);
          return Status::OK();
        }));
      }
      if (const Tensor* t = context.Input(2); t != nullptr) {
        if (t->dtype() != DataType::kBool || t->NumElements() != 1) {
          return context.Error("training_mode must be a bool scalar");
        }
        training = t->Data<bool>()[0];
      }
    }
    if (!(ratio >= 0.0f && ratio <= 1.0f)) return context.Error("ratio {} is not in [0, 1]", ratio);
    const bool want_mask = context.IsOutputUsed(1);
    // Opsets 7-9 type the mask like the data; later ones use bool.
    const DataType mask_type = opset_ >= 10 ? DataType::kBool : x->dtype();
    if (!training || ratio == 0.0f) {
      ORT_RETURN_IF_ERROR(context.SetOutput(0, Value(*x)));
      if (want_mask) {
        ORT_ASSIGN_OR_RETURN(Tensor * mask, context.Output(1, mask_type, x->shape()));
        ORT_RETURN_IF_ERROR(FillMask(*mask, [](int64_t) { return true; }));
      }
      return Status::OK();
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), x->shape()));
    const int64_t count = x->NumElements();
    std::vector<bool> keep(static_cast<size_t>(count));
    std::mt19937 engine(has_seed_ ? seed_ : std::random_device{}());
    for (int64_t i = 0; i < count; ++i) keep[i] = NextUniform(engine) >= ratio;
    ORT_RETURN_IF_ERROR(DispatchByType<FloatTypes>(x->dtype(), "Dropout", [&]<typename T>() {
      using C = ComputeType<T>;
      const C scale = ratio < 1.0f ? C(1) / (C(1) - static_cast<C>(ratio)) : C(0);
      const T* in = x->Data<T>();
      T* out = y->MutableData<T>();
      for (int64_t i = 0; i < count; ++i)
        out[i] = static_cast<T>(keep[i] ? C(in[i]) * scale : C(0));
      return Status::OK();
    }));
    if (want_mask) {
      ORT_ASSIGN_OR_RETURN(Tensor * mask, context.Output(1, mask_type, x->shape()));
      ORT_RETURN_IF_ERROR(FillMask(*mask, [&](int64_t i) { return static_cast<bool>(keep[i]); }));
    }
    return Status::OK();
  }

 private:
  template <typename Fn>
  static Status FillMask(Tensor& mask, Fn&& kept) {
    const int64_t count = mask.NumElements();
    if (mask.dtype() == DataType::kBool) {
      bool* out = mask.MutableData<bool>();
      for (int64_t i = 0; i < count; ++i) out[i] = kept(i);
      return Status::OK();
    }
    return DispatchByType<FloatTypes>(mask.dtype(), "Dropout mask", [&]<typename T>() {
      T* out = mask.MutableData<T>();
      for (int64_t i = 0; i < count; ++i) out[i] = static_cast<T>(kept(i) ? 1.0f : 0.0f);
      return Status::OK();
    });
  }

  int64_t opset_ = 13;
  float ratio_ = 0.5f;
  bool has_seed_ = false;
  uint32_t seed_ = 0;
};

}  // namespace

void RegisterDropoutKernels(KernelRegistry& registry) {
  const auto old_types = TypeList<float, double, Float16>::DataTypes();
  registry.Add<Dropout>(KernelDef("Dropout").Versions(1, 5).Input(0, old_types));
  registry.Add<Dropout>(KernelDef("Dropout").Versions(6, 6).Input(0, old_types));
  registry.Add<Dropout>(KernelDef("Dropout").Versions(7, 9).Input(0, old_types));
  registry.Add<Dropout>(KernelDef("Dropout").Versions(10, 11).Input(0, old_types));
  registry.Add<Dropout>(
      KernelDef("Dropout").Versions(12, 12).Input(0, old_types).HostInput(1).HostInput(2));
  registry.Add<Dropout>(KernelDef("Dropout")
                            .Versions(13)
                            .Input(0, FloatTypes::DataTypes())
                            .HostInput(1)
                            .HostInput(2));
}

}  // namespace ort
