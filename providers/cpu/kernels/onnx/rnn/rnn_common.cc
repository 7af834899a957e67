#include "providers/cpu/kernels/onnx/rnn/rnn_common.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include "providers/cpu/kernels/common/gemm.h"

namespace ort::rnn {
namespace {

struct ActivationInfo {
  std::string_view name;  // lower case
  ActivationKind kind;
  bool takes_alpha;
  bool takes_beta;
  float default_alpha;
  float default_beta;
};

constexpr ActivationInfo kActivations[] = {
    {"relu", ActivationKind::kRelu, false, false, 0, 0},
    {"tanh", ActivationKind::kTanh, false, false, 0, 0},
    {"sigmoid", ActivationKind::kSigmoid, false, false, 0, 0},
    {"affine", ActivationKind::kAffine, true, true, 1.0f, 0.0f},
    {"leakyrelu", ActivationKind::kLeakyRelu, true, false, 0.01f, 0},
    {"thresholdedrelu", ActivationKind::kThresholdedRelu, true, false, 1.0f, 0},
    {"scaledtanh", ActivationKind::kScaledTanh, true, true, 1.0f, 1.0f},
    {"hardsigmoid", ActivationKind::kHardSigmoid, true, true, 0.2f, 0.5f},
    {"elu", ActivationKind::kElu, true, false, 1.0f, 0},
    {"softsign", ActivationKind::kSoftsign, false, false, 0, 0},
    {"softplus", ActivationKind::kSoftplus, false, false, 0, 0},
};

const ActivationInfo* FindActivation(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& info : kActivations) {
    if (info.name == lower) return &info;
  }
  return nullptr;
}

const ActivationInfo* InfoOf(ActivationKind kind) {
  for (const auto& info : kActivations) {
    if (info.kind == kind) return &info;
  }
  return nullptr;
}

std::string ShapeOf(const Tensor& tensor) { return tensor.shape().ToString(); }

}  // namespace

template <typename C>
void ApplyActivation(const Activation& activation, C* values, int64_t n) {
  const C alpha = static_cast<C>(activation.alpha);
  const C beta = static_cast<C>(activation.beta);
  switch (activation.kind) {
    case ActivationKind::kRelu:
      for (int64_t i = 0; i < n; ++i) values[i] = std::max(values[i], C(0));
      break;
    case ActivationKind::kTanh:
      for (int64_t i = 0; i < n; ++i) values[i] = std::tanh(values[i]);
      break;
    case ActivationKind::kSigmoid:
      for (int64_t i = 0; i < n; ++i) values[i] = C(1) / (C(1) + std::exp(-values[i]));
      break;
    case ActivationKind::kAffine:
      for (int64_t i = 0; i < n; ++i) values[i] = alpha * values[i] + beta;
      break;
    case ActivationKind::kLeakyRelu:
      for (int64_t i = 0; i < n; ++i) values[i] = values[i] >= 0 ? values[i] : alpha * values[i];
      break;
    case ActivationKind::kThresholdedRelu:
      for (int64_t i = 0; i < n; ++i) values[i] = values[i] >= alpha ? values[i] : C(0);
      break;
    case ActivationKind::kScaledTanh:
      for (int64_t i = 0; i < n; ++i) values[i] = alpha * std::tanh(beta * values[i]);
      break;
    case ActivationKind::kHardSigmoid:
      for (int64_t i = 0; i < n; ++i) {
        values[i] = std::min(C(1), std::max(C(0), alpha * values[i] + beta));
      }
      break;
    case ActivationKind::kElu:
      for (int64_t i = 0; i < n; ++i) {
        values[i] = values[i] >= 0 ? values[i] : alpha * (std::exp(values[i]) - C(1));
      }
      break;
    case ActivationKind::kSoftsign:
      for (int64_t i = 0; i < n; ++i) values[i] = values[i] / (C(1) + std::abs(values[i]));
      break;
    case ActivationKind::kSoftplus:
      for (int64_t i = 0; i < n; ++i) {
        // log(1 + e^x) without overflow for large x.
        const C x = values[i];
        values[i] = x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
      }
      break;
  }
}

