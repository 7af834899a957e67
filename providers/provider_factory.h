// Creates execution providers by name for the applications: "cpu", and "cuda" when built with the
// CUDA toolkit (creating it fails on a machine without a GPU).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lib/common/status.h"
#include "lib/framework/execution_provider.h"
#include "providers/cpu/cpu_provider.h"

namespace ort {

/// Per-provider settings the applications pass through.
struct ProviderSettings {
  CpuProviderOptions cpu;
  /// The CUDA provider's matrix precision: fp32, tf32, fp16 or bf16.
  std::string cuda_precision = "fp32";
  /// Creates a device provider even where its device is absent, for work that runs no kernel
  /// (optimizing a model for that provider, reporting where its nodes would run).
  bool without_device = false;
};

/// Providers known to this build, in the order they are documented.
std::vector<std::string> AvailableProviders();

/// Creates the providers named in `names` (priority order). The CPU provider is appended as the
/// fallback when missing. Unknown names are an error listing the available ones.
Result<std::vector<std::unique_ptr<IExecutionProvider>>> CreateProviders(
    const std::vector<std::string>& names, const ProviderSettings& settings = {});

}  // namespace ort
