// RandomUniform, RandomNormal, their *Like variants, Bernoulli and Multinomial. A `seed`
// attribute seeds a std::mt19937 afresh on every run (so seeded runs repeat exactly; Compute
// keeps no state); without one each run draws a new seed.
#include <algorithm>
#include <bit>
#include <cmath>
#include <random>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/onnx/generator/generator_kernels.h"

namespace ort {
namespace {

using RandomOutputTypes = TypeList<float, double, Float16>;
using BernoulliOutputTypes = TypeList<float, double, Float16, BFloat16, int8_t, int16_t, int32_t,
                                      int64_t, uint8_t, uint16_t, uint32_t, uint64_t, bool>;

class RandomBase : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    has_seed_ = info.HasAttribute("seed");
    ORT_ASSIGN_OR_RETURN(seed_, info.GetAttributeOr<float>("seed", 0.0f));
    if (info.HasAttribute("dtype")) {
      ORT_ASSIGN_OR_RETURN(const int64_t dtype, info.GetAttribute<int64_t>("dtype"));
      if (!IsKnownDataType(static_cast<int32_t>(dtype))) {
        return ORT_ERROR(kInvalidModel, "unknown dtype {}", dtype).WithNode(info.node().Describe());
      }
      dtype_ = static_cast<DataType>(dtype);
    }
    return Status::OK();
  }

 protected:
  std::mt19937 Engine() const {
    if (has_seed_) return std::mt19937(std::bit_cast<uint32_t>(seed_));
    std::random_device device;
    return std::mt19937(device());
  }

  bool has_seed_ = false;
  float seed_ = 0.0f;
  DataType dtype_ = DataType::kUndefined;  // kUndefined: the default of each op
};

enum class Distribution { kUniform, kNormal };

// RandomUniform/RandomNormal (shape attribute) and the *Like variants (shape of input 0).
template <Distribution kDistribution, bool kLike>
class RandomTensor final : public RandomBase {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(RandomBase::Init(info));
    if constexpr (kDistribution == Distribution::kUniform) {
      ORT_ASSIGN_OR_RETURN(a_, info.GetAttributeOr<float>("low", 0.0f));
      ORT_ASSIGN_OR_RETURN(b_, info.GetAttributeOr<float>("high", 1.0f));
      if (!(a_ <= b_)) {
        return ORT_ERROR(kInvalidModel, "low must not exceed high")
            .WithNode(info.node().Describe());
      }
    } else {
      ORT_ASSIGN_OR_RETURN(a_, info.GetAttributeOr<float>("mean", 0.0f));
      ORT_ASSIGN_OR_RETURN(b_, info.GetAttributeOr<float>("scale", 1.0f));
      if (!(b_ >= 0.0f)) {
        return ORT_ERROR(kInvalidModel, "scale must not be negative")
            .WithNode(info.node().Describe());
      }
    }
    if constexpr (!kLike) {
      ORT_ASSIGN_OR_RETURN(shape_, info.GetAttribute<std::vector<int64_t>>("shape"));
      for (int64_t d : shape_) {
        if (d < 0) {
          return ORT_ERROR(kInvalidModel, "shape has a negative dimension")
              .WithNode(info.node().Describe());
        }
      }
      if (dtype_ == DataType::kUndefined) dtype_ = DataType::kFloat;
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    TensorShape shape(shape_);
    DataType type = dtype_;
    if constexpr (kLike) {
      ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
      shape = input->shape();
      if (type == DataType::kUndefined) type = input->dtype();
    }
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, type, std::move(shape)));
    return DispatchByType<RandomOutputTypes>(type, context.node().op_type(), [&]<typename T>() {
      std::mt19937 engine = Engine();
      T* out = output->MutableData<T>();
      const int64_t count = output->NumElements();
      if constexpr (kDistribution == Distribution::kUniform) {
        std::uniform_real_distribution<double> distribution(a_, b_);
        for (int64_t i = 0; i < count; ++i) out[i] = static_cast<T>(distribution(engine));
      } else {
        std::normal_distribution<double> distribution(a_, b_);
        for (int64_t i = 0; i < count; ++i) out[i] = static_cast<T>(distribution(engine));
      }
      return Status::OK();
    });
  }

 private:
  float a_ = 0.0f;
  float b_ = 1.0f;
  std::vector<int64_t> shape_;
};

