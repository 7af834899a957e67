// libFuzzer target: arbitrary bytes as a model file, loaded, initialized at every optimization
// level and run once when its inputs are small (tools/fuzz/model_check.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tools/fuzz/model_check.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ort::fuzz::QuietLogging();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ort::fuzz::CheckModelBytes({reinterpret_cast<const char*>(data), size}, ort::fuzz::kAllLevels);
  return 0;
}
