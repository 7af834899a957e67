// DimExpr: canonical forms (equal expressions compare equal), floor division identities checked
// against integer arithmetic over many symbol values, exact division, provable comparisons and
// overflow left unknown.
#include <catch2/catch.hpp>

#include <climits>
#include <map>

#include "lib/shape/dim_expr.h"

namespace ort {
namespace {

const DimExpr kN = DimExpr::Symbol("n");
const DimExpr kM = DimExpr::Symbol("m");

DimExpr C(int64_t value) { return DimExpr::Constant(value); }
DimExpr operator+(const DimExpr& a, const DimExpr& b) { return *Add(a, b); }
DimExpr operator-(const DimExpr& a, const DimExpr& b) { return *Sub(a, b); }
DimExpr operator*(const DimExpr& a, const DimExpr& b) { return *Mul(a, b); }

// Floor division the way Python writes it, for the reference values.
int64_t PythonFloorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

std::optional<int64_t> At(const DimExpr& expr, int64_t n, int64_t m = 0) {
  return expr.Evaluate([&](std::string_view name) -> std::optional<int64_t> {
    if (name == "n") return n;
    if (name == "m") return m;
    return std::nullopt;
  });
}

}  // namespace

TEST_CASE("DimExpr keeps sums of products in one canonical form", "[shape]") {
  CHECK(kN + kM == kM + kN);
  CHECK((kN + C(1)) * (kN - C(1)) == kN * kN - C(1));
  CHECK(kN * C(2) - kN - kN == C(0));
  CHECK((kN + kM) * C(3) == kM * C(3) + kN * C(3));
  CHECK(kN * kM == kM * kN);
  CHECK(kN + C(1) != kN);
  CHECK(kN != kM);
  CHECK((kN * C(2)).AsConstant() == std::nullopt);
  CHECK((kN - kN).AsConstant() == 0);
  CHECK(kN.AsSymbol() == "n");
  CHECK((kN * C(2)).AsSymbol() == std::nullopt);
  CHECK((kN * C(2) + C(1)).ToString() == "2*n+1");
  CHECK((C(3) - kN * kM).ToString() == "-m*n+3");
  CHECK(DimExpr::Symbol("batch size").ToString() == "batch size");
  CHECK((DimExpr::Symbol("batch size") * C(2)).ToString() == "2*\"batch size\"");
}

TEST_CASE("DimExpr floor division is exact and canonical", "[shape]") {
  const auto half = *FloorDiv(kN + C(1), 2);
  CHECK(half.ToString() == "floor((n+1)/2)");
  CHECK(*FloorDiv(kN * C(2) + C(2), 4) == half);  // the common factor 2 cancels
  CHECK(*FloorDiv(kN - C(1), 2) == half - C(1));
  CHECK(*FloorDiv(*FloorDiv(kN, 2), 3) == *FloorDiv(kN, 6));
  CHECK(*FloorDiv(kN * C(6) + C(3), 3) == kN * C(2) + C(1));
  CHECK(*FloorDiv(C(-7), 2) == C(-4));
  CHECK(*FloorDiv(kN, 1) == kN);
  CHECK(!FloorDiv(kN, 0));
  CHECK(!FloorDiv(kN, -2));

  const std::vector<std::pair<DimExpr, int64_t>> cases{{kN + C(1), 2},
                                                       {kN * C(2) + C(2), 4},
                                                       {kN - C(1), 2},
                                                       {kN * C(3) - kM + C(5), 4},
                                                       {kN * kM + C(7), 3},
                                                       {C(-9) + kN, 5},
                                                       {*FloorDiv(kN, 2) * C(3) + kM, 2}};
  for (const auto& [numerator, divisor] : cases) {
    const DimExpr quotient = *FloorDiv(numerator, divisor);
    for (int64_t n = 0; n < 13; ++n) {
      for (int64_t m = 0; m < 5; ++m) {
        INFO(numerator.ToString() << " / " << divisor << " at n=" << n << " m=" << m);
        CHECK(At(quotient, n, m) == PythonFloorDiv(*At(numerator, n, m), divisor));
      }
    }
  }
}

TEST_CASE("DimExpr divides exactly only what it can prove", "[shape]") {
  const DimExpr total = kN * kM * C(768);
  CHECK(DivExact(total, kN * C(12)) == kM * C(64));
  CHECK(DivExact((kN + C(1)) * kM * C(4), kM * C(2)) == kN * C(2) + C(2));
  CHECK(DivExact(kN + kM, kN + kM) == C(1));
  CHECK(!DivExact(total, C(5)));
  CHECK(!DivExact(kN + C(1), kN));
  CHECK(!DivExact(kN * kN, kN + C(1)));
  CHECK(!DivExact(kN, C(0)));
}

TEST_CASE("DimExpr proves signs and orders of non-negative symbols", "[shape]") {
  CHECK(kN.IsNonNegative());
  CHECK(!kN.IsPositive());  // a dimension may be 0
  CHECK((kN + C(1)).IsPositive());
  CHECK(!(kN - C(1)).IsNonNegative());
  CHECK((*FloorDiv(kN + C(3), 4)).IsNonNegative());
  CHECK(ProvableMax(kN, kN + C(2)) == kN + C(2));
  CHECK(ProvableMin(kN, kN + C(2)) == kN);
  CHECK(ProvableMin(C(3), C(-1)) == C(-1));
  CHECK(!ProvableMin(kN, C(4)));
  CHECK(!ProvableMax(kN, kM));
  CHECK(Product({kN, C(2), kM}) == kN * kM * C(2));
  CHECK(Product({}) == C(1));
}

TEST_CASE("DimExpr minima are canonical and evaluate to the smaller operand", "[shape]") {
  CHECK(Min(kN, kN + C(2)) == kN);  // provable: no minimum term
  CHECK(!Min(kN - C(1), C(4)));     // an operand that may be negative
  const DimExpr table = *Min(kN, C(128));
  CHECK(table == *Min(C(128), kN));
  CHECK(table.ToString() == "min(128,n)");
  CHECK(table.IsNonNegative());
  CHECK(!(table == kN));
  const auto operands = table.AsMin();
  REQUIRE(operands);
  CHECK(((operands->first == kN && operands->second == C(128)) ||
         (operands->first == C(128) && operands->second == kN)));
  CHECK(!(table + C(1)).AsMin());
  CHECK((table * C(2) - table).AsMin());
  CHECK(!(*Min(kN, kM) == *Min(kN, C(128))));
  for (int64_t n : {0, 1, 127, 128, 129, 1000}) {
    const auto value = (table * C(3) + C(1)).Evaluate([n](std::string_view) { return n; });
    CHECK(value == std::min<int64_t>(n, 128) * 3 + 1);
  }
  // A floor of a minimum stays a floor of it.
  CHECK((*FloorDiv(table, 2)).ToString() == "floor(min(128,n)/2)");
}

TEST_CASE("DimExpr arithmetic that would overflow is unknown", "[shape]") {
  CHECK(!Add(C(INT64_MAX), C(1)));
  CHECK(!Mul(kN * C(INT64_MAX), C(2)));
  CHECK(!Sub(C(INT64_MIN), C(1)));
  CHECK(!DivExact(C(INT64_MIN), C(-1)));
  CHECK(!At(kN * C(INT64_MAX / 2), 3));
  CHECK(Add(C(INT64_MAX), C(-1)) == C(INT64_MAX - 1));
}

TEST_CASE("DimExpr spellings parse back to the expressions they spell", "[shape]") {
  const DimExpr odd = DimExpr::Symbol("a.b");
  for (const DimExpr& expr : {kN, C(7), C(2) * kN + C(1), kN * kM - C(3) * kM,
                              *FloorDiv(kN + C(1), 2), *FloorDiv(kN, 2) * kM, C(0) - kN, odd * kN,
                              C(64) * kN * kN, *Min(kN, C(512)), C(2) * *Min(kN + C(1), kM)}) {
    INFO(expr.ToString());
    const auto parsed = ParseDimExpr(expr.ToString());
    REQUIRE(parsed);
    CHECK(*parsed == expr);
  }
  // Other tools' spellings, with spaces and parentheses.
  CHECK(ParseDimExpr("seq + 1") == kN.Symbol("seq") + C(1));
  CHECK(ParseDimExpr("2 * (n + m)") == C(2) * kN + C(2) * kM);
  CHECK(ParseDimExpr("floor(n / 2)") == FloorDiv(kN, 2));
  for (const char* text : {"", "n+", "2n", "floor(n/m)", "(n", "\"open", "n/2", "a.b"}) {
    INFO(text);
    CHECK_FALSE(ParseDimExpr(text));
  }
}

}  // namespace ort
