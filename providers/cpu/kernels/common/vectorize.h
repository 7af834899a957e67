// Runs a loop body compiled for the widest instruction set the CPU (and ORT_CPU_ISA) allows,
// without writing it once per instruction set: the body is inlined (gnu::flatten) into a copy of
// the caller built for AVX-512 or AVX2+FMA, where the compiler vectorizes its loops at that width.
// Functions the body calls but the compiler does not inline stay the ordinary portable ones, so
// no wider-ISA code can leak into paths that run on older CPUs.
#pragma once

#include <cstdint>

#include "lib/common/cpu_info.h"
#include "lib/threading/thread_pool.h"

namespace ort {
namespace vectorize_detail {

template <typename Body>
[[gnu::flatten, gnu::target("avx512f,avx2,fma")]] void CallAvx512(Body& body) {
  body();
}

template <typename Body>
[[gnu::flatten, gnu::target("avx2,fma")]] void CallAvx2(Body& body) {
  body();
}

}  // namespace vectorize_detail

/// body() compiled for MaxCpuIsa(): AVX-512, AVX2+FMA or the portable build.
template <typename Body>
void Vectorized(Body&& body) {
  switch (MaxCpuIsa()) {
    case CpuIsa::kAvx512:
      return vectorize_detail::CallAvx512(body);
    case CpuIsa::kAvx2:
      return vectorize_detail::CallAvx2(body);
    case CpuIsa::kPortable:
      break;
  }
  body();
}

/// ThreadPool::TryParallelFor whose ranges run fn(begin, end) through Vectorized().
template <typename Fn>
void VectorizedParallelFor(ThreadPool* pool, int64_t total, double cost_per_unit, Fn&& fn) {
  ThreadPool::TryParallelFor(pool, total, cost_per_unit, [&](int64_t begin, int64_t end) {
    Vectorized([&] { fn(begin, end); });
  });
}

}  // namespace ort
