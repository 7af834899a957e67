// What the host CPU is and which instruction-set extensions it and the OS let us use; filled
// once from cpuid (x86) so kernel dispatch and benchmark reports agree on one answer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ort {

/// Instruction-set extensions usable on this machine. An AVX/AVX-512/AMX flag is set only when
/// the CPU has the feature and the OS saves the matching register state (XCR0), since using it
/// otherwise faults. AMX additionally needs a per-process arch_prctl(ARCH_REQ_XCOMP_PERM) on
/// Linux before first use; that request is the user's job, not detection's.
struct CpuFeatures {
  bool sse4_2 = false;
  bool avx = false;
  bool avx2 = false;
  bool fma = false;
  bool avx_vnni = false;  // VEX-encoded VNNI on 256-bit registers (client CPUs without AVX-512)
  bool avx512f = false;
  bool avx512bw = false;
  bool avx512vl = false;
  bool avx512vbmi = false;
  bool avx512_vnni = false;
  bool avx512_bf16 = false;
  bool avx512_fp16 = false;
  bool amx_tile = false;
  bool amx_bf16 = false;
  bool amx_int8 = false;
};

/// The host's features, detected on the first call and cached; all false on non-x86 hosts.
const CpuFeatures& GetCpuFeatures();

/// Asks Linux once for this process's permission to use the AMX tile data state
/// (arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)); true when the CPU has AMX tiles and
/// the permission is granted. Kernels using the tiles call it before their first use.
bool RequestAmxTileState();

/// The instruction-set levels kernels dispatch on, lowest first.
enum class CpuIsa { kPortable, kAvx2, kAvx512 };

/// The highest level kernels may use: AVX-512F, else AVX2 with FMA, else portable code, capped
/// by the environment variable ORT_CPU_ISA (avx512, avx2 or portable; read once, other values
/// ignored) so users and tests can force a lower path.
CpuIsa MaxCpuIsa();

/// True when MaxCpuIsa() is AVX-512 and the CPU has its byte and word (BW) and 128/256-bit (VL)
/// extensions too, which the 8-bit kernels' masked byte loads and stores need.
bool HasAvx512BwVl();
/// HasAvx512BwVl() and the byte permutes of VBMI (VPERMI2B), which look 64 bytes up at once in a
/// 128-entry table.
bool HasAvx512Vbmi();

/// Channels per block of the NCHWc layout (com.microsoft.nchwc ops): the float vector width, 16
/// when MaxCpuIsa() is AVX-512, else 8. The optimizer and the kernels both ask here so they agree.
int NchwcBlockSize();

/// Kernel rows the NCHWc convolution kernels handle; the layout pass leaves taller kernels in NCHW.
constexpr int kNchwcMaxKernelRows = 16;

/// Per-core data cache sizes in bytes (L1 data, L2) as the C library reads them from cpuid; 32 KB
/// and 1 MB where it cannot tell. Kernels size the blocks they keep in cache by them.
struct CpuCaches {
  int64_t l1_data_bytes;
  int64_t l2_bytes;
};
const CpuCaches& GetCpuCaches();

/// Names of the set features in a fixed order, spelled as Linux's /proc/cpuinfo does except
/// for the dot in "sse4.2": sse4.2, avx, avx2, fma, avx_vnni, avx512f, avx512bw, avx512vl,
/// avx512vbmi, avx512_vnni, avx512_bf16, avx512_fp16, amx_tile, amx_bf16, amx_int8.
std::vector<std::string> CpuFeatureNames(const CpuFeatures& features);

/// The CPU's model name ("model name" in /proc/cpuinfo, else the cpuid brand string), or
/// "unknown" when neither is available.
std::string CpuModelName();

}  // namespace ort
