// com.microsoft DynamicQuantizeLSTM (opset 1): an LSTM (the ONNX LSTM's attributes but layout, and
// its inputs) whose weights are 8-bit, W [D, input, 4 hidden] and R [D, hidden, 4 hidden] (ONNX
// LSTM's transposed), with W_scale, W_zero_point, R_scale and R_zero_point per direction [D] or
// per gate column [D, 4 hidden]. The weights are dequantized, (W - zero) * scale, once at creation
// when they and their parameters are constant (else per call), and the float LSTM runs on them.
// onnxruntime instead quantizes X and each step's H to uint8 and multiplies in integers, which
// moves outputs by about the quantization step of those activations; it also accepts only zero
// points equal along a direction's columns (zero for int8), which this kernel needs not.
#include <array>
#include <iterator>
#include <vector>

#include "providers/cpu/kernels/contrib/quantization/contrib_quantization_kernels.h"
#include "providers/cpu/kernels/onnx/nn/conv_integer.h"
#include "providers/cpu/kernels/onnx/rnn/lstm.h"

namespace ort {
namespace {

using rnn::kLstmGates;

// The inputs W, R, W_scale, W_zero_point, R_scale and R_zero_point.
constexpr size_t kWeightInputs[] = {1, 2, 8, 9, 10, 11};
using WeightInputs = std::array<const Tensor*, std::size(kWeightInputs)>;

// W or R, float and in the form the LSTM reads, [D, 4 hidden, depth].
struct DequantizedWeights {
  std::vector<float> values;
  int64_t depth = 0;
};

// `name` [directions, depth, columns] (8-bit) dequantized and transposed to [directions, columns,
// depth] with its scale (float) and zero point (of its type), each [directions] or [directions,
// columns]. Errors are plain messages for the caller to place.
Result<DequantizedWeights> Dequantize(const Tensor& weights, const Tensor& scale,
                                      const Tensor& zero, int64_t directions, int64_t columns,
                                      const char* name) {
  const TensorShape& shape = weights.shape();
  if ((weights.dtype() != DataType::kInt8 && weights.dtype() != DataType::kUint8) ||
      shape.rank() != 3 || shape[0] != directions || shape[2] != columns) {
    return ORT_ERROR(kInvalidArgument, "{} {} must be int8 or uint8 [{}, depth, {}]", name,
                     weights.Describe(), directions, columns);
  }
  const auto per_channel = [&](const Tensor& parameter, DataType type) -> Result<bool> {
    const TensorShape& dims = parameter.shape();
    if (parameter.dtype() == type && dims == TensorShape({directions})) return false;
    if (parameter.dtype() == type && dims == TensorShape({directions, columns})) return true;
    return ORT_ERROR(kInvalidArgument, "{}'s scale and zero point ({}) must be {} [{}] or [{}, {}]",
                     name, parameter.Describe(), DataTypeName(type), directions, directions,
                     columns);
  };
  ORT_ASSIGN_OR_RETURN(const bool scale_per_channel, per_channel(scale, DataType::kFloat));
  ORT_ASSIGN_OR_RETURN(const bool zero_per_channel, per_channel(zero, weights.dtype()));
  DequantizedWeights out;
  out.depth = shape[1];
  out.values.resize(static_cast<size_t>(weights.NumElements()));
  const float* scales = scale.Data<float>();
  const int64_t depth = out.depth;
  ORT_RETURN_IF_ERROR(DispatchByType<QuantTypes>(weights.dtype(), name, [&]<typename Q>() {
    const Q* from = weights.Data<Q>();
    const Q* zeros = zero.Data<Q>();
    for (int64_t d = 0; d < directions; ++d) {
      for (int64_t j = 0; j < columns; ++j) {
        const float s = scales[scale_per_channel ? d * columns + j : d];
        const int32_t z = zeros[zero_per_channel ? d * columns + j : d];
        float* row = out.values.data() + (d * columns + j) * depth;
        const Q* column = from + d * depth * columns + j;
        for (int64_t p = 0; p < depth; ++p) {
          row[p] = static_cast<float>(static_cast<int32_t>(column[p * columns]) - z) * s;
        }
      }
    }
    return Status::OK();
  }));
  return out;
}

class DynamicQuantizeLstm final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_RETURN_IF_ERROR(attributes_.Parse(info));
    if (attributes_.common.layout != 0) {
      return ORT_ERROR(kInvalidModel, "DynamicQuantizeLSTM has no layout attribute")
          .WithNode(info.node().Describe());
    }
    WeightInputs in;
    for (size_t i = 0; i < in.size(); ++i) {
      in[i] = info.ConstantInput(kWeightInputs[i]);
      if (in[i] == nullptr) return Status::OK();
    }
    Status status = DequantizeAll(in, &w_, &r_);
    if (!status.ok()) return status.WithNode(info.node().Describe());
    prepared_ = true;
    return Status::OK();
  }

  bool PrePackedInput(size_t index) const override {
    return prepared_ && (index == 1 || index == 2);
  }

  Status Compute(KernelContext& context) const override {
    const DequantizedWeights* w = &w_;
    const DequantizedWeights* r = &r_;
    DequantizedWeights w_call, r_call;
    if (!prepared_) {
      WeightInputs in;
      for (size_t i = 0; i < in.size(); ++i) {
        ORT_ASSIGN_OR_RETURN(in[i], context.RequiredInput(kWeightInputs[i]));
      }
      Status status = DequantizeAll(in, &w_call, &r_call);
      if (!status.ok()) return context.Error("{}", status.message());
      w = &w_call;
      r = &r_call;
    }
    rnn::Problem<float> problem;
    problem.weights.w = w->values.data();
    problem.weights.r = r->values.data();
    problem.hidden = r->depth;
    ORT_RETURN_IF_ERROR(rnn::ReadSequenceInputs<float>(context, attributes_.common, kLstmGates,
                                                       w->depth, &problem));
    return rnn::ComputeLstm<float>(context, attributes_, problem);
  }

 private:
  // W and R with their parameters dequantized; R [D, hidden, 4 hidden] fixes the hidden size
  // unless the attribute does.
  Status DequantizeAll(const WeightInputs& in, DequantizedWeights* w_out,
                       DequantizedWeights* r_out) const {
    const Tensor& r = *in[1];
    const int64_t directions = attributes_.common.num_directions;
    int64_t hidden = attributes_.common.hidden_size;
    if (hidden <= 0) hidden = r.shape().rank() == 3 ? r.shape()[1] : 0;
    const int64_t columns = kLstmGates * hidden;
    ORT_ASSIGN_OR_RETURN(*r_out, Dequantize(r, *in[4], *in[5], directions, columns, "R"));
    if (r_out->depth != hidden) {
      return ORT_ERROR(kInvalidArgument, "R {} must be [{}, {}, {}]", r.Describe(), directions,
                       hidden, columns);
    }
    ORT_ASSIGN_OR_RETURN(*w_out, Dequantize(*in[0], *in[2], *in[3], directions, columns, "W"));
    return Status::OK();
  }

  rnn::LstmAttributes attributes_;
  /// Constant W and R dequantized at creation (`prepared_`).
  bool prepared_ = false;
  DequantizedWeights w_;
  DequantizedWeights r_;
};

}  // namespace

void RegisterDynamicQuantizeLstmKernels(KernelRegistry& registry) {
  registry.Add<DynamicQuantizeLstm>(KernelDef("DynamicQuantizeLSTM", std::string(kMsDomain))
                                        .Versions(1)
                                        .Input(0, TypeList<float>::DataTypes())
                                        .Input(1, QuantTypes::DataTypes()));
}

}  // namespace ort
