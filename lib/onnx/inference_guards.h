// Checks put in front of onnx's shape-inference functions, which trust the node they infer:
// node_validation sees the ranks and types a model declares, but a node reading another's output
// learns them only mid-inference, and onnx 1.12's functions index past a Conv weight whose rank
// differs from its input's, or read a string tensor or an optional as the float tensor the schema
// promises (SIGSEGV).
#pragma once

#include <onnx/onnx_pb.h>

namespace ort {

/// Wraps, once per process, the inference function of every onnx schema (every domain and
/// version) with checks of the inputs' known types against the schema's type constraints, of
/// axis attributes against the known rank, and of conv weights' ranks; a failed check fails
/// inference for that node, as onnx's own checks do, instead of crashing.
void GuardOnnxInference();

/// Declared dims below zero (some exporters write -1 for a dynamic size) become unknown, as this
/// engine reads them: onnx's inference functions take them as sizes (a GatherND crashed).
void ClearNegativeDims(onnx::ModelProto& model);

}  // namespace ort
