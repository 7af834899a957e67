// Cast (opsets 1+) and CastLike (15+) between every tensor element type: numbers, bool,
// float16/bfloat16, the float8 types of opset 19 (through float, `saturate` as the spec says)
// strings and the 4-bit types of opset 21.
//  - float -> integer truncates toward zero, wraps modulo 2^bits beyond the target range like
//    numpy (through int64, saturating there) and maps NaN to 0;
//  - anything -> float16/bfloat16 rounds once, to nearest even;
//  - numbers -> string use the shortest text that reads back to the same value, with ONNX's
//    "NaN", "INF" and "-INF"; string -> number parses that text (case-insensitively for the
//    specials) and fails on anything else;
//  - anything -> int4/uint4 rounds to nearest even and keeps the low 4 bits (ONNX's int4 note:
//    "rounding ... and truncating"; ONNX Runtime wraps the same way); 4-bit -> anything is exact.
#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "lib/ir/four_bit.h"
#include "providers/cpu/kernels/common/float8.h"
#include "providers/cpu/kernels/onnx/math/elementwise_util.h"
#include "providers/cpu/kernels/onnx/math/math_kernels.h"

namespace ort {
namespace {

template <typename T>
constexpr bool kIsHalf = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;

// double -> float rounding to odd: narrowing that result again (to 11 or 8 significant bits)
// then rounds as if straight from the double, avoiding double-rounding errors.
float RoundToOddFloat(double value) {
  float result = static_cast<float>(value);
  if (static_cast<double>(result) != value && (std::bit_cast<uint32_t>(result) & 1u) == 0 &&
      value == value) {
    result = std::nextafter(result, value > result ? std::numeric_limits<float>::infinity()
                                                   : -std::numeric_limits<float>::infinity());
  }
  return result;
}

template <typename From, typename To>
To ConvertNumber(From value) {
  if constexpr (std::is_same_v<To, bool>) {
    return static_cast<ComputeType<From>>(value) != 0;
  } else if constexpr (std::is_same_v<From, bool>) {
    return static_cast<To>(static_cast<float>(value ? 1 : 0));
  } else if constexpr (kIsHalf<To>) {
    if constexpr (std::is_same_v<From, float> || kIsHalf<From>) {
      return To(static_cast<float>(value));
    } else {
      return To(RoundToOddFloat(static_cast<double>(value)));
    }
  } else if constexpr (std::is_integral_v<To> && !std::is_integral_v<From>) {
    return DoubleToInteger<To>(static_cast<double>(value));
  } else {
    return static_cast<To>(static_cast<ComputeType<From>>(value));
  }
}

// ---- numbers <-> strings -------------------------------------------------------------------

template <typename From>
std::string FormatNumber(From value) {
  if constexpr (std::is_same_v<From, bool>) {
    return value ? "1" : "0";
  } else if constexpr (std::is_integral_v<From>) {
    return std::to_string(value);
  } else {
    const auto wide = static_cast<ComputeType<From>>(value);
    if (std::isnan(wide)) return "NaN";
    if (std::isinf(wide)) return wide > 0 ? "INF" : "-INF";
    char buffer[64];
    if constexpr (kIsHalf<From>) {
      // The fewest significant digits that read back to the same half value.
      for (int precision = 1; precision < 9; ++precision) {
        auto end = std::to_chars(buffer, buffer + sizeof(buffer), wide, std::chars_format::general,
                                 precision)
                       .ptr;
        float parsed = 0;
        std::from_chars(buffer, end, parsed);
        if (From(parsed).bits == value.bits) return std::string(buffer, end);
      }
    }
    auto end = std::to_chars(buffer, buffer + sizeof(buffer), wide).ptr;
    return std::string(buffer, end);
  }
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

// Parses a whole string as a floating-point number (strtod syntax: also "inf", "nan",
// hexadecimal); F is float or double so that the text rounds once, straight to F.
template <typename F>
bool ParseFloating(std::string_view text, F* value) {
  const std::string copy(Trim(text));
  if (copy.empty()) return false;
  char* end = nullptr;
  if constexpr (std::is_same_v<F, float>) {
    *value = std::strtof(copy.c_str(), &end);
  } else {
    *value = std::strtod(copy.c_str(), &end);
  }
  return end == copy.c_str() + copy.size();
}

template <typename To>
bool ParseNumber(std::string_view text, To* value) {
  if constexpr (std::is_same_v<To, bool>) {
    const std::string_view trimmed = Trim(text);
    if (EqualsIgnoreCase(trimmed, "true")) return *value = true, true;
    if (EqualsIgnoreCase(trimmed, "false")) return *value = false, true;
    double number = 0;
    if (!ParseFloating(trimmed, &number)) return false;
    *value = number != 0;
    return true;
  } else if constexpr (std::is_integral_v<To>) {
    std::string_view trimmed = Trim(text);
    if (!trimmed.empty() && trimmed.front() == '+') trimmed.remove_prefix(1);
    using Wide = std::conditional_t<std::is_same_v<To, uint64_t>, uint64_t, int64_t>;
    Wide wide = 0;
    const auto [end, error] =
        std::from_chars(trimmed.data(), trimmed.data() + trimmed.size(), wide);
    if (error == std::errc() && end == trimmed.data() + trimmed.size() && !trimmed.empty()) {
      *value = static_cast<To>(wide);
      return true;
    }
    // "1e3", "2.5" or a value beyond 64 bits: read as a double and convert like a float would.
    double number = 0;
    if (!ParseFloating(trimmed, &number)) return false;
    *value = DoubleToInteger<To>(number);
    return true;
  } else if constexpr (std::is_same_v<To, float> || std::is_same_v<To, double>) {
    return ParseFloating(text, value);
  } else {
    double number = 0;
    if (!ParseFloating(text, &number)) return false;
    *value = To(RoundToOddFloat(number));
    return true;
  }
}

// ---- the kernels -----------------------------------------------------------------------------

template <typename From, typename To>
Status ConvertTensor(KernelContext& context, const Tensor& input, Tensor& output) {
  const From* in = input.Data<From>();
  To* out = output.MutableData<To>();
  const int64_t count = input.NumElements();
  if constexpr (std::is_same_v<From, To>) {
    for (int64_t i = 0; i < count; ++i) out[i] = in[i];
  } else if constexpr (std::is_same_v<To, std::string>) {
    ThreadPool::TryParallelFor(context.thread_pool(), count, 200.0,
                               [&](int64_t begin, int64_t end) {
                                 for (int64_t i = begin; i < end; ++i) out[i] = FormatNumber(in[i]);
                               });
  } else if constexpr (std::is_same_v<From, std::string>) {
    for (int64_t i = 0; i < count; ++i) {
      if (!ParseNumber(in[i], &out[i])) {
        return context.Error("cannot parse '{}' as {}", in[i], DataTypeName(DataTypeOf<To>()));
      }
    }
  } else {
    ThreadPool::TryParallelFor(context.thread_pool(), count, 1.0, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) out[i] = ConvertNumber<From, To>(in[i]);
    });
  }
  return Status::OK();
}

bool IsCastable(DataType type) {
  return type != DataType::kUndefined && type != DataType::kComplex64 &&
         type != DataType::kComplex128 &&
         (static_cast<int32_t>(type) <= 16 || IsFloat8(type) || IsFourBit(type));
}

// Casts from or to a float8 type go through float.
Status CastThroughFloat(KernelContext& context, const Tensor& input, Tensor& output,
                        bool saturate) {
  const int64_t count = input.NumElements();
  Tensor floats;
  if (input.dtype() == DataType::kFloat) {
    floats = input;
  } else {
    ORT_ASSIGN_OR_RETURN(floats, Tensor::Allocate(DataType::kFloat, input.shape()));
    if (IsFloat8(input.dtype())) {
      const auto* in = static_cast<const uint8_t*>(input.RawData());
      float* out = floats.MutableData<float>();
      for (int64_t i = 0; i < count; ++i) out[i] = Float8ToFloat(in[i], input.dtype());
    } else {
      ORT_RETURN_IF_ERROR(DispatchByType<AllTensorTypes>(
          input.dtype(), "Cast",
          [&]<typename From>() { return ConvertTensor<From, float>(context, input, floats); }));
    }
  }
  if (!IsFloat8(output.dtype())) {
    return DispatchByType<AllTensorTypes>(output.dtype(), "Cast", [&]<typename To>() {
      return ConvertTensor<float, To>(context, floats, output);
    });
  }
  const float* in = floats.Data<float>();
  auto* out = static_cast<uint8_t*>(output.MutableRawData());
  for (int64_t i = 0; i < count; ++i) out[i] = FloatToFloat8(in[i], output.dtype(), saturate);
  return Status::OK();
}

// `input` is unpacked (not a 4-bit type). Integers keep their low 4 bits exactly; floats and
// strings round to nearest even first (through int64, saturating there, like Cast to int8).
Status CastToFourBit(KernelContext& context, const Tensor& input, Tensor& output) {
  ORT_ASSIGN_OR_RETURN(Tensor wide, Tensor::Allocate(DataType::kInt64, input.shape()));
  int64_t* values = wide.MutableData<int64_t>();
  const int64_t count = input.NumElements();
  if (IsFloat8(input.dtype())) {
    const auto* codes = static_cast<const uint8_t*>(input.RawData());
    for (int64_t i = 0; i < count; ++i) {
      values[i] = DoubleToInteger<int64_t>(std::nearbyint(Float8ToFloat(codes[i], input.dtype())));
    }
  } else if (IsFloatingPoint(input.dtype()) || input.dtype() == DataType::kString) {
    ORT_ASSIGN_OR_RETURN(Tensor real, Tensor::Allocate(DataType::kDouble, input.shape()));
    ORT_RETURN_IF_ERROR(DispatchByType<AllTensorTypes>(input.dtype(), "Cast", [&]<typename From>() {
      return ConvertTensor<From, double>(context, input, real);
    }));
    const double* in = real.Data<double>();
    for (int64_t i = 0; i < count; ++i) values[i] = DoubleToInteger<int64_t>(std::nearbyint(in[i]));
  } else {
    ORT_RETURN_IF_ERROR(DispatchByType<AllTensorTypes>(input.dtype(), "Cast", [&]<typename From>() {
      return ConvertTensor<From, int64_t>(context, input, wide);
    }));
  }
  const bool is_signed = output.dtype() == DataType::kInt4;
  ORT_ASSIGN_OR_RETURN(
      Tensor narrow,
      Tensor::Allocate(is_signed ? DataType::kInt8 : DataType::kUint8, input.shape()));
  auto* out = static_cast<uint8_t*>(narrow.MutableRawData());
  for (int64_t i = 0; i < count; ++i) out[i] = static_cast<uint8_t>(values[i] & 0x0F);
  return PackFourBit(narrow, output);
}

Status CastTo(KernelContext& context, DataType to, bool saturate) {
  ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
  if (input->dtype() == to) return context.SetOutput(0, Value(*input));
  if (!IsCastable(input->dtype())) {
    return context.Error("cannot cast from {}", DataTypeName(input->dtype()));
  }
  ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, to, input->shape()));
  Tensor source = *input;
  if (IsFourBit(input->dtype())) {
    ORT_ASSIGN_OR_RETURN(source, UnpackFourBit(*input));
  }
  if (IsFourBit(to)) return CastToFourBit(context, source, *output);
  if (source.dtype() == to) return CopyTensorData(source, *output);
  if (IsFloat8(source.dtype()) || IsFloat8(to)) {
    return CastThroughFloat(context, source, *output, saturate);
  }
  return DispatchByType<AllTensorTypes>(source.dtype(), "Cast", [&]<typename From>() {
    return DispatchByType<AllTensorTypes>(to, "Cast", [&]<typename To>() {
      return ConvertTensor<From, To>(context, source, *output);
    });
  });
}

