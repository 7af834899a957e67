// The com.microsoft BERT kernels on the CUDA provider (Attention, EmbedLayerNormalization),
// against values derived by hand or computed in the test in double.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

#include "test/providers/cuda/cuda_test_util.h"

namespace ort {
namespace {

using Inputs = NamedTensors;

// Runs a one-node com.microsoft model of `op_type` on the CUDA provider (CPU as fallback),
// requiring the node on the GPU; an empty input name leaves that optional input out, and every
// named output is a graph output.
Status RunContribNode(const std::string& op_type, const Inputs& inputs,
                      std::vector<Attribute> attributes, const std::vector<std::string>& outputs,
                      std::vector<Value>* results) {
  return RunOnCuda(OneNodeModel("com.microsoft:" + op_type, inputs, std::move(attributes), outputs),
                   inputs, results);
}

// Deterministic values in [-1, 1].
std::vector<float> Wave(size_t count, float phase) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = std::sin(0.7f * static_cast<float>(i) + phase);
  return values;
}

std::vector<Float16> ToHalf(const std::vector<float>& values) {
  std::vector<Float16> halves;
  for (float value : values) halves.push_back(Float16(value));
  return halves;
}

// Whether key t is masked for query s of batch b.
using MaskFn = std::function<bool(int64_t b, int64_t s, int64_t t)>;

struct AttentionProblem {
  int64_t batch = 2, sequence = 3, input_hidden = 3, num_heads = 2, hidden = 4, v_hidden = 6;
  float scale = 0.8f, filter = -100.0f;
  std::vector<float> input, weights, bias, attention_bias;  // attention_bias [1, N, S, S]
};

// Attention computed plainly in double: the projection, then per head and query the softmax of
// scale * q.k + attention_bias (+ filter where masked) weighting the values.
std::vector<float> ReferenceAttention(const AttentionProblem& p, const MaskFn& masked) {
  const int64_t total = 2 * p.hidden + p.v_hidden, rows = p.batch * p.sequence;
  const int64_t head = p.hidden / p.num_heads, v_head = p.v_hidden / p.num_heads;
  std::vector<double> qkv(rows * total);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < total; ++c) {
      double sum = p.bias[c];
      for (int64_t d = 0; d < p.input_hidden; ++d) {
        sum += static_cast<double>(p.input[r * p.input_hidden + d]) * p.weights[d * total + c];
      }
      qkv[r * total + c] = sum;
    }
  }
  std::vector<float> out(rows * p.v_hidden);
  for (int64_t b = 0; b < p.batch; ++b) {
    for (int64_t n = 0; n < p.num_heads; ++n) {
      for (int64_t s = 0; s < p.sequence; ++s) {
        std::vector<double> probs(p.sequence);
        double largest = -INFINITY, sum = 0.0;
        for (int64_t t = 0; t < p.sequence; ++t) {
          double dot = 0.0;
          for (int64_t h = 0; h < head; ++h) {
            dot += qkv[(b * p.sequence + s) * total + n * head + h] *
                   qkv[(b * p.sequence + t) * total + p.hidden + n * head + h];
          }
          probs[t] = p.scale * dot + p.attention_bias[(n * p.sequence + s) * p.sequence + t] +
                     (masked(b, s, t) ? p.filter : 0.0);
          largest = std::max(largest, probs[t]);
        }
        for (double& value : probs) {
          value = std::exp(value - largest);
          sum += value;
        }
        for (int64_t h = 0; h < v_head; ++h) {
          double value = 0.0;
          for (int64_t t = 0; t < p.sequence; ++t) {
            value +=
                probs[t] / sum * qkv[(b * p.sequence + t) * total + 2 * p.hidden + n * v_head + h];
          }
          out[(b * p.sequence + s) * p.v_hidden + n * v_head + h] = static_cast<float>(value);
        }
      }
    }
  }
  return out;
}

// The hand case: x = I (B=1, S=2, D=2), weights [I | I | I], V's bias [0, 10], one head, scale
// 1/sqrt(2). Query 0 scores [c, 0] and query 1 [0, c], so with e = exp(c) the outputs are
// [e, 1] / (e + 1) and [1, e] / (e + 1) times V = [[1, 10], [0, 11]].
Inputs HandAttentionInputs() {
  return {{"input", Tensor::FromVector<float>(TensorShape{1, 2, 2}, {1, 0, 0, 1})},
          {"weights",
           Tensor::FromVector<float>(TensorShape{2, 6}, {1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1})},
          {"bias", Tensor::FromVector<float>(TensorShape{6}, {0, 0, 0, 0, 0, 10})}};
}

