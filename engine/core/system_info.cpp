#include "folio/system_info.h"

#include "core/text_file.h"

#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>

#include <dirent.h>

namespace folio {

CpuFeatures detect_cpu_features() {
    CpuFeatures f;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    f.avx2 = __builtin_cpu_supports("avx2");
    f.fma = __builtin_cpu_supports("fma");
    f.avx512f = __builtin_cpu_supports("avx512f");
    f.avx512vl = __builtin_cpu_supports("avx512vl");
    f.avx512vnni = __builtin_cpu_supports("avx512vnni");
    // GCC 12 knows no "f16c" for __builtin_cpu_supports: read CPUID leaf 1, ECX bit 29.
    unsigned eax = 1, ebx = 0, ecx = 0, edx = 0;
    __asm__ volatile("cpuid" : "+a"(eax), "=b"(ebx), "+c"(ecx), "=d"(edx));
    f.f16c = (ecx >> 29) & 1u;
#endif
    // FOLIO_KERNELS=avx2 runs the AVX2 kernels on an AVX-512 machine, =portable the scalar
    // ones: to measure or test a fallback end to end on the machine at hand.
    if (const char* forced = std::getenv("FOLIO_KERNELS")) {
        const std::string v = forced;
        if (v == "avx2" || v == "portable")
            f.avx512f = f.avx512vl = f.avx512vnni = false;
        if (v == "portable")
            f.avx2 = f.fma = f.f16c = false;
    }
    return f;
}

std::string describe_kernel_path(const CpuFeatures& features) {
    if (features.has_avx512_vnni_path())
        return "x86-64 AVX2+FMA+F16C kernels, AVX-512 VNNI int8 index scoring";
    if (features.has_avx2_path())
        return "x86-64 AVX2+FMA+F16C kernels";
    return "portable scalar kernels (no AVX2/FMA/F16C)";
}

namespace {

// Reads "Key:   123 kB" lines of /proc/meminfo-like files.
uint64_t meminfo_value(const std::string& text, const std::string& key) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        auto pos = line.find(key + ":");
        if (pos == std::string::npos)
            continue;
        std::istringstream fields(line.substr(pos + key.size() + 1));
        uint64_t value = 0;
        std::string unit;
        fields >> value >> unit;
        return unit == "kB" ? value * 1024 : value;
    }
    return 0;
}

} // namespace

SystemInfo query_system_info() {
    SystemInfo info;
    info.features = detect_cpu_features();
    unsigned hc = std::thread::hardware_concurrency();
    info.logical_cores = hc > 0 ? static_cast<int>(hc) : 1;

    std::istringstream cpuinfo(read_text_file("/proc/cpuinfo"));
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) == 0) {
            auto colon = line.find(':');
            if (colon != std::string::npos) {
                info.cpu_model = line.substr(colon + 1);
                auto first = info.cpu_model.find_first_not_of(' ');
                info.cpu_model = first == std::string::npos ? "" : info.cpu_model.substr(first);
            }
            break;
        }
    }
    if (info.cpu_model.empty())
        info.cpu_model = "unknown CPU";

    std::string meminfo = read_text_file("/proc/meminfo");
    info.total_ram_bytes = meminfo_value(meminfo, "MemTotal");
    info.available_ram_bytes = meminfo_value(meminfo, "MemAvailable");

    // NUMA nodes: /sys/devices/system/node/nodeN/meminfo ("Node 0 MemTotal: ...").
    if (DIR* dir = opendir("/sys/devices/system/node")) {
        while (dirent* entry = readdir(dir)) {
            std::string name = entry->d_name;
            if (name.rfind("node", 0) != 0 || name.size() <= 4 ||
                name.find_first_not_of("0123456789", 4) != std::string::npos)
                continue;
            std::string text = read_text_file("/sys/devices/system/node/" + name + "/meminfo");
            MemoryNode node;
            node.id = std::stoi(name.substr(4));
            node.total_bytes = meminfo_value(text, "MemTotal");
            node.free_bytes = meminfo_value(text, "MemFree");
            if (node.total_bytes > 0)
                info.memory_nodes.push_back(node);
        }
        closedir(dir);
    }
    // Some virtual machines and sandboxes expose a NUMA node that covers only part of the RAM
    // /proc/meminfo reports; then the per-node figures are not trustworthy: use one node.
    uint64_t node_total = 0;
    for (const MemoryNode& n : info.memory_nodes)
        node_total += n.total_bytes;
    if (info.memory_nodes.empty() || node_total < info.total_ram_bytes * 9 / 10 ||
        node_total > info.total_ram_bytes * 11 / 10) {
        info.memory_nodes.clear();
        info.memory_nodes.push_back({0, info.total_ram_bytes, info.available_ram_bytes});
    }
    return info;
}

} // namespace folio
