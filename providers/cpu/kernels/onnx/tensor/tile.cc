// Tile: the output, viewed as [r0, d0, r1, d1, ...] (repeat, then input axis), is a strided copy
// of the input that reads the repeat axes with stride 0.
#include <cstring>

#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

// Copies `data` to the front of `out`, then widens it one axis at a time from the last: with
// the axes after `axis` already tiled, each of the blocks before it (one per index of the axes
// before) is copied `repeats[axis]` times, last block first so that no block is overwritten
// before it is copied. Every copy is a memcpy of a whole block; a strided copy of a 2-element
// innermost axis tiled 4M times ran an index computation per element.
void TileInPlace(const Tensor& data, const std::vector<int64_t>& repeats, char* out) {
  const auto& in_dims = data.shape().dims();
  std::memcpy(out, data.RawData(), data.SizeInBytes());
  size_t block = ElementSize(data.dtype());
  for (size_t axis = in_dims.size(); axis-- > 0;) {
    block *= static_cast<size_t>(in_dims[axis]);
    const auto copies = static_cast<size_t>(repeats[axis]);
    if (copies != 1) {
      size_t blocks = 1;
      for (size_t d = 0; d < axis; ++d) blocks *= static_cast<size_t>(in_dims[d]);
      for (size_t b = blocks; b-- > 0;) {
        const char* source = out + b * block;
        for (size_t copy = copies; copy-- > 0;) {
          char* target = out + (b * copies + copy) * block;
          if (target != source) std::memcpy(target, source, block);
        }
      }
    }
    block *= copies;
  }
}

class Tile final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    // Opset 1 tiles one axis: inputs (input, tiles, axis).
    single_axis_ = info.opset() < 6;
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* repeats_tensor, context.RequiredInput(1));
    const size_t rank = data->shape().rank();
    auto read = ReadInt64Values(*repeats_tensor);
    if (!read.ok()) return context.Error("repeats: {}", read.status().message());
    std::vector<int64_t> repeats = std::move(read).value();
    if (single_axis_) {
      ORT_ASSIGN_OR_RETURN(const Tensor* axis_tensor, context.RequiredInput(2));
      auto axis_values = ReadInt64Values(*axis_tensor);
      if (!axis_values.ok() || axis_values->size() != 1 || repeats.size() != 1) {
        return context.Error("tiles and axis must be single integers");
      }
      auto axis = NormalizeAxis(axis_values->front(), rank);
      if (!axis.ok()) return context.Error("{}", axis.status().message());
      const int64_t tiles = repeats.front();
      repeats.assign(rank, 1);
      repeats[*axis] = tiles;
    }
    if (repeats_tensor->shape().rank() != 1 && !single_axis_) {
      return context.Error("repeats must be 1-D, got {}", repeats_tensor->Describe());
    }
    if (repeats.size() != rank) {
      return context.Error("repeats has {} entries for {}", repeats.size(), data->Describe());
    }
    std::vector<int64_t> out_dims(rank);
    std::vector<int64_t> dims(2 * rank);
    std::vector<int64_t> src_strides(2 * rank, 0);
    const std::vector<int64_t> in_strides = ContiguousStrides(data->shape());
    for (size_t d = 0; d < rank; ++d) {
      if (repeats[d] < 0) return context.Error("repeats must not be negative");
      const auto tiled = CheckedMul(data->shape()[d], repeats[d]);
      if (!tiled) {
        return context.Error("repeats[{}] = {} makes dimension {} of {} overflow int64", d,
                             repeats[d], d, data->Describe());
      }
      out_dims[d] = *tiled;
      dims[2 * d] = repeats[d];
      dims[2 * d + 1] = data->shape()[d];
      src_strides[2 * d + 1] = in_strides[d];
    }
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, data->dtype(), TensorShape(out_dims)));
    if (output->NumElements() == 0) return Status::OK();
    if (data->dtype() == DataType::kString || IsFourBit(data->dtype())) {
      StridedCopy(data->dtype(), dims, data->RawData(), src_strides, output->MutableRawData(),
                  ContiguousStrides(TensorShape(dims)), context.thread_pool());
    } else {
      TileInPlace(*data, repeats, static_cast<char*>(output->MutableRawData()));
    }
    return Status::OK();
  }

 private:
  bool single_axis_ = false;
};

}  // namespace

void RegisterTileKernels(KernelRegistry& registry) {
  registry.Add<Tile>(
      KernelDef("Tile").Versions(1).Input(0, AllDataTypes()).HostInput(1).HostInput(2));
}

}  // namespace ort
