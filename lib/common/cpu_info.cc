#include "lib/common/cpu_info.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include <unistd.h>

#if defined(__linux__)
#include <sys/syscall.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define ORT_CPU_X86 1
#endif

namespace ort {
namespace {

#ifdef ORT_CPU_X86

struct Registers {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
};

// Zeroed registers for leaves the CPU does not have, so callers can test bits unconditionally.
Registers CpuId(unsigned leaf, unsigned subleaf) {
  Registers r;
  if (!__get_cpuid_count(leaf, subleaf, &r.eax, &r.ebx, &r.ecx, &r.edx)) return Registers{};
  return r;
}

bool Bit(unsigned value, int bit) { return ((value >> bit) & 1u) != 0; }

// Inline asm rather than _xgetbv so this file needs no -mxsave.
uint64_t ReadXcr0() {
  unsigned eax = 0, edx = 0;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<uint64_t>(edx) << 32) | eax;
}

CpuFeatures Detect() {
  CpuFeatures f;
  const Registers leaf1 = CpuId(1, 0);
  f.sse4_2 = Bit(leaf1.ecx, 20);
  const bool osxsave = Bit(leaf1.ecx, 27);
  const uint64_t xcr0 = osxsave ? ReadXcr0() : 0;
  const bool ymm_state = (xcr0 & 0x6) == 0x6;                 // SSE and AVX state
  const bool zmm_state = ymm_state && (xcr0 & 0xe0) == 0xe0;  // opmask, ZMM_Hi256, Hi16_ZMM
  const bool tile_state = (xcr0 & 0x60000) == 0x60000;        // XTILECFG and XTILEDATA

  f.avx = ymm_state && Bit(leaf1.ecx, 28);
  f.fma = f.avx && Bit(leaf1.ecx, 12);

  unsigned max_leaf = 0, unused = 0;
  __get_cpuid(0, &max_leaf, &unused, &unused, &unused);
  if (max_leaf < 7) return f;
  const Registers leaf7 = CpuId(7, 0);
  const Registers leaf7_1 = leaf7.eax >= 1 ? CpuId(7, 1) : Registers{};
  f.avx2 = f.avx && Bit(leaf7.ebx, 5);
  f.avx_vnni = f.avx2 && Bit(leaf7_1.eax, 4);
  f.avx512f = zmm_state && Bit(leaf7.ebx, 16);
  f.avx512bw = f.avx512f && Bit(leaf7.ebx, 30);
  f.avx512vl = f.avx512f && Bit(leaf7.ebx, 31);
  f.avx512vbmi = f.avx512f && Bit(leaf7.ecx, 1);
  f.avx512_vnni = f.avx512f && Bit(leaf7.ecx, 11);
  f.avx512_bf16 = f.avx512f && Bit(leaf7_1.eax, 5);
  f.avx512_fp16 = f.avx512f && Bit(leaf7.edx, 23);
  f.amx_tile = tile_state && Bit(leaf7.edx, 24);
  f.amx_bf16 = f.amx_tile && Bit(leaf7.edx, 22);
  f.amx_int8 = f.amx_tile && Bit(leaf7.edx, 25);
  return f;
}

std::string BrandString() {
  unsigned max_extended = 0, unused = 0;
  __get_cpuid(0x80000000u, &max_extended, &unused, &unused, &unused);
  if (max_extended < 0x80000004u) return "";
  char brand[49] = {};
  for (unsigned i = 0; i < 3; ++i) {
    const Registers r = CpuId(0x80000002u + i, 0);
    std::memcpy(brand + 16 * i, &r.eax, 4);
    std::memcpy(brand + 16 * i + 4, &r.ebx, 4);
    std::memcpy(brand + 16 * i + 8, &r.ecx, 4);
    std::memcpy(brand + 16 * i + 12, &r.edx, 4);
  }
  return brand;
}

#else

CpuFeatures Detect() { return CpuFeatures{}; }
std::string BrandString() { return ""; }

#endif

std::string Trim(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const size_t last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

}  // namespace

bool RequestAmxTileState() {
  static const bool granted = [] {
    if (!GetCpuFeatures().amx_tile) return false;
#if defined(__linux__) && defined(__x86_64__)
    constexpr long kArchReqXcompPerm = 0x1023;
    constexpr long kXfeatureXtiledata = 18;
    return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
#else
    return false;
#endif
  }();
  return granted;
}

const CpuFeatures& GetCpuFeatures() {
  static const CpuFeatures features = Detect();
  return features;
}

CpuIsa MaxCpuIsa() {
  static const CpuIsa isa = [] {
    const CpuFeatures& f = GetCpuFeatures();
    CpuIsa detected = CpuIsa::kPortable;
    if (f.avx512f) {
      detected = CpuIsa::kAvx512;
    } else if (f.avx2 && f.fma) {
      detected = CpuIsa::kAvx2;
    }
    const char* cap = std::getenv("ORT_CPU_ISA");
    if (cap == nullptr) return detected;
    const std::string name = cap;
    CpuIsa limit = detected;
    if (name == "portable") {
      limit = CpuIsa::kPortable;
    } else if (name == "avx2") {
      limit = CpuIsa::kAvx2;
    }
    return limit < detected ? limit : detected;
  }();
  return isa;
}

const CpuCaches& GetCpuCaches() {
  static const CpuCaches caches = [] {
    const long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE);
    const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return CpuCaches{l1 > 0 ? l1 : int64_t{32} << 10, l2 > 0 ? l2 : int64_t{1} << 20};
  }();
  return caches;
}

bool HasAvx512BwVl() {
  const CpuFeatures& f = GetCpuFeatures();
  return MaxCpuIsa() == CpuIsa::kAvx512 && f.avx512bw && f.avx512vl;
}

bool HasAvx512Vbmi() { return HasAvx512BwVl() && GetCpuFeatures().avx512vbmi; }

int NchwcBlockSize() { return MaxCpuIsa() == CpuIsa::kAvx512 ? 16 : 8; }

std::vector<std::string> CpuFeatureNames(const CpuFeatures& f) {
  const std::pair<bool, const char*> table[] = {
      {f.sse4_2, "sse4.2"},
      {f.avx, "avx"},
      {f.avx2, "avx2"},
      {f.fma, "fma"},
      {f.avx_vnni, "avx_vnni"},
      {f.avx512f, "avx512f"},
      {f.avx512bw, "avx512bw"},
      {f.avx512vl, "avx512vl"},
      {f.avx512vbmi, "avx512vbmi"},
      {f.avx512_vnni, "avx512_vnni"},
      {f.avx512_bf16, "avx512_bf16"},
      {f.avx512_fp16, "avx512_fp16"},
      {f.amx_tile, "amx_tile"},
      {f.amx_bf16, "amx_bf16"},
      {f.amx_int8, "amx_int8"},
  };
  std::vector<std::string> names;
  for (const auto& [present, name] : table) {
    if (present) names.push_back(name);
  }
  return names;
}

std::string CpuModelName() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon != std::string::npos) {
      std::string name = Trim(line.substr(colon + 1));
      if (!name.empty()) return name;
    }
  }
  std::string brand = Trim(BrandString());
  return brand.empty() ? "unknown" : brand;
}

}  // namespace ort