std::vector<float> HandAttentionExpected() {
  const float e = std::exp(1.0f / std::sqrt(2.0f));
  const float p = e / (e + 1), q = 1 / (e + 1);
  return {p, 10 * p + 11 * q, q, 10 * q + 11 * p};
}

std::vector<Attribute> OneHead() {
  std::vector<Attribute> attributes;
  attributes.push_back(Attribute::Int("num_heads", 1));
  return attributes;
}

}  // namespace

TEST_CASE("The CUDA provider claims the BERT contrib ops without a device", "[cuda][partition]") {
  auto model = EmptyModel();
  Graph& graph = model->graph();
  graph.set_inputs({"x", "w", "ids"});
  graph.set_outputs({"y", "e"});
  graph.SetValueType("x", KnownTensorType(DataType::kFloat, {1, 2, 6}));
  graph.SetValueType("w", KnownTensorType(DataType::kFloat, {6, 18}));
  graph.SetValueType("ids", KnownTensorType(DataType::kInt32, {1, 2}));
  graph.AddInitializer("table", Tensor::FromVector<float>(TensorShape{2, 2}, {1, 2, 3, 4}));
  graph.AddInitializer("gamma", Tensor::FromVector<float>(TensorShape{2}, {1, 1}));
  graph.AddNode({"attention", "Attention", "com.microsoft", {"x", "w"}, {"y"}, {}})
      .SetAttribute(Attribute::Int("num_heads", 2));
  graph.AddNode({"embed",
                 "EmbedLayerNormalization",
                 "com.microsoft",
                 {"ids", "", "table", "table", "", "gamma", "gamma"},
                 {"e"},
                 {}});
  PartitionOnCuda(graph);
  CheckOnGpu(graph, [](const Node&) { return true; });
}

TEST_CASE("CUDA Attention matches a hand-computed softmax", "[cuda][gpu]") {
  if (!HasGpu()) return;
  const std::vector<float> expected = HandAttentionExpected();
  Tensor y = RunOneNode("com.microsoft:Attention", HandAttentionInputs(), OneHead());
  REQUIRE(y.shape() == TensorShape({1, 2, 2}));
  for (int i = 0; i < 4; ++i) CHECK(y.Data<float>()[i] == Approx(expected[i]).margin(1e-5));

  // Key length 1: key 1 gets -10000 and exp(-10000) vanishes, so both queries read V's row 0.
  Inputs masked = HandAttentionInputs();
  masked.emplace_back("mask_index", Tensor::FromVector<int32_t>(TensorShape{1}, {1}));
  Tensor first = RunOneNode("com.microsoft:Attention", std::move(masked), OneHead());
  const float first_expected[] = {1, 10, 1, 10};
  for (int i = 0; i < 4; ++i) CHECK(first.Data<float>()[i] == Approx(first_expected[i]));

  Inputs half;
  for (const auto& [name, tensor] : HandAttentionInputs()) {
    const auto values = tensor.Span<float>();
    half.emplace_back(
        name, Tensor::FromVector<Float16>(tensor.shape(), ToHalf({values.begin(), values.end()})));
  }
  Tensor y16 = RunOneNode("com.microsoft:Attention", std::move(half), OneHead());
  REQUIRE(y16.dtype() == DataType::kFloat16);
  for (int i = 0; i < 4; ++i) {
    CHECK(static_cast<float>(y16.Data<Float16>()[i]) == Approx(expected[i]).epsilon(1e-2));
  }
}