template void ApplyActivation<float>(const Activation&, float*, int64_t);
template void ApplyActivation<double>(const Activation&, double*, int64_t);

Status ParseAttributes(const KernelInfo& info, std::span<const ActivationKind> defaults,
                       Attributes* attributes) {
  const std::string describe = info.node().Describe();
  ORT_ASSIGN_OR_RETURN(std::string direction,
                       info.GetAttributeOr<std::string>("direction", "forward"));
  if (direction == "forward") {
    attributes->direction = Direction::kForward;
  } else if (direction == "reverse") {
    attributes->direction = Direction::kReverse;
  } else if (direction == "bidirectional") {
    attributes->direction = Direction::kBidirectional;
  } else {
    return ORT_ERROR(kInvalidModel, "unknown direction '{}'", direction).WithNode(describe);
  }
  attributes->num_directions = attributes->direction == Direction::kBidirectional ? 2 : 1;

  ORT_ASSIGN_OR_RETURN(attributes->hidden_size, info.GetAttributeOr<int64_t>("hidden_size", -1));
  if (info.HasAttribute("hidden_size") && attributes->hidden_size <= 0) {
    return ORT_ERROR(kInvalidModel, "hidden_size must be positive, got {}", attributes->hidden_size)
        .WithNode(describe);
  }
  if (info.HasAttribute("clip")) {
    ORT_ASSIGN_OR_RETURN(attributes->clip, info.GetAttribute<float>("clip"));
    if (!(attributes->clip > 0)) {
      return ORT_ERROR(kInvalidModel, "clip must be positive, got {}", attributes->clip)
          .WithNode(describe);
    }
    attributes->has_clip = true;
  }
  ORT_ASSIGN_OR_RETURN(attributes->layout, info.GetAttributeOr<int64_t>("layout", 0));
  if (attributes->layout != 0 && attributes->layout != 1) {
    return ORT_ERROR(kInvalidModel, "layout must be 0 or 1, got {}", attributes->layout)
        .WithNode(describe);
  }

  const size_t per_direction = defaults.size();
  const size_t total = per_direction * static_cast<size_t>(attributes->num_directions);
  std::vector<const ActivationInfo*> specs;
  if (info.HasAttribute("activations")) {
    ORT_ASSIGN_OR_RETURN(auto names, info.GetAttribute<std::vector<std::string>>("activations"));
    for (const auto& name : names) {
      const ActivationInfo* found = FindActivation(name);
      if (found == nullptr) {
        return ORT_ERROR(kInvalidModel, "unsupported activation '{}'", name).WithNode(describe);
      }
      specs.push_back(found);
    }
    // A bidirectional node listing one direction's activations uses them for both.
    if (specs.size() == per_direction && total == 2 * per_direction) {
      const std::vector<const ActivationInfo*> forward = specs;
      specs.insert(specs.end(), forward.begin(), forward.end());
    }
    if (specs.size() != total) {
      return ORT_ERROR(kInvalidModel, "expected {} activations, got {}", total, names.size())
          .WithNode(describe);
    }
  } else {
    for (int64_t d = 0; d < attributes->num_directions; ++d) {
      for (ActivationKind kind : defaults) specs.push_back(InfoOf(kind));
    }
  }
  ORT_ASSIGN_OR_RETURN(auto alphas,
                       info.GetAttributeOr<std::vector<float>>("activation_alpha", {}));
  ORT_ASSIGN_OR_RETURN(auto betas, info.GetAttributeOr<std::vector<float>>("activation_beta", {}));
  // activation_alpha/beta list values only for the activations that take them, in order.
  size_t next_alpha = 0, next_beta = 0;
  attributes->activations.clear();
  for (const ActivationInfo* spec : specs) {
    Activation activation{spec->kind, spec->default_alpha, spec->default_beta};
    if (spec->takes_alpha && next_alpha < alphas.size()) activation.alpha = alphas[next_alpha++];
    if (spec->takes_beta && next_beta < betas.size()) activation.beta = betas[next_beta++];
    attributes->activations.push_back(activation);
  }
  return Status::OK();
}

