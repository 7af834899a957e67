// QuantizeLinear and DequantizeLinear, per tensor, (opset 13+) per axis or (21+) per block:
//   quantize:   y = saturate(round_half_even(x / scale) + zero_point)
//   dequantize: y = (x - zero_point) * scale
// Quantized types: int8 and uint8, int32 (dequantize only), int16 and uint16 (21+) and the four
// float8 types (19+; x / scale cast with Cast's rounding and `saturate`). Opset 19 also takes
// float16/bfloat16 data and scales. int4 and uint4 (21+) are computed unpacked, one byte per
// element, and saturate to [-8, 7] / [0, 15].
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "lib/ir/four_bit.h"
#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/common/float8.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/onnx/nn/float_params.h"
#include "providers/cpu/kernels/onnx/quantization/quantization_kernels.h"

namespace ort {
namespace {

using IntegerQuantTypes = TypeList<int8_t, uint8_t, int16_t, uint16_t, int32_t>;

/// The data viewed as [blocks, channels, inner]. Element (b, c, j) uses scale
/// base(b, c) + j * inner_step: per tensor and per axis the scale of channel c (channels == 1
/// per tensor); per block (block_size > 0) the scale tensor has the data's shape with the axis
/// cut to ceil(channels / block_size), so the scale also moves with j.
struct QuantLayout {
  int64_t blocks = 1;
  int64_t channels = 1;
  int64_t inner = 1;
  int64_t block_size = 0;
  int64_t scale_channels = 1;

