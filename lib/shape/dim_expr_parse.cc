// ParseDimExpr: reads back what DimExpr::ToString writes (and the like spellings other shape
// inference tools give dim_params, "seq + 1", "2*batch"), so that a dimension our pass recorded as
// "2*seq" means 2*seq to whoever reads the model's types, not an unrelated symbol.
#include <cctype>

#include "lib/shape/dim_expr.h"

namespace ort {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::optional<DimExpr> Whole() {
    auto expr = Sum();
    SkipSpaces();
    if (!expr || position_ != text_.size()) return std::nullopt;
    return expr;
  }

 private:
  void SkipSpaces() {
    while (position_ < text_.size() && text_[position_] == ' ') ++position_;
  }

  bool Take(char c) {
    SkipSpaces();
    if (position_ >= text_.size() || text_[position_] != c) return false;
    ++position_;
    return true;
  }

  std::optional<DimExpr> Sum() {
    const bool negative = Take('-');
    auto total = Product();
    if (total && negative) total = Mul(*total, DimExpr::Constant(-1));
    while (total) {
      if (Take('+')) {
        const auto term = Product();
        total = term ? Add(*total, *term) : std::nullopt;
      } else if (Take('-')) {
        const auto term = Product();
        total = term ? Sub(*total, *term) : std::nullopt;
      } else {
        break;
      }
    }
    return total;
  }

  std::optional<DimExpr> Product() {
    auto product = Atom();
    while (product && Take('*')) {
      const auto factor = Atom();
      product = factor ? Mul(*product, *factor) : std::nullopt;
    }
    return product;
  }

  std::optional<int64_t> Integer() {
    SkipSpaces();
    int64_t value = 0;
    const size_t start = position_;
    while (position_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[position_]))) {
      if (__builtin_mul_overflow(value, 10, &value) ||
          __builtin_add_overflow(value, text_[position_] - '0', &value)) {
        return std::nullopt;
      }
      ++position_;
    }
    if (position_ == start) return std::nullopt;
    return value;
  }

  std::optional<DimExpr> Atom() {
    SkipSpaces();
    if (position_ >= text_.size()) return std::nullopt;
    const char c = text_[position_];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      const auto value = Integer();
      return value ? std::optional(DimExpr::Constant(*value)) : std::nullopt;
    }
    if (c == '(') {
      ++position_;
      auto inner = Sum();
      return inner && Take(')') ? inner : std::nullopt;
    }
    if (c == '"') return QuotedSymbol();
    const std::string_view name = Identifier();
    if (name.empty()) return std::nullopt;
    if (name == "floor" && Take('(')) {
      const auto numerator = Sum();
      if (!numerator || !Take('/')) return std::nullopt;
      const auto divisor = Integer();
      if (!divisor || !Take(')')) return std::nullopt;
      return FloorDiv(*numerator, *divisor);
    }
    if (name == "min" && Take('(')) {
      const auto a = Sum();
      if (!a || !Take(',')) return std::nullopt;
      const auto b = Sum();
      if (!b || !Take(')')) return std::nullopt;
      return Min(*a, *b);
    }
    return DimExpr::Symbol(std::string(name));
  }

  std::string_view Identifier() {
    const size_t start = position_;
    while (position_ < text_.size()) {
      const char c = text_[position_];
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') break;
      ++position_;
    }
    return text_.substr(start, position_ - start);
  }

  std::optional<DimExpr> QuotedSymbol() {
    std::string name;
    for (++position_; position_ < text_.size(); ++position_) {
      char c = text_[position_];
      if (c == '"') {
        ++position_;
        return DimExpr::Symbol(std::move(name));
      }
      if (c == '\\' && position_ + 1 < text_.size()) c = text_[++position_];
      name += c;
    }
    return std::nullopt;
  }

  std::string_view text_;
  size_t position_ = 0;
};

}  // namespace

std::optional<DimExpr> ParseDimExpr(std::string_view text) { return Parser(text).Whole(); }

}  // namespace ort