Status ValidateWeights(const Tensor& w, const Tensor& r, const Attributes& attributes,
                       int64_t gates) {
  if (w.shape().rank() != 3 || r.shape().rank() != 3) {
    return ORT_ERROR(kInvalidArgument, "W and R must have rank 3, got {} and {}", ShapeOf(w),
                     ShapeOf(r));
  }
  if (w.dtype() != r.dtype()) {
    return ORT_ERROR(kInvalidArgument, "W and R must have the same element type, got {} and {}",
                     DataTypeName(w.dtype()), DataTypeName(r.dtype()));
  }
  const int64_t directions = attributes.num_directions;
  const int64_t hidden = attributes.hidden_size > 0 ? attributes.hidden_size : r.shape()[2];
  const int64_t rows = gates * hidden;
  if (w.shape()[0] != directions || w.shape()[1] != rows) {
    return ORT_ERROR(kInvalidArgument, "W must be [{}, {}, input_size], got {}", directions, rows,
                     ShapeOf(w));
  }
  if (r.shape() != TensorShape{directions, rows, hidden}) {
    return ORT_ERROR(kInvalidArgument, "R must be [{}, {}, {}], got {}", directions, rows, hidden,
                     ShapeOf(r));
  }
  return Status::OK();
}

Status PrepareConstantWeights(const KernelInfo& info, const Attributes& attributes, int64_t gates,
                              ConvertedWeights* converted) {
  const Tensor* w = info.ConstantInput(1);
  const Tensor* r = info.ConstantInput(2);
  if (w == nullptr || r == nullptr) return Status::OK();
  Status status = ValidateWeights(*w, *r, attributes, gates);
  if (!status.ok()) return status.WithNode(info.node().Describe());
  if (w->dtype() == DataType::kFloat16) {
    converted->w.resize(static_cast<size_t>(w->NumElements()));
    converted->r.resize(static_cast<size_t>(r->NumElements()));
    ConvertTo(w->Data<Float16>(), w->NumElements(), converted->w.data());
    ConvertTo(r->Data<Float16>(), r->NumElements(), converted->r.data());
    converted->ready = true;
  }
  return Status::OK();
}

template <typename T>
Status PrepareProblem(KernelContext& context, const Attributes& attributes, int64_t gates,
                      const ConvertedWeights& converted, Problem<Compute<T>>* problem) {
  using C = Compute<T>;
  ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
  ORT_ASSIGN_OR_RETURN(const Tensor* w, context.RequiredInput(1));
  ORT_ASSIGN_OR_RETURN(const Tensor* r, context.RequiredInput(2));
  if (x->shape().rank() != 3) {
    return context.Error("X must have rank 3, got shape {}", ShapeOf(*x));
  }
  if (w->dtype() != x->dtype() || r->dtype() != x->dtype()) {
    return context.Error("X, W and R must have the same element type");
  }
  Status status = ValidateWeights(*w, *r, attributes, gates);
  if (!status.ok()) return context.Error("{}", status.message());
  Weights<C>& weights = problem->weights;
  if constexpr (std::is_same_v<T, C>) {
    weights.w = w->Data<T>();
    weights.r = r->Data<T>();
  } else if (converted.ready) {
    weights.w = converted.w.data();
    weights.r = converted.r.data();
  } else {
    weights.w_storage.resize(static_cast<size_t>(w->NumElements()));
    weights.r_storage.resize(static_cast<size_t>(r->NumElements()));
    ConvertTo(w->Data<T>(), w->NumElements(), weights.w_storage.data());
    ConvertTo(r->Data<T>(), r->NumElements(), weights.r_storage.data());
    weights.w = weights.w_storage.data();
    weights.r = weights.r_storage.data();
  }
  problem->hidden = attributes.hidden_size > 0 ? attributes.hidden_size : r->shape()[2];
  return ReadSequenceInputs<T>(context, attributes, gates, w->shape()[2], problem);
}

