#pragma once
// What the machine offers: cores, SIMD features and memory. Read once, reported by the UI's
// Devices pane and by `folio-cli --version`.

#include <cstdint>
#include <string>
#include <vector>

namespace folio {

struct CpuFeatures {
    bool avx2 = false;
    bool fma = false;
    bool f16c = false;
    bool avx512f = false;
    bool avx512vl = false;
    bool avx512vnni = false;
    // The fast kernels need all three of AVX2, FMA and F16C.
    bool has_avx2_path() const { return avx2 && fma && f16c; }
    // The int8 dot-product kernels (vpdpbusd on 256-bit registers) need AVX-512 F, VL and VNNI
    // on top of the AVX2 path. The OS saving the AVX-512 state is part of each check.
    bool has_avx512_vnni_path() const {
        return has_avx2_path() && avx512f && avx512vl && avx512vnni;
    }
};

struct MemoryNode {
    int id = 0;
    uint64_t total_bytes = 0;
    uint64_t free_bytes = 0;
};

struct SystemInfo {
    std::string cpu_model;
    int logical_cores = 1;
    CpuFeatures features;
    uint64_t total_ram_bytes = 0;
    uint64_t available_ram_bytes = 0;
    std::vector<MemoryNode> memory_nodes; // at least one (the whole machine when NUMA is absent)
};

CpuFeatures detect_cpu_features();
SystemInfo query_system_info();

// "x86-64 AVX2 FMA F16C" style summary of the kernels that will be used.
std::string describe_kernel_path(const CpuFeatures& features);

} // namespace folio
