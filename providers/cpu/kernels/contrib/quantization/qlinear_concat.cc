// com.microsoft QLinearConcat: Concat of 8-bit tensors quantized each with its own scale and
// zero point into the output's: inputs Y_scale, Y_zero_point, then (X, X_scale, X_zero_point)
// per tensor. An input quantized as the output is copied; any other goes through a table of its
// 256 values, each quantize(dequantize(x)) exactly as a DequantizeLinear -> QuantizeLinear pair
// computes it (float product, then division by the output scale rounded half to even).
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "providers/cpu/kernels/common/byte_lookup.h"
#include "providers/cpu/kernels/contrib/quantization/contrib_quantization_kernels.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"

namespace ort {
namespace {

using QuantTypes = TypeList<int8_t, uint8_t>;

struct QuantParams {
  float scale = 1.0f;
  int32_t zero = 0;
  bool operator==(const QuantParams& other) const {
    return scale == other.scale && zero == other.zero;
  }
};

template <typename T>
Result<QuantParams> ReadParams(const KernelContext& context, size_t scale_index,
                               size_t zero_index) {
  const Tensor* scale = context.Input(scale_index);
  const Tensor* zero = context.Input(zero_index);
  if (scale == nullptr || scale->NumElements() != 1) {
    return context.Error("input {} (a scale) must hold one value", scale_index);
  }
  ORT_ASSIGN_OR_RETURN(const std::vector<float> scales, ReadFloatParams<float>(*scale));
  QuantParams params{scales[0], 0};
  if (zero != nullptr) {
    if (zero->NumElements() != 1 || zero->dtype() != DataTypeOf<T>()) {
      return context.Error("input {} (a zero point) must be one {} value", zero_index,
                           DataTypeName(DataTypeOf<T>()));
    }
    params.zero = zero->Data<T>()[0];
  }
  return params;
}

class QLinearConcat final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(axis_, info.GetAttribute<int64_t>("axis"));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    const size_t inputs = context.InputCount();
    if (inputs < 5 || (inputs - 2) % 3 != 0) {
      return context.Error(
          "expects Y_scale, Y_zero_point and (X, X_scale, X_zero_point) "
          "triples, got {} inputs",
          inputs);
    }
    const size_t count = (inputs - 2) / 3;
    std::vector<const Tensor*> tensors(count);
    for (size_t i = 0; i < count; ++i) {
      ORT_ASSIGN_OR_RETURN(tensors[i], context.RequiredInput(2 + 3 * i));
    }
    const Tensor& first = *tensors[0];
    const size_t rank = first.shape().rank();
    const int64_t axis = axis_ < 0 ? axis_ + static_cast<int64_t>(rank) : axis_;
    if (rank == 0 || axis < 0 || axis >= static_cast<int64_t>(rank)) {
      return context.Error("axis {} is out of range for {}", axis_, first.Describe());
    }
    std::vector<int64_t> out_dims = first.shape().dims();
    out_dims[axis] = 0;
    for (const Tensor* t : tensors) {
      if (t->dtype() != first.dtype() || t->shape().rank() != rank) {
        return context.Error("inputs {} and {} differ in type or rank", first.Describe(),
                             t->Describe());
      }
      for (size_t d = 0; d < rank; ++d) {
        if (static_cast<int64_t>(d) != axis && t->shape()[d] != first.shape()[d]) {
          return context.Error("inputs {} and {} differ outside axis {}", first.Describe(),
                               t->Describe(), axis);
        }
      }
      out_dims[axis] += t->shape()[axis];
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, first.dtype(), TensorShape(out_dims)));
    if (y->NumElements() == 0) return Status::OK();
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= out_dims[d];
    for (size_t d = axis + 1; d < rank; ++d) inner *= out_dims[d];
    return DispatchByType<QuantTypes>(first.dtype(), "QLinearConcat", [&]<typename T>() {
      ORT_ASSIGN_OR_RETURN(const QuantParams out_params, ReadParams<T>(context, 0, 1));
      std::vector<std::optional<std::array<uint8_t, 256>>> tables(count);
      for (size_t i = 0; i < count; ++i) {
        ORT_ASSIGN_OR_RETURN(const QuantParams params,
                             ReadParams<T>(context, 3 + 3 * i, 4 + 3 * i));
        if (!(params == out_params))
          tables[i] = QuantizedTable<T>([](float x) { return x; }, params.scale, params.zero,
                                        out_params.scale, out_params.zero);
      }
      const int64_t out_run = out_dims[axis] * inner;
      T* out = y->MutableData<T>();
      ThreadPool::TryParallelFor(
          context.thread_pool(), outer, static_cast<double>(out_run),
          [&](int64_t begin, int64_t end) {
            for (int64_t o = begin; o < end; ++o) {
              T* dst = out + o * out_run;
              for (size_t i = 0; i < count; ++i) {
                const int64_t run = tensors[i]->shape()[axis] * inner;
                const T* src = tensors[i]->Data<T>() + o * run;
                if (!tables[i]) {
                  std::memcpy(dst, src, static_cast<size_t>(run) * sizeof(T));
                } else {
                  LookupBytes(tables[i]->data(), reinterpret_cast<const uint8_t*>(src),
                              reinterpret_cast<uint8_t*>(dst), run);
                }
                dst += run;
              }
            }
          });
      return Status::OK();
    });
  }

 private:
  int64_t axis_ = 0;
};

}  // namespace

void RegisterQLinearConcatKernels(KernelRegistry& registry) {
  registry.Add<QLinearConcat>(KernelDef("QLinearConcat", std::string(kMsDomain))
                                  .Versions(1)
                                  .Input(2, QuantTypes::DataTypes()));
}

}  // namespace ort
