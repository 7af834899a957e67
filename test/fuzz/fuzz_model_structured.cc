// libFuzzer target with a structure-aware mutator: inputs that parse as onnx::ModelProto get one
// structural edit (tools/fuzz/model_mutator.h) and stay well-formed protobuf, so that the fuzzer
// spends its time in validation, the optimizer and kernels rather than in the protobuf parser.
// The check is fuzz_model's.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "tools/fuzz/model_check.h"
#include "tools/fuzz/model_mutator.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ort::fuzz::QuietLogging();
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  ort::fuzz::ModelMutator mutator(seed);
  std::string mutated;
  // One input in eight gets libFuzzer's byte mutations anyway: they reach the parser's errors.
  if (seed % 8 != 0 &&
      mutator.MutateBytes({reinterpret_cast<const char*>(data), size}, 1, mutated) &&
      mutated.size() <= max_size) {
    std::memcpy(data, mutated.data(), mutated.size());
    return mutated.size();
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ort::fuzz::CheckModelBytes({reinterpret_cast<const char*>(data), size}, ort::fuzz::kAllLevels);
  return 0;
}
