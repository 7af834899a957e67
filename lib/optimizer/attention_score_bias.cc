#include "lib/optimizer/attention_score_bias.h"

#include "lib/optimizer/attention_heads.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/optimizer/shape_elements.h"

namespace ort {
namespace {

// The extents a term may broadcast to: [B', N, S, T], or [B, W, N, S, T] windowed. The leading
// batch extent is 0: a term must be 1 there (it cannot vary with, or enlarge, the batch).
std::vector<int64_t> TermExtents(const ScoreDims& dims, std::optional<int64_t> windows) {
  std::vector<int64_t> extents{0};
  if (windows) extents.push_back(*windows);
  for (const auto& dim : dims) extents.push_back(dim.value_or(-1));
  return extents;
}

// True when `constant` broadcasts to `extents` (aligned on the right) without enlarging any.
bool BroadcastsTo(const Tensor& constant, const std::vector<int64_t>& extents) {
  const auto& shape = constant.shape().dims();
  if (constant.dtype() != DataType::kFloat || shape.size() > extents.size()) return false;
  const size_t skip = extents.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i) {
    const int64_t extent = extents[skip + i];
    if (shape[i] != 1 && (extent <= 0 || shape[i] != extent)) return false;
  }
  return true;
}

// The Add reading `value` (read by `readers` only) with a constant operand, which it returns in
// `constant`, and the other operand in `input`.
const Node* ConstantAdd(const Graph& graph, const std::string& value,
                        const std::vector<const Node*>& readers, const Tensor*& constant,
                        std::string& input) {
  const Node* add = ProducerReadOnlyBy(graph, value, "Add", readers);
  if (add == nullptr || add->inputs().size() != 2) return nullptr;
  for (size_t i = 0; i < 2; ++i) {
    constant = ConstantInput(graph, *add, i);
    if (constant != nullptr && add->inputs()[1 - i] != add->inputs()[i]) {
      input = add->inputs()[1 - i];
      return add;
    }
  }
  return nullptr;
}

// A Reshape whose target is the constant [-1, middle..., N, S, T] with `dims` known; the middle
// elements (W, or none) are returned.
std::optional<std::vector<int64_t>> ViewTarget(const Graph& graph, const Node& reshape, size_t rank,
                                               const ScoreDims& dims) {
  const Attribute* allowzero = reshape.FindAttribute("allowzero");
  if (!reshape.HasInput(1) || (allowzero != nullptr && allowzero->i != 0)) return std::nullopt;
  const auto target = AnalyzeShapeValue(graph, reshape.inputs()[1]);
  if (!target || target->scalar || target->elements.size() != rank) return std::nullopt;
  std::vector<int64_t> values;
  for (const ShapeElement& element : target->elements) {
    if (element.kind != ShapeElement::Kind::kValue) return std::nullopt;
    values.push_back(element.value);
  }
  if (values.front() != -1) return std::nullopt;
  for (size_t i = 0; i < 3; ++i) {
    if (!dims[i] || values[rank - 3 + i] != *dims[i]) return std::nullopt;
  }
  std::vector<int64_t> middle(values.begin() + 1, values.end() - 3);
  for (int64_t extent : middle) {
    if (extent <= 0) return std::nullopt;
  }
  return middle;
}

// Follows constant Adds up from `bias.scores`, appending them (outermost first) to `outer_first`;
// with `extents` only those whose constant broadcasts to them.
void TakeAdds(const Graph& graph, ScoreBias& bias, const std::vector<int64_t>* extents,
              bool windowed, std::vector<ScoreTerm>& outer_first) {
  for (;;) {
    const Tensor* constant = nullptr;
    std::string input;
    const Node* add = ConstantAdd(graph, bias.scores, bias.readers, constant, input);
    if (add == nullptr || (extents != nullptr && !BroadcastsTo(*constant, *extents))) return;
    outer_first.push_back({constant, windowed});
    bias.nodes.push_back(add);
    bias.readers = {add};
    bias.scores = input;
  }
}

}  // namespace

