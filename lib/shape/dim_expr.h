// Symbolic tensor dimensions and shape-tensor elements: integer polynomials over named symbols
// (a model's dim_params, fresh names for sizes nothing is known about), floor divisions by
// positive constants and minima (a slice of a table by a length: x[:seq]), kept in one canonical
// form so that equal expressions compare equal (the idea of tract's TDim).
//
// Every symbol stands for an integer >= 0 (a dimension size). Equality is sound, not complete:
// two expressions that compare equal are equal for every value of their symbols; two that compare
// unequal may still be equal (floor((2*n+2)/4) and floor((n+1)/2) are canonicalized alike, but not
// every identity of floor division is known).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ort {

class DimExpr {
 public:
  /// The constant 0.
  DimExpr() = default;
  static DimExpr Constant(int64_t value);
  static DimExpr Symbol(std::string name);

  /// The value when the expression has no symbol.
  std::optional<int64_t> AsConstant() const;
  /// The name when the expression is one symbol alone (coefficient 1, nothing added).
  std::optional<std::string_view> AsSymbol() const;
  /// The operands when the expression is one minimum alone (coefficient 1, nothing added).
  std::optional<std::pair<DimExpr, DimExpr>> AsMin() const;
  /// True when the expression is >= 0 for every value of its symbols.
  bool IsNonNegative() const;
  /// True when the expression is >= 1 for every value of its symbols.
  bool IsPositive() const;

  /// The value for the symbol values `symbol_value` gives (nullopt for a symbol it does not know),
  /// or nullopt on overflow.
  std::optional<int64_t> Evaluate(
      const std::function<std::optional<int64_t>(std::string_view)>& symbol_value) const;

  /// A canonical spelling: "7", "batch", "2*seq+1", "floor((seq+1)/2)". A lone symbol prints as
  /// its name; inside a larger expression a name that is not an identifier is quoted, so
  /// distinct expressions print differently unless one is a symbol named like another's print.
  std::string ToString() const;

  friend bool operator==(const DimExpr& a, const DimExpr& b);
  /// A total order on canonical forms (for sorting and map keys), not on values.
  friend bool operator<(const DimExpr& a, const DimExpr& b);

  friend std::optional<DimExpr> Add(const DimExpr& a, const DimExpr& b);
  friend std::optional<DimExpr> Mul(const DimExpr& a, const DimExpr& b);
  friend std::optional<DimExpr> FloorDiv(const DimExpr& a, int64_t divisor);
  friend std::optional<DimExpr> DivExact(const DimExpr& a, const DimExpr& b);
  friend std::optional<DimExpr> Min(const DimExpr& a, const DimExpr& b);

 private:
  /// A symbol (no numerator), floor(numerator / divisor) with divisor >= 2 and a numerator
  /// whose coefficients are all >= 0, or min(numerator, other) (`other` set) of two expressions
  /// that are >= 0, operands in canonical order (so every factor is >= 0).
  struct Factor {
    std::string symbol;
    std::shared_ptr<const DimExpr> numerator;
    int64_t divisor = 0;
    std::shared_ptr<const DimExpr> other;
  };
  /// Factors sorted by CompareFactors, repeated for powers; empty for the constant term.
  using Monomial = std::vector<Factor>;
  struct MonomialLess {
    bool operator()(const Monomial& a, const Monomial& b) const;
  };
  static int Compare(const DimExpr& a, const DimExpr& b);
  static int CompareFactors(const Factor& a, const Factor& b);
  static int CompareMonomials(const Monomial& a, const Monomial& b);
  /// Adds coefficient * monomial; false on overflow or when the expression grows too large.
  bool AddTerm(const Monomial& monomial, int64_t coefficient);
  static std::string FactorToString(const Factor& factor);
  static std::string TermsToString(const DimExpr& expr, bool quote);

  /// Coefficient of each monomial; no zero coefficients.
  std::map<Monomial, int64_t, MonomialLess> terms_;
};

/// a + b, a - b, a * b; nullopt when a coefficient would overflow int64 or the expression would
/// grow past a few dozen terms.
std::optional<DimExpr> Add(const DimExpr& a, const DimExpr& b);
std::optional<DimExpr> Sub(const DimExpr& a, const DimExpr& b);
std::optional<DimExpr> Mul(const DimExpr& a, const DimExpr& b);
/// floor(a / divisor) for divisor >= 1 (exact also for negative a); nullopt for divisor < 1.
std::optional<DimExpr> FloorDiv(const DimExpr& a, int64_t divisor);
/// a / b when b divides a as a polynomial (b a constant or a single term, or b == a): the
/// quotient every valid assignment of the symbols gives; nullopt otherwise.
std::optional<DimExpr> DivExact(const DimExpr& a, const DimExpr& b);
/// min(a, b) of two expressions that are >= 0: the smaller one when provable, else a minimum
/// term; nullopt when either may be negative.
std::optional<DimExpr> Min(const DimExpr& a, const DimExpr& b);
/// The smaller / larger of a and b when provable (or both constant); nullopt otherwise.
std::optional<DimExpr> ProvableMin(const DimExpr& a, const DimExpr& b);
std::optional<DimExpr> ProvableMax(const DimExpr& a, const DimExpr& b);
/// The product of `dims` (1 for none), or nullopt.
std::optional<DimExpr> Product(const std::vector<DimExpr>& dims);

/// The expression `text` spells in DimExpr::ToString's syntax (spaces allowed): "batch",
/// "2*seq+1", "floor((seq+1)/2)", "min(seq,512)", "\"a.b\"*n"; nullopt when it is not such a
/// spelling (the caller may then treat the whole text as one symbol).
std::optional<DimExpr> ParseDimExpr(std::string_view text);

}  // namespace ort
