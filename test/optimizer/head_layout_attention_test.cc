// fuse_attention on head layouts other than [B,S,N,h] + Transpose (head_layout.h): HF Whisper's
// [B*N,S,h] heads for torch.bmm and nn.MultiheadAttention's sequence-first packed projection,
// both with dynamic batch and sequence and Reshape targets computed from shapes, the latter with
// its key padding mask (batched_key_mask.h). Each fused model must give the unfused model's
// outputs; layouts that regroup other axes, and masks the fusion does not know, stay unfused
// (and still compute the same).
#include <cmath>

#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

constexpr int64_t kHidden = 8, kHeads = 2, kHeadSize = 4;

// Builds graphs node by node with generated names.
// Dimension `axis` (batch or sequence) of x and of the padding mask.
Dimension LeadingDim(std::optional<std::pair<int64_t, int64_t>> fixed, int axis) {
  if (!fixed) return Dimension::Symbol(axis == 0 ? "batch" : "sequence");
  return Dimension::Known(axis == 0 ? fixed->first : fixed->second);
}

class Builder {
 public:
  explicit Builder(Graph& graph) : graph_(graph) {}

  std::string Node(const std::string& op, std::vector<std::string> inputs,
                   std::string domain = "") {
    const std::string output = fmt::format("v{}", next_++);
    graph_.AddNode({output + "_" + op, op, std::move(domain), std::move(inputs), {output}, {}});
    return output;
  }
  std::string Node(const std::string& op, std::vector<std::string> inputs, Attribute attribute) {
    const std::string output = Node(op, std::move(inputs));
    graph_.GetNode(graph_.Producer(output)->index())->SetAttribute(std::move(attribute));
    return output;
  }
  std::string Ints(std::vector<int64_t> values, bool scalar = false) {
    const std::string name = fmt::format("c{}", next_++);
    const auto size = static_cast<int64_t>(values.size());
    graph_.AddInitializer(name, scalar ? Tensor::Scalar<int64_t>(values[0])
                                       : Tensor::FromVector<int64_t>({size}, values));
    return name;
  }
  std::string Floats(std::vector<int64_t> dims, uint32_t seed) {
    const std::string name = fmt::format("w{}", next_++);
    graph_.AddInitializer(name, RandomTensor(std::move(dims), seed, -0.5f, 0.5f));
    return name;
  }
  std::string Scalar(float value) {
    const std::string name = fmt::format("s{}", next_++);
    graph_.AddInitializer(name, Tensor::Scalar<float>(value));
    return name;
  }
  // Dimension `axis` of `value` as a 1-element vector, read through Shape.
  std::string Dim(const std::string& value, int64_t axis) {
    const std::string dims = Node("Shape", {value});
    return Node("Unsqueeze", {Node("Gather", {dims, Ints({axis}, true)}), Ints({0})});
  }
  std::string Concat(std::vector<std::string> pieces) {
    return Node("Concat", std::move(pieces), Attribute::Int("axis", 0));
  }
  std::string Transpose(const std::string& value, std::vector<int64_t> perm) {
    return Node("Transpose", {value}, Attribute::Ints("perm", std::move(perm)));
  }

 private:
  Graph& graph_;
  int next_ = 0;
};

// x [batch, sequence, D], or of the static `fixed` batch and sequence.
Model DynamicModel(int64_t opset, const std::vector<std::string>& inputs,
                   std::optional<std::pair<int64_t, int64_t>> fixed = std::nullopt) {
  Model model = MakeModel(opset);
  Graph& graph = model.graph();
  graph.SetValueType(
      "x",
      ValueType::Tensor(DataType::kFloat, SymbolicShape{LeadingDim(fixed, 0), LeadingDim(fixed, 1),
                                                        Dimension::Known(kHidden)}));
  graph.set_inputs(inputs);
  return model;
}

