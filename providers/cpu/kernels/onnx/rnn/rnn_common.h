// Shared pieces of the LSTM, GRU and RNN kernels: attribute parsing (direction, activations,
// clip, layout), weight packing, input validation and conversion, and output writing.
//
// Every kernel computes in float (float and float16 models) or double. Inputs are brought into
// one canonical form: X as [seq, batch, input], W and R transposed per direction to
// [input, gates * hidden] and [hidden, gates * hidden] so each projection is a plain row-major
// GEMM, initial states as [directions, batch, hidden]. Results are produced as Y [seq,
// directions, batch, hidden] and Y_h / Y_c [directions, batch, hidden] and converted to the
// requested layout and element type at the end.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "lib/framework/op_kernel.h"

namespace ort::rnn {

enum class Direction { kForward, kReverse, kBidirectional };

enum class ActivationKind {
  kRelu,
  kTanh,
  kSigmoid,
  kAffine,
  kLeakyRelu,
  kThresholdedRelu,
  kScaledTanh,
  kHardSigmoid,
  kElu,
  kSoftsign,
  kSoftplus,
};

struct Activation {
  ActivationKind kind = ActivationKind::kTanh;
  float alpha = 0;
  float beta = 0;
};

/// Applies `activation` in place to n values.
template <typename C>
void ApplyActivation(const Activation& activation, C* values, int64_t n);

/// Clamps n values to [-clip, clip] in place.
template <typename C>
inline void Clip(C* values, int64_t n, float clip) {
  const C bound = static_cast<C>(clip);
  for (int64_t i = 0; i < n; ++i) {
    C v = values[i];
    values[i] = v < -bound ? -bound : (v > bound ? bound : v);
  }
}

/// The attributes every recurrent op shares.
struct Attributes {
  Direction direction = Direction::kForward;
  int64_t num_directions = 1;
  int64_t hidden_size = -1;             // -1: taken from R's shape
  std::vector<Activation> activations;  // activations_per_direction * num_directions
  bool has_clip = false;
  float clip = 0;
  int64_t layout = 0;
};

/// Parses direction, hidden_size, activations (with activation_alpha/beta), clip and layout.
/// `defaults` are one direction's activations when the attribute is absent.
Status ParseAttributes(const KernelInfo& info, std::span<const ActivationKind> defaults,
                       Attributes* attributes);

/// float for float and float16 models, double for double ones.
template <typename T>
using Compute = std::conditional_t<std::is_same_v<T, double>, double, float>;

/// W [D, rows, input] and R [D, rows, hidden] (rows = gates * hidden) in the compute type:
/// float and double weights are read in place, float16 ones converted.
template <typename C>
struct Weights {
  const C* w = nullptr;
  const C* r = nullptr;
  std::vector<C> w_storage;
  std::vector<C> r_storage;
};

/// Float copies of constant float16 W and R, made once in Init; empty for other types.
struct ConvertedWeights {
  bool ready = false;
  std::vector<float> w;
  std::vector<float> r;
};

/// Checks W [D, rows, input] and R [D, rows, hidden] against the attributes.
Status ValidateWeights(const Tensor& w, const Tensor& r, const Attributes& attributes,
                       int64_t gates);

/// In Init: validates constant W and R and converts them when they are float16.
Status PrepareConstantWeights(const KernelInfo& info, const Attributes& attributes, int64_t gates,
                              ConvertedWeights* converted);

/// Everything a recurrent kernel reads, in canonical form.
template <typename C>
struct Problem {
  int64_t seq = 0;
  int64_t batch = 0;
  int64_t input = 0;
  int64_t hidden = 0;
  int64_t directions = 1;
  const C* x = nullptr;  // [seq, batch, input]
  Weights<C> weights;
  std::vector<C> bias;           // [directions, 2 * gates * hidden]: Wb then Rb, zeros if absent
  std::vector<C> initial_h;      // [directions, batch, hidden], zeros if absent
  std::vector<int64_t> lengths;  // per batch entry
  int64_t max_length = 0;

  std::vector<C> x_storage;
};

/// Starts step `s` of one direction: for each batch entry, the time it reads (`times[b]`, -1 once
/// its sequence has ended) and its gate pre-activations `gates[b]` = projected input + `bias`
/// (`rows` values each); finished entries get zeros so their unused rows stay finite.
template <typename C>
void LoadStepGates(const Problem<C>& problem, int64_t s, bool reverse, int64_t rows,
                   const C* projected, const C* bias, C* gates, int64_t* times) {
  for (int64_t b = 0; b < problem.batch; ++b) {
    const int64_t length = problem.lengths[b];
    times[b] = s < length ? (reverse ? length - 1 - s : s) : -1;
    C* g = gates + b * rows;
    if (times[b] < 0) {
      std::fill_n(g, rows, C(0));
      continue;
    }
    const C* xp = projected + (times[b] * problem.batch + b) * rows;
    for (int64_t j = 0; j < rows; ++j) g[j] = xp[j] + bias[j];
  }
}

/// Reads X, W, R, B, sequence_lens and initial_h (inputs 0-5); `converted` holds W and R when
/// they are float16 constants.
template <typename T>
Status PrepareProblem(KernelContext& context, const Attributes& attributes, int64_t gates,
                      const ConvertedWeights& converted, Problem<Compute<T>>* problem);

/// PrepareProblem's reading of X (of type T, with `input_size` features), B, sequence_lens and
/// initial_h, for a kernel that set `problem`'s weights and hidden size itself.
template <typename T>
Status ReadSequenceInputs(KernelContext& context, const Attributes& attributes, int64_t gates,
                          int64_t input_size, Problem<Compute<T>>* problem);

/// Reads an optional state input shaped like initial_h ([D, B, H], or [B, D, H] with layout 1)
/// into [D, B, H]; zeros when absent.
template <typename T>
Status ReadState(KernelContext& context, size_t index, const Attributes& attributes,
                 const Problem<Compute<T>>& problem, std::vector<Compute<T>>* state);

/// Converts n values of T to C.
template <typename T, typename C>
void ConvertTo(const T* source, int64_t n, C* destination) {
  for (int64_t i = 0; i < n; ++i)
    destination[i] = static_cast<C>(static_cast<Compute<T>>(source[i]));
}

/// Writes Y (output 0, from y [S, D, B, H]) when used, and the final states (from [D, B, H]
/// buffers) to outputs `state_outputs[i]`, in the attribute's layout.
template <typename T>
Status WriteOutputs(KernelContext& context, const Attributes& attributes,
                    const Problem<Compute<T>>& problem, const std::vector<Compute<T>>& y,
                    std::span<const std::vector<Compute<T>>* const> states);

/// Runs `step(begin, end)` over the batch entries of one time step, in parallel when worth it.
void ForBatch(KernelContext& context, int64_t batch, double cost_per_entry,
              const std::function<void(int64_t, int64_t)>& step);

/// C[m, n] (+)= A[m, k] * B[n, k]^T, row-major with leading dimensions: B is a block of W or R
/// rows, used as stored.
void Gemm(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b, int64_t ldb,
          bool accumulate, float* c, int64_t ldc, ThreadPool* pool);
void Gemm(int64_t m, int64_t n, int64_t k, const double* a, int64_t lda, const double* b,
          int64_t ldb, bool accumulate, double* c, int64_t ldc, ThreadPool* pool);

/// The element types recurrent ops accept.
using RnnTypes = TypeList<float, double, Float16>;

}  // namespace ort::rnn
