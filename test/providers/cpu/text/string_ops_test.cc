#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

// Expected values from Python's str.split, str concatenation and re.fullmatch.
namespace ort::test {

TEST_CASE("StringConcat broadcasts", "[text][StringConcat]") {
  OpTester("StringConcat", 20)
      .Input<std::string>("x", {2, 1}, {"ab", ""})
      .Input<std::string>("y", {2}, {"c", "de"})
      .Output<std::string>("z", {2, 2}, {"abc", "abde", "c", "de"})
      .Run();
}

TEST_CASE("StringSplit on a delimiter and on whitespace", "[text][StringSplit]") {
  // "a,b,,c".split(",") == ['a', 'b', '', 'c'], "".split(",") == ['']
  OpTester("StringSplit", 20)
      .AttrString("delimiter", ",")
      .Input<std::string>("x", {3}, {"a,b,,c", "d", ""})
      .Output<std::string>("y", {3, 4}, {"a", "b", "", "c", "d", "", "", "", "", "", "", ""})
      .Output<int64_t>("z", {3}, {4, 1, 1})
      .Run();
  // "  hello  world ".split() == ['hello', 'world'], "".split() == []
  OpTester("StringSplit", 20)
      .Input<std::string>("x", {3}, {"  hello  world ", "one", ""})
      .Output<std::string>("y", {3, 2}, {"hello", "world", "one", "", "", ""})
      .Output<int64_t>("z", {3}, {2, 1, 0})
      .Run();
  // "a-b-c".split("-", 1) == ['a', 'b-c'], "  a b  c  ".split(None, 1) == ['a', 'b  c  ']
  OpTester("StringSplit", 20)
      .AttrString("delimiter", "-")
      .AttrInt("maxsplit", 1)
      .Input<std::string>("x", {1}, {"a-b-c"})
      .Output<std::string>("y", {1, 2}, {"a", "b-c"})
      .Output<int64_t>("z", {1}, {2})
      .Run();
  OpTester("StringSplit", 20)
      .AttrInt("maxsplit", 1)
      .Input<std::string>("x", {2}, {"  a b  c  ", "a  "})
      .Output<std::string>("y", {2, 2}, {"a", "b  c  ", "a", ""})
      .Output<int64_t>("z", {2}, {2, 1})
      .Run();
}

TEST_CASE("RegexFullMatch matches whole strings", "[text][RegexFullMatch]") {
  OpTester("RegexFullMatch", 20)
      .AttrString("pattern", "[a-z]+@[a-z]+\\.com")
      .Input<std::string>("x", {3}, {"ab@cd.com", "ab@cd.comx", "x"})
      .Output<bool>("y", {3}, {true, false, false})
      .Run();
  OpTester("RegexFullMatch", 20)
      .AttrString("pattern", "(unclosed")
      .Input<std::string>("x", {1}, {"a"})
      .Output<bool>("y", {1}, {false})
      .RunExpectingError("is not supported");
}

}  // namespace ort::test
