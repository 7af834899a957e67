// Which graph inputs are indices, and into what: random inputs (ort run/perf, quantize without
// calibration data) must stay inside the tables they index, or a BERT's token_type_ids of 9
// fail its 2-row segment embedding.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "lib/ir/graph.h"

namespace ort {

/// For each graph input whose values reach, unchanged (through Cast, Reshape, Unsqueeze, Squeeze,
/// Flatten, Identity, Expand, Tile, Transpose, Slice or Concat), the indices of a Gather,
/// GatherElements, OneHot or com.microsoft EmbedLayerNormalization whose indexed axis has a
/// static size: the smallest such size. Valid values are then [0, size).
std::map<std::string, int64_t> IndexInputBounds(const Graph& graph);

}  // namespace ort
