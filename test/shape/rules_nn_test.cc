// Shape rules of MatMul, Einsum, Gemm, Conv, ConvTranspose, pooling, reductions and normalizations,
// with output sizes derived by hand from the ONNX formulas (floor((x + pads - d*(k-1) - 1)/s) + 1).
#include "test/shape/shape_test_util.h"

namespace ort::test {

TEST_CASE("MatMul and Gemm shapes", "[shape]") {
  ShapeGraph g;
  g.Input("x", {"batch", "seq", int64_t{768}});
  g.Input("w", {int64_t{768}, int64_t{3072}});
  g.Input("q", {"batch", int64_t{12}, "seq", int64_t{64}});
  g.Input("k", {"batch", int64_t{12}, int64_t{64}, "seq"});
  g.Input("v", {int64_t{768}});
  g.Input("a", {int64_t{1}, "n", int64_t{2}, int64_t{3}});
  g.Input("b", {"m", int64_t{1}, int64_t{3}, int64_t{4}});
  g.Input("scalar", {});
  g.Add("MatMul", {"x", "w"}, {"projected"});
  g.Add("MatMul", {"q", "k"}, {"scores"});
  g.Add("MatMul", {"v", "w"}, {"vector_left"});
  g.Add("MatMul", {"w", "v"}, {"bad_right"});  // K 3072 against 768: still [768]
  g.Add("MatMul", {"a", "b"}, {"batched"});
  g.Add("MatMul", {"scalar", "w"}, {"bad_scalar"});
  g.Add("MatMul", {"x"}, {"one_input"});
  g.Input("gemm_a", {"n", int64_t{8}});
  g.Input("gemm_b", {int64_t{16}, int64_t{8}});
  g.Add("Gemm", {"gemm_a", "gemm_b"}, {"gemm"}).SetAttribute(Attribute::Int("transB", 1));
  g.Add("Gemm", {"x", "gemm_b"}, {"bad_gemm"});

  CHECK(g.Shape("projected") == "[batch,seq,3072]");
  CHECK(g.Shape("scores") == "[batch,12,seq,seq]");
  CHECK(g.Shape("vector_left") == "[3072]");
  CHECK(g.Shape("bad_right") == "[768]");
  CHECK(g.Shape("batched") == "[m,n,2,4]");
  CHECK(g.Shape("bad_scalar") == "?");
  CHECK(g.Shape("one_input") == "?");
  CHECK(g.Shape("gemm") == "[n,16]");
  CHECK(g.Shape("bad_gemm") == "?");
}

TEST_CASE("Einsum takes each label's size and broadcasts the ellipsis", "[shape]") {
  ShapeGraph g;
  g.Input("q", {"batch", int64_t{4}, "t", "h", "w", int64_t{96}});
  g.Input("table", {"h", "k", int64_t{96}});
  g.Input("a", {"n", int64_t{3}});
  g.Input("b", {int64_t{3}, int64_t{5}});
  g.Input("x", {int64_t{1}, "m", int64_t{2}, int64_t{3}});
  g.Input("y", {"l", int64_t{1}, int64_t{3}, int64_t{4}});
  const auto einsum = [&g](std::vector<std::string> inputs, const std::string& output,
                           const std::string& equation) {
    g.Add("Einsum", std::move(inputs), {output})
        .SetAttribute(Attribute::String("equation", equation));
  };
  // MViT v2's decomposed relative positions.
  einsum({"q", "table"}, "rel_h", "bythwc,hkc->bythwk");
  einsum({"a", "b"}, "implicit", "ij,jk");  // labels used once: i, k
  einsum({"x", "y"}, "batched", "...ij, ...jk -> ...ik");
  einsum({"b"}, "transposed", "ij->ji");
  einsum({"a", "b"}, "wrong_count", "ij->ij");  // two inputs, one term
  einsum({"a"}, "wrong_rank", "ijk->i");
  einsum({"a"}, "unknown_label", "ij->z");

  CHECK(g.Shape("rel_h") == "[batch,4,t,h,w,k]");
  CHECK(g.Shape("implicit") == "[n,5]");
  CHECK(g.Shape("batched") == "[l,m,2,4]");
  CHECK(g.Shape("transposed") == "[5,3]");
  CHECK(g.Shape("wrong_count") == "?");
  CHECK(g.Shape("wrong_rank") == "?");
  CHECK(g.Shape("unknown_label") == "?");
}

TEST_CASE("Conv, ConvTranspose and pooling window sizes", "[shape]") {
  ShapeGraph g;
  g.Input("x", {"n", int64_t{3}, "h", int64_t{224}});
  g.Input("w", {int64_t{16}, int64_t{3}, int64_t{3}, int64_t{3}});
  Node& conv = g.Add("Conv", {"x", "w"}, {"conv"});
  conv.SetAttribute(Attribute::Ints("pads", {1, 1, 1, 1}));
  conv.SetAttribute(Attribute::Ints("strides", {2, 2}));
  // (h + 2 - 2 - 1) / 2 + 1 = floor((h - 1) / 2) + 1 = floor((h + 1) / 2); 224 -> 112.
  CHECK(g.Shape("conv") == "[n,16,floor((h+1)/2),112]");

  Node& same = g.Add("Conv", {"x", "w"}, {"same"});
  same.SetAttribute(Attribute::String("auto_pad", "SAME_UPPER"));
  same.SetAttribute(Attribute::Ints("strides", {2, 2}));
  Node& dilated = g.Add("Conv", {"x", "w"}, {"dilated"});
  dilated.SetAttribute(Attribute::Ints("dilations", {2, 2}));
  g.Add("MaxPool", {"conv"}, {"pooled", "argmax"})
      .SetAttribute(Attribute::Ints("kernel_shape", {2, 2}));
  Node& strided = g.Add("AveragePool", {"x"}, {"strided"});
  strided.SetAttribute(Attribute::Ints("kernel_shape", {2, 2}));
  strided.SetAttribute(Attribute::Ints("strides", {2, 2}));
  Node& ceil = g.Add("MaxPool", {"x"}, {"ceil"});
  ceil.SetAttribute(Attribute::Ints("kernel_shape", {3, 3}));
  ceil.SetAttribute(Attribute::Int("ceil_mode", 1));
  g.Add("GlobalAveragePool", {"conv"}, {"global"});
  g.Add("MaxPool", {"x"}, {"no_kernel"});
  g.Input("flat", {"n", int64_t{3}});
  g.Add("Conv", {"flat", "w"}, {"bad_rank"});

  CHECK(g.Shape("same") == "[n,16,floor((h+1)/2),112]");
  CHECK(g.Shape("dilated") == "[n,16,h-4,220]");
  CHECK(g.Shape("pooled") == "[n,16,floor((h+1)/2)-1,111]");
  CHECK(g.Shape("argmax") == "[n,16,floor((h+1)/2)-1,111]");
  CHECK(g.Shape("strided") == "[n,3,floor(h/2),112]");
  CHECK(g.Shape("ceil") == "[n,3,?,?]");
  CHECK(g.Shape("global") == "[n,16,1,1]");
  CHECK(g.Shape("no_kernel") == "[n,3,?,?]");
  CHECK(g.Shape("bad_rank") == "?");

  ShapeGraph t;
  t.Input("x", {"n", int64_t{8}, "h", int64_t{5}});
  t.Input("w", {int64_t{8}, int64_t{4}, int64_t{3}, int64_t{3}});
  Node& up = t.Add("ConvTranspose", {"x", "w"}, {"up"});
  up.SetAttribute(Attribute::Ints("strides", {2, 2}));
  up.SetAttribute(Attribute::Ints("pads", {1, 1, 1, 1}));
  // 2 * (h - 1) + (3 - 1) + 1 - 2 = 2h - 1; 5 -> 9.
  CHECK(t.Shape("up") == "[n,4,2*h-1,9]");
}

TEST_CASE("Reductions, ArgMax and normalizations", "[shape]") {
  ShapeGraph g(17);
  g.Input("x", {"batch", "seq", int64_t{768}});
  g.Add("ReduceMean", {"x"}, {"mean"}).SetAttribute(Attribute::Ints("axes", {-1}));
  Node& squeezed = g.Add("ReduceSum", {"x"}, {"summed"});
  squeezed.SetAttribute(Attribute::Int("keepdims", 0));
  g.Ints("middle", {1});
  g.Add("ReduceSum", {"x", "middle"}, {"sum_middle"});  // axes are an input from opset 13
  g.Add("ReduceMax", {"x"}, {"everything"});
  Node& noop = g.Add("ReduceSum", {"x"}, {"noop"});
  noop.SetAttribute(Attribute::Int("noop_with_empty_axes", 1));
  g.Add("ReduceMean", {"x"}, {"bad_axis"}).SetAttribute(Attribute::Ints("axes", {3}));
  Node& argmax = g.Add("ArgMax", {"x"}, {"argmax"});
  argmax.SetAttribute(Attribute::Int("axis", 1));
  argmax.SetAttribute(Attribute::Int("keepdims", 0));
  g.Input("gamma", {int64_t{768}});
  g.Add("LayerNormalization", {"x", "gamma"}, {"normalized", "row_mean", "row_inv_std"});
  g.Add("Softmax", {"x"}, {"probabilities"});

  CHECK(g.Shape("mean") == "[batch,seq,1]");
  CHECK(g.Shape("summed") == "[]");
  CHECK(g.Shape("sum_middle") == "[batch,1,768]");
  CHECK(g.Shape("everything") == "[1,1,1]");
  CHECK(g.Shape("noop") == "[batch,seq,768]");
  CHECK(g.Shape("bad_axis") == "?");
  CHECK(g.Shape("argmax") == "[batch,768]");
  CHECK(g.Shape("normalized") == "[batch,seq,768]");
  CHECK(g.Shape("row_mean") == "[batch,seq,1]");
  CHECK(g.Shape("probabilities") == "[batch,seq,768]");

  // Opset 18 moves every Reduce's axes to an input.
  ShapeGraph late(18);
  late.Input("x", {"batch", "seq", int64_t{768}});
  late.Ints("last", {-1});
  late.Add("ReduceMean", {"x", "last"}, {"mean"});
  late.Input("fed_axes", {int64_t{1}}, DataType::kInt64);
  late.Add("ReduceMean", {"x", "fed_axes"}, {"unknown_axes"});
  CHECK(late.Shape("mean") == "[batch,seq,1]");
  CHECK(late.Shape("unknown_axes") == "?");
}

}  // namespace ort::test
