// Transpose. Permutations that only move unit dimensions return a view; the rest go through
// StridedCopy, which merges contiguous dimensions, copies inner runs with memcpy (e.g. the
// [0,2,1,3] head split of transformers) and tiles permutations that move the innermost axis
// (2-D transposes, [0,2,3,1], [0,3,1,2]). The packed 4-bit types are permuted unpacked.
#include "lib/ir/four_bit.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_copy.h"
#include "providers/cpu/kernels/onnx/tensor/tensor_kernels.h"

namespace ort {
namespace {

class Transpose final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    has_perm_ = info.HasAttribute("perm");
    ORT_ASSIGN_OR_RETURN(perm_, info.GetAttributeOr<std::vector<int64_t>>("perm", {}));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* data, context.RequiredInput(0));
    const size_t rank = data->shape().rank();
    std::vector<size_t> perm(rank);
    if (has_perm_) {
      if (perm_.size() != rank) {
        return context.Error("perm has {} entries for {}", perm_.size(), data->Describe());
      }
      std::vector<bool> seen(rank, false);
      for (size_t i = 0; i < rank; ++i) {
        const int64_t axis = perm_[i] < 0 ? perm_[i] + static_cast<int64_t>(rank) : perm_[i];
        if (axis < 0 || axis >= static_cast<int64_t>(rank) || seen[static_cast<size_t>(axis)]) {
          return context.Error("perm is not a permutation of the {} axes", rank);
        }
        seen[static_cast<size_t>(axis)] = true;
        perm[i] = static_cast<size_t>(axis);
      }
    } else {
      for (size_t i = 0; i < rank; ++i) perm[i] = rank - 1 - i;
    }
    const auto& in_dims = data->shape().dims();
    std::vector<int64_t> out_dims(rank);
    for (size_t i = 0; i < rank; ++i) out_dims[i] = in_dims[perm[i]];

    // Data order is unchanged when the non-unit axes keep their relative order.
    bool keeps_order = true;
    size_t last = 0;
    bool any = false;
    for (size_t i = 0; i < rank; ++i) {
      if (in_dims[perm[i]] == 1) continue;
      if (any && perm[i] < last) keeps_order = false;
      last = perm[i];
      any = true;
    }
    if (keeps_order) {
      ORT_ASSIGN_OR_RETURN(Tensor view, data->Reshaped(TensorShape(std::move(out_dims))));
      return context.SetOutput(0, std::move(view));
    }
    ORT_ASSIGN_OR_RETURN(Tensor * output,
                         context.Output(0, data->dtype(), TensorShape(std::move(out_dims))));
    if (IsFourBit(data->dtype())) {
      // Nibbles have no address: permute one byte per element, then pack.
      ORT_ASSIGN_OR_RETURN(const Tensor unpacked, UnpackFourBit(*data));
      ORT_ASSIGN_OR_RETURN(Tensor permuted, Tensor::Allocate(unpacked.dtype(), output->shape()));
      PermuteCopy(unpacked.dtype(), in_dims, perm, unpacked.RawData(), permuted.MutableRawData(),
                  context.thread_pool());
      return PackFourBit(permuted, *output);
    }
    PermuteCopy(data->dtype(), in_dims, perm, data->RawData(), output->MutableRawData(),
                context.thread_pool());
    return Status::OK();
  }

 private:
  bool has_perm_ = false;
  std::vector<int64_t> perm_;
};

}  // namespace

void RegisterTransposeKernels(KernelRegistry& registry) {
  registry.Add<Transpose>(KernelDef("Transpose").Versions(1).Input(0, AllDataTypesWithPacked()));
}

}  // namespace ort
