#include "lib/io/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "lib/ir/four_bit.h"

namespace ort {
namespace {

// Values that cannot be compared element by element.
Comparison Unlike(std::string detail) {
  Comparison result;
  result.match = false;
  result.mismatches = 1;
  result.detail = std::move(detail);
  result.cosine = 0;
  return result;
}

template <typename T>
double AsDouble(T value) {
  if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
    return static_cast<double>(static_cast<float>(value));
  } else {
    return static_cast<double>(value);
  }
}

Comparison CompareTensors(const Tensor& actual, const Tensor& expected,
                          const Tolerance& tolerance) {
  Comparison result;
  if (actual.dtype() != expected.dtype()) {
    result.match = false;
    result.cosine = 0;
    result.detail = fmt::format("type {} differs from expected {}", DataTypeName(actual.dtype()),
                                DataTypeName(expected.dtype()));
    return result;
  }
  if (actual.shape() != expected.shape()) {
    result.match = false;
    result.cosine = 0;
    result.detail = fmt::format("shape {} differs from expected {}", actual.shape().ToString(),
                                expected.shape().ToString());
    return result;
  }
  const int64_t count = actual.NumElements();
  if (actual.dtype() == DataType::kString) {
    const auto* a = actual.Data<std::string>();
    const auto* e = expected.Data<std::string>();
    for (int64_t i = 0; i < count; ++i) {
      if (a[i] != e[i]) {
        if (result.match) result.detail = fmt::format("element {}: '{}' != '{}'", i, a[i], e[i]);
        result.match = false;
        ++result.mismatches;
      }
    }
    return result;
  }
  if (IsFourBit(actual.dtype())) {
    // By value: the padding nibble of an odd count is not an element.
    const bool is_signed = actual.dtype() == DataType::kInt4;
    for (int64_t i = 0; i < count; ++i) {
      const int a = ReadFourBit(actual.RawData(), i, is_signed);
      const int e = ReadFourBit(expected.RawData(), i, is_signed);
      if (a != e) {
        if (result.match) result.detail = fmt::format("element {}: {} != expected {}", i, a, e);
        result.match = false;
        ++result.mismatches;
      }
    }
    return result;
  }
  if (actual.dtype() >= DataType::kFloat8E4M3FN && actual.dtype() <= DataType::kFloat8E5M2FNUZ) {
    // Float8 values are compared by code: a cast either produces the right one or not.
    const auto* a = static_cast<const uint8_t*>(actual.RawData());
    const auto* e = static_cast<const uint8_t*>(expected.RawData());
    for (int64_t i = 0; i < count; ++i) {
      if (a[i] != e[i]) {
        if (result.match) {
          result.detail =
              fmt::format("element {}: code {:#04x} != expected {:#04x}", i, a[i], e[i]);
        }
        result.match = false;
        ++result.mismatches;
      }
    }
    return result;
  }
  Status status = DispatchByType<NumericTypes>(actual.dtype(), "compare", [&]<typename T>() {
    const T* a = actual.Data<T>();
    const T* e = expected.Data<T>();
    const bool exact = !IsFloatingPoint(actual.dtype());
    double dot = 0, actual_norm = 0, expected_norm = 0;
    for (int64_t i = 0; i < count; ++i) {
      const double x = AsDouble(a[i]);
      const double y = AsDouble(e[i]);
      bool ok;
      double diff = 0;
      if (std::isnan(x) || std::isnan(y)) {
        ok = std::isnan(x) && std::isnan(y);
      } else if (std::isinf(x) || std::isinf(y)) {
        ok = x == y;
      } else {
        diff = std::fabs(x - y);
        ok = exact ? x == y : diff <= tolerance.atol + tolerance.rtol * std::fabs(y);
        dot += x * y;
        actual_norm += x * x;
        expected_norm += y * y;
        result.max_abs_diff = std::max(result.max_abs_diff, diff);
        if (y != 0) result.max_rel_diff = std::max(result.max_rel_diff, diff / std::fabs(y));
      }
      if (!ok) {
        if (result.match) result.detail = fmt::format("element {}: {} != expected {}", i, x, y);
        result.match = false;
        ++result.mismatches;
      }
    }
    if (!exact) {
      const double norms = std::sqrt(actual_norm) * std::sqrt(expected_norm);
      result.cosine = norms > 0 ? dot / norms : (actual_norm == expected_norm ? 1.0 : 0.0);
    }
    return Status::OK();
  });
  if (actual.dtype() == DataType::kBool) {
    const auto* a = actual.Data<bool>();
    const auto* e = expected.Data<bool>();
    for (int64_t i = 0; i < count; ++i) {
      if (a[i] != e[i]) {
        if (result.match)
          result.detail = fmt::format("element {}: {} != expected {}", i, a[i], e[i]);
        result.match = false;
        ++result.mismatches;
      }
    }
  } else if (!status.ok()) {
    result.match = false;
    result.detail = status.message();
  }
  return result;
}

}  // namespace

Comparison CompareValues(const Value& actual, const Value& expected, const Tolerance& tolerance) {
  if (expected.IsTensor() && actual.IsTensor()) {
    return CompareTensors(actual.tensor(), expected.tensor(), tolerance);
  }
  if (expected.IsSequence() && actual.IsSequence()) {
    const auto& a = actual.sequence().tensors;
    const auto& e = expected.sequence().tensors;
    if (a.size() != e.size()) {
      return Unlike(fmt::format("sequence has {} tensors, expected {}", a.size(), e.size()));
    }
    Comparison total;
    for (size_t i = 0; i < a.size(); ++i) {
      Comparison part = CompareTensors(a[i], e[i], tolerance);
      total.max_abs_diff = std::max(total.max_abs_diff, part.max_abs_diff);
      total.max_rel_diff = std::max(total.max_rel_diff, part.max_rel_diff);
      total.mismatches += part.mismatches;
      total.cosine = std::min(total.cosine, part.cosine);
      if (!part.match && total.match) {
        total.match = false;
        total.detail = fmt::format("sequence element {}: {}", i, part.detail);
      }
    }
    return total;
  }
  if (expected.IsNone() && actual.IsNone()) return {};
  return Unlike(fmt::format("got {}, expected {}", actual.Describe(), expected.Describe()));
}

}  // namespace ort
