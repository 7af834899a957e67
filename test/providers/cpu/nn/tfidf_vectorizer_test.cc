// Hand-counted n-grams.
#include <catch2/catch.hpp>

#include "test/providers/cpu/op_tester.h"

namespace ort::test {
namespace {

// Pool: unigrams 2, 3, 5, 4 then bigrams (5,6), (7,8), (6,7); columns follow pool order.
OpTester MakeTester(std::string mode, int64_t min_gram, int64_t max_gram, int64_t skip) {
  OpTester tester("TfIdfVectorizer", 9);
  tester.AttrString("mode", std::move(mode))
      .AttrInt("min_gram_length", min_gram)
      .AttrInt("max_gram_length", max_gram)
      .AttrInt("max_skip_count", skip)
      .AttrInts("ngram_counts", {0, 4})
      .AttrInts("ngram_indexes", {0, 1, 2, 3, 4, 5, 6})
      .AttrInts("pool_int64s", {2, 3, 5, 4, 5, 6, 7, 8, 6, 7});
  return tester;
}

// TF counts of n-grams of 1 to `max_gram` items without skips; the caller adds the pool.
OpTester CountingTester(int64_t max_gram, std::vector<int64_t> ngram_counts,
                        std::vector<int64_t> ngram_indexes) {
  OpTester tester("TfIdfVectorizer", 9);
  tester.AttrString("mode", "TF")
      .AttrInt("min_gram_length", 1)
      .AttrInt("max_gram_length", max_gram)
      .AttrInt("max_skip_count", 0)
      .AttrInts("ngram_counts", std::move(ngram_counts))
      .AttrInts("ngram_indexes", std::move(ngram_indexes));
  return tester;
}

}  // namespace

TEST_CASE("TfIdfVectorizer counts unigrams once and skipped bigrams", "[nn][TfIdfVectorizer]") {
  // Row 0: 3 three times. Row 1 [8,6,7,5,6,8]: 5 once; (5,6) at 3-4; (7,8) at 2-5 (skip 2);
  // (6,7) at 1-2.
  MakeTester("TF", 1, 2, 5)
      .Input<int32_t>("x", {2, 6}, {1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8})
      .Output<float>("y", {2, 7}, {0, 3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1})
      .Run();
  // Without skips (7,8) is not found.
  MakeTester("TF", 2, 2, 0)
      .Input<int64_t>("x", {6}, {8, 6, 7, 5, 6, 8})
      .Output<float>("y", {7}, {0, 0, 0, 0, 1, 0, 1})
      .Run();
}

TEST_CASE("TfIdfVectorizer weights counts in IDF and TFIDF modes", "[nn][TfIdfVectorizer]") {
  MakeTester("IDF", 1, 1, 0)
      .AttrFloats("weights", {1, 2, 3, 4, 5, 6, 7})
      .Input<int64_t>("x", {5}, {3, 3, 4, 9, 3})
      .Output<float>("y", {7}, {0, 2, 0, 4, 0, 0, 0})
      .Run();
  MakeTester("TFIDF", 1, 1, 0)
      .AttrFloats("weights", {1, 2, 3, 4, 5, 6, 7})
      .Input<int64_t>("x", {5}, {3, 3, 4, 9, 3})
      .Output<float>("y", {7}, {0, 6, 0, 4, 0, 0, 0})
      .Run();
}

TEST_CASE("TfIdfVectorizer matches string n-grams", "[nn][TfIdfVectorizer]") {
  CountingTester(2, {0, 2}, {2, 0, 1})
      .Attr(Attribute::Strings("pool_strings", {"a", "b", "a", "b"}))
      .Input<std::string>("x", {5}, {"a", "b", "x", "a", "b"})
      .Output<float>("y", {3}, {2, 2, 2})
      .Run();
  CountingTester(1, {0}, {0})
      .Attr(Attribute::Strings("pool_strings", {"a"}))
      .Input<std::string>("x", {0}, {})
      .Output<float>("y", {1}, {0})
      .Run();
}

TEST_CASE("TfIdfVectorizer rejects inconsistent attributes and inputs", "[nn][TfIdfVectorizer]") {
  CountingTester(2, {0, 2}, {0, 1})
      .AttrInts("pool_int64s", {1, 2, 3})
      .Input<int64_t>("x", {2}, {1, 2})
      .Output<float>("y", {2}, {0, 0})
      .RunExpectingError("does not split the pool");
  MakeTester("BM25", 1, 1, 0)
      .Input<int64_t>("x", {2}, {1, 2})
      .Output<float>("y", {7}, {0, 0, 0, 0, 0, 0, 0})
      .RunExpectingError("unknown mode");
  MakeTester("TF", 1, 1, 0)
      .Input<std::string>("x", {1}, {"2"})
      .Output<float>("y", {7}, {0, 0, 0, 0, 0, 0, 0})
      .RunExpectingError("does not match");
}

}  // namespace ort::test
