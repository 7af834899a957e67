// numpy .npy files (format versions 1-3, C order) to and from tensors.
#pragma once

#include <string>
#include <string_view>

#include "lib/common/status.h"
#include "lib/ir/tensor.h"

namespace ort {

/// Parses .npy bytes; `label` names the source in errors.
Result<Tensor> ParseNpy(std::string_view bytes, const std::string& label);
Result<Tensor> ReadNpy(const std::string& path);
/// Serializes a (non-string) tensor as .npy version 1.0.
Result<std::string> SerializeNpy(const Tensor& tensor);
Status WriteNpy(const std::string& path, const Tensor& tensor);

}  // namespace ort