  int64_t ScaleBase(int64_t row) const {
    const int64_t b = row / channels, c = row % channels;
    return block_size == 0 ? c : (b * scale_channels + c / block_size) * inner;
  }
  int64_t InnerStep() const { return block_size == 0 ? 0 : 1; }
};

struct QuantAttributes {
  int64_t axis = 1;
  int64_t block_size = 0;
  bool per_axis_allowed = true;
};

Result<QuantLayout> PlanLayout(const KernelContext& context, const TensorShape& shape,
                               const Tensor& scale, const Tensor* zero_point,
                               const QuantAttributes& attributes) {
  QuantLayout layout;
  layout.inner = shape.NumElements();
  if (zero_point != nullptr && zero_point->shape() != scale.shape()) {
    return context.Error("zero point {} and scale {} must have one shape",
                         zero_point->shape().ToString(), scale.shape().ToString());
  }
  const TensorShape& ss = scale.shape();
  if (attributes.block_size <= 0 && (ss.rank() == 0 || (ss.rank() == 1 && ss[0] == 1))) {
    return layout;
  }
  if (!attributes.per_axis_allowed || (attributes.block_size <= 0 && ss.rank() != 1)) {
    return context.Error("scale {} must be a scalar{}", ss.ToString(),
                         attributes.per_axis_allowed ? " or 1-D" : "");
  }
  auto normalized = NormalizeAxis(attributes.axis, shape.rank());
  if (!normalized.ok()) return context.Error("axis: {}", normalized.status().message());
  const size_t axis = *normalized;
  layout.blocks = shape.SizeToDimension(axis);
  layout.channels = shape[axis];
  layout.inner = shape.SizeFromDimension(axis + 1);
  if (attributes.block_size <= 0) {
    if (ss[0] != layout.channels) {
      return context.Error("scale has {} values but axis {} of {} has {}", ss[0], attributes.axis,
                           shape.ToString(), layout.channels);
    }
    layout.scale_channels = layout.channels;
    return layout;
  }
  layout.block_size = attributes.block_size;
  layout.scale_channels = (layout.channels + layout.block_size - 1) / layout.block_size;
  bool fits = ss.rank() == shape.rank();
  for (size_t d = 0; fits && d < shape.rank(); ++d) {
    fits = ss[d] == (d == axis ? layout.scale_channels : shape[d]);
  }
  if (!fits) {
    return context.Error("scale {} does not give blocks of {} along axis {} of {}", ss.ToString(),
                         layout.block_size, attributes.axis, shape.ToString());
  }
  return layout;
}

/// Zero points as float (zeros when absent): integer ones are exact in float up to 16 bits, and
/// int32 ones are only read for dequantization, which subtracts them in int64 (ReadInt32Zeros).
Result<std::vector<float>> ReadZeroPoints(const Tensor* zero_point, int64_t count) {
  std::vector<float> values(static_cast<size_t>(count), 0.0f);
  if (zero_point == nullptr) return values;
  if (IsFloat8(zero_point->dtype())) {
    const auto* codes = static_cast<const uint8_t*>(zero_point->RawData());
    for (int64_t i = 0; i < count; ++i) values[i] = Float8ToFloat(codes[i], zero_point->dtype());
    return values;
  }
  Status status =
      DispatchByType<IntegerQuantTypes>(zero_point->dtype(), "zero point", [&]<typename Z>() {
        const Z* data = zero_point->Data<Z>();
        for (int64_t i = 0; i < count; ++i) values[i] = static_cast<float>(data[i]);
        return Status::OK();
      });
  if (!status.ok()) return status;
  return values;
}

Result<std::vector<int64_t>> ReadIntegerZeroPoints(const Tensor* zero_point, int64_t count) {
  std::vector<int64_t> values(static_cast<size_t>(count), 0);
  if (zero_point == nullptr) return values;
  Status status =
      DispatchByType<IntegerQuantTypes>(zero_point->dtype(), "zero point", [&]<typename Z>() {
        const Z* data = zero_point->Data<Z>();
        for (int64_t i = 0; i < count; ++i) values[i] = static_cast<int64_t>(data[i]);
        return Status::OK();
      });
  if (!status.ok()) return status;
  return values;
}

/// `tensor` itself, or its unpacked copy (kept in `storage`) when it holds 4-bit values.
Result<const Tensor*> Unpacked(const Tensor* tensor, Tensor& storage) {
  if (tensor == nullptr || !IsFourBit(tensor->dtype())) return tensor;
  ORT_ASSIGN_OR_RETURN(storage, UnpackFourBit(*tensor));
  return &storage;
}

/// out[i] = saturate(round_half_even(in[i] / scale) + zero) into [low, high], in a loop the
/// compiler vectorizes (std::nearbyint is a library call): clamped first to the integers
/// [low - zero, high - zero], the quotient rounds by adding and subtracting 1.5 x 2^23, as
/// ORT's MLAS does; a NaN becomes `low`, as there.
template <typename Q>
void QuantizeRow(const float* __restrict in, int64_t count, float scale, float zero, float low,
                 float high, Q* __restrict out) {
  constexpr float kRound = 12582912.0f;
  const float min = low - zero, max = high - zero;
  for (int64_t i = 0; i < count; ++i) {
    float value = in[i] / scale;
    value = value > min ? value : min;
    value = value < max ? value : max;
    out[i] = static_cast<Q>(static_cast<int32_t>((value + kRound) - kRound + zero));
  }
}

Result<QuantAttributes> ReadAttributes(const KernelInfo& info) {
  QuantAttributes attributes;
  attributes.per_axis_allowed = info.opset() >= 13;
  ORT_ASSIGN_OR_RETURN(attributes.axis, info.GetAttributeOr<int64_t>("axis", 1));
  if (info.opset() >= 21) {
    ORT_ASSIGN_OR_RETURN(attributes.block_size, info.GetAttributeOr<int64_t>("block_size", 0));
  }
  return attributes;
}

class QuantizeLinear final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(attributes_, ReadAttributes(info));
    ORT_ASSIGN_OR_RETURN(const int64_t saturate, info.GetAttributeOr<int64_t>("saturate", 1));
    saturate_ = saturate != 0;
    ORT_ASSIGN_OR_RETURN(const int64_t output_dtype,
                         info.GetAttributeOr<int64_t>("output_dtype", 0));
    if (output_dtype != 0) {
      if (!IsKnownDataType(static_cast<int32_t>(output_dtype))) {
        return ORT_ERROR(kNotImplemented, "output_dtype {} is not supported", output_dtype)
            .WithNode(info.node().Describe());
      }
      output_dtype_ = static_cast<DataType>(output_dtype);
      output_dtype_set_ = true;
    }
    // Opset 23: the precision x / y_scale is computed in. Float is what the kernel computes in
    // anyway; half types round both operands and the quotient to them.
    ORT_ASSIGN_OR_RETURN(const int64_t precision, info.GetAttributeOr<int64_t>("precision", 0));
    if (precision != 0) {
      precision_ = static_cast<DataType>(precision);
      if (precision_ != DataType::kFloat && precision_ != DataType::kFloat16 &&
          precision_ != DataType::kBFloat16) {
        return ORT_ERROR(kNotImplemented,
                         "precision {} is not supported (float, float16 or bfloat16)", precision)
            .WithNode(info.node().Describe());
      }
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* scale, context.RequiredInput(1));
    const Tensor* packed_zero_point = context.Input(2);
    ORT_ASSIGN_OR_RETURN(QuantLayout layout,
                         PlanLayout(context, x->shape(), *scale, packed_zero_point, attributes_));
    auto scales = ReadFloatParams<float>(*scale);
    if (!scales.ok()) return context.Error("y_scale: {}", scales.status().message());
    Tensor zero_storage;
    ORT_ASSIGN_OR_RETURN(const Tensor* zero_point, Unpacked(packed_zero_point, zero_storage));
    ORT_ASSIGN_OR_RETURN(const std::vector<float> zeros,
                         ReadZeroPoints(zero_point, scale->NumElements()));
    const DataType out_type =
        packed_zero_point != nullptr ? packed_zero_point->dtype() : output_dtype_;
    if (packed_zero_point != nullptr && output_dtype_set_ && output_dtype_ != out_type) {
      return context.Error("output_dtype {} differs from the zero point's type {}",
                           DataTypeName(output_dtype_), DataTypeName(out_type));
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, out_type, x->shape()));
    const auto divide = [this](float value, float scale) {
      switch (precision_) {
        case DataType::kFloat16:
          return static_cast<float>(
              Float16(static_cast<float>(Float16(value)) / static_cast<float>(Float16(scale))));
        case DataType::kBFloat16:
          return static_cast<float>(
              BFloat16(static_cast<float>(BFloat16(value)) / static_cast<float>(BFloat16(scale))));
        default:
          return value / scale;
      }
    };
    using XTypes = TypeList<float, Float16, BFloat16, int32_t>;
    return DispatchByType<XTypes>(x->dtype(), "QuantizeLinear", [&]<typename X>() {
      const X* in = x->Data<X>();
      // Writes element i from its scaled value x / scale + zero point.
      auto quantize = [&](auto store) {
        const int64_t rows = layout.blocks * layout.channels;
        ThreadPool::TryParallelFor(
            context.thread_pool(), rows, 4.0 * layout.inner, [&](int64_t begin, int64_t end) {
              for (int64_t row = begin; row < end; ++row) {
                int64_t k = layout.ScaleBase(row);
                for (int64_t i = row * layout.inner; i < (row + 1) * layout.inner;
                     ++i, k += layout.InnerStep()) {
                  store(i, divide(static_cast<float>(in[i]), (*scales)[k]), zeros[k]);
                }
              }
            });
        return Status::OK();
      };
      if (IsFloat8(out_type)) {
        auto* out = static_cast<uint8_t*>(y->MutableRawData());
        return quantize([&](int64_t i, float scaled, float zero) {
          out[i] = FloatToFloat8(scaled + zero, out_type, saturate_);
        });
      }
      auto quantize_integer = [&]<typename Q>(Q* out, float low, float high) {
        if constexpr (std::is_same_v<X, float>) {
          if (precision_ == DataType::kFloat && layout.block_size == 0) {
            const int64_t rows = layout.blocks * layout.channels;
            VectorizedParallelFor(
                context.thread_pool(), rows, 4.0 * layout.inner, [&](int64_t begin, int64_t end) {
                  for (int64_t row = begin; row < end; ++row) {
                    const int64_t k = layout.ScaleBase(row);
                    QuantizeRow(in + row * layout.inner, layout.inner, (*scales)[k], zeros[k], low,
                                high, out + row * layout.inner);
                  }
                });
            return Status::OK();
          }
        }
        return quantize([&](int64_t i, float scaled, float zero) {
          const float q = std::nearbyint(scaled) + zero;
          out[i] = static_cast<Q>(std::isnan(q) ? 0.0f : std::clamp(q, low, high));
        });
      };
      if (IsFourBit(out_type)) {
        const bool is_signed = out_type == DataType::kInt4;
        ORT_ASSIGN_OR_RETURN(
            Tensor unpacked,
            Tensor::Allocate(is_signed ? DataType::kInt8 : DataType::kUint8, x->shape()));
        ORT_RETURN_IF_ERROR(
            is_signed ? quantize_integer(unpacked.MutableData<int8_t>(), kInt4Min, kInt4Max)
                      : quantize_integer(unpacked.MutableData<uint8_t>(), 0, kUint4Max));
        return PackFourBit(unpacked, *y);
      }
      using QTypes = TypeList<int8_t, uint8_t, int16_t, uint16_t>;
      return DispatchByType<QTypes>(out_type, "QuantizeLinear", [&]<typename Q>() {
        return quantize_integer(y->MutableData<Q>(), std::numeric_limits<Q>::min(),
                                std::numeric_limits<Q>::max());
      });
    });
  }

 private:
  QuantAttributes attributes_;
  bool saturate_ = true;
  DataType output_dtype_ = DataType::kUint8;  // without a zero point
  bool output_dtype_set_ = false;
  DataType precision_ = DataType::kFloat;
};