template <typename T>
Status ReadSequenceInputs(KernelContext& context, const Attributes& attributes, int64_t gates,
                          int64_t input_size, Problem<Compute<T>>* problem) {
  using C = Compute<T>;
  ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
  if (x->shape().rank() != 3 || x->dtype() != DataTypeOf<T>()) {
    return context.Error("X must be {} of rank 3, got {}", DataTypeName(DataTypeOf<T>()),
                         x->Describe());
  }
  const int64_t directions = attributes.num_directions;
  problem->directions = directions;
  const int64_t hidden = problem->hidden;
  const bool batch_major = attributes.layout == 1;
  problem->seq = x->shape()[batch_major ? 1 : 0];
  problem->batch = x->shape()[batch_major ? 0 : 1];
  problem->input = x->shape()[2];
  const int64_t seq = problem->seq, batch = problem->batch, input = problem->input;
  if (input != input_size) {
    return context.Error("X has input size {} but W expects {}", input, input_size);
  }

  // X in [seq, batch, input] compute-type form, reusing the input when it already is.
  if (std::is_same_v<T, C> && !batch_major) {
    problem->x = reinterpret_cast<const C*>(x->Data<T>());
  } else {
    problem->x_storage.resize(static_cast<size_t>(x->NumElements()));
    const T* source = x->Data<T>();
    if (batch_major) {
      for (int64_t b = 0; b < batch; ++b) {
        for (int64_t t = 0; t < seq; ++t) {
          ConvertTo(source + (b * seq + t) * input, input,
                    problem->x_storage.data() + (t * batch + b) * input);
        }
      }
    } else {
      ConvertTo(source, x->NumElements(), problem->x_storage.data());
    }
    problem->x = problem->x_storage.data();
  }

  const int64_t bias_size = 2 * gates * hidden;
  problem->bias.assign(static_cast<size_t>(directions * bias_size), C(0));
  if (const Tensor* b = context.Input(3)) {
    if (b->dtype() != x->dtype() || b->shape() != TensorShape{directions, bias_size}) {
      return context.Error("B must be {}[{}, {}], got {}", DataTypeName(x->dtype()), directions,
                           bias_size, b->Describe());
    }
    ConvertTo(b->Data<T>(), b->NumElements(), problem->bias.data());
  }

  problem->lengths.assign(static_cast<size_t>(batch), seq);
  if (const Tensor* lens = context.Input(4)) {
    if (lens->dtype() != DataType::kInt32 || lens->shape() != TensorShape{batch}) {
      return context.Error("sequence_lens must be int32[{}], got {}", batch, lens->Describe());
    }
    const int32_t* values = lens->Data<int32_t>();
    for (int64_t b = 0; b < batch; ++b) {
      if (values[b] < 0 || values[b] > seq) {
        return context.Error("sequence_lens[{}] = {} is outside [0, {}]", b, values[b], seq);
      }
      problem->lengths[b] = values[b];
    }
  }
  problem->max_length = 0;
  for (int64_t length : problem->lengths)
    problem->max_length = std::max(problem->max_length, length);

  return ReadState<T>(context, 5, attributes, *problem, &problem->initial_h);
}

template <typename T>
Status ReadState(KernelContext& context, size_t index, const Attributes& attributes,
                 const Problem<Compute<T>>& problem, std::vector<Compute<T>>* state) {
  using C = Compute<T>;
  const int64_t directions = problem.directions, batch = problem.batch, hidden = problem.hidden;
  state->assign(static_cast<size_t>(directions * batch * hidden), C(0));
  const Tensor* tensor = context.Input(index);
  if (tensor == nullptr) return Status::OK();
  const bool batch_major = attributes.layout == 1;
  const TensorShape expected =
      batch_major ? TensorShape{batch, directions, hidden} : TensorShape{directions, batch, hidden};
  if (tensor->dtype() != DataTypeOf<T>() || tensor->shape() != expected) {
    return context.Error("input {} must be {}{}, got {}", index, DataTypeName(DataTypeOf<T>()),
                         expected.ToString(), tensor->Describe());
  }
  const T* source = tensor->Data<T>();
  if (!batch_major) {
    ConvertTo(source, tensor->NumElements(), state->data());
    return Status::OK();
  }
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t d = 0; d < directions; ++d) {
      ConvertTo(source + (b * directions + d) * hidden, hidden,
                state->data() + (d * batch + b) * hidden);
    }
  }
  return Status::OK();
}

