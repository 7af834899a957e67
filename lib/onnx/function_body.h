// Instantiating an ONNX function body (a schema's FunctionProto or a model-local one) at one call
// site: the shared step of function expansion and model-local function inlining.
#pragma once

#include <onnx/onnx_pb.h>

#include <functional>
#include <string>
#include <unordered_map>

namespace ort {

/// Names of the body's values at the call site: formal inputs and outputs map to the caller's
/// names, other values get fresh names from `fresh` on first use.
class BodyValueNames {
 public:
  BodyValueNames(const onnx::FunctionProto& function, const onnx::NodeProto& caller,
                 std::function<std::string(const std::string&)> fresh);
  std::string operator()(const std::string& name);
  /// The call-site name of `name`, or `name` itself when the body never named it.
  std::string Lookup(const std::string& name) const;

 private:
  std::unordered_map<std::string, std::string> renamed_;
  std::function<std::string(const std::string&)> fresh_;
};

/// Rewrites `body_node` for the call `caller`: value names through `names` (also the body values
/// its subgraphs read), and attributes that refer to the function's attributes (ref_attr_name)
/// replaced by the caller's values, or dropped, leaving the op's default, when the caller omits
/// them.
void InstantiateBodyNode(const onnx::NodeProto& caller, BodyValueNames& names,
                         onnx::NodeProto& body_node);

}  // namespace ort