class DequantizeLinear final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(attributes_, ReadAttributes(info));
    // Opset 23: y's type, by default x_scale's.
    ORT_ASSIGN_OR_RETURN(const int64_t output_dtype,
                         info.GetAttributeOr<int64_t>("output_dtype", 0));
    if (output_dtype != 0) {
      output_dtype_ = static_cast<DataType>(output_dtype);
      if (output_dtype_ != DataType::kFloat && output_dtype_ != DataType::kFloat16 &&
          output_dtype_ != DataType::kBFloat16) {
        return ORT_ERROR(kInvalidModel, "output_dtype {} must be float, float16 or bfloat16",
                         output_dtype)
            .WithNode(info.node().Describe());
      }
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* packed_x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* scale, context.RequiredInput(1));
    const Tensor* packed_zero_point = context.Input(2);
    if (packed_zero_point != nullptr && packed_zero_point->dtype() != packed_x->dtype()) {
      return context.Error("x_zero_point must have the type of x");
    }
    Tensor x_storage, zero_storage;
    ORT_ASSIGN_OR_RETURN(const Tensor* x, Unpacked(packed_x, x_storage));
    ORT_ASSIGN_OR_RETURN(const Tensor* zero_point, Unpacked(packed_zero_point, zero_storage));
    ORT_ASSIGN_OR_RETURN(QuantLayout layout,
                         PlanLayout(context, x->shape(), *scale, zero_point, attributes_));
    auto scales = ReadFloatParams<float>(*scale);
    if (!scales.ok()) return context.Error("x_scale: {}", scales.status().message());
    const DataType y_type = output_dtype_ != DataType::kUndefined ? output_dtype_ : scale->dtype();
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, y_type, x->shape()));
    return DispatchByType<FloatTypes>(y->dtype(), "DequantizeLinear", [&]<typename Y>() {
      Y* out = y->MutableData<Y>();
      // Writes element i as value(i, k) * scale k.
      auto dequantize = [&](auto value) {
        const int64_t rows = layout.blocks * layout.channels;
        ThreadPool::TryParallelFor(
            context.thread_pool(), rows, 2.0 * layout.inner, [&](int64_t begin, int64_t end) {
              for (int64_t row = begin; row < end; ++row) {
                int64_t k = layout.ScaleBase(row);
                for (int64_t i = row * layout.inner; i < (row + 1) * layout.inner;
                     ++i, k += layout.InnerStep()) {
                  out[i] = static_cast<Y>(value(i, k) * (*scales)[k]);
                }
              }
            });
        return Status::OK();
      };
      if (IsFloat8(x->dtype())) {
        ORT_ASSIGN_OR_RETURN(const std::vector<float> zeros,
                             ReadZeroPoints(zero_point, scale->NumElements()));
        const auto* in = static_cast<const uint8_t*>(x->RawData());
        return dequantize(
            [&](int64_t i, int64_t k) { return Float8ToFloat(in[i], x->dtype()) - zeros[k]; });
      }
      ORT_ASSIGN_OR_RETURN(const std::vector<int64_t> zeros,
                           ReadIntegerZeroPoints(zero_point, scale->NumElements()));
      return DispatchByType<IntegerQuantTypes>(x->dtype(), "DequantizeLinear", [&]<typename Q>() {
        const Q* in = x->Data<Q>();
        if constexpr (sizeof(Q) <= 2 && std::is_same_v<Y, float>) {
          // Values and zero points of 16 bits or fewer differ exactly in float: a plain loop
          // per row the compiler vectorizes.
          if (layout.block_size == 0) {
            const int64_t rows = layout.blocks * layout.channels;
            VectorizedParallelFor(
                context.thread_pool(), rows, 2.0 * layout.inner, [&](int64_t begin, int64_t end) {
                  for (int64_t row = begin; row < end; ++row) {
                    const int64_t k = layout.ScaleBase(row);
                    const float zero = static_cast<float>(zeros[k]), factor = (*scales)[k];
                    const Q* row_in = in + row * layout.inner;
                    float* row_out = out + row * layout.inner;
                    for (int64_t i = 0; i < layout.inner; ++i) {
                      row_out[i] = (static_cast<float>(row_in[i]) - zero) * factor;
                    }
                  }
                });
            return Status::OK();
          }
        }
        // int64 difference: int32 data minus a zero point cannot overflow.
        return dequantize([&](int64_t i, int64_t k) {
          return static_cast<float>(static_cast<int64_t>(in[i]) - zeros[k]);
        });
      });
    });
  }

 private:
  QuantAttributes attributes_;
  DataType output_dtype_ = DataType::kUndefined;
};

}  // namespace