ScoreBias MatchScoreBias(const Graph& graph, const std::string& value,
                         std::vector<const Node*> readers, const ScoreDims& dims) {
  ScoreBias bias;
  bias.scores = value;
  bias.readers = std::move(readers);
  std::vector<ScoreTerm> outer_first;
  const std::vector<int64_t> extents = TermExtents(dims, std::nullopt);
  TakeAdds(graph, bias, &extents, false, outer_first);

  // The windowed view, taken whole or not at all: its terms' shapes are checked once W is known.
  if (const Node* back = ProducerReadOnlyBy(graph, bias.scores, "Reshape", bias.readers)) {
    ScoreBias view;
    view.scores = back->inputs()[0];
    view.readers = {back};
    std::vector<ScoreTerm> view_terms;
    TakeAdds(graph, view, nullptr, true, view_terms);
    const Node* into = ProducerReadOnlyBy(graph, view.scores, "Reshape", view.readers);
    const auto back_target = ViewTarget(graph, *back, 4, dims);
    const auto into_target = into == nullptr ? std::nullopt : ViewTarget(graph, *into, 5, dims);
    bool fits = back_target && into_target && !view_terms.empty();
    const std::vector<int64_t> view_extents =
        fits ? TermExtents(dims, into_target->front()) : std::vector<int64_t>{};
    for (const ScoreTerm& term : view_terms)
      fits = fits && BroadcastsTo(*term.constant, view_extents);
    if (fits) {
      bias.windows = into_target->front();
      bias.nodes.push_back(back);
      bias.nodes.insert(bias.nodes.end(), view.nodes.begin(), view.nodes.end());
      bias.nodes.push_back(into);
      outer_first.insert(outer_first.end(), view_terms.begin(), view_terms.end());
      bias.scores = into->inputs()[0];
      bias.readers = {into};
      TakeAdds(graph, bias, &extents, false, outer_first);
    }
  }
  bias.terms.assign(outer_first.rbegin(), outer_first.rend());
  return bias;
}

bool FoldableBiasSize(std::span<const int64_t> dims) {
  constexpr int64_t kMaxElements = int64_t{16} << 20;
  int64_t elements = 1;
  for (int64_t dim : dims) {
    const auto product = dim < 0 ? std::nullopt : CheckedMul(elements, dim);
    if (!product || *product > kMaxElements) return false;
    elements = *product;
  }
  return true;
}

Tensor ScoreBias::Fold(const ScoreDims& dims) const {
  const int64_t heads = *dims[0], queries = *dims[1], keys = *dims[2];
  const std::vector<int64_t> folded_dims{windows, heads, queries, keys};
  std::vector<float> sum(static_cast<size_t>(TensorShape(folded_dims).NumElements()), 0.0f);
  for (const ScoreTerm& term : terms) {
    // The term's coordinates: (image, window, head, query, key), or without the window.
    const auto& shape = term.constant->shape().dims();
    const size_t rank = term.windowed ? 5 : 4;
    std::vector<int64_t> strides(rank, 0);
    int64_t stride = 1;
    for (size_t i = shape.size(); i-- > 0;) {
      if (shape[i] != 1) strides[rank - shape.size() + i] = stride;
      stride *= shape[i];
    }
    const int64_t window_stride = term.windowed ? strides[1] : 0;
    const size_t head_axis = rank - 3;
    const float* data = term.constant->Data<float>();
    size_t at = 0;
    for (int64_t w = 0; w < windows; ++w) {
      for (int64_t n = 0; n < heads; ++n) {
        for (int64_t s = 0; s < queries; ++s) {
          for (int64_t t = 0; t < keys; ++t) {
            sum[at++] += data[w * window_stride + n * strides[head_axis] +
                              s * strides[head_axis + 1] + t * strides[head_axis + 2]];
          }
        }
      }
    }
  }
  return Tensor::FromVector<float>(TensorShape(folded_dims), std::span<const float>(sum));
}

}  // namespace ort
