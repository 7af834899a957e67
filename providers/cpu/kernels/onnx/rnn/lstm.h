// The LSTM computation the ONNX LSTM kernel and the com.microsoft DynamicQuantizeLSTM kernel
// (whose 8-bit weights are dequantized into the float form) share.
#pragma once

#include "providers/cpu/kernels/onnx/rnn/rnn_common.h"

namespace ort::rnn {

/// LSTM's gates per hidden unit: i, o, f, c.
constexpr int64_t kLstmGates = 4;

/// LSTM's attributes: the recurrent ones (activations f, g, h per direction) and input_forget.
struct LstmAttributes {
  Attributes common;
  bool input_forget = false;

  /// Reads and checks them, once at kernel creation.
  Status Parse(const KernelInfo& info);
};

/// Runs the LSTM over `problem` (X, W, R, B, sequence lengths and initial_h already read, W and R
/// with gates ordered i, o, f, c), reading initial_c (input 6) and the peepholes P (input 7, i, o,
/// f) of type T, and writes Y, Y_h and Y_c where used.
template <typename T>
Status ComputeLstm(KernelContext& context, const LstmAttributes& attributes,
                   const Problem<Compute<T>>& problem);

}  // namespace ort::rnn
