// What the nchwc_layout pass asks of nodes and constants: which ops run unchanged on blocked data,
// the attributes of the com.microsoft.nchwc ops replacing plain ones, and filters and vectors
// padded and laid out for them (ONNX Runtime's layouts, so that ORT runs a saved model).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/ir/graph.h"

namespace ort {

inline constexpr std::string_view kNchwcDomain = "com.microsoft.nchwc";

inline int64_t RoundUp(int64_t value, int64_t block) { return (value + block - 1) / block * block; }

/// One int attribute as a list (attributes are move-only, so no initializer list can hold one).
std::vector<Attribute> IntAttribute(std::string name, int64_t value);

/// The shape of a float 4-D tensor value whose channel count is known; else nullopt.
std::optional<SymbolicShape> FloatShape4(const Graph& graph, std::string_view value);

/// True when `a` and `b` are float 4-D tensors of one shape: each dimension known and equal or the
/// same named symbol (a batch size fixed only at run time).
bool SameShape(const Graph& graph, std::string_view a, std::string_view b);

/// True when `node` is an ai.onnx Transpose with exactly the permutation `perm`.
bool IsTransposeWithPerm(const Node& node, const std::vector<int64_t>& perm);

/// The values of a float constant broadcasting per channel over 4-D tensors of `channels`
/// channels ([C, 1, 1], [1, C, 1, 1]); else nullopt. Single values are left to the scalar rule.
std::optional<std::vector<float>> ChannelConstant(const Graph& graph, std::string_view value,
                                                  int64_t channels);

/// The `activation` and `activation_params` attributes of a Conv absorbing `node`, or nullopt when
/// the nchwc Conv cannot apply it.
std::optional<std::vector<Attribute>> ActivationAttributes(const Graph& graph, const Node& node);

/// Elementwise ops of one input that run unchanged on blocked data: whatever they make of the
/// padding channels stays finite, and the next Conv multiplies those channels by zero filters.
bool IsUnaryPassThrough(const Node& node);

/// Add, Sub, Mul, Div, Max, Min. Div passes through only with a constant divisor: the zero
/// padding channels of two blocked operands would become 0 / 0.
bool IsBinaryPassThrough(const Node& node);

/// The attributes of the nchwc pool replacing `pool` (MaxPool, AveragePool and their Global
/// forms of 2-D windows); nullopt when it has none (dilated AveragePool).
std::optional<std::vector<Attribute>> NchwcPoolAttributes(const Node& pool);

/// The attributes of the nchwc Upsample replacing a Resize / Upsample by constant integer factors
/// on H and W, nearest (floor of asymmetric coordinates) or linear; nullopt for any other.
std::optional<std::vector<Attribute>> NchwcUpsampleAttributes(const Graph& graph, const Node& node);

/// OIHW float filters `weight` laid out for an nchwc Conv of block `block`: OIHWBiBo (input
/// channels padded to the block) or, when `plain_input` (depthwise, or a plain input of fewer
/// than B channels), OIHWBo. Filters are padded to the block; padding is zero.
Tensor PackNchwcFilters(const Tensor& weight, int64_t block, bool plain_input);

/// OIHW float filters of a Conv with `group` groups as those of the same Conv with group /
/// `merged` groups: each run of `merged` neighbouring groups becomes one whose filters read all its
/// channels, zero weights on the channels of the other members (block-diagonal).
Tensor MergeNarrowGroups(const Tensor& weight, int64_t group, int64_t merged);

/// `values` padded with zeros to `size` as a 1-D float tensor.
Tensor PaddedVector(std::span<const float> values, int64_t size);

}  // namespace ort
