// How a microkernel family picks its implementation for this CPU. Each family lists its kernels
// once, in an X-macro file (sgemm_kernels.inc, nchwc_conv_kernels.inc, nchwc_pool_kernels.inc)
// that its header reads into a constant table, every entry naming the instruction set it needs;
// the dispatcher, the tests and the benchmarks all read that table. The choice by MaxCpuIsa() is
// made here and nowhere else (compare XNNPACK's microkernel enumerators,
// src/f32-vbinary/f32-vadd.inc).
#pragma once

#include <iterator>
#include <type_traits>
#include <vector>

#include "lib/common/cpu_info.h"

namespace ort {

/// An entry of a family table whose kernel is a set of functions defined in the kernel's own
/// file (`kernel`), listed under a name that encodes type, block and instruction set.
template <typename Kernel>
struct IsaKernel {
  const char* name;
  /// The instruction set `kernel` is compiled for and needs.
  CpuIsa isa;
  const Kernel* kernel;
};

/// Whether this CPU runs code compiled for `isa`, whatever ORT_CPU_ISA caps: tests and benchmarks
/// run every such kernel, while dispatch stays within MaxCpuIsa().
inline bool CpuHasIsa(CpuIsa isa) {
  const CpuFeatures& features = GetCpuFeatures();
  switch (isa) {
    case CpuIsa::kAvx512:
      return features.avx512f;
    case CpuIsa::kAvx2:
      return features.avx2 && features.fma;
    case CpuIsa::kPortable:
      break;
  }
  return true;
}

/// The entry of `family` (a table whose entries have an `isa`) to run: among the entries of the
/// highest instruction set MaxCpuIsa() allows, the one of least `cost(entry)`, the earlier in the
/// table on ties. Every family lists a portable entry, so one always qualifies.
template <typename Family, typename Cost>
const auto& BestIsaEntry(const Family& family, Cost cost) {
  const CpuIsa max_isa = MaxCpuIsa();
  decltype(&*std::begin(family)) best = nullptr;
  for (const auto& entry : family) {
    if (entry.isa > max_isa) continue;
    if (best == nullptr || entry.isa > best->isa ||
        (entry.isa == best->isa && cost(entry) < cost(*best))) {
      best = &entry;
    }
  }
  return *best;
}

/// BestIsaEntry for families whose entries of one instruction set do not compete.
template <typename Family>
const auto& BestIsaEntry(const Family& family) {
  return BestIsaEntry(family, [](const auto&) { return 0; });
}

/// The entries of `family` this CPU can run (CpuHasIsa), in table order.
template <typename Family>
auto RunnableEntries(const Family& family) {
  std::vector<const std::remove_cvref_t<decltype(*std::begin(family))>*> entries;
  for (const auto& entry : family) {
    if (CpuHasIsa(entry.isa)) entries.push_back(&entry);
  }
  return entries;
}

}  // namespace ort
