// Structure-aware mutation of ONNX models: one random edit of a parsed onnx::ModelProto (a dim,
// an element type, an attribute, an op type, a node's inputs or outputs, the opset, node order, a
// duplicated name...), anywhere in the main graph or its subgraphs. Shared by the libFuzzer
// target fuzz_model_structured and the ort-fuzz-models driver, which needs no clang.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>

namespace onnx {
class ModelProto;
}  // namespace onnx

namespace ort::fuzz {

class ModelMutator {
 public:
  explicit ModelMutator(uint64_t seed) : rng_(seed) {}

  /// Applies one random structural edit to `model` and returns its name, or "" when the edit
  /// chosen found nothing to change (an empty graph, a node without attributes); callers retry.
  std::string_view Mutate(onnx::ModelProto& model);

  /// Parses `bytes` as a model, applies 1 to `max_edits` edits and reserializes into `out`.
  /// Returns false (leaving `out` untouched) when `bytes` is not a ModelProto.
  bool MutateBytes(std::string_view bytes, int max_edits, std::string& out);

  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

}  // namespace ort::fuzz