void RegisterQuantizeLinearKernels(KernelRegistry& registry) {
  const auto x_types = TypeList<float, int32_t>::DataTypes();
  const auto x_types_19 = TypeList<float, Float16, BFloat16, int32_t>::DataTypes();
  const auto q_types = TypeList<int8_t, uint8_t, int32_t>::DataTypes();
  const auto q_types_19 = WithFloat8Types(q_types);
  auto q_types_21 = WithFloat8Types(IntegerQuantTypes::DataTypes());
  q_types_21.insert(q_types_21.end(), {DataType::kUint4, DataType::kInt4});
  registry.Add<QuantizeLinear>(KernelDef("QuantizeLinear").Versions(10, 12).Input(0, x_types));
  registry.Add<QuantizeLinear>(KernelDef("QuantizeLinear").Versions(13, 18).Input(0, x_types));
  registry.Add<QuantizeLinear>(KernelDef("QuantizeLinear").Versions(19, 20).Input(0, x_types_19));
  registry.Add<QuantizeLinear>(KernelDef("QuantizeLinear").Versions(21).Input(0, x_types_19));
  registry.Add<DequantizeLinear>(KernelDef("DequantizeLinear").Versions(10, 12).Input(0, q_types));
  registry.Add<DequantizeLinear>(KernelDef("DequantizeLinear").Versions(13, 18).Input(0, q_types));
  registry.Add<DequantizeLinear>(
      KernelDef("DequantizeLinear").Versions(19, 20).Input(0, q_types_19));
  registry.Add<DequantizeLinear>(KernelDef("DequantizeLinear").Versions(21).Input(0, q_types_21));
}

}  // namespace ort
