// GRU (opsets 1, 3, 7, 14). Gates are ordered z, r, h in W, R and B. With linear_before_reset=0
// the hidden gate's recurrence multiplies (r * Ht-1) by Rh, so each step runs two GEMMs: the z
// and r columns first, then the h columns on the reset state. With linear_before_reset=1 one
// GEMM computes Ht-1 * R^T and r scales (Ht-1 * Rh^T + Rbh) afterwards.
#include "providers/cpu/kernels/onnx/rnn/rnn_common.h"
#include "providers/cpu/kernels/onnx/rnn/rnn_kernels.h"

namespace ort {
namespace {

using rnn::ActivationKind;
using rnn::ApplyActivation;

constexpr int64_t kGates = 3;

class Gru final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    static constexpr ActivationKind kDefaults[] = {ActivationKind::kSigmoid, ActivationKind::kTanh};
    ORT_RETURN_IF_ERROR(rnn::ParseAttributes(info, kDefaults, &attributes_));
    ORT_ASSIGN_OR_RETURN(int64_t linear, info.GetAttributeOr<int64_t>("linear_before_reset", 0));
    linear_before_reset_ = linear != 0;
    return rnn::PrepareConstantWeights(info, attributes_, kGates, &converted_);
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    return DispatchByType<rnn::RnnTypes>(x->dtype(), "GRU",
                                         [&]<typename T>() { return ComputeTyped<T>(context); });
  }

 private:
  template <typename T>
  Status ComputeTyped(KernelContext& context) const {
    using C = rnn::Compute<T>;
    rnn::Problem<C> problem;
    ORT_RETURN_IF_ERROR(rnn::PrepareProblem<T>(context, attributes_, kGates, converted_, &problem));
    const int64_t seq = problem.seq, batch = problem.batch, input = problem.input;
    const int64_t hidden = problem.hidden, directions = problem.directions;
    const int64_t rows = kGates * hidden;
    ThreadPool* pool = context.thread_pool();

    const bool want_y = context.IsOutputUsed(0);
    std::vector<C> y(want_y ? static_cast<size_t>(seq * directions * batch * hidden) : 0, C(0));
    std::vector<C> final_h(static_cast<size_t>(directions * batch * hidden), C(0));
    std::vector<C> projected(static_cast<size_t>(problem.max_length * batch * rows));
    std::vector<C> gates(static_cast<size_t>(batch * rows), C(0));
    // linear_before_reset: Ht-1 * R^T; otherwise r * Ht-1.
    std::vector<C> recurrent(static_cast<size_t>(batch * (linear_before_reset_ ? rows : hidden)),
                             C(0));
    std::vector<C> bias(static_cast<size_t>(rows));
    std::vector<C> h(static_cast<size_t>(batch * hidden));
    std::vector<int64_t> times(static_cast<size_t>(batch));

    for (int64_t d = 0; d < directions; ++d) {
      const bool reverse = attributes_.direction == rnn::Direction::kReverse || (d == 1);
      const C* w = problem.weights.w + d * rows * input;
      const C* r = problem.weights.r + d * rows * hidden;
      const C* wb = problem.bias.data() + d * 2 * rows;
      const C* rbh = wb + rows + 2 * hidden;
      // Rbh joins the input side only when r does not scale it.
      for (int64_t j = 0; j < rows; ++j) {
        const bool separate = linear_before_reset_ && j >= 2 * hidden;
        bias[j] = wb[j] + (separate ? C(0) : wb[rows + j]);
      }
      const rnn::Activation* act = attributes_.activations.data() + d * 2;
      rnn::Gemm(problem.max_length * batch, rows, input, problem.x, input, w, input, false,
                projected.data(), rows, pool);
      std::copy_n(problem.initial_h.data() + d * batch * hidden, batch * hidden, h.data());

      for (int64_t s = 0; s < problem.max_length; ++s) {
        rnn::LoadStepGates(problem, s, reverse, rows, projected.data(), bias.data(), gates.data(),
                           times.data());
        const double cost = 30.0 * static_cast<double>(rows);
        if (linear_before_reset_) {
          rnn::Gemm(batch, rows, hidden, h.data(), hidden, r, hidden, false, recurrent.data(), rows,
                    pool);
          rnn::ForBatch(context, batch, cost, [&](int64_t begin, int64_t end) {
            for (int64_t b = begin; b < end; ++b) {
              if (times[b] < 0) continue;
              C* g = gates.data() + b * rows;
              const C* rec = recurrent.data() + b * rows;
              for (int64_t j = 0; j < 2 * hidden; ++j) g[j] += rec[j];
              UpdateGates(g, act[0], hidden);
              const C* reset = g + hidden;
              C* candidate = g + 2 * hidden;
              for (int64_t j = 0; j < hidden; ++j) {
                candidate[j] += reset[j] * (rec[2 * hidden + j] + rbh[j]);
              }
              Finish(g, act[1], hidden, h.data() + b * hidden);
            }
          });
        } else {
          rnn::Gemm(batch, 2 * hidden, hidden, h.data(), hidden, r, hidden, true, gates.data(),
                    rows, pool);
          rnn::ForBatch(context, batch, cost, [&](int64_t begin, int64_t end) {
            for (int64_t b = begin; b < end; ++b) {
              if (times[b] < 0) continue;
              C* g = gates.data() + b * rows;
              UpdateGates(g, act[0], hidden);
              const C* reset = g + hidden;
              const C* state = h.data() + b * hidden;
              C* scaled = recurrent.data() + b * hidden;
              for (int64_t j = 0; j < hidden; ++j) scaled[j] = reset[j] * state[j];
            }
          });
          // Inactive entries' rows of `recurrent` are stale but only feed unused gate rows.
          rnn::Gemm(batch, hidden, hidden, recurrent.data(), hidden, r + 2 * hidden * hidden,
                    hidden, true, gates.data() + 2 * hidden, rows, pool);
          rnn::ForBatch(context, batch, cost, [&](int64_t begin, int64_t end) {
            for (int64_t b = begin; b < end; ++b) {
              if (times[b] >= 0)
                Finish(gates.data() + b * rows, act[1], hidden, h.data() + b * hidden);
            }
          });
        }
        if (want_y) {
          for (int64_t b = 0; b < batch; ++b) {
            if (times[b] < 0) continue;
            std::copy_n(h.data() + b * hidden, hidden,
                        y.data() + ((times[b] * directions + d) * batch + b) * hidden);
          }
        }
      }
      for (int64_t b = 0; b < batch; ++b) {
        if (problem.lengths[b] == 0) continue;  // no step ran: the final state stays zero
        std::copy_n(h.data() + b * hidden, hidden, final_h.data() + (d * batch + b) * hidden);
      }
    }
    const std::vector<C>* states[] = {&final_h};
    return rnn::WriteOutputs<T>(context, attributes_, problem, y, states);
  }

