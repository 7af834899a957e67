// RNN (opsets 1, 7, 14): Ht = f(Xt * Wi^T + Ht-1 * Ri^T + Wbi + Rbi). The input projection of
// every step comes from one GEMM; each step adds Ht-1 * Ri^T with one GEMM over the batch.
#include "providers/cpu/kernels/onnx/rnn/rnn_common.h"
#include "providers/cpu/kernels/onnx/rnn/rnn_kernels.h"

namespace ort {
namespace {

class Rnn final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    static constexpr rnn::ActivationKind kDefaults[] = {rnn::ActivationKind::kTanh};
    ORT_RETURN_IF_ERROR(rnn::ParseAttributes(info, kDefaults, &attributes_));
    return rnn::PrepareConstantWeights(info, attributes_, 1, &converted_);
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    return DispatchByType<rnn::RnnTypes>(x->dtype(), "RNN",
                                         [&]<typename T>() { return ComputeTyped<T>(context); });
  }

 private:
  template <typename T>
  Status ComputeTyped(KernelContext& context) const {
    using C = rnn::Compute<T>;
    rnn::Problem<C> problem;
    ORT_RETURN_IF_ERROR(rnn::PrepareProblem<T>(context, attributes_, 1, converted_, &problem));
    const int64_t seq = problem.seq, batch = problem.batch, input = problem.input;
    const int64_t hidden = problem.hidden, directions = problem.directions;
    ThreadPool* pool = context.thread_pool();

    const bool want_y = context.IsOutputUsed(0);
    std::vector<C> y(want_y ? static_cast<size_t>(seq * directions * batch * hidden) : 0, C(0));
    std::vector<C> final_h(static_cast<size_t>(directions * batch * hidden), C(0));
    std::vector<C> projected(static_cast<size_t>(problem.max_length * batch * hidden));
    std::vector<C> gates(static_cast<size_t>(batch * hidden), C(0));
    std::vector<C> bias(static_cast<size_t>(hidden));
    std::vector<C> h(static_cast<size_t>(batch * hidden));
    std::vector<int64_t> times(static_cast<size_t>(batch));

    for (int64_t d = 0; d < directions; ++d) {
      const bool reverse = attributes_.direction == rnn::Direction::kReverse || (d == 1);
      const C* w = problem.weights.w + d * hidden * input;
      const C* r = problem.weights.r + d * hidden * hidden;
      const C* wb = problem.bias.data() + d * 2 * hidden;
      for (int64_t j = 0; j < hidden; ++j) bias[j] = wb[j] + wb[hidden + j];
      const rnn::Activation& activation = attributes_.activations[d];
      rnn::Gemm(problem.max_length * batch, hidden, input, problem.x, input, w, input, false,
                projected.data(), hidden, pool);
      std::copy_n(problem.initial_h.data() + d * batch * hidden, batch * hidden, h.data());

      for (int64_t s = 0; s < problem.max_length; ++s) {
        rnn::LoadStepGates(problem, s, reverse, hidden, projected.data(), bias.data(), gates.data(),
                           times.data());
        rnn::Gemm(batch, hidden, hidden, h.data(), hidden, r, hidden, true, gates.data(), hidden,
                  pool);
        rnn::ForBatch(context, batch, 20.0 * static_cast<double>(hidden),
                      [&](int64_t begin, int64_t end) {
                        for (int64_t b = begin; b < end; ++b) {
                          if (times[b] < 0) continue;
                          C* g = gates.data() + b * hidden;
                          if (attributes_.has_clip) rnn::Clip(g, hidden, attributes_.clip);
                          rnn::ApplyActivation(activation, g, hidden);
                          std::copy_n(g, hidden, h.data() + b * hidden);
                        }
                      });
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

  rnn::Attributes attributes_;
  rnn::ConvertedWeights converted_;
};

}  // namespace

void RegisterSimpleRnnKernels(KernelRegistry& registry) {
  const auto types = rnn::RnnTypes::DataTypes();
  const std::vector<DataType> lengths = {DataType::kInt32};
  registry.Add<Rnn>(KernelDef("RNN").Versions(1, 6).Input(0, types).Input(4, lengths));
  registry.Add<Rnn>(KernelDef("RNN").Versions(7, 13).Input(0, types).Input(4, lengths));
  registry.Add<Rnn>(KernelDef("RNN").Versions(14).Input(0, types).Input(4, lengths));
}

}  // namespace ort