// HF Whisper's encoder attention: q scaled before the view, heads [B,N,S,h] reshaped to
// [B*N,-1,h], bmm(q, k^T) and bmm(probs, v), view [B,N,S,h], transpose, reshape [B,S,D].
// `wrong_group` views the heads as [S*N,-1,h] instead: not heads of one batch row. With
// `fused_scores` the scores are com.microsoft FusedMatMul(q, k, transB=1, alpha=0.5), as
// fuse_matmul_scale_transpose leaves a block it saw before the attention fusion did.
Model WhisperModel(bool wrong_group = false, bool fused_scores = false) {
  Model model = DynamicModel(17, {"x"});
  if (fused_scores) model.opsets()[std::string(kMsDomain)] = 1;
  Graph& graph = model.graph();
  Builder b(graph);
  const std::string batch = b.Dim("x", 0), sequence = b.Dim("x", 1);
  const std::string split_target = b.Concat({batch, b.Ints({-1, kHeads, kHeadSize})});
  const std::string bmm_first = wrong_group ? b.Node("Mul", {sequence, b.Ints({kHeads})})
                                            : b.Node("Mul", {batch, b.Ints({kHeads})});
  const std::string bmm_target = b.Concat({bmm_first, b.Ints({-1, kHeadSize})});
  const auto heads = [&](bool bias, float scale, uint32_t seed) {
    std::string projected = b.Node("MatMul", {"x", b.Floats({kHidden, kHidden}, seed)});
    if (bias) projected = b.Node("Add", {b.Floats({kHidden}, seed + 1), projected});
    if (scale != 1.0f) projected = b.Node("Mul", {projected, b.Scalar(scale)});
    const std::string split = b.Node("Reshape", {projected, split_target});
    return b.Node("Reshape", {b.Transpose(split, {0, 2, 1, 3}), bmm_target});
  };
  const std::string q = heads(true, 1.0f / std::sqrt(float{kHeadSize}), 1);
  const std::string k = heads(false, 1.0f, 3);
  const std::string v = heads(true, 1.0f, 5);
  std::string scores;
  if (fused_scores) {
    scores = b.Node("FusedMatMul", {q, k}, std::string(kMsDomain));
    Node& fused = *graph.GetNode(graph.Producer(scores)->index());
    fused.SetAttribute(Attribute::Int("transB", 1));
    fused.SetAttribute(Attribute::Float("alpha", 0.5f));
  } else {
    scores = b.Node("MatMul", {q, b.Transpose(k, {0, 2, 1})});
  }
  const std::string probs = b.Node("Softmax", {scores}, Attribute::Int("axis", -1));
  const std::string context = b.Node("MatMul", {probs, v});
  const std::string unbatched = b.Node(
      "Reshape", {context, b.Concat({batch, b.Ints({kHeads}), sequence, b.Ints({kHeadSize})})});
  const std::string merged = b.Transpose(unbatched, {0, 2, 1, 3});
  const std::string y = b.Node("Reshape", {merged, b.Concat({batch, sequence, b.Ints({kHidden})})});
  graph.set_outputs({y});
  graph.ResolveOuterScope();
  return model;
}

enum class MhaMask {
  kNone,
  kFloatInput,     // a float [B*N,1,S] model input added to the scores
  kPadding,        // key_padding_mask = (pad == 0) as F.multi_head_attention_forward applies it
  kCausal,         // attn_mask = triu(full((S,S), -inf), 1), unsqueezed to [1,S,S]
  kCausalBool,     // attn_mask = triu(ones((S,S), bool), 1), made -inf by Where
  kSquareInput,    // a float [S,S] model input as attn_mask
  kPerHeadInput,   // a float [B*N,S,S] model input as attn_mask: no [1,S,S] bias
  kPaddingCausal,  // kPadding filled into kCausal's attn_mask instead of zeros
  kPaddingSquareInput,  // kPadding filled into kSquareInput's attn_mask: it may hold +inf
};

bool Padded(MhaMask mask) {
  return mask == MhaMask::kPadding || mask == MhaMask::kPaddingCausal ||
         mask == MhaMask::kPaddingSquareInput;
}
bool SquareInput(MhaMask mask) {
  return mask == MhaMask::kSquareInput || mask == MhaMask::kPerHeadInput ||
         mask == MhaMask::kPaddingSquareInput;
}

