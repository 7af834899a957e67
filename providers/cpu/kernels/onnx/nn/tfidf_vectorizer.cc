// TfIdfVectorizer (opset 9): counts the pool's n-grams (min_gram_length..max_gram_length items,
// consecutive items taken every 1..max_skip_count+1 positions) in each row of a [C] or [N, C]
// int32/int64/string tensor. Unigrams are counted once, not once per skip distance. Mode TF
// outputs counts, IDF outputs weight (1 by default) where the count is positive, TFIDF
// count * weight. Like ONNX Runtime and the converters that target it, weights are looked up by
// output column.
#include <algorithm>
#include <string>
#include <unordered_map>

#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

enum class Weighting { kTf, kIdf, kTfIdf };

// The pool as a trie over item ids: a path of n items ending at a node with a column is an
// n-gram of the pool.
struct TrieNode {
  std::unordered_map<int64_t, int32_t> children;
  int64_t column = -1;
};

class TfIdfVectorizer final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    const std::string describe = info.node().Describe();
    ORT_ASSIGN_OR_RETURN(std::string mode, info.GetAttribute<std::string>("mode"));
    if (mode == "TF") {
      weighting_ = Weighting::kTf;
    } else if (mode == "IDF") {
      weighting_ = Weighting::kIdf;
    } else if (mode == "TFIDF") {
      weighting_ = Weighting::kTfIdf;
    } else {
      return ORT_ERROR(kInvalidModel, "unknown mode '{}'", mode).WithNode(describe);
    }
    ORT_ASSIGN_OR_RETURN(min_gram_, info.GetAttribute<int64_t>("min_gram_length"));
    ORT_ASSIGN_OR_RETURN(max_gram_, info.GetAttribute<int64_t>("max_gram_length"));
    ORT_ASSIGN_OR_RETURN(max_skip_, info.GetAttribute<int64_t>("max_skip_count"));
    if (min_gram_ < 1 || max_gram_ < min_gram_ || max_skip_ < 0) {
      return ORT_ERROR(kInvalidModel,
                       "need 1 <= min_gram_length <= max_gram_length and max_skip_count >= 0, "
                       "got {}, {}, {}",
                       min_gram_, max_gram_, max_skip_)
          .WithNode(describe);
    }
    ORT_ASSIGN_OR_RETURN(auto counts, info.GetAttribute<std::vector<int64_t>>("ngram_counts"));
    ORT_ASSIGN_OR_RETURN(auto indexes, info.GetAttribute<std::vector<int64_t>>("ngram_indexes"));
    ORT_ASSIGN_OR_RETURN(weights_, info.GetAttributeOr<std::vector<float>>("weights", {}));

    const bool has_ints = info.HasAttribute("pool_int64s");
    const bool has_strings = info.HasAttribute("pool_strings");
    if (has_ints == has_strings) {
      return ORT_ERROR(kInvalidModel, "exactly one of pool_int64s and pool_strings is needed")
          .WithNode(describe);
    }
    std::vector<int64_t> pool;
    if (has_ints) {
      ORT_ASSIGN_OR_RETURN(pool, info.GetAttribute<std::vector<int64_t>>("pool_int64s"));
    } else {
      ORT_ASSIGN_OR_RETURN(auto strings,
                           info.GetAttribute<std::vector<std::string>>("pool_strings"));
      strings_pool_ = true;
      for (const auto& s : strings) {
        auto [it, inserted] = string_ids_.emplace(s, static_cast<int64_t>(string_ids_.size()));
        pool.push_back(it->second);
      }
    }

    nodes_.assign(1, TrieNode{});
    size_t ngram = 0;
    const auto pool_size = static_cast<int64_t>(pool.size());
    for (size_t level = 0; level < counts.size(); ++level) {
      const int64_t n = static_cast<int64_t>(level) + 1;
      const int64_t begin = counts[level];
      const int64_t end = level + 1 < counts.size() ? counts[level + 1] : pool_size;
      if (begin < 0 || end < begin || end > pool_size || (end - begin) % n != 0) {
        return ORT_ERROR(kInvalidModel, "ngram_counts[{}] = {} does not split the pool of {} items",
                         level, begin, pool_size)
            .WithNode(describe);
      }
      for (int64_t start = begin; start < end; start += n, ++ngram) {
        if (ngram >= indexes.size()) {
          return ORT_ERROR(kInvalidModel, "ngram_indexes has fewer entries than the pool")
              .WithNode(describe);
        }
        if (indexes[ngram] < 0) {
          return ORT_ERROR(kInvalidModel, "negative ngram index {}", indexes[ngram])
              .WithNode(describe);
        }
        int32_t node = 0;
        for (int64_t k = 0; k < n; ++k) {
          auto [it, inserted] =
              nodes_[node].children.emplace(pool[start + k], static_cast<int32_t>(nodes_.size()));
          const int32_t child = it->second;
          if (inserted) nodes_.emplace_back();
          node = child;
        }
        nodes_[node].column = indexes[ngram];
        columns_ = std::max(columns_, indexes[ngram] + 1);
      }
    }
    if (ngram != indexes.size()) {
      return ORT_ERROR(kInvalidModel, "the pool has {} n-grams but ngram_indexes has {}", ngram,
                       indexes.size())
          .WithNode(describe);
    }
    if (!weights_.empty() && static_cast<int64_t>(weights_.size()) < columns_) {
      return ORT_ERROR(kInvalidModel, "weights has {} values for {} output columns",
                       weights_.size(), columns_)
          .WithNode(describe);
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
    const TensorShape& shape = input->shape();
    if (shape.rank() != 1 && shape.rank() != 2) {
      return context.Error("input must be [C] or [N, C], got {}", shape.ToString());
    }
    const bool is_string = input->dtype() == DataType::kString;
    if (is_string != strings_pool_ ||
        (!is_string && input->dtype() != DataType::kInt32 && input->dtype() != DataType::kInt64)) {
      return context.Error("input {} does not match a {} pool", input->Describe(),
                           strings_pool_ ? "string" : "int64");
    }
    const int64_t rows = shape.rank() == 1 ? 1 : shape[0];
    const int64_t length = shape.rank() == 1 ? shape[0] : shape[1];
    const TensorShape output_shape =
        shape.rank() == 1 ? TensorShape{columns_} : TensorShape{rows, columns_};
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, DataType::kFloat, output_shape));
    float* out = output->MutableData<float>();
    std::fill_n(out, output->NumElements(), 0.0f);

    // Items as ids; strings outside the pool become -1, which matches nothing.
    std::vector<int64_t> items(static_cast<size_t>(input->NumElements()));
    if (is_string) {
      const std::string* strings = input->Data<std::string>();
      for (size_t i = 0; i < items.size(); ++i) {
        auto it = string_ids_.find(strings[i]);
        items[i] = it == string_ids_.end() ? -1 : it->second;
      }
    } else if (input->dtype() == DataType::kInt32) {
      std::copy_n(input->Data<int32_t>(), items.size(), items.begin());
    } else {
      std::copy_n(input->Data<int64_t>(), items.size(), items.begin());
    }

    // A distance of `length` or more fits no n-gram of two items: larger skips add nothing (and a
    // max_skip_count of 2^62 would loop that many times).
    const int64_t max_skip = std::min(max_skip_, std::max<int64_t>(length - 1, 0));
    ThreadPool::TryParallelFor(context.thread_pool(), rows,
                               static_cast<double>(length) * static_cast<double>(max_skip + 1) *
                                   static_cast<double>(max_gram_) * 20.0,
                               [&](int64_t begin, int64_t end) {
                                 for (int64_t row = begin; row < end; ++row) {
                                   CountRow(items.data() + row * length, length, max_skip,
                                            out + row * columns_);
                                   Weigh(out + row * columns_);
                                 }
                               });
    return Status::OK();
  }

 private:
  void CountRow(const int64_t* items, int64_t length, int64_t max_skip, float* counts) const {
    int64_t first_gram = min_gram_;
    if (first_gram > length) return;
    for (int64_t distance = 1; distance <= max_skip + 1; ++distance) {
      for (int64_t start = 0; start + (first_gram - 1) * distance < length; ++start) {
        int32_t node = 0;
        for (int64_t n = 1; n <= max_gram_; ++n) {
          const int64_t position = start + (n - 1) * distance;
          if (position >= length) break;
          const auto& children = nodes_[node].children;
          auto it = children.find(items[position]);
          if (it == children.end()) break;
          node = it->second;
          if (n >= first_gram && nodes_[node].column >= 0) counts[nodes_[node].column] += 1.0f;
        }
      }
      // Unigrams do not depend on the skip distance: count them in the first pass only.
      if (first_gram == 1) {
        first_gram = 2;
        if (first_gram > max_gram_) break;
      }
    }
  }

  void Weigh(float* row) const {
    for (int64_t c = 0; c < columns_; ++c) {
      const float weight = weights_.empty() ? 1.0f : weights_[c];
      if (weighting_ == Weighting::kIdf) {
        row[c] = row[c] > 0 ? weight : 0.0f;
      } else if (weighting_ == Weighting::kTfIdf) {
        row[c] *= weight;
      }
    }
  }

  Weighting weighting_ = Weighting::kTf;
  int64_t min_gram_ = 1;
  int64_t max_gram_ = 1;
  int64_t max_skip_ = 0;
  std::vector<float> weights_;
  bool strings_pool_ = false;
  std::unordered_map<std::string, int64_t> string_ids_;
  std::vector<TrieNode> nodes_;
  int64_t columns_ = 0;
};

}  // namespace

void RegisterTfIdfVectorizerKernels(KernelRegistry& registry) {
  registry.Add<TfIdfVectorizer>(
      KernelDef("TfIdfVectorizer")
          .Versions(9)
          .Input(0, {DataType::kString, DataType::kInt32, DataType::kInt64}));
}

}  // namespace ort
