// What the Conv fusions share: the Conv's weights and bias as float arrays they rewrite per
// output channel.
#pragma once

#include <vector>

#include "lib/ir/graph.h"

namespace ort {

/// A Conv's weights [M, C/group, k...] and bias [M] (zeros without one), copied for rewriting.
struct ConvParameters {
  Tensor weight;
  Tensor bias;
  int64_t channels = 0;     // M
  int64_t per_channel = 0;  // weight elements of one output channel
};

/// Copies the constant parameters of `conv` (HasConstantFloatWeights must hold).
ConvParameters CopyConvParameters(const Graph& graph, const Node& conv);

/// Multiplies output channel m's weights and bias by scale[m], then adds shift[m] to its bias.
void ScaleAndShift(ConvParameters& conv, const std::vector<float>& scale,
                   const std::vector<float>& shift);

}  // namespace ort