// torchvision's nn.MultiheadAttention (need_weights=False) on batch-first x: transposed to
// [S,B,D], one packed in_proj chunked by Slices, heads [S,B*N,h] transposed to [B*N,S,h], q
// divided by sqrt(h), out_proj as Gemm on [S*B,D], back to [B,S,D], and `mask` added to the
// scores (baddbmm's form). As torch exports it, k's and v's views read their lengths through
// Shape of their slices. `cross`: nn.TransformerDecoder's cross-attention instead, q projected
// from x alone and k, v chunked from one projection of "memory" [batch, memory_sequence, D]
// (its padding mask "pad" [batch, memory_sequence]).
Model MultiheadAttentionModel(int64_t opset, MhaMask mask = MhaMask::kNone,
                              std::optional<std::pair<int64_t, int64_t>> fixed = std::nullopt,
                              bool cross = false) {
  std::vector<std::string> inputs{"x"};
  if (cross) inputs.push_back("memory");
  if (mask == MhaMask::kFloatInput) inputs.push_back("mask");
  if (Padded(mask)) inputs.push_back("pad");
  if (SquareInput(mask)) inputs.push_back("mask");
  Model model = DynamicModel(opset, inputs, fixed);
  Graph& graph = model.graph();
  if (mask == MhaMask::kFloatInput) {
    graph.SetValueType(
        "mask", ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Symbol("batch_heads"),
                                                                  Dimension::Known(1),
                                                                  Dimension::Symbol("sequence")}));
  }
  if (SquareInput(mask)) {
    SymbolicShape shape{LeadingDim(fixed, 1), LeadingDim(fixed, 1)};
    if (mask == MhaMask::kPerHeadInput) shape.insert(shape.begin(), Dimension::Symbol("bh"));
    graph.SetValueType("mask", ValueType::Tensor(DataType::kFloat, shape));
  }
  const Dimension keys = cross ? Dimension::Symbol("memory_sequence") : LeadingDim(fixed, 1);
  if (cross) {
    graph.SetValueType(
        "memory", ValueType::Tensor(DataType::kFloat, SymbolicShape{LeadingDim(fixed, 0), keys,
                                                                    Dimension::Known(kHidden)}));
  }
  if (Padded(mask)) {
    graph.SetValueType(
        "pad", ValueType::Tensor(DataType::kInt64, SymbolicShape{LeadingDim(fixed, 0), keys}));
  }
  Builder b(graph);
  const std::string xt = b.Transpose("x", {1, 0, 2});
  const std::string sequence = b.Dim(xt, 0), batch = b.Dim(xt, 1);
  const std::string kv_input = cross ? b.Transpose("memory", {1, 0, 2}) : xt;
  const std::string key_length = cross ? b.Dim(kv_input, 0) : sequence;
  const int64_t packed_parts = cross ? 2 : 3;
  const std::string packed =
      b.Node("Add", {b.Floats({packed_parts * kHidden}, 7),
                     b.Node("MatMul", {kv_input, b.Floats({kHidden, packed_parts * kHidden}, 8)})});
  const std::string batch_heads = b.Node("Mul", {batch, b.Ints({kHeads})});
  // q's view reads the sequence length from x, k's and v's from their own slices (k.shape[0]).
  const auto part = [&](int64_t index) {
    if (cross && index == 0) {
      const std::string q = b.Node(
          "Add",
          {b.Floats({kHidden}, 11), b.Node("MatMul", {xt, b.Floats({kHidden, kHidden}, 12)})});
      return b.Node("Reshape", {q, b.Concat({sequence, batch_heads, b.Ints({kHeadSize})})});
    }
    const int64_t column = cross ? index - 1 : index;
    const std::string slice = b.Node("Slice", {packed, b.Ints({column * kHidden}),
                                               b.Ints({(column + 1) * kHidden}), b.Ints({-1})});
    const std::string length = index == 0 ? sequence : b.Dim(slice, 0);
    return b.Node("Reshape", {slice, b.Concat({length, batch_heads, b.Ints({kHeadSize})})});
  };
  const std::string q =
      b.Node("Div", {b.Transpose(part(0), {1, 0, 2}), b.Scalar(std::sqrt(float{kHeadSize}))});
  const std::string k = b.Transpose(part(1), {1, 2, 0});
  const std::string v = b.Transpose(part(2), {1, 0, 2});
  std::string scores = b.Node("MatMul", {q, k});
  if (mask == MhaMask::kFloatInput) scores = b.Node("Add", {"mask", scores});
  std::string attn_mask;
  if (mask == MhaMask::kCausal || mask == MhaMask::kCausalBool || mask == MhaMask::kPaddingCausal) {
    // As torch 1.13 exports triu(...) at a traced length, then attn_mask.unsqueeze(0) and
    // baddbmm(attn_mask, q, k) with beta 1.
    const bool boolean = mask == MhaMask::kCausalBool;
    const std::string square =
        b.Node("ConstantOfShape", {b.Concat({sequence, sequence})},
               Attribute::TensorValue("value", boolean ? Tensor::Scalar<bool>(true)
                                                       : Tensor::Scalar<float>(-INFINITY)));
    const std::string upper =
        b.Node("Trilu", {square, b.Ints({1}, true)}, Attribute::Int("upper", 1));
    std::string bias = b.Node("Unsqueeze", {upper, b.Ints({0})});
    if (boolean) {
      const std::string zeros =
          b.Node("ConstantOfShape", {b.Node("Shape", {bias})},
                 Attribute::TensorValue("value", Tensor::Scalar<float>(0.0f)));
      bias = b.Node("Where", {bias, b.Scalar(-INFINITY), zeros});
    }
    attn_mask = bias;
  }
  if (SquareInput(mask)) attn_mask = "mask";
  if (!attn_mask.empty() && !Padded(mask)) {
    scores = b.Node("Add", {scores, b.Node("Mul", {attn_mask, b.Scalar(1.0f)})});
  }
  if (Padded(mask)) {
    // view(bsz, 1, 1, src_len).expand(-1, heads, -1, -1).reshape(bsz * heads, 1, src_len), then
    // zeros_like(...).masked_fill_(mask, -inf) and baddbmm's beta 1.
    const std::string padded = b.Node("Equal", {"pad", b.Ints({0}, true)});
    const std::string viewed =
        b.Node("Reshape", {padded, b.Concat({batch, b.Ints({1, 1}), key_length})});
    const std::string expanded = b.Node("Expand", {viewed, b.Ints({1, kHeads, 1, 1})});
    const std::string batched =
        b.Node("Reshape", {expanded, b.Concat({batch_heads, b.Ints({1}), key_length})});
    // With an attn_mask, torch fills the padded keys into it instead.
    const std::string zeros =
        !attn_mask.empty() ? attn_mask
                           : b.Node("ConstantOfShape", {b.Node("Shape", {batched})},
                                    Attribute::TensorValue("value", Tensor::Scalar<float>(0.0f)));
    const std::string filled = b.Node("Where", {batched, b.Scalar(-INFINITY), zeros});
    scores = b.Node("Add", {b.Node("Mul", {filled, b.Scalar(1.0f)}), scores});
  }
  const std::string probs = b.Node("Softmax", {scores}, Attribute::Int("axis", -1));
  const std::string context = b.Transpose(b.Node("MatMul", {probs, v}), {1, 0, 2});
  const std::string rows = b.Node("Reshape", {context, b.Ints({-1, kHidden})});
  const std::string projected =
      b.Node("Gemm", {rows, b.Floats({kHidden, kHidden}, 9), b.Floats({kHidden}, 10)},
             Attribute::Int("transB", 1));
  const std::string unflattened =
      b.Node("Reshape", {projected, b.Concat({sequence, batch, b.Ints({kHidden})})});
  const std::string y = b.Transpose(unflattened, {1, 0, 2});
  graph.set_outputs({y});
  graph.ResolveOuterScope();
  return model;
}