TEST_CASE("CUDA Attention reads every mask form like the CPU kernel", "[cuda][gpu]") {
  if (!HasGpu()) return;
  AttentionProblem p;
  const int64_t total = 2 * p.hidden + p.v_hidden;
  p.input = Wave(p.batch * p.sequence * p.input_hidden, 0.3f);
  p.weights = Wave(p.input_hidden * total, 1.1f);
  p.bias = Wave(total, 2.0f);
  p.attention_bias = Wave(p.num_heads * p.sequence * p.sequence, 0.5f);
  const std::vector<int32_t> raw2d = {1, 0, 2, 1, 1, -1};
  std::vector<int32_t> raw3d(18), raw4d(32);
  for (size_t i = 0; i < raw3d.size(); ++i) raw3d[i] = i % 4 == 1 ? 0 : 1;
  for (size_t i = 0; i < raw4d.size(); ++i) raw4d[i] = i % 3 == 0 ? 0 : 1;
  struct MaskCase {
    const char* name;
    Tensor mask;  // undefined: no mask
    MaskFn masked;
    bool unidirectional = false;
  };
  const MaskCase cases[] = {
      {"none", Tensor(), [](int64_t, int64_t, int64_t) { return false; }},
      {"key lengths", Tensor::FromVector<int32_t>(TensorShape{2}, {2, 3}),
       [](int64_t b, int64_t, int64_t t) { return t >= (b == 0 ? 2 : 3); }},
      // Batch 0 keeps keys [1, 3); batch 1 ends at 0, so its rows are fully masked.
      {"end and start", Tensor::FromVector<int32_t>(TensorShape{4}, {3, 0, 1, 0}),
       [](int64_t b, int64_t, int64_t t) { return b == 0 ? t < 1 : true; }},
      {"raw 2-D", Tensor::FromVector<int32_t>(TensorShape{2, 3}, raw2d),
       [&](int64_t b, int64_t, int64_t t) { return raw2d[b * 3 + t] <= 0; }},
      {"raw 3-D", Tensor::FromVector<int32_t>(TensorShape{2, 3, 3}, raw3d),
       [&](int64_t b, int64_t s, int64_t t) { return raw3d[(b * 3 + s) * 3 + t] == 0; }},
      {"raw 4-D of max sequence 4", Tensor::FromVector<int32_t>(TensorShape{2, 1, 4, 4}, raw4d),
       [&](int64_t b, int64_t s, int64_t t) { return raw4d[b * 16 + s * 4 + t] == 0; }},
      {"causal", Tensor(), [](int64_t, int64_t s, int64_t t) { return t > s; }, true},
      {"causal and raw 2-D", Tensor::FromVector<int32_t>(TensorShape{2, 3}, raw2d),
       [&](int64_t b, int64_t s, int64_t t) { return t > s || raw2d[b * 3 + t] <= 0; }, true},
  };
  for (const MaskCase& c : cases) {
    INFO(c.name);
    std::vector<Attribute> attributes;
    attributes.push_back(Attribute::Int("num_heads", p.num_heads));
    attributes.push_back(Attribute::Ints("qkv_hidden_sizes", {p.hidden, p.hidden, p.v_hidden}));
    attributes.push_back(Attribute::Float("scale", p.scale));
    attributes.push_back(Attribute::Float("mask_filter_value", p.filter));
    attributes.push_back(Attribute::Int("unidirectional", c.unidirectional ? 1 : 0));
    const Inputs inputs = {
        {"input",
         Tensor::FromVector<float>(TensorShape{p.batch, p.sequence, p.input_hidden}, p.input)},
        {"weights", Tensor::FromVector<float>(TensorShape{p.input_hidden, total}, p.weights)},
        {"bias", Tensor::FromVector<float>(TensorShape{total}, p.bias)},
        {c.mask.IsDefined() ? "mask_index" : "", c.mask},
        {"", Tensor()},
        {"attention_bias",
         Tensor::FromVector<float>(TensorShape{1, p.num_heads, p.sequence, p.sequence},
                                   p.attention_bias)}};
    std::vector<Value> results;
    REQUIRE(
        RunContribNode("Attention", inputs, std::move(attributes), {"y"}, &results).ToString() ==
        "OK");
    const Tensor& y = results[0].tensor();
    REQUIRE(y.shape() == TensorShape({p.batch, p.sequence, p.v_hidden}));
    const std::vector<float> expected = ReferenceAttention(p, c.masked);
    for (size_t i = 0; i < expected.size(); ++i) {
      CHECK(y.Data<float>()[i] == Approx(expected[i]).margin(1e-4));
    }
  }
}