class Cast final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    const Attribute* attribute = info.node().FindAttribute("to");
    if (attribute != nullptr && attribute->type == AttributeType::kString) {
      // Opset 1 names the type ("FLOAT", "INT64", ...).
      for (int32_t value = 1; value <= 16; ++value) {
        const auto type = static_cast<DataType>(value);
        if (EqualsIgnoreCase(attribute->s, DataTypeName(type))) to_ = type;
      }
      if (to_ == DataType::kUndefined) {
        return ORT_ERROR(kInvalidModel, "unknown type '{}' in attribute to", attribute->s)
            .WithNode(info.node().Describe());
      }
    } else {
      ORT_ASSIGN_OR_RETURN(const int64_t to, info.GetAttribute<int64_t>("to"));
      to_ = IsKnownDataType(static_cast<int32_t>(to)) ? static_cast<DataType>(to)
                                                      : DataType::kUndefined;
    }
    ORT_ASSIGN_OR_RETURN(const int64_t saturate, info.GetAttributeOr<int64_t>("saturate", 1));
    saturate_ = saturate != 0;
    if (!IsCastable(to_)) {
      return ORT_ERROR(kNotImplemented, "cannot cast to type {} ({})", DataTypeName(to_),
                       static_cast<int32_t>(to_))
          .WithNode(info.node().Describe());
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override { return CastTo(context, to_, saturate_); }

 private:
  DataType to_ = DataType::kUndefined;
  bool saturate_ = true;
};

