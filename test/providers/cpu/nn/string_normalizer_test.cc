#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {

TEST_CASE("StringNormalizer drops stopwords case-insensitively and lowercases",
          "[nn][StringNormalizer]") {
  OpTester("StringNormalizer", 10)
      .AttrString("case_change_action", "LOWER")
      .Attr(Attribute::Strings("stopwords", {"the", "ÉTÉ"}))
      .Input<std::string>("x", {6}, {"The", "Quick", "été", "BROWN", "Straße", "ÀÉÎ"})
      .Output<std::string>("y", {4}, {"quick", "brown", "straße", "àéî"})
      .Run();
}

TEST_CASE("StringNormalizer honours case-sensitive stopwords and uppercases",
          "[nn][StringNormalizer]") {
  OpTester("StringNormalizer", 10)
      .AttrString("case_change_action", "UPPER")
      .AttrInt("is_case_sensitive", 1)
      .AttrString("locale", "en_US")
      .Attr(Attribute::Strings("stopwords", {"monday"}))
      .Input<std::string>("x", {1, 4}, {"monday", "Monday", "tuesday", "ωmega"})
      .Output<std::string>("y", {1, 3}, {"MONDAY", "TUESDAY", "ΩMEGA"})
      .Run();
}

TEST_CASE("StringNormalizer keeps one empty string when everything is dropped",
          "[nn][StringNormalizer]") {
  OpTester("StringNormalizer", 10)
      .Attr(Attribute::Strings("stopwords", {"a", "b"}))
      .Input<std::string>("x", {1, 3}, {"A", "b", "a"})
      .Output<std::string>("y", {1, 1}, {""})
      .Run();
  OpTester("StringNormalizer", 10)
      .Input<std::string>("x", {0}, {})
      .Output<std::string>("y", {1}, {""})
      .Run();
}

TEST_CASE("StringNormalizer rejects bad shapes, locales and UTF-8", "[nn][StringNormalizer]") {
  OpTester("StringNormalizer", 10)
      .Input<std::string>("x", {2, 2}, {"a", "b", "c", "d"})
      .Output<std::string>("y", {2, 2}, {"a", "b", "c", "d"})
      .RunExpectingError("[1, C]");
  OpTester("StringNormalizer", 10)
      .AttrString("locale", "tr_TR")
      .Input<std::string>("x", {1}, {"a"})
      .Output<std::string>("y", {1}, {"a"})
      .RunExpectingError("locale");
  OpTester("StringNormalizer", 10)
      .AttrString("case_change_action", "LOWER")
      .Input<std::string>("x", {1}, {std::string("\xC3\x28")})
      .Output<std::string>("y", {1}, {""})
      .RunExpectingError("UTF-8");
}

}  // namespace ort::test