// With `memory` keys (> 0), the cross-attention's memory of that length as well.
std::vector<NamedValue> Feeds(int64_t batch, int64_t sequence, MhaMask mask = MhaMask::kNone,
                              int64_t memory = 0) {
  std::vector<NamedValue> feeds{{"x", Value(RandomTensor({batch, sequence, kHidden}, 21))}};
  if (memory > 0) {
    feeds.push_back({"memory", Value(RandomTensor({batch, memory, kHidden}, 22))});
  }
  if (Padded(mask)) {
    // Row b keeps its first keys - b keys (at least one).
    const int64_t keys = memory > 0 ? memory : sequence;
    std::vector<int64_t> pad(static_cast<size_t>(batch * keys), 1);
    for (int64_t row = 0; row < batch; ++row) {
      for (int64_t key = std::max<int64_t>(1, keys - row); key < keys; ++key) {
        pad[static_cast<size_t>(row * keys + key)] = 0;
      }
    }
    feeds.push_back({"pad", Value(Tensor::FromVector<int64_t>({batch, keys}, pad))});
  }
  if (mask == MhaMask::kFloatInput) {
    // Key 1 of batch row 1 padded, for both heads.
    std::vector<float> values(static_cast<size_t>(batch * kHeads * sequence), 0.0f);
    for (int64_t head = 0; head < kHeads; ++head) {
      values[static_cast<size_t>((kHeads + head) * sequence + 1)] = -INFINITY;
    }
    feeds.push_back({"mask", Value(Tensor::FromVector<float>({batch * kHeads, 1, sequence},
                                                             std::span<const float>(values)))});
  }
  if (SquareInput(mask)) {
    const int64_t planes = mask == MhaMask::kPerHeadInput ? batch * kHeads : 1;
    Tensor values = RandomTensor(planes == 1 ? std::vector<int64_t>{sequence, sequence}
                                             : std::vector<int64_t>{planes, sequence, sequence},
                                 23, -2.0f, 2.0f);
    // Key 0 hidden from the last query (of every plane): a -inf that is no causal pattern.
    for (int64_t plane = 0; plane < planes; ++plane) {
      values
          .MutableData<float>()[static_cast<size_t>((plane + 1) * sequence * sequence - sequence)] =
          -INFINITY;
    }
    feeds.push_back({"mask", Value(std::move(values))});
  }
  return feeds;
}

