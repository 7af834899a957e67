// Shape rules of the data-movement and tensor-making ops (Range, Expand, ConstantOfShape,
// Constant, Tile, Transpose, Split, Pad, Resize, TopK, DepthToSpace, NonZero, Dropout, OneHot)
// against hand-derived shapes, malformed nodes included.
#include "test/shape/shape_test_util.h"

namespace ort::test {

TEST_CASE("Range's length follows its symbolic limit", "[shape]") {
  ShapeGraph g;
  g.Input("ids", {"batch", "seq"}, DataType::kInt64);
  g.Add("Shape", {"ids"}, {"shape"});
  g.Ints("zero", {0}, true);
  g.Ints("one", {1}, true);
  g.Ints("two", {2}, true);
  g.Ints("three", {3}, true);
  g.Ints("five", {5}, true);
  g.Ints("ten", {10}, true);
  g.Add("Gather", {"shape", "one"}, {"s"});
  g.Add("Cast", {"s"}, {"limit"}).SetAttribute(Attribute::Int("to", 7));
  g.Add("Range", {"zero", "limit", "one"}, {"positions"});
  g.Add("Range", {"zero", "ten", "three"}, {"steps"});
  g.Add("Add", {"s", "five"}, {"s5"});
  g.Add("Range", {"s", "s5", "two"}, {"window"});
  g.Add("Range", {"limit", "zero", "one"}, {"maybe_empty"});
  g.Add("Range", {"zero", "limit"}, {"no_delta"});

  CHECK(g.Shape("positions") == "[seq]");
  CHECK(g.Values("steps") == "[0,3,6,9]");
  CHECK(g.Shape("window") == "[3]");
  CHECK(g.Shape("maybe_empty") == "[?]");
  CHECK(g.Shape("no_delta") == "[?]");
}

TEST_CASE("Expand, Tile and ConstantOfShape build shapes from values", "[shape]") {
  ShapeGraph g;
  g.Input("x", {"batch", "seq"});
  g.Input("row", {int64_t{1}, "seq"});
  g.Add("Shape", {"x"}, {"shape"});
  g.Add("Expand", {"row", "shape"}, {"expanded"});
  g.Ints("small", {3, 1});
  g.Input("column", {int64_t{1}, int64_t{4}});
  g.Add("Expand", {"column", "small"}, {"broadcast"});
  g.Ints("twice", {2, 1});
  g.Add("Tile", {"x", "twice"}, {"tiled"});
  g.Add("Tile", {"x", "small"}, {"tiled_static"});
  g.Ints("three", {3});
  g.Add("Tile", {"x", "three"}, {"bad_tile"});
  g.Add("ConstantOfShape", {"shape"}, {"zeros"});
  Node& ones = g.Add("ConstantOfShape", {"three"}, {"ones"});
  ones.SetAttribute(Attribute::TensorValue("value", Tensor::FromVector<int64_t>({1}, {1})));
  g.Input("fed_shape", {int64_t{2}}, DataType::kInt64);
  g.Add("ConstantOfShape", {"fed_shape"}, {"unknown_dims"});

  CHECK(g.Shape("expanded") == "[batch,seq]");
  CHECK(g.Shape("broadcast") == "[3,4]");
  CHECK(g.Shape("tiled") == "[2*batch,seq]");
  CHECK(g.Shape("tiled_static") == "[3*batch,seq]");
  CHECK(g.Shape("bad_tile") == "?");
  CHECK(g.Shape("zeros") == "[batch,seq]");
  CHECK(g.Values("zeros") == "none");  // float zeros
  CHECK(g.Values("ones") == "[1,1,1]");
  CHECK(g.Shape("unknown_dims") == "[?,?]");
}

TEST_CASE("Constant nodes give their shapes and integer values", "[shape]") {
  ShapeGraph g;
  g.Add("Constant", {}, {"tensor"})
      .SetAttribute(Attribute::TensorValue("value", Tensor::FromVector<int64_t>({2}, {4, 5})));
  g.Add("Constant", {}, {"int"}).SetAttribute(Attribute::Int("value_int", 7));
  g.Add("Constant", {}, {"ints"}).SetAttribute(Attribute::Ints("value_ints", {1, 2, 3}));
  g.Add("Constant", {}, {"floats"}).SetAttribute(Attribute::Floats("value_floats", {1, 2}));
  g.Add("Constant", {}, {"empty"});
  CHECK(g.Values("tensor") == "[4,5]");
  CHECK(g.Values("int") == "[7]");
  CHECK(g.Shape("int") == "[]");
  CHECK(g.Values("ints") == "[1,2,3]");
  CHECK(g.Shape("floats") == "[2]");
  CHECK(g.Shape("empty") == "?");
}

TEST_CASE("Transpose, Split and Pad move dimensions", "[shape]") {
  ShapeGraph g(13);
  g.Input("x", {"batch", "seq", int64_t{12}, int64_t{64}});
  g.Add("Transpose", {"x"}, {"heads"}).SetAttribute(Attribute::Ints("perm", {0, 2, 1, 3}));
  g.Add("Transpose", {"x"}, {"reversed"});
  g.Add("Transpose", {"x"}, {"bad_perm"}).SetAttribute(Attribute::Ints("perm", {0, 0, 1, 2}));
  g.Input("qkv", {"batch", "seq", int64_t{2304}});
  Node& split = g.Add("Split", {"qkv"}, {"q", "k", "v"});
  split.SetAttribute(Attribute::Int("axis", -1));
  g.Input("n", {"n", int64_t{6}});
  g.Add("Split", {"n"}, {"first", "second"});  // equal halves of n
  g.Ints("sizes", {2, 4});
  Node& sized = g.Add("Split", {"n", "sizes"}, {"two", "four"});
  sized.SetAttribute(Attribute::Int("axis", 1));
  g.Ints("wrong_count", {6});
  g.Add("Split", {"n", "wrong_count"}, {"a", "b"}).SetAttribute(Attribute::Int("axis", 1));
  g.Ints("pads", {0, 1, 0, 2});
  g.Add("Pad", {"n", "pads"}, {"padded"});
  g.Add("Pad", {"n", "sizes"}, {"bad_pads"});

  CHECK(g.Shape("heads") == "[batch,12,seq,64]");
  CHECK(g.Shape("reversed") == "[64,12,seq,batch]");
  CHECK(g.Shape("bad_perm") == "?");
  CHECK(g.Shape("v") == "[batch,seq,768]");
  CHECK(g.Shape("second") == "[floor(n/2),6]");
  CHECK(g.Shape("four") == "[n,4]");
  CHECK(g.Shape("a") == "?");
  CHECK(g.Shape("padded") == "[n,9]");
  CHECK(g.Shape("bad_pads") == "?");

  // Opset 18's num_outputs: ceil(n / 3) each, the rest last.
  ShapeGraph ceil(18);
  ceil.Input("n", {"n"});
  ceil.Add("Split", {"n"}, {"p", "q", "r"}).SetAttribute(Attribute::Int("num_outputs", 3));
  CHECK(ceil.Shape("p") == "[floor((n+2)/3)]");
  CHECK(ceil.Shape("r") == "[n-2*floor((n+2)/3)]");
}

TEST_CASE("Resize, TopK, DepthToSpace, NonZero, Dropout and OneHot", "[shape]") {
  ShapeGraph g(13);
  g.Input("x", {"batch", int64_t{16}, "h", "w"});
  g.graph().AddInitializer("roi", Tensor::FromVector<float>({0}, std::span<const float>()));
  g.graph().AddInitializer("double", Tensor::FromVector<float>({4}, {1, 1, 2, 2}));
  g.graph().AddInitializer("half", Tensor::FromVector<float>({4}, {1, 1, 0.5f, 0.5f}));
  g.Add("Resize", {"x", "roi", "double"}, {"doubled"});
  g.Add("Resize", {"x", "roi", "half"}, {"halved"});
  g.Ints("sizes", {1, 16, 32, 32});
  g.Add("Resize", {"x", "roi", "", "sizes"}, {"sized"});
  g.Ints("k", {5});
  g.Add("TopK", {"x", "k"}, {"values", "indices"});
  g.Add("DepthToSpace", {"x"}, {"space"}).SetAttribute(Attribute::Int("blocksize", 2));
  g.Add("SpaceToDepth", {"x"}, {"depth"}).SetAttribute(Attribute::Int("blocksize", 2));
  g.Add("DepthToSpace", {"x"}, {"no_block"});
  g.Add("NonZero", {"x"}, {"nonzero"});
  g.Add("Dropout", {"x"}, {"dropped", "mask"});
  g.Input("ids", {"batch", "seq"}, DataType::kInt64);
  g.Ints("classes", {10}, true);
  g.Add("OneHot", {"ids", "classes", "k"}, {"one_hot"});

  CHECK(g.Shape("doubled") == "[batch,16,2*h,2*w]");
  CHECK(g.Shape("halved") == "[batch,16,?,?]");
  CHECK(g.Shape("sized") == "[1,16,32,32]");
  CHECK(g.Shape("values") == "[batch,16,h,5]");
  CHECK(g.Shape("indices") == "[batch,16,h,5]");
  CHECK(g.Shape("space") == "[batch,4,2*h,2*w]");
  CHECK(g.Shape("depth") == "[batch,64,floor(h/2),floor(w/2)]");
  CHECK(g.Shape("no_block") == "?");
  CHECK(g.Shape("nonzero") == "[4,?]");
  CHECK(g.Shape("mask") == "[batch,16,h,w]");
  CHECK(g.Shape("one_hot") == "[batch,seq,10]");
}

}  // namespace ort::test
