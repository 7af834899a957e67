// Shape rules of the ops that compute and consume shapes: Shape, Size, Gather, Slice, Concat,
// Unsqueeze, Squeeze, Reshape (0 and -1, allowzero) and Flatten, with hand-derived shapes and
// values, in the opset forms where their signatures differ.
#include <climits>

#include "test/shape/shape_test_util.h"

namespace ort::test {

TEST_CASE("Shape, Gather, Unsqueeze and Concat carry dimensions as values", "[shape]") {
  ShapeGraph g(14);
  g.Input("x", {"batch", "seq", int64_t{768}});
  g.Add("Shape", {"x"}, {"shape"});
  g.Ints("zero", {0}, true);
  g.Ints("one", {1}, true);
  g.Ints("last", {-1});
  g.Ints("axes0", {0});
  g.Ints("heads", {12});
  g.Ints("head_size", {64});
  g.Add("Gather", {"shape", "zero"}, {"b"});
  g.Add("Gather", {"shape", "one"}, {"s"});
  g.Add("Gather", {"shape", "last"}, {"hidden"});
  g.Add("Unsqueeze", {"b", "axes0"}, {"b1"});
  g.Add("Unsqueeze", {"s", "axes0"}, {"s1"});
  g.Add("Concat", {"b1", "s1", "heads", "head_size"}, {"target"})
      .SetAttribute(Attribute::Int("axis", 0));
  g.Add("Size", {"x"}, {"size"});
  g.Add("Gather", {"x", "last"}, {"gathered"}).SetAttribute(Attribute::Int("axis", 1));
  g.Add("Gather", {"x", "last"}, {"bad_axis"}).SetAttribute(Attribute::Int("axis", 3));
  g.Add("Gather", {"x"}, {"no_indices"});
  g.Ints("far", {5}, true);
  g.Add("Gather", {"shape", "far"}, {"out_of_range"});

  CHECK(g.Values("shape") == "[batch,seq,768]");
  CHECK(g.Shape("shape") == "[3]");
  CHECK(g.Values("b") == "[batch]");
  CHECK(g.Shape("b") == "[]");
  CHECK(g.Values("hidden") == "[768]");
  CHECK(g.Shape("hidden") == "[1]");
  CHECK(g.Values("target") == "[batch,seq,12,64]");
  CHECK(g.Values("size") == "[768*batch*seq]");
  CHECK(g.Shape("gathered") == "[batch,1,768]");
  CHECK(g.Shape("bad_axis") == "?");
  CHECK(g.Shape("no_indices") == "?");
  CHECK(g.Shape("out_of_range") == "[]");
  CHECK(g.Values("out_of_range") == "none");
}

TEST_CASE("Shape's start and end select dimensions (opset 15)", "[shape]") {
  ShapeGraph g(15);
  g.Input("x", {"batch", "seq", int64_t{768}});
  g.Add("Shape", {"x"}, {"tail"}).SetAttribute(Attribute::Int("start", 1));
  Node& middle = g.Add("Shape", {"x"}, {"middle"});
  middle.SetAttribute(Attribute::Int("start", -2));
  middle.SetAttribute(Attribute::Int("end", -1));
  g.Add("Shape", {"x"}, {"empty"}).SetAttribute(Attribute::Int("start", 5));

  CHECK(g.Values("tail") == "[seq,768]");
  CHECK(g.Values("middle") == "[seq]");
  CHECK(g.Values("empty") == "[]");
}

TEST_CASE("Slice shapes and values", "[shape]") {
  ShapeGraph g(14);
  g.Input("x", {"batch", "seq", int64_t{768}});
  g.Ints("zero", {0});
  g.Ints("one", {1});
  g.Ints("two", {2});
  g.Ints("three", {3});
  g.Ints("ten", {10});
  g.Ints("end", {INT64_MAX});
  g.Ints("begin", {INT64_MIN});
  g.Ints("minus_one", {-1});
  g.Ints("half", {384});
  g.Add("Slice", {"x", "zero", "end", "one"}, {"whole"});
  g.Add("Slice", {"x", "one", "end", "one"}, {"drop_first"});
  g.Add("Slice", {"x", "zero", "half", "two"}, {"first_half"});
  g.Add("Slice", {"x", "minus_one", "begin", "one", "minus_one"}, {"reversed"});
  g.Add("Slice", {"x", "zero", "ten", "two", "three"}, {"strided"});
  g.Add("Shape", {"x"}, {"shape"});
  g.Add("Slice", {"shape", "zero", "minus_one"}, {"leading"});
  g.Add("Slice", {"shape", "minus_one", "begin", "zero", "minus_one"}, {"backwards"});
  // The end is a value: x[:, :seq] of a [batch, seq, 768] tensor keeps seq.
  g.Ints("axes0", {0});
  g.Ints("one_scalar", {1}, true);
  g.Add("Gather", {"shape", "one_scalar"}, {"s"});
  g.Add("Unsqueeze", {"s", "axes0"}, {"s1"});
  g.Add("Slice", {"x", "zero", "s1", "one"}, {"to_seq"});
  // A table sliced to the length: positions[:, :seq] of a [1, 512, 768] table.
  g.Input("table", {int64_t{1}, int64_t{512}, int64_t{768}});
  g.Add("Slice", {"table", "zero", "s1", "one"}, {"table_to_seq"});
  g.Add("Slice", {"x", "zero"}, {"no_ends"});
  g.Add("Slice", {"x", "zero", "end", "one", "zero"}, {"zero_step"});
  g.Add("Slice", {"x", "zero", "end", "ten"}, {"bad_axis"});

  CHECK(g.Shape("whole") == "[batch,seq,768]");
  CHECK(g.Shape("drop_first") == "[batch,?,768]");  // seq - 1 unless seq >= 1
  CHECK(g.Shape("first_half") == "[batch,seq,384]");
  CHECK(g.Shape("reversed") == "[batch,seq,768]");
  CHECK(g.Shape("strided") == "[batch,seq,4]");  // 0, 3, 6, 9
  CHECK(g.Values("leading") == "[batch,seq]");
  CHECK(g.Values("backwards") == "[768,seq,batch]");
  CHECK(g.Shape("to_seq") == "[batch,seq,768]");
  CHECK(g.Shape("table_to_seq") == "[1,min(512,seq),768]");
  CHECK(g.Shape("no_ends") == "?");
  CHECK(g.Shape("zero_step") == "?");
  CHECK(g.Shape("bad_axis") == "?");
}

TEST_CASE("Concat adds the axis and keeps the other dimensions", "[shape]") {
  ShapeGraph g;
  g.Input("past", {"batch", int64_t{12}, "past", int64_t{64}});
  g.Input("present", {"batch", int64_t{12}, "seq", int64_t{64}});
  g.Input("anonymous", {"n", int64_t{12}, int64_t{3}, int64_t{64}});
  g.Add("Concat", {"past", "present"}, {"keys"}).SetAttribute(Attribute::Int("axis", -2));
  g.Add("Concat", {"present", "anonymous"}, {"mixed"}).SetAttribute(Attribute::Int("axis", 2));
  g.Add("Concat", {"past", "present"}, {"bad_axis"}).SetAttribute(Attribute::Int("axis", 4));
  g.Input("vector", {int64_t{3}});
  g.Add("Concat", {"past", "vector"}, {"bad_rank"}).SetAttribute(Attribute::Int("axis", 0));

  CHECK(g.Shape("keys") == "[batch,12,past+seq,64]");
  // A valid model makes batch and n equal: the symbol stands for both.
  CHECK(g.Shape("mixed") == "[batch,12,seq+3,64]");
  CHECK(g.Shape("bad_axis") == "?");
  CHECK(g.Shape("bad_rank") == "?");
}

TEST_CASE("Unsqueeze and Squeeze in both opset forms", "[shape]") {
  ShapeGraph old(11);
  old.Input("x", {"a", "b"});
  old.Add("Unsqueeze", {"x"}, {"u"}).SetAttribute(Attribute::Ints("axes", {0, 2}));
  old.Input("y", {"a", int64_t{1}, "b"});
  old.Add("Squeeze", {"y"}, {"s"}).SetAttribute(Attribute::Ints("axes", {1}));
  CHECK(old.Shape("u") == "[1,a,1,b]");
  CHECK(old.Shape("s") == "[a,b]");

  ShapeGraph g(13);
  g.Input("x", {"a", "b"});
  g.Input("y", {"a", int64_t{1}, "b"});
  g.Input("z", {int64_t{2}, int64_t{1}, int64_t{3}});
  g.Ints("last", {-1});
  g.Ints("one", {1});
  g.Ints("twice", {1, 1});
  g.Ints("zero", {0});
  g.Add("Unsqueeze", {"x", "last"}, {"u"});
  g.Add("Unsqueeze", {"x", "twice"}, {"duplicate"});
  g.Add("Unsqueeze", {"x"}, {"no_axes"});
  g.Add("Squeeze", {"y", "one"}, {"s"});
  g.Add("Squeeze", {"y"}, {"all_ones"});  // a or b might be 1 too
  g.Add("Squeeze", {"z"}, {"static_ones"});
  g.Add("Squeeze", {"z", "zero"}, {"not_one"});
  CHECK(g.Shape("u") == "[a,b,1]");
  CHECK(g.Shape("duplicate") == "?");
  CHECK(g.Shape("no_axes") == "?");
  CHECK(g.Shape("s") == "[a,b]");
  CHECK(g.Shape("all_ones") == "?");
  CHECK(g.Shape("static_ones") == "[2,3]");
  CHECK(g.Shape("not_one") == "?");
}

TEST_CASE("Reshape resolves 0 and -1 and honours allowzero", "[shape]") {
  ShapeGraph g(14);
  g.Input("x", {"batch", "seq", int64_t{768}});
  g.Input("other", {"n"});
  g.Ints("split_heads", {0, 0, 12, 64});
  g.Ints("flatten", {-1, 768});
  g.Ints("merge_heads", {0, 0, -1});
  g.Ints("two_unknowns", {-1, -1});
  g.Ints("literal_zero", {0, 768});
  g.Add("Reshape", {"x", "split_heads"}, {"heads"});
  g.Add("Reshape", {"x", "flatten"}, {"tokens"});
  g.Add("Reshape", {"heads", "merge_heads"}, {"merged"});
  g.Add("Reshape", {"x", "two_unknowns"}, {"bad"});
  g.Add("Reshape", {"x", "literal_zero"}, {"zero"}).SetAttribute(Attribute::Int("allowzero", 1));
  g.Add("Reshape", {"x", "literal_zero"}, {"copied"});
  // Elements computed from another tensor's shape.
  g.Add("Shape", {"other"}, {"other_shape"});
  g.Ints("one", {1}, true);
  g.Ints("hidden", {768});
  g.Add("Add", {"other_shape", "one"}, {"n_plus_one"});
  g.Add("Concat", {"other_shape", "hidden"}, {"by_n"}).SetAttribute(Attribute::Int("axis", 0));
  g.Add("Concat", {"n_plus_one", "hidden"}, {"by_n1"}).SetAttribute(Attribute::Int("axis", 0));
  g.Add("Reshape", {"x", "by_n"}, {"maybe_copied"});
  g.Add("Reshape", {"x", "by_n1"}, {"positive"});
  g.Input("computed_target", {int64_t{3}}, DataType::kInt64);
  g.Add("Reshape", {"x", "computed_target"}, {"rank_only"});
  g.Add("Reshape", {"x"}, {"no_target"});
  // torch's GroupNorm: the groups' view back to the image's own shape.
  g.Input("image", {"batch", int64_t{8}, "h", "w"});
  g.Ints("group_view", {0, 4, -1});
  g.Add("Reshape", {"image", "group_view"}, {"grouped"});
  g.Add("Shape", {"image"}, {"image_shape"});
  g.Add("Reshape", {"grouped", "image_shape"}, {"restored"});

  CHECK(g.Shape("heads") == "[batch,seq,12,64]");
  CHECK(g.Shape("tokens") == "[batch*seq,768]");
  CHECK(g.Shape("merged") == "[batch,seq,768]");
  CHECK(g.Shape("bad") == "?");
  CHECK(g.Shape("zero") == "[0,768]");
  CHECK(g.Shape("copied") == "[batch,768]");
  // n may be 0 at run time, which would copy batch instead.
  CHECK(g.Shape("maybe_copied") == "[?,768]");
  CHECK(g.Shape("positive") == "[n+1,768]");
  CHECK(g.Shape("rank_only") == "[?,?,?]");
  CHECK(g.Shape("no_target") == "?");
  CHECK(g.Shape("grouped") == "[batch,4,2*h*w]");
  // h = 0 would copy 2*h*w, 0 as well; w is past grouped's rank.
  CHECK(g.Shape("restored") == "[batch,8,h,w]");
}

TEST_CASE("Reshape keeps a size that divides its input's size (nn.MultiheadAttention's view)",
          "[shape]") {
  ShapeGraph g(14);
  // out_proj's output [tgt_len * bsz, 16] viewed back as [tgt_len, bsz, 16], bsz read from the
  // query's shape: were bsz 0 the input would be empty, so only an empty tensor's shape could
  // differ.
  g.Input("query", {"tgt_len", "bsz", int64_t{16}});
  g.Input("projected", {"tokens", int64_t{16}});
  g.Ints("flatten", {-1, 16});
  g.Add("Reshape", {"query", "flatten"}, {"rows"});
  g.Add("Shape", {"query"}, {"query_shape"});
  g.Ints("first_two", {0, 1});
  g.Add("Gather", {"query_shape", "first_two"}, {"tgt_len_bsz"});
  g.Ints("hidden", {16});
  g.Add("Concat", {"tgt_len_bsz", "hidden"}, {"view"}).SetAttribute(Attribute::Int("axis", 0));
  g.Add("Reshape", {"rows", "view"}, {"restored"});
  // A size that does not divide the input's: 0 would copy 16 into a non-empty tensor.
  g.Add("Reshape", {"projected", "view"}, {"unrelated"});
  // A data-dependent count is 0 often enough (no detections) that only input sizes are kept.
  g.Add("NonZero", {"query"}, {"indices"});
  g.Add("Shape", {"indices"}, {"indices_shape"});
  g.Ints("second", {1});
  g.Add("Gather", {"indices_shape", "second"}, {"count"});
  g.Ints("three", {3});
  g.Add("Concat", {"count", "three"}, {"by_count"}).SetAttribute(Attribute::Int("axis", 0));
  g.Add("Reshape", {"indices", "by_count"}, {"transposed"});

  CHECK(g.Shape("rows") == "[bsz*tgt_len,16]");
  CHECK(g.Shape("restored") == "[tgt_len,bsz,16]");
  CHECK(g.Shape("unrelated") == "[?,?,16]");
  SymbolicShapes& shapes = g.Analyse();
  const DimExpr count = shapes.Facts("indices").shape->at(1);
  const DimExpr transposed_rows = shapes.Facts("transposed").shape->at(0);
  CHECK(shapes.symbols().IsFresh(transposed_rows));
  CHECK_FALSE(transposed_rows == count);
}

TEST_CASE("Flatten multiplies the leading and trailing dimensions", "[shape]") {
  ShapeGraph g;
  g.Input("x", {"batch", int64_t{3}, "h", "w"});
  g.Add("Flatten", {"x"}, {"default"});
  g.Add("Flatten", {"x"}, {"front"}).SetAttribute(Attribute::Int("axis", 0));
  g.Add("Flatten", {"x"}, {"negative"}).SetAttribute(Attribute::Int("axis", -1));
  g.Add("Flatten", {"x"}, {"bad"}).SetAttribute(Attribute::Int("axis", 5));
  CHECK(g.Shape("default") == "[batch,3*h*w]");
  CHECK(g.Shape("front") == "[1,3*batch*h*w]");
  CHECK(g.Shape("negative") == "[3*batch*h,w]");
  CHECK(g.Shape("bad") == "?");
}

}  // namespace ort::test
