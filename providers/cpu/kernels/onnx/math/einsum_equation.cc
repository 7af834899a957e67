#include "providers/cpu/kernels/onnx/math/einsum_equation.h"

#include <algorithm>

namespace ort {
namespace {

int LetterLabel(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return 26 + (c - 'a');
  return -1;
}

/// A term split into the letters before and after its ellipsis.
struct Term {
  std::vector<int> before;
  std::vector<int> after;
  bool has_ellipsis = false;
};

Result<Term> ParseTerm(const std::string& text) {
  Term term;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '.') {
      if (term.has_ellipsis || text.compare(i, 3, "...") != 0) {
        return ORT_ERROR(kInvalidArgument, "term '{}' has a malformed or repeated ellipsis", text);
      }
      term.has_ellipsis = true;
      i += 2;
      continue;
    }
    const int label = LetterLabel(text[i]);
    if (label < 0)
      return ORT_ERROR(kInvalidArgument, "term '{}' has invalid label '{}'", text, text[i]);
    (term.has_ellipsis ? term.after : term.before).push_back(label);
  }
  return term;
}

std::vector<int> Expand(const Term& term, int64_t ellipsis_rank, int64_t widest) {
  std::vector<int> labels = term.before;
  for (int64_t j = widest - ellipsis_rank; j < widest; ++j) {
    labels.push_back(EinsumEquation::kEllipsisBase + static_cast<int>(j));
  }
  labels.insert(labels.end(), term.after.begin(), term.after.end());
  return labels;
}

}  // namespace

Result<EinsumEquation> ParseEinsumEquation(const std::string& equation,
                                           const std::vector<TensorShape>& shapes) {
  std::string text;
  for (char c : equation) {
    if (c != ' ') text += c;
  }
  const size_t arrow = text.find("->");
  const std::string left = text.substr(0, arrow);
  std::vector<Term> terms;
  size_t start = 0;
  while (true) {
    const size_t comma = left.find(',', start);
    ORT_ASSIGN_OR_RETURN(Term term, ParseTerm(left.substr(start, comma - start)));
    terms.push_back(std::move(term));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != shapes.size()) {
    return ORT_ERROR(kInvalidArgument, "equation '{}' has {} input terms but there are {} inputs",
                     equation, terms.size(), shapes.size());
  }
  std::vector<int64_t> ellipsis_ranks(terms.size(), 0);
  int64_t widest = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    const auto letters = static_cast<int64_t>(terms[i].before.size() + terms[i].after.size());
    const auto rank = static_cast<int64_t>(shapes[i].rank());
    if (terms[i].has_ellipsis ? rank < letters : rank != letters) {
      return ORT_ERROR(kInvalidArgument, "input {} has shape {} which does not fit its term", i,
                       shapes[i].ToString());
    }
    ellipsis_ranks[i] = rank - letters;
    widest = std::max(widest, ellipsis_ranks[i]);
  }
  if (widest > EinsumEquation::kLabelCount - EinsumEquation::kEllipsisBase) {
    return ORT_ERROR(kInvalidArgument, "too many ellipsis dimensions ({})", widest);
  }
  EinsumEquation result;
  std::vector<int> counts(EinsumEquation::kLabelCount, 0);
  for (size_t i = 0; i < terms.size(); ++i) {
    result.inputs.push_back(Expand(terms[i], ellipsis_ranks[i], widest));
    for (int label : result.inputs.back()) ++counts[label];
  }
  if (arrow != std::string::npos) {
    ORT_ASSIGN_OR_RETURN(const Term out, ParseTerm(text.substr(arrow + 2)));
    result.output = Expand(out, out.has_ellipsis ? widest : 0, widest);
    std::vector<bool> seen(EinsumEquation::kLabelCount, false);
    for (int label : result.output) {
      if (seen[label] || counts[label] == 0) {
        return ORT_ERROR(kInvalidArgument,
                         "output of '{}' repeats a label or uses one no input has", equation);
      }
      seen[label] = true;
    }
  } else {
    for (int64_t j = 0; j < widest; ++j) {
      result.output.push_back(EinsumEquation::kEllipsisBase + static_cast<int>(j));
    }
    for (int label = 0; label < EinsumEquation::kEllipsisBase; ++label) {
      if (counts[label] == 1) result.output.push_back(label);
    }
  }
  return result;
}

}  // namespace ort
