#include "providers/common/activation/gelu_approximate.h"

#include <string>

namespace ort {

Result<bool> ParseGeluTanhApproximation(const KernelInfo& info) {
  std::string approximate = "none";
  if (info.HasAttribute("approximate")) {
    ORT_ASSIGN_OR_RETURN(approximate, info.GetAttribute<std::string>("approximate"));
  }
  if (approximate != "none" && approximate != "tanh") {
    return ORT_ERROR(kInvalidModel, "approximate must be 'none' or 'tanh', got '{}'", approximate)
        .WithNode(info.node().Describe());
  }
  return approximate == "tanh";
}

}  // namespace ort