TEST_CASE("CUDA EmbedLayerNormalization matches a hand-computed layer norm", "[cuda][gpu]") {
  if (!HasGpu()) return;
  const std::vector<float> word = {1, 2, 3, 0, 0, 1, -1, 4, 2, 5, -2, 0};  // [4, 3]
  const std::vector<float> position = {0.5f, 0, -0.5f, 1, 1, 1};           // [2, 3]
  const std::vector<float> segment = {0, 0, 0, 2, -1, 3};                  // [2, 3]
  const std::vector<float> gamma = {1, 2, 0.5f}, beta = {0, 1, -1};
  const int32_t ids[] = {3, 1, 0, 2}, segments[] = {0, 1, 1, 1};
  const Inputs inputs = {
      {"input_ids", Tensor::FromVector<int32_t>(TensorShape{2, 2}, {3, 1, 0, 2})},
      {"segment_ids", Tensor::FromVector<int32_t>(TensorShape{2, 2}, {0, 1, 1, 1})},
      {"word", Tensor::FromVector<float>(TensorShape{4, 3}, word)},
      {"position", Tensor::FromVector<float>(TensorShape{2, 3}, position)},
      {"segment", Tensor::FromVector<float>(TensorShape{2, 3}, segment)},
      {"gamma", Tensor::FromVector<float>(TensorShape{3}, gamma)},
      {"beta", Tensor::FromVector<float>(TensorShape{3}, beta)},
      {"mask", Tensor::FromVector<int32_t>(TensorShape{2, 2}, {1, 2, 1, 0})}};
  std::vector<Value> results;
  REQUIRE(
      RunContribNode("EmbedLayerNormalization", inputs, {}, {"y", "mask_index", "sum"}, &results)
          .ToString() == "OK");
  const Tensor& y = results[0].tensor();
  const Tensor& sum = results[2].tensor();
  REQUIRE(y.shape() == TensorShape({2, 2, 3}));
  for (int token = 0; token < 4; ++token) {
    float e[3], mean = 0, variance = 0;
    for (int i = 0; i < 3; ++i) {
      e[i] = word[ids[token] * 3 + i] + position[(token % 2) * 3 + i] +
             segment[segments[token] * 3 + i];
      mean += e[i] / 3;
    }
    for (int i = 0; i < 3; ++i) variance += (e[i] - mean) * (e[i] - mean) / 3;
    for (int i = 0; i < 3; ++i) {
      const float expected = (e[i] - mean) / std::sqrt(variance + 1e-12f) * gamma[i] + beta[i];
      CHECK(y.Data<float>()[token * 3 + i] == Approx(expected).margin(1e-5));
      CHECK(sum.Data<float>()[token * 3 + i] == e[i]);
    }
  }
  // Only ones count: row 0 holds a 2.
  const Tensor& mask_index = results[1].tensor();
  REQUIRE(mask_index.shape() == TensorShape({2}));
  CHECK(mask_index.Data<int32_t>()[0] == 1);
  CHECK(mask_index.Data<int32_t>()[1] == 1);

  // Float16, no segments, and position ids [1, S] shared by the batch, picking rows 1 then 0.
  const std::vector<float> no_gamma = {1, 1, 1}, no_beta = {0, 0, 0};
  const Inputs shared = {
      {"input_ids", Tensor::FromVector<int32_t>(TensorShape{1, 2}, {0, 1})},
      {"", Tensor()},
      {"word", Tensor::FromVector<Float16>(TensorShape{4, 3}, ToHalf(word))},
      {"position", Tensor::FromVector<Float16>(TensorShape{2, 3}, ToHalf(position))},
      {"", Tensor()},
      {"gamma", Tensor::FromVector<Float16>(TensorShape{3}, ToHalf(no_gamma))},
      {"beta", Tensor::FromVector<Float16>(TensorShape{3}, ToHalf(no_beta))},
      {"", Tensor()},
      {"position_ids", Tensor::FromVector<int32_t>(TensorShape{1, 2}, {1, 0})}};
  REQUIRE(RunContribNode("EmbedLayerNormalization", shared, {}, {"y"}, &results).ToString() ==
          "OK");
  // Token 0: [1, 2, 3] + [1, 1, 1] = [2, 3, 4], mean 3 and variance 2/3, normalizes to
  // [-1, 0, 1] * sqrt(3/2); token 1: [0, 0, 1] + [0.5, 0, -0.5] = [0.5, 0, 0.5], mean 1/3 and
  // variance 1/18, to [1, -2, 1] / sqrt(2).
  const float a = std::sqrt(1.5f), b = 1 / std::sqrt(2.0f);
  const float shared_expected[] = {-a, 0, a, b, -2 * b, b};
  const Tensor& y16 = results[0].tensor();
  REQUIRE(y16.dtype() == DataType::kFloat16);
  for (int i = 0; i < 6; ++i) {
    CHECK(static_cast<float>(y16.Data<Float16>()[i]) == Approx(shared_expected[i]).margin(1e-2));
  }

  // An id past the word table fails, naming it, as on the CPU.
  Inputs out_of_range = inputs;
  out_of_range[0].second = Tensor::FromVector<int32_t>(TensorShape{2, 2}, {3, 4, 0, 2});
  const Status status =
      RunContribNode("EmbedLayerNormalization", out_of_range, {}, {"y"}, &results);
  CHECK_THAT(status.ToString(), Catch::Contains("input id 4 of token 1 is out of"));
}

}  // namespace ort