void CheckFusedAlike(const std::function<Model()>& build, const std::vector<NamedValue>& feeds,
                     size_t attention_nodes, const char* op = "Attention") {
  const auto plain = RunOnCpu(build(), OptimizationLevel::kDisable, feeds);
  const auto fused = RunOnCpu(build(), OptimizationLevel::kExtended, feeds);
  CHECK(std::count(fused.executed.begin(), fused.executed.end(), op) ==
        static_cast<ptrdiff_t>(attention_nodes));
  CheckClose(fused.output, plain.output, 1e-5, 1e-4);
}

}  // namespace

TEST_CASE("fuse_attention takes Whisper's [B*N,S,h] heads", "[optimizer][bert]") {
  Model model = WhisperModel();
  OptimizeExtended(model);
  CHECK(OpTypes(model.graph()) == Ops{"Attention"});
  const Node& attention = *model.graph().Producer(model.graph().outputs()[0]);
  CHECK(attention.FindAttribute("num_heads")->i == kHeads);
  // q scaled by 1/sqrt(h) before the view: the kernel's default.
  CHECK(attention.FindAttribute("scale") == nullptr);
  CheckFusedAlike([] { return WhisperModel(); }, Feeds(2, 5), 1);
  CheckFusedAlike([] { return WhisperModel(); }, Feeds(1, 3), 1);
}

