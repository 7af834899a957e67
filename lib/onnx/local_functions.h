// Model-local functions (ModelProto.functions, as torch.onnx writes with
// export_modules_as_functions): every call, in the graph and its subgraphs, is replaced at load by
// the function's body, as ONNX Runtime does, so later stages only meet ops that have schemas.
#pragma once

#include <onnx/onnx_pb.h>

#include <string>

#include "lib/common/status.h"

namespace ort {

/// Inlines every call of `model`'s local functions (nested calls too), merges the opsets the
/// functions import into the model's and drops the function list. `label` names the model in
/// errors.
Status InlineLocalFunctions(onnx::ModelProto& model, const std::string& label);

}  // namespace ort
