// Shape rules of elementwise ops: broadcasting that never merges two different symbols, and the
// integer arithmetic, comparisons and selections exporters compute shapes with. Expected shapes
// are derived by hand from numpy's broadcasting rule.
#include <climits>

#include "test/shape/shape_test_util.h"

namespace ort::test {

TEST_CASE("Elementwise ops broadcast symbolic shapes", "[shape]") {
  ShapeGraph g;
  g.Input("x", {"batch", "seq", int64_t{768}});
  g.Input("bias", {int64_t{768}});
  g.Input("positions", {int64_t{1}, "seq", int64_t{768}});
  g.Input("mask", {"batch", int64_t{1}, int64_t{1}, "seq"});
  g.Input("scores", {"batch", int64_t{12}, "seq", "seq"});
  g.Input("n", {"n"});
  g.Input("m", {"m"});
  g.Input("three", {int64_t{3}});
  g.Input("four", {int64_t{4}});
  g.Add("Add", {"x", "bias"}, {"biased"});
  g.Add("Add", {"positions", "x"}, {"embedded"});
  g.Add("Add", {"scores", "mask"}, {"masked"});
  g.Add("Mul", {"n", "m"}, {"nm"});
  g.Add("Sub", {"n", "three"}, {"n3"});
  g.Add("Div", {"three", "four"}, {"bad"});
  g.Add("Relu", {"x"}, {"relu"});
  g.Add("Sum", {"bias", "positions", "x"}, {"sum"});
  g.Input("condition", {"batch", int64_t{1}, int64_t{1}, "seq"}, DataType::kBool);
  g.Ints("fill", {-1}, true);
  g.Add("Where", {"condition", "scores", "fill"}, {"selected"});
  g.Add("PRelu", {"x", "bias"}, {"prelu"});
  // positions[:seq] of a 512-row table added to [batch, seq, 768]: seq in every valid case (the
  // table's rows are seq, or 512 < seq cannot broadcast, or seq is 1 and so is the slice).
  g.Input("table", {int64_t{512}, int64_t{768}});
  g.Ints("zeros", {0});
  g.Ints("axes0", {0});
  g.Add("Shape", {"x"}, {"shape"});
  g.Ints("one_index", {1});
  g.Add("Gather", {"shape", "one_index"}, {"seq_length"});
  g.Add("Slice", {"table", "zeros", "seq_length", "axes0"}, {"rows"});
  g.Add("Add", {"x", "rows"}, {"with_rows"});
  g.Add("Add", {"rows", "x"}, {"rows_first"});
  // Against another symbol nothing is known: m may be 1 while seq is not.
  g.Input("other", {"batch", "m", int64_t{768}});
  g.Add("Add", {"other", "rows"}, {"other_rows"});

  CHECK(g.Shape("biased") == "[batch,seq,768]");
  CHECK(g.Shape("embedded") == "[batch,seq,768]");
  CHECK(g.Shape("masked") == "[batch,12,seq,seq]");
  CHECK(g.Shape("nm") == "[?]");  // n and m may each be 1: neither is the result
  CHECK(g.Shape("n3") == "[3]");
  CHECK(g.Shape("bad") == "[?]");  // 3 against 4 cannot broadcast
  CHECK(g.Shape("relu") == "[batch,seq,768]");
  CHECK(g.Shape("sum") == "[batch,seq,768]");
  CHECK(g.Shape("selected") == "[batch,12,seq,seq]");
  CHECK(g.Shape("prelu") == "[batch,seq,768]");
  CHECK(g.Shape("rows") == "[min(512,seq),768]");
  CHECK(g.Shape("with_rows") == "[batch,seq,768]");
  CHECK(g.Shape("rows_first") == "[batch,seq,768]");
  CHECK(g.Shape("other_rows") == "[batch,?,768]");
}

TEST_CASE("Arithmetic on shape values keeps them as expressions", "[shape]") {
  ShapeGraph g;
  g.Input("x", {"batch", "seq", int64_t{768}});
  g.Add("Shape", {"x"}, {"shape"});
  g.Ints("zero", {0}, true);
  g.Ints("one", {1}, true);
  g.Ints("two", {2}, true);
  g.Ints("heads", {12}, true);
  g.Ints("minus_seven", {-7}, true);
  g.Add("Gather", {"shape", "zero"}, {"b"});
  g.Add("Gather", {"shape", "one"}, {"s"});
  g.Add("Gather", {"shape", "two"}, {"hidden"});
  g.Add("Mul", {"b", "s"}, {"tokens"});
  g.Add("Add", {"s", "one"}, {"s1"});
  g.Add("Sub", {"s", "one"}, {"s_less"});
  g.Add("Div", {"hidden", "heads"}, {"head_size"});
  g.Add("Div", {"s1", "two"}, {"half"});
  g.Add("Div", {"s_less", "two"}, {"unknown_half"});  // s - 1 may be -1: truncation differs
  g.Add("Div", {"minus_seven", "two"}, {"truncated"});
  g.Add("Neg", {"s"}, {"negated"});
  g.Add("Max", {"s", "s1"}, {"larger"});
  g.Add("Min", {"s", "s1"}, {"smaller"});
  g.Add("Min", {"s", "b"}, {"either"});

  CHECK(g.Values("tokens") == "[batch*seq]");
  CHECK(g.Shape("tokens") == "[]");
  CHECK(g.Values("s1") == "[seq+1]");
  CHECK(g.Values("head_size") == "[64]");
  CHECK(g.Values("half") == "[floor((seq+1)/2)]");
  CHECK(g.Values("unknown_half") == "none");
  CHECK(g.Values("truncated") == "[-3]");
  CHECK(g.Values("negated") == "[-seq]");
  CHECK(g.Values("larger") == "[seq+1]");
  CHECK(g.Values("smaller") == "[seq]");
  CHECK(g.Values("either") == "none");
}

TEST_CASE("Comparisons, Where and Cast select shape values", "[shape]") {
  ShapeGraph g;
  g.Input("x", {"batch", int64_t{12}});
  g.Add("Shape", {"x"}, {"shape"});
  // torch's expand(batch, -1): Where(Equal(shape, -1), ones, shape).
  g.Add("Shape", {"shape"}, {"rank"});
  g.Add("ConstantOfShape", {"rank"}, {"ones"})
      .SetAttribute(Attribute::TensorValue("value", Tensor::FromVector<int64_t>({1}, {1})));
  g.Ints("minus_one", {-1}, true);
  g.Add("Mul", {"ones", "minus_one"}, {"minus_ones"});
  g.Add("Equal", {"shape", "minus_ones"}, {"is_free"});
  g.Add("Where", {"is_free", "ones", "shape"}, {"target"});
  g.Input("row", {int64_t{1}, int64_t{12}});
  g.Add("Expand", {"row", "target"}, {"expanded"});
  g.Ints("ten", {10}, true);
  g.Add("Less", {"shape", "ten"}, {"less"});
  g.Add("GreaterOrEqual", {"shape", "ten"}, {"at_least"});
  g.Add("Cast", {"shape"}, {"as_int32"}).SetAttribute(Attribute::Int("to", 6));
  g.Add("Cast", {"ten"}, {"ten_int32"}).SetAttribute(Attribute::Int("to", 6));
  g.Add("Cast", {"shape"}, {"as_float"}).SetAttribute(Attribute::Int("to", 1));
  g.Add("Cast", {"ten_int32"}, {"ten_again"}).SetAttribute(Attribute::Int("to", 7));

  CHECK(g.Values("ones") == "[1,1]");
  CHECK(g.Values("is_free") == "[0,0]");  // batch >= 0 is never -1
  CHECK(g.Values("target") == "[batch,12]");
  CHECK(g.Shape("expanded") == "[batch,12]");
  CHECK(g.Values("less") == "none");  // batch < 10 is unknown
  CHECK(g.Values("at_least") == "none");
  CHECK(g.Values("ten_int32") == "[10]");
  CHECK(g.Values("as_int32") == "none");  // a symbol might not fit int32
  CHECK(g.Values("as_float") == "none");
  CHECK(g.Shape("as_float") == "[2]");
  CHECK(g.Values("ten_again") == "[10]");
}

TEST_CASE("Elementwise rules leave malformed nodes unknown", "[shape]") {
  ShapeGraph g;
  g.Input("x", {"batch", int64_t{4}});
  g.Add("Add", {"x"}, {"one_input"});
  g.Add("Add", {}, {"no_input"});
  g.Add("Relu", {""}, {"omitted"});
  g.Add("Where", {"x", "x"}, {"two_of_three"});
  g.Add("Add", {"x", "undefined"}, {"reads_nothing"});
  g.Add("Cast", {"x"}, {"no_to"});

  CHECK(g.Shape("one_input") == "[batch,4]");
  CHECK(g.Shape("no_input") == "?");
  CHECK(g.Shape("omitted") == "?");
  CHECK(g.Shape("two_of_three") == "[batch,4]");
  CHECK(g.Shape("reads_nothing") == "?");
  CHECK(g.Values("no_to") == "none");
}

}  // namespace ort::test