class CastLike final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const int64_t saturate, info.GetAttributeOr<int64_t>("saturate", 1));
    saturate_ = saturate != 0;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* like, context.RequiredInput(1));
    if (!IsCastable(like->dtype())) {
      return context.Error("cannot cast to {}", DataTypeName(like->dtype()));
    }
    return CastTo(context, like->dtype(), saturate_);
  }

 private:
  bool saturate_ = true;
};

}  // namespace

void RegisterCastKernels(KernelRegistry& registry) {
  const auto types = AllTensorTypes::DataTypes();
  const auto with_float8 = WithFloat8Types(types);
  auto with_four_bit = with_float8;
  with_four_bit.insert(with_four_bit.end(), {DataType::kUint4, DataType::kInt4});
  registry.Add<Cast>(KernelDef("Cast").Versions(1, 18).Input(0, types));
  registry.Add<Cast>(KernelDef("Cast").Versions(19, 20).Input(0, with_float8));
  registry.Add<Cast>(KernelDef("Cast").Versions(21).Input(0, with_four_bit));
  registry.Add<CastLike>(KernelDef("CastLike").Versions(15, 18).Input(0, types).Input(1, types));
  registry.Add<CastLike>(
      KernelDef("CastLike").Versions(19, 20).Input(0, with_float8).Input(1, with_float8));
  registry.Add<CastLike>(
      KernelDef("CastLike").Versions(21).Input(0, with_four_bit).Input(1, with_four_bit));
}

}  // namespace ort
