// Model inputs for run and perf: from .npy/.pb files, an ONNX test-data directory, or seeded
// random values of the declared type and shape (integers that index a table stay inside it).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lib/common/status.h"
#include "lib/session/inference_session.h"

namespace ort::cli {

struct FeedArgs {
  std::vector<std::string> inputs;  // NAME=FILE
  std::string input_dir;
  std::vector<std::string> shapes;  // NAME=DIMS, for random inputs
  std::vector<std::string> ranges;  // NAME=LO:HI, for random inputs
  uint64_t seed = 0;
};

void AddFeedOptions(CLI::App& command, FeedArgs& args);

struct Feed {
  NamedValue value;
  std::string source;  // file path, or "random in [LO, HI]" (HI) for floats)
};

/// The size an open dimension takes when nothing fixes it: 1, or 0 for a name with "past" (a
/// cache's length), so that a mask over past + new tokens agrees with the other inputs.
int64_t DefaultDimension(std::string_view param);

/// A shape sweep: `args` once per shape when --shape values list several, comma separated
/// (NAME=1x128,8x128,32x128: each written with 'x', as "1,3,224,224" is one shape); every
/// listing option must list as many. One entry, `args` itself, without a sweep.
Result<std::vector<FeedArgs>> ShapeSweep(const FeedArgs& args);

/// One feed per model input, in the model's input order.
Result<std::vector<Feed>> BuildFeeds(const InferenceSession& session, const FeedArgs& args);

}  // namespace ort::cli