TEST_CASE("fuse_attention takes scores a FusedMatMul computes", "[optimizer][bert]") {
  Model model = WhisperModel(false, /*fused_scores=*/true);
  OptimizeExtended(model);
  REQUIRE(OpTypes(model.graph()) == Ops{"Attention"});
  const Node& attention = *model.graph().Producer(model.graph().outputs()[0]);
  // alpha 0.5 times q's 1/sqrt(4).
  CHECK(attention.FindAttribute("scale")->f == 0.25f);
  CheckFusedAlike([] { return WhisperModel(false, true); }, Feeds(2, 3), 1);
}

TEST_CASE("fuse_attention takes nn.MultiheadAttention's sequence-first packed heads",
          "[optimizer][bert]") {
  for (const int64_t opset : {14, 17}) {
    CAPTURE(opset);
    Model model = MultiheadAttentionModel(opset);
    OptimizeExtended(model);
    CHECK(CountOps(model.graph(), "Attention") == 1);
    CHECK(CountOps(model.graph(), "Softmax") == 0);
    CHECK(CountOps(model.graph(), "Slice") == 0);
    CheckFusedAlike([opset] { return MultiheadAttentionModel(opset); }, Feeds(3, 4), 1);
    CheckFusedAlike([opset] { return MultiheadAttentionModel(opset); }, Feeds(1, 2), 1);
  }
}

TEST_CASE("fuse_attention takes nn.MultiheadAttention's key padding mask", "[optimizer][bert]") {
  Model model = MultiheadAttentionModel(17, MhaMask::kPadding);
  OptimizeExtended(model);
  CHECK(CountOps(model.graph(), "Softmax") == 0);
  CHECK(CountOps(model.graph(), "Where") == 0);
  const Node* attention = nullptr;
  for (const Node* node : model.graph().Nodes()) {
    if (node->op_type() == "Attention") attention = node;
  }
  REQUIRE(attention != nullptr);
  REQUIRE(attention->inputs().size() == 4);
  CHECK(std::isinf(attention->FindAttribute("mask_filter_value")->f));
  for (const auto& [batch, sequence] : {std::pair<int64_t, int64_t>{3, 4}, {1, 2}, {2, 5}}) {
    CheckFusedAlike([] { return MultiheadAttentionModel(17, MhaMask::kPadding); },
                    Feeds(batch, sequence, MhaMask::kPadding), 1);
  }
  // At static shapes constant folding leaves zeros_like a constant and the views constant.
  for (const auto& [batch, sequence] : {std::pair<int64_t, int64_t>{1, 4}, {2, 3}}) {
    const std::pair<int64_t, int64_t> fixed{batch, sequence};
    CheckFusedAlike([fixed] { return MultiheadAttentionModel(17, MhaMask::kPadding, fixed); },
                    Feeds(batch, sequence, MhaMask::kPadding), 1);
    CheckFusedAlike([fixed] { return MultiheadAttentionModel(14, MhaMask::kNone, fixed); },
                    Feeds(batch, sequence), 1);
  }
}

TEST_CASE("fuse_attention takes nn.MultiheadAttention's 2-D attn_mask as attention_bias",
          "[optimizer][bert]") {
  for (const MhaMask mask : {MhaMask::kCausal, MhaMask::kCausalBool, MhaMask::kSquareInput}) {
    for (const int64_t opset : {14, 17}) {
      CAPTURE(static_cast<int>(mask), opset);
      Model model = MultiheadAttentionModel(opset, mask);
      OptimizeExtended(model);
      CHECK(CountOps(model.graph(), "Softmax") == 0);
      const Node* attention = nullptr;
      for (const Node* node : model.graph().Nodes()) {
        if (node->op_type() == "Attention") attention = node;
      }
      REQUIRE(attention != nullptr);
      // No mask_index or past: the mask is attention_bias alone.
      REQUIRE(attention->inputs().size() == 6);
      CHECK(attention->inputs()[3].empty());
      CHECK(attention->inputs()[4].empty());
      for (const auto& [batch, sequence] : {std::pair<int64_t, int64_t>{3, 4}, {1, 2}, {2, 5}}) {
        CheckFusedAlike([opset, mask] { return MultiheadAttentionModel(opset, mask); },
                        Feeds(batch, sequence, mask), 1);
      }
    }
  }
}

