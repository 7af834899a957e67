// StringNormalizer (opset 10): drops stopwords (compared case-sensitively or not) from a [C] or
// [1, C] string tensor, then lower- or upper-cases what is left. Case mapping is Unicode-aware
// through the C.UTF-8 locale (the mapping "en_US" and the default locale "" share); strings
// must be valid UTF-8. When every string is dropped the output holds one empty string.
#include <locale.h>
#include <cctype>
#include <clocale>
#include <cwctype>

#include <string>
#include <unordered_set>

#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

enum class CaseChange { kNone, kLower, kUpper };

// Decodes UTF-8 into code points; false on malformed input.
bool DecodeUtf8(const std::string& text, std::u32string* out) {
  out->clear();
  for (size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    int extra = 0;
    char32_t code = 0;
    if (lead < 0x80) {
      code = lead;
    } else if ((lead & 0xE0) == 0xC0) {
      extra = 1;
      code = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
      extra = 2;
      code = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
      extra = 3;
      code = lead & 0x07;
    } else {
      return false;
    }
    if (i + static_cast<size_t>(extra) >= text.size() && extra > 0) return false;
    for (int k = 1; k <= extra; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return false;
      code = (code << 6) | (next & 0x3F);
    }
    static constexpr char32_t kMinimum[] = {0, 0x80, 0x800, 0x10000};
    if (code < kMinimum[extra] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
      return false;
    }
    out->push_back(code);
    i += static_cast<size_t>(extra) + 1;
  }
  return true;
}

void EncodeUtf8(const std::u32string& codes, std::string* out) {
  out->clear();
  for (char32_t code : codes) {
    if (code < 0x80) {
      out->push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (code >> 6)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (code >> 12)));
      out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (code >> 18)));
      out->push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
  }
}

class StringNormalizer final : public OpKernel {
 public:
  ~StringNormalizer() override {
    if (locale_ != static_cast<locale_t>(0)) freelocale(locale_);
  }

  Status Init(const KernelInfo& info) override {
    const std::string describe = info.node().Describe();
    ORT_ASSIGN_OR_RETURN(std::string action,
                         info.GetAttributeOr<std::string>("case_change_action", "NONE"));
    if (action == "LOWER") {
      case_change_ = CaseChange::kLower;
    } else if (action == "UPPER") {
      case_change_ = CaseChange::kUpper;
    } else if (action != "NONE") {
      return ORT_ERROR(kInvalidModel, "unknown case_change_action '{}'", action).WithNode(describe);
    }
    ORT_ASSIGN_OR_RETURN(int64_t sensitive, info.GetAttributeOr<int64_t>("is_case_sensitive", 0));
    case_sensitive_ = sensitive != 0;
    ORT_ASSIGN_OR_RETURN(std::string locale, info.GetAttributeOr<std::string>("locale", ""));
    if (!locale.empty() && locale != "en_US" && locale != "en_US.UTF-8" && locale != "en_US.utf8") {
      return ORT_ERROR(kNotImplemented, "unsupported locale '{}' (only en_US)", locale)
          .WithNode(describe);
    }
    locale_ = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(0));

    ORT_ASSIGN_OR_RETURN(auto stopwords,
                         info.GetAttributeOr<std::vector<std::string>>("stopwords", {}));
    std::u32string codes;
    for (const auto& word : stopwords) {
      if (!DecodeUtf8(word, &codes)) {
        return ORT_ERROR(kInvalidModel, "stopword '{}' is not valid UTF-8", word)
            .WithNode(describe);
      }
      if (!case_sensitive_) Map(codes, CaseChange::kLower);
      std::string key;
      EncodeUtf8(codes, &key);
      stopwords_.insert(std::move(key));
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
    const TensorShape& shape = input->shape();
    if (input->dtype() != DataType::kString ||
        !(shape.rank() == 1 || (shape.rank() == 2 && shape[0] == 1))) {
      return context.Error("input must be a string tensor of shape [C] or [1, C], got {}",
                           input->Describe());
    }
    const std::string* strings = input->Data<std::string>();
    std::vector<std::string> kept;
    std::u32string codes;
    std::string key;
    for (int64_t i = 0; i < input->NumElements(); ++i) {
      if (!DecodeUtf8(strings[i], &codes)) {
        return context.Error("input string {} is not valid UTF-8", i);
      }
      if (!stopwords_.empty()) {
        if (case_sensitive_) {
          if (stopwords_.count(strings[i])) continue;
        } else {
          std::u32string lowered = codes;
          Map(lowered, CaseChange::kLower);
          EncodeUtf8(lowered, &key);
          if (stopwords_.count(key)) continue;
        }
      }
      if (case_change_ == CaseChange::kNone) {
        kept.push_back(strings[i]);
      } else {
        Map(codes, case_change_);
        EncodeUtf8(codes, &key);
        kept.push_back(key);
      }
    }
    // An all-stopword input still yields one (empty) string.
    if (kept.empty()) kept.emplace_back();
    const auto count = static_cast<int64_t>(kept.size());
    const TensorShape output_shape = shape.rank() == 1 ? TensorShape{count} : TensorShape{1, count};
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, DataType::kString, output_shape));
    std::string* out = output->MutableData<std::string>();
    for (int64_t i = 0; i < count; ++i) out[i] = std::move(kept[i]);
    return Status::OK();
  }

 private:
  void Map(std::u32string& codes, CaseChange change) const {
    for (char32_t& code : codes) {
      if (locale_ != static_cast<locale_t>(0)) {
        const auto wide = static_cast<wint_t>(code);
        code = static_cast<char32_t>(change == CaseChange::kLower ? towlower_l(wide, locale_)
                                                                  : towupper_l(wide, locale_));
      } else if (code < 0x80) {
        // Without a UTF-8 locale only ASCII letters change case.
        code = static_cast<char32_t>(change == CaseChange::kLower
                                         ? std::tolower(static_cast<int>(code))
                                         : std::toupper(static_cast<int>(code)));
      }
    }
  }

  CaseChange case_change_ = CaseChange::kNone;
  bool case_sensitive_ = false;
  locale_t locale_ = static_cast<locale_t>(0);
  std::unordered_set<std::string> stopwords_;
};

}  // namespace

void RegisterStringNormalizerKernels(KernelRegistry& registry) {
  registry.Add<StringNormalizer>(
      KernelDef("StringNormalizer").Versions(10).Input(0, {DataType::kString}));
}

}  // namespace ort
