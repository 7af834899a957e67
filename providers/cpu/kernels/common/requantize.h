// Requantizing a block of int32 sums with per-column bias and multipliers into 8-bit outputs:
// the epilogue of QLinearConv's products. AVX-512 where the CPU has it (RequantizeRow's exact
// steps, 16 values per register); RequantizeRow otherwise.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "lib/common/cpu_info.h"
#include "providers/cpu/kernels/common/qgemm.h"
#include "providers/cpu/kernels/common/vectorize.h"

namespace ort {

/// Parameters of RequantizeColumns: sums [rows, cols] (leading dimension ldc) plus bias[j]
/// (when not null) times multipliers[j], rounded half to even and offset by y_zero, saturated.
struct RequantizeBlockArgs {
  const int32_t* sums = nullptr;
  int64_t ldc = 0;
  int64_t rows = 0;
  int64_t cols = 0;
  const int32_t* bias = nullptr;
  const float* multipliers = nullptr;
  int32_t y_zero = 0;
  void* out = nullptr;
  int64_t ldo = 0;
};

/// RequantizeColumns on AVX-512; only where HasAvx512BwVl().
void RequantizeColumnsAvx512(const RequantizeBlockArgs& args, bool y_signed);

template <typename Q>
void RequantizeColumns(const RequantizeBlockArgs& args) {
  static const bool avx512 = HasAvx512BwVl();
  if (avx512) return RequantizeColumnsAvx512(args, std::is_signed_v<Q>);
  Vectorized([&] {
    thread_local std::vector<int32_t> row;
    row.resize(static_cast<size_t>(args.cols));
    for (int64_t i = 0; i < args.rows; ++i) {
      const int32_t* sums = args.sums + i * args.ldc;
      for (int64_t j = 0; j < args.cols; ++j) {
        // Wrapping, as the int32 accumulation does.
        row[j] = static_cast<int32_t>(static_cast<uint32_t>(sums[j]) +
                                      static_cast<uint32_t>(args.bias ? args.bias[j] : 0));
      }
      RequantizeRow<Q>(row.data(), args.cols, args.multipliers, true, args.y_zero,
                       static_cast<Q*>(args.out) + i * args.ldo);
    }
  });
}

}  // namespace ort