TEST_CASE("fuse_attention takes nn.MultiheadAttention's attn_mask with a key padding mask",
          "[optimizer][bert]") {
  for (const int64_t opset : {14, 17}) {
    CAPTURE(opset);
    Model model = MultiheadAttentionModel(opset, MhaMask::kPaddingCausal);
    OptimizeExtended(model);
    CHECK(CountOps(model.graph(), "Softmax") == 0);
    const Node* attention = nullptr;
    for (const Node* node : model.graph().Nodes()) {
      if (node->op_type() == "Attention") attention = node;
    }
    REQUIRE(attention != nullptr);
    // mask_index and attention_bias, the padding filtered by -inf as torch fills it.
    REQUIRE(attention->inputs().size() == 6);
    CHECK(!attention->inputs()[3].empty());
    CHECK(attention->FindAttribute("mask_filter_value")->f == -INFINITY);
    for (const auto& [batch, sequence] : {std::pair<int64_t, int64_t>{3, 4}, {1, 2}, {2, 5}}) {
      CheckFusedAlike([opset] { return MultiheadAttentionModel(opset, MhaMask::kPaddingCausal); },
                      Feeds(batch, sequence, MhaMask::kPaddingCausal), 1);
    }
  }
}

TEST_CASE("fuse_cross_attention takes nn.TransformerDecoder's cross-attention",
          "[optimizer][bert]") {
  for (const MhaMask mask : {MhaMask::kNone, MhaMask::kPadding}) {
    for (const int64_t opset : {14, 17}) {
      CAPTURE(static_cast<int>(mask), opset);
      const auto build = [opset, mask] {
        return MultiheadAttentionModel(opset, mask, std::nullopt, /*cross=*/true);
      };
      Model model = build();
      OptimizeExtended(model);
      CHECK(CountOps(model.graph(), "Softmax") == 0);
      CHECK(CountOps(model.graph(), "Attention") == 0);
      const Node* attention = nullptr;
      for (const Node* node : model.graph().Nodes()) {
        if (node->op_type() == "MultiHeadAttention") attention = node;
      }
      REQUIRE(attention != nullptr);
      CHECK(attention->FindAttribute("num_heads")->i == kHeads);
      // query, key, value, and the raw 2-D padding mask as key_padding_mask.
      CHECK(attention->inputs().size() == (mask == MhaMask::kPadding ? 5u : 3u));
      // Queries and keys of different lengths, batches of one and more.
      for (const auto& [batch, sequence, memory] :
           {std::tuple<int64_t, int64_t, int64_t>{3, 4, 6}, {1, 2, 5}, {2, 5, 1}, {2, 3, 3}}) {
        CheckFusedAlike(build, Feeds(batch, sequence, mask, memory), 1, "MultiHeadAttention");
      }
    }
  }
}

TEST_CASE("fuse_attention leaves head layouts it cannot prove and masks it does not know",
          "[optimizer][bert]") {
  CheckFusedAlike([] { return WhisperModel(/*wrong_group=*/true); }, Feeds(2, 2), 0);
  CheckFusedAlike([] { return MultiheadAttentionModel(17, MhaMask::kFloatInput); },
                  Feeds(2, 3, MhaMask::kFloatInput), 0);
  // A per-head [B*N,S,S] attn_mask is no [1,S,S] bias.
  CheckFusedAlike([] { return MultiheadAttentionModel(17, MhaMask::kPerHeadInput); },
                  Feeds(2, 3, MhaMask::kPerHeadInput), 0);
  // Torch fills the padding into an attn_mask that may hold +inf, where Attention would add it.
  CheckFusedAlike([] { return MultiheadAttentionModel(17, MhaMask::kPaddingSquareInput); },
                  Feeds(2, 3, MhaMask::kPaddingSquareInput), 0);
}

}  // namespace ort::test
