// Checks put in front of onnx's shape-inference functions that index by ranks only inference
// works out: node_validation sees the ranks a model declares, but a Conv reading a Reshape's
// output learns its input's rank mid-inference, and onnx 1.12's convPoolShapeInference and
// convTransposeShapeInference index past a weight whose rank differs from it (SIGSEGV).
#pragma once

namespace ort {

/// Wraps, once per process, the inference functions of onnx's conv schemas (every version) with
/// a check that fails inference for the node, as onnx's own checks do, instead of crashing.
void GuardOnnxInference();

}  // namespace ort
