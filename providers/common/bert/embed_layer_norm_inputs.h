// What the CPU and CUDA com.microsoft EmbedLayerNormalization kernels share: the epsilon attribute
// and the checks of one call's inputs.
#pragma once

#include <cstdint>

#include "lib/framework/op_kernel.h"

namespace ort {

/// The epsilon attribute (default 1e-12), which must not be negative.
Result<float> ParseEmbedLayerNormEpsilon(const KernelInfo& info);

/// One call's inputs, checked: per token, word_embedding[input_ids] + position_embedding[position]
/// (+ segment_embedding[segment_ids]), layer-normalized over hidden with gamma and beta.
struct EmbedLayerNormInputs {
  /// int32 [batch, sequence].
  const Tensor* input_ids = nullptr;
  /// int32 [batch, sequence]; given with `segment` or not at all.
  const Tensor* segment_ids = nullptr;
  /// The tables, [rows, hidden] of one float type (word's).
  const Tensor* word = nullptr;
  const Tensor* position = nullptr;
  const Tensor* segment = nullptr;
  /// [hidden] of word's type.
  const Tensor* gamma = nullptr;
  const Tensor* beta = nullptr;
  /// int32 [batch, sequence] or null.
  const Tensor* mask = nullptr;
  /// int32 [batch, sequence] or [1, sequence] (`shared_positions`); null: a token's position is
  /// its index in its sequence.
  const Tensor* position_ids = nullptr;
  bool shared_positions = false;
  int64_t batch = 0;
  int64_t sequence = 0;
  int64_t hidden = 0;
};

/// Reads and checks the inputs' shapes and types (ids' values are left to the kernel); errors
/// name the node.
Result<EmbedLayerNormInputs> ReadEmbedLayerNormInputs(const KernelContext& context);

}  // namespace ort
