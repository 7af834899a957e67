// LSTM (opsets 1, 7, 14): all time steps' input projections come from one GEMM, then each step
// adds Ht-1 * R^T with one GEMM over the batch before the gate arithmetic. Gates are ordered
// i, o, f, c in W, R and B; peepholes P are ordered i, o, f.
#include "providers/cpu/kernels/onnx/rnn/lstm.h"

#include "providers/cpu/kernels/onnx/rnn/rnn_kernels.h"

namespace ort {
namespace rnn {
namespace {

// One batch entry's step: `g` holds the i, o, f, c pre-activations; c and h are updated.
template <typename C>
void Cell(const LstmAttributes& attributes, C* g, const C* p, const Activation* act, int64_t hidden,
          C* c, C* h) {
  C* gi = g;
  C* go = g + hidden;
  C* gf = g + 2 * hidden;
  C* gc = g + 3 * hidden;
  const bool clip = attributes.common.has_clip;
  const float bound = attributes.common.clip;
  if (p != nullptr) {
    for (int64_t j = 0; j < hidden; ++j) gi[j] += p[j] * c[j];
  }
  if (clip) Clip(gi, hidden, bound);
  ApplyActivation(act[0], gi, hidden);
  if (attributes.input_forget) {
    for (int64_t j = 0; j < hidden; ++j) gf[j] = C(1) - gi[j];
  } else {
    if (p != nullptr) {
      for (int64_t j = 0; j < hidden; ++j) gf[j] += p[2 * hidden + j] * c[j];
    }
    if (clip) Clip(gf, hidden, bound);
    ApplyActivation(act[0], gf, hidden);
  }
  if (clip) Clip(gc, hidden, bound);
  ApplyActivation(act[1], gc, hidden);
  for (int64_t j = 0; j < hidden; ++j) c[j] = gf[j] * c[j] + gi[j] * gc[j];
  if (p != nullptr) {
    for (int64_t j = 0; j < hidden; ++j) go[j] += p[hidden + j] * c[j];
  }
  if (clip) Clip(go, hidden, bound);
  ApplyActivation(act[0], go, hidden);
  // h() sees the clipped cell state; the state itself keeps its value.
  std::copy_n(c, hidden, gc);
  if (clip) Clip(gc, hidden, bound);
  ApplyActivation(act[2], gc, hidden);
  for (int64_t j = 0; j < hidden; ++j) h[j] = go[j] * gc[j];
}

}  // namespace

Status LstmAttributes::Parse(const KernelInfo& info) {
  static constexpr ActivationKind kDefaults[] = {ActivationKind::kSigmoid, ActivationKind::kTanh,
                                                 ActivationKind::kTanh};
  ORT_RETURN_IF_ERROR(ParseAttributes(info, kDefaults, &common));
  ORT_ASSIGN_OR_RETURN(const int64_t forget, info.GetAttributeOr<int64_t>("input_forget", 0));
  input_forget = forget != 0;
  return Status::OK();
}

template <typename T>
Status ComputeLstm(KernelContext& context, const LstmAttributes& attributes,
                   const Problem<Compute<T>>& problem) {
  using C = Compute<T>;
  std::vector<C> initial_c;
  ORT_RETURN_IF_ERROR(ReadState<T>(context, 6, attributes.common, problem, &initial_c));
  const int64_t batch = problem.batch, input = problem.input;
  const int64_t hidden = problem.hidden, directions = problem.directions;
  const int64_t rows = kLstmGates * hidden;

  std::vector<C> peepholes;
  if (const Tensor* p = context.Input(7)) {
    if (p->dtype() != DataTypeOf<T>() || p->shape() != TensorShape{directions, 3 * hidden}) {
      return context.Error("P must be {}[{}, {}], got {}", DataTypeName(DataTypeOf<T>()),
                           directions, 3 * hidden, p->Describe());
    }
    peepholes.resize(static_cast<size_t>(p->NumElements()));
    ConvertTo(p->Data<T>(), p->NumElements(), peepholes.data());
  }

  const bool want_y = context.IsOutputUsed(0);
  std::vector<C> y(want_y ? static_cast<size_t>(problem.seq * directions * batch * hidden) : 0,
                   C(0));
  std::vector<C> final_h(static_cast<size_t>(directions * batch * hidden), C(0));
  std::vector<C> final_c(final_h.size(), C(0));
  std::vector<C> projected(static_cast<size_t>(problem.max_length * batch * rows));
  std::vector<C> gates(static_cast<size_t>(batch * rows), C(0));
  std::vector<C> bias(static_cast<size_t>(rows));
  std::vector<C> h(static_cast<size_t>(batch * hidden));
  std::vector<C> c(h.size());
  std::vector<int64_t> times(static_cast<size_t>(batch));

  for (int64_t d = 0; d < directions; ++d) {
    const bool reverse = attributes.common.direction == Direction::kReverse || (d == 1);
    const C* w = problem.weights.w + d * rows * input;
    const C* r = problem.weights.r + d * rows * hidden;
    const C* wb = problem.bias.data() + d * 2 * rows;
    for (int64_t j = 0; j < rows; ++j) bias[j] = wb[j] + wb[rows + j];
    const C* p = peepholes.empty() ? nullptr : peepholes.data() + d * 3 * hidden;
    const Activation* act = attributes.common.activations.data() + d * 3;
    Gemm(problem.max_length * batch, rows, input, problem.x, input, w, input, false,
         projected.data(), rows, context.thread_pool());
    std::copy_n(problem.initial_h.data() + d * batch * hidden, batch * hidden, h.data());
    std::copy_n(initial_c.data() + d * batch * hidden, batch * hidden, c.data());

    for (int64_t s = 0; s < problem.max_length; ++s) {
      LoadStepGates(problem, s, reverse, rows, projected.data(), bias.data(), gates.data(),
                    times.data());
      Gemm(batch, rows, hidden, h.data(), hidden, r, hidden, true, gates.data(), rows,
           context.thread_pool());
      ForBatch(context, batch, 40.0 * static_cast<double>(rows), [&](int64_t begin, int64_t end) {
        for (int64_t b = begin; b < end; ++b) {
          if (times[b] < 0) continue;
          Cell(attributes, gates.data() + b * rows, p, act, hidden, c.data() + b * hidden,
               h.data() + b * hidden);
          if (want_y) {
            std::copy_n(h.data() + b * hidden, hidden,
                        y.data() + ((times[b] * directions + d) * batch + b) * hidden);
          }
        }
      });
    }
    for (int64_t b = 0; b < batch; ++b) {
      if (problem.lengths[b] == 0) continue;  // no step ran: the final states stay zero
      std::copy_n(h.data() + b * hidden, hidden, final_h.data() + (d * batch + b) * hidden);
      std::copy_n(c.data() + b * hidden, hidden, final_c.data() + (d * batch + b) * hidden);
    }
  }
  const std::vector<C>* states[] = {&final_h, &final_c};
  return WriteOutputs<T>(context, attributes.common, problem, y, states);
}

template Status ComputeLstm<float>(KernelContext&, const LstmAttributes&, const Problem<float>&);
template Status ComputeLstm<double>(KernelContext&, const LstmAttributes&, const Problem<double>&);
template Status ComputeLstm<Float16>(KernelContext&, const LstmAttributes&, const Problem<float>&);

}  // namespace rnn

namespace {

class Lstm final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(attributes_.Parse(info));
    return rnn::PrepareConstantWeights(info, attributes_.common, rnn::kLstmGates, &converted_);
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    return DispatchByType<rnn::RnnTypes>(x->dtype(), "LSTM", [&]<typename T>() {
      rnn::Problem<rnn::Compute<T>> problem;
      ORT_RETURN_IF_ERROR(rnn::PrepareProblem<T>(context, attributes_.common, rnn::kLstmGates,
                                                 converted_, &problem));
      return rnn::ComputeLstm<T>(context, attributes_, problem);
    });
  }

 private:
  rnn::LstmAttributes attributes_;
  rnn::ConvertedWeights converted_;
};

}  // namespace

void RegisterLstmKernels(KernelRegistry& registry) {
  const auto types = rnn::RnnTypes::DataTypes();
  const std::vector<DataType> lengths = {DataType::kInt32};
  registry.Add<Lstm>(KernelDef("LSTM").Versions(1, 6).Input(0, types).Input(4, lengths));
  registry.Add<Lstm>(KernelDef("LSTM").Versions(7, 13).Input(0, types).Input(4, lengths));
  registry.Add<Lstm>(KernelDef("LSTM").Versions(14).Input(0, types).Input(4, lengths));
}

}  // namespace ort
