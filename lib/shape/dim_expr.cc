#include "lib/shape/dim_expr.h"

#include <algorithm>
#include <climits>
#include <numeric>

namespace ort {
namespace {

// Bounds that keep shape arithmetic cheap; an expression past them is left unknown.
constexpr size_t kMaxTerms = 32;
constexpr size_t kMaxFactors = 8;

bool IsIdentifier(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::string Quoted(std::string_view name) {
  std::string text = "\"";
  for (char c : name) {
    if (c == '"' || c == '\\') text += '\\';
    text += c;
  }
  return text + "\"";
}

// Floor division and modulo of integers (the remainder is in [0, divisor) for divisor > 0).
int64_t FloorQuotient(int64_t value, int64_t divisor) {
  const int64_t quotient = value / divisor;
  return (value % divisor != 0 && value < 0) ? quotient - 1 : quotient;
}

}  // namespace

DimExpr DimExpr::Constant(int64_t value) {
  DimExpr expr;
  if (value != 0) expr.terms_.emplace(Monomial{}, value);
  return expr;
}

DimExpr DimExpr::Symbol(std::string name) {
  DimExpr expr;
  Factor factor;
  factor.symbol = std::move(name);
  expr.terms_.emplace(Monomial{std::move(factor)}, 1);
  return expr;
}

std::optional<int64_t> DimExpr::AsConstant() const {
  if (terms_.empty()) return 0;
  if (terms_.size() == 1 && terms_.begin()->first.empty()) return terms_.begin()->second;
  return std::nullopt;
}

std::optional<std::string_view> DimExpr::AsSymbol() const {
  if (terms_.size() != 1) return std::nullopt;
  const auto& [monomial, coefficient] = *terms_.begin();
  if (coefficient != 1 || monomial.size() != 1 || monomial[0].numerator != nullptr)
    return std::nullopt;
  return std::string_view(monomial[0].symbol);
}

std::optional<std::pair<DimExpr, DimExpr>> DimExpr::AsMin() const {
  if (terms_.size() != 1) return std::nullopt;
  const auto& [monomial, coefficient] = *terms_.begin();
  if (coefficient != 1 || monomial.size() != 1 || monomial[0].other == nullptr) return std::nullopt;
  return std::make_pair(*monomial[0].numerator, *monomial[0].other);
}

bool DimExpr::IsNonNegative() const {
  // Every factor is >= 0 (symbols by assumption, floors and minima by construction).
  return std::all_of(terms_.begin(), terms_.end(),
                     [](const auto& term) { return term.second > 0; });
}

bool DimExpr::IsPositive() const {
  const auto less_one = Sub(*this, Constant(1));
  return less_one && less_one->IsNonNegative();
}

int DimExpr::CompareFactors(const Factor& a, const Factor& b) {
  // Symbols first, then floors, then minima.
  const auto kind = [](const Factor& f) { return f.numerator == nullptr ? 0 : (f.other ? 2 : 1); };
  if (kind(a) != kind(b)) return kind(a) < kind(b) ? -1 : 1;
  if (kind(a) == 0) return a.symbol.compare(b.symbol) < 0 ? -1 : (a.symbol == b.symbol ? 0 : 1);
  if (a.divisor != b.divisor) return a.divisor < b.divisor ? -1 : 1;
  if (const int order = Compare(*a.numerator, *b.numerator); order != 0 || kind(a) == 1) {
    return order;
  }
  return Compare(*a.other, *b.other);
}

int DimExpr::CompareMonomials(const Monomial& a, const Monomial& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (const int order = CompareFactors(a[i], b[i]); order != 0) return order;
  }
  return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

bool DimExpr::MonomialLess::operator()(const Monomial& a, const Monomial& b) const {
  return CompareMonomials(a, b) < 0;
}

int DimExpr::Compare(const DimExpr& a, const DimExpr& b) {
  auto i = a.terms_.begin(), j = b.terms_.begin();
  for (; i != a.terms_.end() && j != b.terms_.end(); ++i, ++j) {
    if (const int order = CompareMonomials(i->first, j->first); order != 0) return order;
    if (i->second != j->second) return i->second < j->second ? -1 : 1;
  }
  if (i == a.terms_.end() && j == b.terms_.end()) return 0;
  return i == a.terms_.end() ? -1 : 1;
}

bool operator==(const DimExpr& a, const DimExpr& b) { return DimExpr::Compare(a, b) == 0; }
bool operator<(const DimExpr& a, const DimExpr& b) { return DimExpr::Compare(a, b) < 0; }

bool DimExpr::AddTerm(const Monomial& monomial, int64_t coefficient) {
  if (coefficient == 0) return true;
  auto [it, inserted] = terms_.emplace(monomial, coefficient);
  if (!inserted) {
    if (__builtin_add_overflow(it->second, coefficient, &it->second)) return false;
    if (it->second == 0) terms_.erase(it);
  }
  return terms_.size() <= kMaxTerms;
}

std::string DimExpr::FactorToString(const Factor& factor) {
  if (factor.numerator == nullptr) {
    return IsIdentifier(factor.symbol) ? factor.symbol : Quoted(factor.symbol);
  }
  if (factor.other != nullptr) {
    return "min(" + TermsToString(*factor.numerator, true) + "," +
           TermsToString(*factor.other, true) + ")";
  }
  // A lone factor needs no parentheses: "floor(n/2)", "floor((n+1)/2)".
  const auto& terms = factor.numerator->terms_;
  const bool lone =
      terms.size() == 1 && terms.begin()->second == 1 && terms.begin()->first.size() == 1;
  const std::string numerator = TermsToString(*factor.numerator, true);
  return "floor(" + (lone ? numerator : "(" + numerator + ")") + "/" +
         std::to_string(factor.divisor) + ")";
}

std::string DimExpr::TermsToString(const DimExpr& expr, bool quote) {
  if (expr.terms_.empty()) return "0";
  if (!quote) {
    if (const auto symbol = expr.AsSymbol()) return std::string(*symbol);
  }
  std::string text;
  int64_t constant = 0;
  for (const auto& [monomial, coefficient] : expr.terms_) {
    if (monomial.empty()) {
      constant = coefficient;
      continue;
    }
    if (coefficient < 0) {
      text += '-';
    } else if (!text.empty()) {
      text += '+';
    }
    // The magnitude of INT64_MIN does not fit; its digits are written from the signed value.
    if (coefficient != 1 && coefficient != -1) {
      std::string digits = std::to_string(coefficient);
      text += (digits[0] == '-' ? digits.substr(1) : digits) + "*";
    }
    for (size_t i = 0; i < monomial.size(); ++i) {
      if (i > 0) text += '*';
      text += FactorToString(monomial[i]);
    }
  }
  if (constant != 0) {
    if (constant > 0 && !text.empty()) text += '+';
    text += std::to_string(constant);
  }
  return text;
}

std::optional<int64_t> DimExpr::Evaluate(
    const std::function<std::optional<int64_t>(std::string_view)>& symbol_value) const {
  int64_t total = 0;
  for (const auto& [monomial, coefficient] : terms_) {
    int64_t term = coefficient;
    for (const Factor& factor : monomial) {
      std::optional<int64_t> value;
      if (factor.numerator == nullptr) {
        value = symbol_value(factor.symbol);
      } else if (factor.other != nullptr) {
        const auto first = factor.numerator->Evaluate(symbol_value);
        const auto second = factor.other->Evaluate(symbol_value);
        if (first && second) value = std::min(*first, *second);
      } else if (const auto numerator = factor.numerator->Evaluate(symbol_value)) {
        value = FloorQuotient(*numerator, factor.divisor);
      }
      if (!value || __builtin_mul_overflow(term, *value, &term)) return std::nullopt;
    }
    if (__builtin_add_overflow(total, term, &total)) return std::nullopt;
  }
  return total;
}

std::string DimExpr::ToString() const { return TermsToString(*this, false); }

std::optional<DimExpr> Add(const DimExpr& a, const DimExpr& b) {
  DimExpr sum = a;
  for (const auto& [monomial, coefficient] : b.terms_) {
    if (!sum.AddTerm(monomial, coefficient)) return std::nullopt;
  }
  return sum;
}

std::optional<DimExpr> Sub(const DimExpr& a, const DimExpr& b) {
  const auto negated = Mul(b, DimExpr::Constant(-1));
  return negated ? Add(a, *negated) : std::nullopt;
}

std::optional<DimExpr> Mul(const DimExpr& a, const DimExpr& b) {
  DimExpr product;
  for (const auto& [left, left_coefficient] : a.terms_) {
    for (const auto& [right, right_coefficient] : b.terms_) {
      if (left.size() + right.size() > kMaxFactors) return std::nullopt;
      DimExpr::Monomial monomial;
      std::merge(left.begin(), left.end(), right.begin(), right.end(), std::back_inserter(monomial),
                 [](const auto& x, const auto& y) { return DimExpr::CompareFactors(x, y) < 0; });
      int64_t coefficient = 0;
      if (__builtin_mul_overflow(left_coefficient, right_coefficient, &coefficient) ||
          !product.AddTerm(monomial, coefficient)) {
        return std::nullopt;
      }
    }
  }
  return product;
}

std::optional<DimExpr> FloorDiv(const DimExpr& a, int64_t divisor) {
  if (divisor < 1) return std::nullopt;
  if (divisor == 1) return a;
  // a = divisor * quotient + rest with rest's coefficients in [0, divisor); since quotient is an
  // integer, floor(a / divisor) = quotient + floor(rest / divisor).
  DimExpr quotient, rest;
  for (const auto& [monomial, coefficient] : a.terms_) {
    const int64_t q = FloorQuotient(coefficient, divisor);
    int64_t multiple = 0;
    if (__builtin_mul_overflow(q, divisor, &multiple) || !quotient.AddTerm(monomial, q) ||
        !rest.AddTerm(monomial, coefficient - multiple)) {
      return std::nullopt;
    }
  }
  // A constant rest is below the divisor: its floor is 0.
  if (rest.AsConstant()) return quotient;
  int64_t common = divisor;
  for (const auto& [monomial, coefficient] : rest.terms_) common = std::gcd(common, coefficient);
  DimExpr numerator;
  for (const auto& [monomial, coefficient] : rest.terms_) {
    numerator.AddTerm(monomial, coefficient / common);
  }
  int64_t reduced = divisor / common;
  // floor(floor(n / d) / e) = floor(n / (d * e)).
  if (numerator.terms_.size() == 1 && numerator.terms_.begin()->second == 1 &&
      numerator.terms_.begin()->first.size() == 1 &&
      numerator.terms_.begin()->first[0].numerator != nullptr &&
      numerator.terms_.begin()->first[0].other == nullptr) {
    const DimExpr::Factor inner = numerator.terms_.begin()->first[0];
    if (__builtin_mul_overflow(reduced, inner.divisor, &reduced)) return std::nullopt;
    numerator = *inner.numerator;
  }
  DimExpr::Factor factor;
  factor.numerator = std::make_shared<const DimExpr>(std::move(numerator));
  factor.divisor = reduced;
  DimExpr floor_term;
  floor_term.terms_.emplace(DimExpr::Monomial{std::move(factor)}, 1);
  return Add(quotient, floor_term);
}

std::optional<DimExpr> DivExact(const DimExpr& a, const DimExpr& b) {
  if (a == b && !b.terms_.empty()) return DimExpr::Constant(1);
  if (b.terms_.size() != 1) return std::nullopt;
  const auto& [divisor_monomial, divisor_coefficient] = *b.terms_.begin();
  DimExpr quotient;
  for (const auto& [monomial, coefficient] : a.terms_) {
    // INT64_MIN / -1 overflows.
    if ((divisor_coefficient == -1 && coefficient == INT64_MIN) ||
        coefficient % divisor_coefficient != 0) {
      return std::nullopt;
    }
    // The divisor's factors must all appear in the term (both lists are sorted).
    DimExpr::Monomial rest;
    size_t matched = 0;
    for (const auto& factor : monomial) {
      if (matched < divisor_monomial.size() &&
          DimExpr::CompareFactors(factor, divisor_monomial[matched]) == 0) {
        ++matched;
      } else {
        rest.push_back(factor);
      }
    }
    if (matched != divisor_monomial.size() ||
        !quotient.AddTerm(rest, coefficient / divisor_coefficient)) {
      return std::nullopt;
    }
  }
  return quotient;
}

std::optional<DimExpr> ProvableMin(const DimExpr& a, const DimExpr& b) {
  const auto difference = Sub(a, b);
  if (!difference) return std::nullopt;
  if (difference->IsNonNegative()) return b;
  const auto negated = Sub(b, a);
  if (negated && negated->IsNonNegative()) return a;
  return std::nullopt;
}

std::optional<DimExpr> Min(const DimExpr& a, const DimExpr& b) {
  if (!a.IsNonNegative() || !b.IsNonNegative()) return std::nullopt;
  if (auto smaller = ProvableMin(a, b)) return smaller;
  const bool ordered = DimExpr::Compare(a, b) < 0;
  DimExpr::Factor factor;
  factor.numerator = std::make_shared<const DimExpr>(ordered ? a : b);
  factor.other = std::make_shared<const DimExpr>(ordered ? b : a);
  DimExpr minimum;
  minimum.terms_.emplace(DimExpr::Monomial{std::move(factor)}, 1);
  return minimum;
}

std::optional<DimExpr> ProvableMax(const DimExpr& a, const DimExpr& b) {
  const auto smaller = ProvableMin(a, b);
  if (!smaller) return std::nullopt;
  return *smaller == a ? b : a;
}

std::optional<DimExpr> Product(const std::vector<DimExpr>& dims) {
  DimExpr product = DimExpr::Constant(1);
  for (const DimExpr& dim : dims) {
    auto next = Mul(product, dim);
    if (!next) return std::nullopt;
    product = std::move(*next);
  }
  return product;
}

}  // namespace ort
