// The forms of com.microsoft Attention's int32 mask_index (and of MultiHeadAttention's
// key_padding_mask) and the test of one score against it, shared by the CPU kernels and the CUDA
// Attention, whose device code (attention.cu) includes this header too: hence no lib headers here.
#pragma once

#include <cstdint>

// nvcc compiles the mask test for host and device, g++ for the host.
#ifdef __CUDACC__
#define ORT_ATTENTION_MASK_FUNCTION __host__ __device__ inline
#else
#define ORT_ATTENTION_MASK_FUNCTION inline
#endif

namespace ort {

/// The form of mask_index, told apart by its shape alone (ClassifyAttentionMask in
/// attention_common.h): none; key lengths [B] (right padding); end and start positions [2B]; raw
/// masks [B,T], [B,S,T] and [B,1,M,M] (Megatron), where a value <= 0 masks the key.
enum class AttentionMaskKind { kNone, kKeyLengths, kEndStart, kRaw2D, kRaw3D, kRaw4D };

/// mask_index as a kernel reads it.
struct AttentionMaskIndex {
  AttentionMaskKind kind = AttentionMaskKind::kNone;
  /// The mask's values (in the kernel's memory); null for kNone.
  const int32_t* data = nullptr;
  /// S of the [B,S,T] form.
  int64_t queries = 0;
  /// M of the [B,1,M,M] form.
  int64_t max_sequence = 0;
};

/// True when `mask` masks key t (0 <= t < keys) of query s in batch b (of `batch`); causal
/// masking is the caller's.
ORT_ATTENTION_MASK_FUNCTION bool MaskIndexMasks(const AttentionMaskIndex& mask, int64_t batch,
                                                int64_t b, int64_t s, int64_t t, int64_t keys) {
  switch (mask.kind) {
    case AttentionMaskKind::kNone:
      return false;
    case AttentionMaskKind::kKeyLengths:
      return t >= mask.data[b];
    case AttentionMaskKind::kEndStart:
      // With t < keys, ONNX Runtime's t < min(start, keys) is t < start.
      return t >= mask.data[b] || t < mask.data[batch + b];
    case AttentionMaskKind::kRaw2D:
      return mask.data[b * keys + t] <= 0;
    case AttentionMaskKind::kRaw3D:
      return mask.data[(b * mask.queries + s) * keys + t] <= 0;
    case AttentionMaskKind::kRaw4D:
      return mask.data[(b * mask.max_sequence + s) * mask.max_sequence + t] <= 0;
  }
  return false;
}

}  // namespace ort

#undef ORT_ATTENTION_MASK_FUNCTION