template <typename T>
Status WriteOutputs(KernelContext& context, const Attributes& attributes,
                    const Problem<Compute<T>>& problem, const std::vector<Compute<T>>& y,
                    std::span<const std::vector<Compute<T>>* const> states) {
  using C = Compute<T>;
  const int64_t seq = problem.seq, batch = problem.batch, hidden = problem.hidden;
  const int64_t directions = problem.directions;
  const bool batch_major = attributes.layout == 1;
  auto store = [](const C* source, int64_t n, T* destination) {
    for (int64_t i = 0; i < n; ++i) destination[i] = static_cast<T>(source[i]);
  };
  if (context.IsOutputUsed(0)) {
    const TensorShape shape = batch_major ? TensorShape{batch, seq, directions, hidden}
                                          : TensorShape{seq, directions, batch, hidden};
    ORT_ASSIGN_OR_RETURN(Tensor * out, context.Output(0, DataTypeOf<T>(), shape));
    T* data = out->MutableData<T>();
    if (!batch_major) {
      store(y.data(), static_cast<int64_t>(y.size()), data);
    } else {
      for (int64_t t = 0; t < seq; ++t) {
        for (int64_t d = 0; d < directions; ++d) {
          for (int64_t b = 0; b < batch; ++b) {
            store(y.data() + ((t * directions + d) * batch + b) * hidden, hidden,
                  data + ((b * seq + t) * directions + d) * hidden);
          }
        }
      }
    }
  }
  for (size_t i = 0; i < states.size(); ++i) {
    const size_t index = i + 1;
    if (!context.IsOutputUsed(index)) continue;
    const TensorShape shape = batch_major ? TensorShape{batch, directions, hidden}
                                          : TensorShape{directions, batch, hidden};
    ORT_ASSIGN_OR_RETURN(Tensor * out, context.Output(index, DataTypeOf<T>(), shape));
    T* data = out->MutableData<T>();
    const C* source = states[i]->data();
    if (!batch_major) {
      store(source, directions * batch * hidden, data);
    } else {
      for (int64_t d = 0; d < directions; ++d) {
        for (int64_t b = 0; b < batch; ++b) {
          store(source + (d * batch + b) * hidden, hidden, data + (b * directions + d) * hidden);
        }
      }
    }
  }
  return Status::OK();
}

void ForBatch(KernelContext& context, int64_t batch, double cost_per_entry,
              const std::function<void(int64_t, int64_t)>& step) {
  ThreadPool::TryParallelFor(context.thread_pool(), batch, cost_per_entry, step);
}

void Gemm(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b, int64_t ldb,
          bool accumulate, float* c, int64_t ldc, ThreadPool* pool) {
  Sgemm(false, true, m, n, k, 1.0f, a, lda, b, ldb, accumulate ? 1.0f : 0.0f, c, ldc, pool);
}

void Gemm(int64_t m, int64_t n, int64_t k, const double* a, int64_t lda, const double* b,
          int64_t ldb, bool accumulate, double* c, int64_t ldc, ThreadPool* pool) {
  Dgemm(false, true, m, n, k, 1.0, a, lda, b, ldb, accumulate ? 1.0 : 0.0, c, ldc, pool);
}

#define ORT_RNN_INSTANTIATE(T)                                                                   \
  template Status PrepareProblem<T>(KernelContext&, const Attributes&, int64_t,                  \
                                    const ConvertedWeights&, Problem<Compute<T>>*);              \
  template Status ReadSequenceInputs<T>(KernelContext&, const Attributes&, int64_t, int64_t,     \
                                        Problem<Compute<T>>*);                                   \
  template Status ReadState<T>(KernelContext&, size_t, const Attributes&,                        \
                               const Problem<Compute<T>>&, std::vector<Compute<T>>*);            \
  template Status WriteOutputs<T>(KernelContext&, const Attributes&, const Problem<Compute<T>>&, \
                                  const std::vector<Compute<T>>&,                                \
                                  std::span<const std::vector<Compute<T>>* const>);
ORT_RNN_INSTANTIATE(float)
ORT_RNN_INSTANTIATE(double)
ORT_RNN_INSTANTIATE(Float16)
#undef ORT_RNN_INSTANTIATE

}  // namespace ort::rnn
