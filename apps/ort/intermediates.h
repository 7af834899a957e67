// ort run --dump-intermediates: every node output (or those matching --dump-filter) made a graph
// output before the session optimizes the model, as Polygraphy marks them, so that the values
// are the model's own (named as in the file) and not those of fused nodes; then written as .npy.
#pragma once

#include <string>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/model.h"
#include "lib/ir/value.h"

namespace ort::cli {

/// Appends to the main graph's outputs every node output whose name matches `filter` (an
/// ECMAScript regex searched in the name; empty: all) and is not an output already; returns
/// their names in execution order. Errors on a bad regex or when nothing matches.
Result<std::vector<std::string>> MarkIntermediates(Model& model, const std::string& filter);

/// Writes `values[i]` as DIR/<names[i]>.npy, the name's characters other than letters, digits,
/// '.', '-' and '_' made '_' (and a numeric suffix where two names then collide); non-tensor
/// values are skipped. Returns the number written.
Result<size_t> WriteIntermediates(const std::string& directory,
                                  const std::vector<std::string>& names,
                                  const std::vector<Value>& values);

}  // namespace ort::cli
