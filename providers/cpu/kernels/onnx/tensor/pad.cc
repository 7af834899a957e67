// Pad: constant, reflect, edge and (opset 19) wrap modes; negative pads crop. Opsets 1-10 take
// pads and value as attributes, 11+ as inputs, 18+ adds the axes input. Every mode is a per-axis
// map from output to input index (or -1 for the constant), applied by AxisMapCopy, which copies
// the interior of each row with memcpy. The 4-bit types are padded unpacked.
#include "lib/ir/four_bit.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

enum class PadMode { kConstant, kReflect, kEdge, kWrap };

class Pad final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    opset_ = info.opset();
    ORT_ASSIGN_OR_RETURN(const std::string mode,
                         info.GetAttributeOr<std::string>("mode", "constant"));
    if (mode == "constant") {
      mode_ = PadMode::kConstant;
    } else if (mode == "reflect") {
      mode_ = PadMode::kReflect;
    } else if (mode == "edge") {
      mode_ = PadMode::kEdge;
    } else if (mode == "wrap" && opset_ >= 19) {
      mode_ = PadMode::kWrap;
    } else {
      return ORT_ERROR(kInvalidModel, "unsupported mode '{}'", mode)
          .WithNode(info.node().Describe());
    }
    if (opset_ < 11) {
      ORT_ASSIGN_OR_RETURN(
          pads_, info.GetAttribute<std::vector<int64_t>>(opset_ < 2 ? "paddings" : "pads"));
      ORT_ASSIGN_OR_RETURN(value_, info.GetAttributeOr<float>("value", 0.0f));
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* packed_data, context.RequiredInput(0));
    // 4-bit elements have no address: pad one byte per element, then pack.
    const bool four_bit = IsFourBit(packed_data->dtype());
    Tensor data_storage, value_storage;
    const Tensor* data = packed_data;
    if (four_bit) {
      ORT_ASSIGN_OR_RETURN(data_storage, UnpackFourBit(*packed_data));
      data = &data_storage;
    }
    const size_t rank = data->shape().rank();
    std::vector<int64_t> pads = pads_;
    const void* fill = nullptr;
    if (opset_ >= 11) {
      ORT_ASSIGN_OR_RETURN(const Tensor* pads_tensor, context.RequiredInput(1));
      auto read = ReadInt64Values(*pads_tensor);
      if (!read.ok()) return context.Error("pads: {}", read.status().message());
      pads = std::move(read).value();
      if (const Tensor* value = context.Input(2)) {
        if (value->dtype() != packed_data->dtype() || value->NumElements() != 1) {
          return context.Error("constant_value must be one {} element, got {}",
                               DataTypeName(packed_data->dtype()), value->Describe());
        }
        if (four_bit) {
          ORT_ASSIGN_OR_RETURN(value_storage, UnpackFourBit(*value));
          value = &value_storage;
        }
        fill = value->RawData();
      }
    }
    // Per-axis (begin, end) pads.
    std::vector<int64_t> begin(rank, 0);
    std::vector<int64_t> end(rank, 0);
    if (opset_ >= 18 && context.HasInput(3)) {
      ORT_ASSIGN_OR_RETURN(const Tensor* axes_tensor, context.RequiredInput(3));
      auto axes = ReadInt64Values(*axes_tensor);
      if (!axes.ok()) return context.Error("axes: {}", axes.status().message());
      if (pads.size() != 2 * axes->size()) {
        return context.Error("pads has {} entries for {} axes", pads.size(), axes->size());
      }
      std::vector<bool> seen(rank, false);
      for (size_t i = 0; i < axes->size(); ++i) {
        auto axis = NormalizeAxis((*axes)[i], rank);
        if (!axis.ok()) return context.Error("{}", axis.status().message());
        if (seen[*axis]) return context.Error("axis {} is repeated", (*axes)[i]);
        seen[*axis] = true;
        begin[*axis] = pads[i];
        end[*axis] = pads[i + axes->size()];
      }
    } else {
      if (pads.size() != 2 * rank) {
        return context.Error("pads has {} entries for {}", pads.size(), data->Describe());
      }
      for (size_t d = 0; d < rank; ++d) {
        begin[d] = pads[d];
        end[d] = pads[d + rank];
      }
    }

    std::vector<int64_t> out_dims(rank);
    for (size_t d = 0; d < rank; ++d) {
      const int64_t size = data->shape()[d];
      if (__builtin_add_overflow(size, begin[d], &out_dims[d]) ||
          __builtin_add_overflow(out_dims[d], end[d], &out_dims[d])) {
        return context.Error("pads {} and {} make axis {} of size {} overflow int64", begin[d],
                             end[d], d, size);
      }
      if (out_dims[d] < 0) {
        return context.Error("pads {} and {} shrink axis {} of size {} below zero", begin[d],
                             end[d], d, size);
      }
      if (size == 0 && out_dims[d] > 0 && mode_ != PadMode::kConstant) {
        return context.Error("cannot pad the empty axis {} in this mode", d);
      }
    }
    // Allocated (and so checked against the size limit) before the per-axis maps, which are as
    // long as the padded axes.
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, packed_data->dtype(), TensorShape(out_dims)));
    if (output->NumElements() == 0) return Status::OK();
    std::vector<std::vector<int64_t>> maps(rank);
    for (size_t d = 0; d < rank; ++d) {
      maps[d].resize(static_cast<size_t>(out_dims[d]));
      for (int64_t o = 0; o < out_dims[d]; ++o)
        maps[d][static_cast<size_t>(o)] = Map(o - begin[d], data->shape()[d]);
    }
    if (opset_ < 11) {
      return DispatchByType<FloatTypes>(data->dtype(), "Pad", [&]<typename T>() {
        const T value = static_cast<T>(value_);
        AxisMapCopy(data->dtype(), data->RawData(), data->shape().dims(), output->MutableRawData(),
                    out_dims, maps, &value, context.thread_pool());
        return Status::OK();
      });
    }
    if (four_bit) {
      ORT_ASSIGN_OR_RETURN(Tensor padded, Tensor::Allocate(data->dtype(), output->shape()));
      AxisMapCopy(data->dtype(), data->RawData(), data->shape().dims(), padded.MutableRawData(),
                  out_dims, maps, fill, context.thread_pool());
      return PackFourBit(padded, *output);
    }
    AxisMapCopy(data->dtype(), data->RawData(), data->shape().dims(), output->MutableRawData(),
                out_dims, maps, fill, context.thread_pool());
    return Status::OK();
  }

 private:
  // The input index output position `i` (relative to the unpadded start) reads, or -1.
  int64_t Map(int64_t i, int64_t size) const {
    if (i >= 0 && i < size) return i;
    switch (mode_) {
      case PadMode::kConstant:
        return -1;
      case PadMode::kEdge:
        return i < 0 ? 0 : size - 1;
      case PadMode::kWrap:
        return ((i % size) + size) % size;
      case PadMode::kReflect: {
        if (size == 1) return 0;
        const int64_t period = 2 * (size - 1);
        const int64_t m = ((i % period) + period) % period;
        return m >= size ? period - m : m;
      }
    }
    return -1;
  }

  int64_t opset_ = 0;
  PadMode mode_ = PadMode::kConstant;
  std::vector<int64_t> pads_;
  float value_ = 0.0f;
};

}  // namespace

void RegisterPadKernels(KernelRegistry& registry) {
  registry.Add<Pad>(KernelDef("Pad")
                        .Versions(1)
                        .Input(0, AllDataTypesWithPacked())
                        .HostInput(1)
                        .HostInput(2)
                        .HostInput(3));
}

}  // namespace ort
