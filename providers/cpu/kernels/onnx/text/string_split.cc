// StringSplit (opset 20), as Python's str.split: with a delimiter, every occurrence splits
// (adjacent ones give empty strings); without one, runs of whitespace split and leading or
// trailing whitespace is dropped. At most `maxsplit` splits when given (the rest is one last
// substring). Y has one more axis,
// as long as the most substrings of any element, padded with empty strings; Z counts each
// element's substrings.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "providers/cpu/kernels/onnx/text/text_kernels.h"

namespace ort {
namespace {

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::vector<std::string_view> SplitOnWhitespace(std::string_view text, int64_t maxsplit) {
  std::vector<std::string_view> parts;
  size_t i = 0;
  while (true) {
    while (i < text.size() && IsSpace(text[i])) ++i;
    if (i == text.size()) break;
    if (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit) {
      parts.push_back(text.substr(i));  // the rest, trailing whitespace included
      break;
    }
    size_t end = i;
    while (end < text.size() && !IsSpace(text[end])) ++end;
    parts.push_back(text.substr(i, end - i));
    i = end;
  }
  return parts;
}

std::vector<std::string_view> SplitOnDelimiter(std::string_view text, std::string_view delimiter,
                                               int64_t maxsplit) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (maxsplit < 0 || static_cast<int64_t>(parts.size()) < maxsplit) {
    const size_t found = text.find(delimiter, start);
    if (found == std::string_view::npos) break;
    parts.push_back(text.substr(start, found - start));
    start = found + delimiter.size();
  }
  parts.push_back(text.substr(start));
  return parts;
}

class StringSplit final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(delimiter_, info.GetAttributeOr<std::string>("delimiter", ""));
    ORT_ASSIGN_OR_RETURN(maxsplit_, info.GetAttributeOr<int64_t>("maxsplit", -1));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    const int64_t count = x->NumElements();
    const std::string* in = x->Data<std::string>();
    std::vector<std::vector<std::string_view>> parts(static_cast<size_t>(count));
    size_t longest = 0;
    for (int64_t i = 0; i < count; ++i) {
      parts[i] = delimiter_.empty() ? SplitOnWhitespace(in[i], maxsplit_)
                                    : SplitOnDelimiter(in[i], delimiter_, maxsplit_);
      longest = std::max(longest, parts[i].size());
    }
    std::vector<int64_t> y_dims = x->shape().dims();
    y_dims.push_back(static_cast<int64_t>(longest));
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kString, TensorShape(y_dims)));
    ORT_ASSIGN_OR_RETURN(Tensor * z, context.Output(1, DataType::kInt64, x->shape()));
    std::string* out = y->MutableData<std::string>();
    int64_t* counts = z->MutableData<int64_t>();
    for (int64_t i = 0; i < count; ++i) {
      counts[i] = static_cast<int64_t>(parts[i].size());
      for (size_t k = 0; k < parts[i].size(); ++k) out[i * longest + k] = parts[i][k];
    }
    return Status::OK();
  }

 private:
  std::string delimiter_;
  int64_t maxsplit_ = -1;
};

}  // namespace

void RegisterStringSplitKernels(KernelRegistry& registry) {
  registry.Add<StringSplit>(KernelDef("StringSplit").Versions(20).Input(0, {DataType::kString}));
}

}  // namespace ort
