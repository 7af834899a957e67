// A provider's kernels, looked up by (domain, op type, opset version, input/output types).
#pragma once

#include <functional>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lib/framework/kernel_def.h"
#include "lib/framework/op_kernel.h"

namespace ort {

using KernelFactory = std::function<Result<std::unique_ptr<OpKernel>>(const KernelInfo&)>;

struct KernelEntry {
  KernelDef def;
  KernelFactory factory;
};

class KernelRegistry {
 public:
  /// Registers kernel class K (default-constructible, Init parses attributes) for `def`.
  template <typename K>
  void Add(KernelDef def) {
    Register(std::move(def), [](const KernelInfo& info) -> Result<std::unique_ptr<OpKernel>> {
      // Pre-packing may allocate several times a weight's size; running out of memory is an
      // error of this node, not an exception out of the library.
      try {
        auto kernel = std::make_unique<K>();
        ORT_RETURN_IF_ERROR(kernel->Init(info));
        return std::unique_ptr<OpKernel>(std::move(kernel));
      } catch (const std::bad_alloc&) {
        return ORT_ERROR(kOutOfMemory, "out of memory creating the kernel");
      }
    });
  }
  void Register(KernelDef def, KernelFactory factory);

  /// The first kernel matching `node` (its domain's opset version and the known types of its
  /// inputs and outputs), or null with the reason in `why_not` (when given).
  const KernelEntry* Find(const Node& node, std::string* why_not = nullptr) const;

  /// True when some kernel implements `op_type` of `domain`, at any version and type.
  bool HasOp(std::string_view domain, std::string_view op_type) const;

  /// Every registered kernel, in registration order per op.
  std::vector<const KernelEntry*> Entries() const;

 private:
  std::unordered_map<std::string, std::vector<KernelEntry>> by_op_;
};

}  // namespace ort
