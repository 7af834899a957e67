#include "providers/common/nn/window_attributes.h"

#include <fmt/ranges.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace ort {
namespace {

// Saturates: a kernel_shape attribute is not bounded by any tensor (2^62 taps with SAME padding
// is legal), and its size only feeds costs and allocations that the tensor limit refuses.
int64_t Product(const std::vector<int64_t>& values) {
  int64_t product = 1;
  for (int64_t value : values) {
    if (__builtin_mul_overflow(product, value, &product)) return INT64_MAX;
  }
  return product;
}

Status CheckPositive(const std::vector<int64_t>& values, const char* name) {
  for (int64_t value : values) {
    if (value <= 0)
      return ORT_ERROR(kInvalidArgument, "{} must be positive, got [{}]", name,
                       fmt::join(values, ","));
  }
  return Status::OK();
}

}  // namespace

Result<AutoPad> ParseAutoPad(const std::string& text) {
  if (text.empty() || text == "NOTSET") return AutoPad::kNotSet;
  if (text == "SAME_UPPER") return AutoPad::kSameUpper;
  if (text == "SAME_LOWER") return AutoPad::kSameLower;
  if (text == "VALID") return AutoPad::kValid;
  return ORT_ERROR(kInvalidArgument, "unknown auto_pad '{}'", text);
}

Status WindowAttributes::Parse(const KernelInfo& info, bool require_kernel_shape) {
  ORT_ASSIGN_OR_RETURN(const std::string pad_text,
                       info.GetAttributeOr<std::string>("auto_pad", "NOTSET"));
  ORT_ASSIGN_OR_RETURN(auto_pad, ParseAutoPad(pad_text));
  if (require_kernel_shape) {
    ORT_ASSIGN_OR_RETURN(kernel_shape, info.GetAttribute<std::vector<int64_t>>("kernel_shape"));
  } else {
    ORT_ASSIGN_OR_RETURN(kernel_shape,
                         info.GetAttributeOr<std::vector<int64_t>>("kernel_shape", {}));
  }
  ORT_ASSIGN_OR_RETURN(strides, info.GetAttributeOr<std::vector<int64_t>>("strides", {}));
  ORT_ASSIGN_OR_RETURN(pads, info.GetAttributeOr<std::vector<int64_t>>("pads", {}));
  ORT_ASSIGN_OR_RETURN(dilations, info.GetAttributeOr<std::vector<int64_t>>("dilations", {}));
  ORT_ASSIGN_OR_RETURN(group, info.GetAttributeOr<int64_t>("group", 1));
  if (group <= 0) return ORT_ERROR(kInvalidArgument, "group must be positive, got {}", group);
  ORT_RETURN_IF_ERROR(CheckPositive(kernel_shape, "kernel_shape"));
  ORT_RETURN_IF_ERROR(CheckPositive(strides, "strides"));
  ORT_RETURN_IF_ERROR(CheckPositive(dilations, "dilations"));
  for (int64_t pad : pads) {
    if (pad < 0)
      return ORT_ERROR(kInvalidArgument, "pads must be >= 0, got [{}]", fmt::join(pads, ","));
  }
  return Status::OK();
}

int64_t WindowGeometry::InputSize() const { return Product(input); }
int64_t WindowGeometry::KernelSize() const { return Product(kernel); }
int64_t WindowGeometry::OutputSize() const { return Product(output); }

bool WindowGeometry::IsPointwise() const {
  for (size_t i = 0; i < rank(); ++i) {
    if (kernel[i] != 1 || strides[i] != 1 || pads[i] != 0 || pads[i + rank()] != 0) return false;
  }
  return true;
}

Result<WindowGeometry> ResolveWindow(const WindowAttributes& attributes,
                                     std::span<const int64_t> input_spatial,
                                     std::span<const int64_t> kernel, bool ceil_mode) {
  const size_t rank = input_spatial.size();
  WindowGeometry geometry;
  geometry.input.assign(input_spatial.begin(), input_spatial.end());
  geometry.kernel.assign(kernel.begin(), kernel.end());
  geometry.strides =
      attributes.strides.empty() ? std::vector<int64_t>(rank, 1) : attributes.strides;
  geometry.dilations =
      attributes.dilations.empty() ? std::vector<int64_t>(rank, 1) : attributes.dilations;
  geometry.pads = attributes.pads.empty() ? std::vector<int64_t>(2 * rank, 0) : attributes.pads;
  if (geometry.kernel.size() != rank || geometry.strides.size() != rank ||
      geometry.dilations.size() != rank || geometry.pads.size() != 2 * rank) {
    return ORT_ERROR(kInvalidArgument,
                     "{} spatial dims need {} kernel dims, strides and dilations and {} pads; got "
                     "kernel [{}], strides [{}], dilations [{}], pads [{}]",
                     rank, rank, 2 * rank, fmt::join(geometry.kernel, ","),
                     fmt::join(geometry.strides, ","), fmt::join(geometry.dilations, ","),
                     fmt::join(geometry.pads, ","));
  }
  // Bounds that keep every product and sum below in int64 (a stride of 2^63-1 overflowed the
  // SAME padding); no real window comes near them.
  constexpr int64_t kMaxExtent = int64_t{1} << 31;
  constexpr int64_t kMaxInput = int64_t{1} << 61;
  for (const auto& [name, values] :
       {std::pair<const char*, const std::vector<int64_t>*>{"kernel", &geometry.kernel},
        {"strides", &geometry.strides},
        {"dilations", &geometry.dilations},
        {"pads", &geometry.pads}}) {
    for (int64_t value : *values) {
      if (value < 0 || value > kMaxExtent) {
        return ORT_ERROR(kInvalidArgument, "{} [{}] holds {}, outside [0, 2^31]", name,
                         fmt::join(*values, ","), value);
      }
    }
  }
  for (int64_t in : geometry.input) {
    if (in < 0 || in > kMaxInput) {
      return ORT_ERROR(kInvalidArgument, "spatial dims [{}] include {}, outside [0, 2^61]",
                       fmt::join(geometry.input, ","), in);
    }
  }
  geometry.output.resize(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t in = geometry.input[i];
    const int64_t stride = geometry.strides[i];
    const int64_t window = (geometry.kernel[i] - 1) * geometry.dilations[i] + 1;
    int64_t& begin = geometry.pads[i];
    int64_t& end = geometry.pads[i + rank];
    switch (attributes.auto_pad) {
      case AutoPad::kSameUpper:
      case AutoPad::kSameLower: {
        const int64_t out = (in + stride - 1) / stride;
        const int64_t total = std::max<int64_t>(0, (out - 1) * stride + window - in);
        begin = attributes.auto_pad == AutoPad::kSameUpper ? total / 2 : (total + 1) / 2;
        end = total - begin;
        break;
      }
      case AutoPad::kValid:
        begin = end = 0;
        break;
      case AutoPad::kNotSet:
        break;
    }
    const int64_t span = in + begin + end - window;
    if (span < 0) {
      return ORT_ERROR(kInvalidArgument,
                       "spatial axis {}: the window ({} with dilation) exceeds the padded input "
                       "({} + {} + {})",
                       i, window, in, begin, end);
    }
    int64_t out = span / stride + 1;
    if (ceil_mode && span % stride != 0) {
      ++out;
      // A window starting past the input and its begin padding would only see end padding.
      if ((out - 1) * stride >= in + begin) --out;
    }
    geometry.output[i] = out;
  }
  return geometry;
}

}  // namespace ort