  // z and r: clip, then f().
  template <typename C>
  void UpdateGates(C* g, const rnn::Activation& f, int64_t hidden) const {
    if (attributes_.has_clip) rnn::Clip(g, 2 * hidden, attributes_.clip);
    ApplyActivation(f, g, 2 * hidden);
  }

  // The candidate: clip, then g(); then Ht = (1 - z) * candidate + z * Ht-1.
  template <typename C>
  void Finish(C* g, const rnn::Activation& activation, int64_t hidden, C* h) const {
    const C* z = g;
    C* candidate = g + 2 * hidden;
    if (attributes_.has_clip) rnn::Clip(candidate, hidden, attributes_.clip);
    ApplyActivation(activation, candidate, hidden);
    for (int64_t j = 0; j < hidden; ++j) h[j] = (C(1) - z[j]) * candidate[j] + z[j] * h[j];
  }

  rnn::Attributes attributes_;
  bool linear_before_reset_ = false;
  rnn::ConvertedWeights converted_;
};

}  // namespace

void RegisterGruKernels(KernelRegistry& registry) {
  const auto types = rnn::RnnTypes::DataTypes();
  const std::vector<DataType> lengths = {DataType::kInt32};
  registry.Add<Gru>(KernelDef("GRU").Versions(1, 2).Input(0, types).Input(4, lengths));
  registry.Add<Gru>(KernelDef("GRU").Versions(3, 6).Input(0, types).Input(4, lengths));
  registry.Add<Gru>(KernelDef("GRU").Versions(7, 13).Input(0, types).Input(4, lengths));
  registry.Add<Gru>(KernelDef("GRU").Versions(14).Input(0, types).Input(4, lengths));
}

}  // namespace ort
