// Graph edits the static and dynamic quantizers share.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lib/common/status.h"
#include "lib/ir/graph.h"
#include "lib/quantization/quant_params.h"
#include "lib/quantization/quantize_options.h"

namespace ort {

/// `wanted` when no value of `graph` uses that name, else a unique name starting with it.
std::string FreshValueName(Graph& graph, const std::string& wanted);

/// Adds `quantized` as initializers BASE_quantized, BASE_scale (and BASE_zero_point when
/// `with_zero_point`) and a DequantizeLinear of them; returns its output, BASE_dequantized.
std::string AddDequantizedInitializer(Graph& graph, const std::string& base,
                                      const QuantizedInitializer& quantized, bool with_zero_point);

/// Removes the initializers among `names` that nothing reads any more.
void RemoveUnusedInitializers(Graph& graph, const std::set<std::string>& names);

/// The float constant initializer `name` (not overridable by a feed), or nullptr.
const Tensor* FloatConstant(const Graph& graph, const std::string& name);

/// Errors naming an entry of `options.excluded_nodes` that no node of `graph` has.
Status CheckExcludedNodes(const Graph& graph, const QuantizeOptions& options);

/// Whether `node` is an ai.onnx node of one of the options' op types and not excluded.
bool Selected(const Node& node, const QuantizeOptions& options);

/// Per op type of `graph`, the nodes in `quantized` and the rest, sorted by op type.
std::vector<OpTypeCount> CountQuantized(const Graph& graph, const std::set<NodeIndex>& quantized);

/// Errors unless `graph` imports ai.onnx at opset `minimum` or newer, naming `feature`.
Status CheckOpset(const Graph& graph, int64_t minimum, std::string_view feature);

}  // namespace ort