// Bernoulli: 1 with the probability given by each input element, else 0.
class Bernoulli final : public RandomBase {
 public:
  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
    const DataType type = dtype_ == DataType::kUndefined ? input->dtype() : dtype_;
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, type, input->shape()));
    std::vector<bool> draws(static_cast<size_t>(input->NumElements()));
    ORT_RETURN_IF_ERROR(DispatchByType<FloatTypes>(input->dtype(), "Bernoulli", [&]<typename P>() {
      const P* probabilities = input->Data<P>();
      std::mt19937 engine = Engine();
      std::uniform_real_distribution<double> uniform(0.0, 1.0);
      for (size_t i = 0; i < draws.size(); ++i) {
        const auto p = static_cast<double>(static_cast<ComputeType<P>>(probabilities[i]));
        if (!(p >= 0.0 && p <= 1.0)) {
          return context.Error("probability {} is outside [0, 1]", p);
        }
        draws[i] = uniform(engine) < p;
      }
      return Status::OK();
    }));
    return DispatchByType<BernoulliOutputTypes>(type, "Bernoulli", [&]<typename T>() {
      T* out = output->MutableData<T>();
      for (size_t i = 0; i < draws.size(); ++i) {
        out[i] = static_cast<T>(static_cast<ComputeType<T>>(draws[i] ? 1 : 0));
      }
      return Status::OK();
    });
  }
};

// Multinomial: sample_size class indices per batch row, drawn from softmax(input row).
class Multinomial final : public RandomBase {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(RandomBase::Init(info));
    ORT_ASSIGN_OR_RETURN(samples_, info.GetAttributeOr<int64_t>("sample_size", 1));
    if (samples_ < 0) {
      return ORT_ERROR(kInvalidModel, "sample_size must not be negative")
          .WithNode(info.node().Describe());
    }
    if (dtype_ == DataType::kUndefined) dtype_ = DataType::kInt32;
    if (dtype_ != DataType::kInt32 && dtype_ != DataType::kInt64) {
      return ORT_ERROR(kInvalidModel, "dtype must be int32 or int64")
          .WithNode(info.node().Describe());
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
    if (input->shape().rank() != 2) {
      return context.Error("input must be [batch, classes], got {}", input->Describe());
    }
    const int64_t batch = input->shape()[0];
    const int64_t classes = input->shape()[1];
    if (classes == 0 && batch > 0 && samples_ > 0) return context.Error("no classes to sample");
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, dtype_, TensorShape{batch, samples_}));
    std::vector<int64_t> picks(static_cast<size_t>(batch * samples_));
    ORT_RETURN_IF_ERROR(
        DispatchByType<FloatTypes>(input->dtype(), "Multinomial", [&]<typename P>() {
          const P* logits = input->Data<P>();
          std::mt19937 engine = Engine();
          std::uniform_real_distribution<double> uniform(0.0, 1.0);
          std::vector<double> cumulative(static_cast<size_t>(classes));
          for (int64_t b = 0; b < batch; ++b) {
            const P* row = logits + b * classes;
            double top = -HUGE_VAL;
            for (int64_t c = 0; c < classes; ++c) {
              top = std::max(top, static_cast<double>(static_cast<ComputeType<P>>(row[c])));
            }
            double total = 0.0;
            for (int64_t c = 0; c < classes; ++c) {
              total += std::exp(static_cast<double>(static_cast<ComputeType<P>>(row[c])) - top);
              cumulative[static_cast<size_t>(c)] = total;
            }
            if (!(total > 0.0) || !std::isfinite(total)) {
              return context.Error("row {} does not define a distribution", b);
            }
            for (int64_t s = 0; s < samples_; ++s) {
              const double u = uniform(engine) * total;
              const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), u);
              picks[static_cast<size_t>(b * samples_ + s)] =
                  std::min<int64_t>(it - cumulative.begin(), classes - 1);
            }
          }
          return Status::OK();
        }));
    if (dtype_ == DataType::kInt64) {
      std::copy(picks.begin(), picks.end(), output->MutableData<int64_t>());
    } else {
      std::transform(picks.begin(), picks.end(), output->MutableData<int32_t>(),
                     [](int64_t v) { return static_cast<int32_t>(v); });
    }
    return Status::OK();
  }

 private:
  int64_t samples_ = 1;
};

}  // namespace

void RegisterRandomKernels(KernelRegistry& registry) {
  const auto floats =
      std::vector<DataType>{DataType::kFloat, DataType::kDouble, DataType::kFloat16};
  registry.Add<RandomTensor<Distribution::kUniform, false>>(KernelDef("RandomUniform").Versions(1));
  registry.Add<RandomTensor<Distribution::kNormal, false>>(KernelDef("RandomNormal").Versions(1));
  registry.Add<RandomTensor<Distribution::kUniform, true>>(
      KernelDef("RandomUniformLike").Versions(1));
  registry.Add<RandomTensor<Distribution::kNormal, true>>(
      KernelDef("RandomNormalLike").Versions(1));
  registry.Add<Bernoulli>(KernelDef("Bernoulli").Versions(15).Input(0, floats));
  registry.Add<Multinomial>(KernelDef("Multinomial").Versions(7).Input(0, floats));
}

}  // namespace ort
