// RegexFullMatch (opset 20): whether each string matches `pattern` as a whole. The spec names
// RE2 syntax; std::regex's ECMAScript grammar agrees on the common subset (classes, groups,
// alternation, quantifiers, anchors) but not on RE2-only syntax such as (?i) flags or \C,
// which fail at session start with the pattern named.
#include <regex>
#include <string>

#include "providers/cpu/kernels/onnx/text/text_kernels.h"

namespace ort {
namespace {

class RegexFullMatch final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const std::string pattern, info.GetAttribute<std::string>("pattern"));
    try {
      regex_ = std::regex(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& error) {
      return ORT_ERROR(kInvalidModel, "pattern '{}' is not supported: {}", pattern, error.what())
          .WithNode(info.node().Describe());
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kBool, x->shape()));
    const std::string* in = x->Data<std::string>();
    bool* out = y->MutableData<bool>();
    for (int64_t i = 0; i < x->NumElements(); ++i) out[i] = std::regex_match(in[i], regex_);
    return Status::OK();
  }

 private:
  std::regex regex_;
};

}  // namespace

void RegisterRegexFullMatchKernels(KernelRegistry& registry) {
  registry.Add<RegexFullMatch>(
      KernelDef("RegexFullMatch").Versions(20).Input(0, {DataType::kString}));
}

}  // namespace ort
