// Pass fold_unfused_dequantize: a DequantizeLinear of constants that no QDQ fusion took (the
// weights of a Gemm, or of a MatMul whose result stays float) becomes a float constant, instead
// of dequantizing the weights again on every run. Basic-level constant folding keeps them for
// the extended level's fusions (as onnxruntime's does).
#include "lib/optimizer/constant_folding.h"
#include "lib/optimizer/passes.h"

namespace ort {

std::unique_ptr<GraphTransformer> CreateFoldUnfusedDequantize() {
  return MakeConstantFolding("fold_unfused_dequantize", OptimizationLevel::kExtended, true);
}

}  // namespace ort
