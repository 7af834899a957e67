// Running single nodes on the CUDA provider in tests; every test needing a GPU starts with
// `if (!HasGpu()) return;` (Catch2 v2 has no SKIP), which warns once why it did not run.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "lib/ir/attribute.h"
#include "lib/ir/tensor.h"

namespace ort {

/// Whether a CUDA device can be used; warns with the reason when not.
bool HasGpu();

/// Runs a one-node model (opset `opset`; "com.microsoft:Op" names a contrib op) on the CUDA
/// provider with the CPU as fallback, requires the node to land on the GPU, and returns its first
/// output.
Tensor RunOneNode(const std::string& op, std::vector<std::pair<std::string, Tensor>> inputs,
                  std::vector<Attribute> attributes = {}, int opset = 17);

}  // namespace ort
