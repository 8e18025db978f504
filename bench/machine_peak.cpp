#include "machine_peak.h"

#include "folio/system_info.h"
#include "kernels/gemm_kquant.h"
#include "kernels/gemm_q8_0.h"
#include "kernels/kernel_table.h"
#include "kernels/matmul.h"
#include "kernels/weight_rows.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace folio::bench {

namespace {

using Clock = std::chrono::steady_clock;

#if defined(__x86_64__)
// Each loop is written in assembly: independent accumulators (so the 4-cycle latency of vpdpbusd
// is hidden and only its throughput counts) that a compiler cannot merge. Written with
// intrinsics, identical chains (same inputs, same start) are legally folded into one, which
// then runs at the latency and makes a "peak" 12x too high. The register values do not matter.
constexpr int kZmmChains = 16, kYmmChains = 12, kAvx2Chains = 8;

__attribute__((target("avx512f,avx512bw,avx512vnni"))) void loop_vnni512(int64_t iters) {
    asm volatile("1:\n\t"
                 "vpdpbusd %%zmm30, %%zmm31, %%zmm0\n\t"
                 "vpdpbusd %%zmm30, %%zmm31, %%zmm1\n\t"
                 "vpdpbusd %%zmm30, %%zmm31, %%zmm2\n\t"
                 "vpdpbusd %%zmm30, %%zmm31, %%zmm3\n\t"
                 "vpdpbusd %%zmm30, %%zmm31, %%zmm4\n\t"
                 "vpdpbusd %%zmm30, %%zmm31, %%zmm5\n\t"
                 "vpdpbusd %%zmm30, %%zmm31, %%zmm6\n\t"
                 "vpdpbusd %%zmm30, %%zmm31, %%zmm7\n\t"
                 "vpdpbusd %%zmm30, %%zmm31, %%zmm8\n\t"
                 "vpdpbusd %%zmm30, %%zmm31, %%zmm9\n\t"
                 "vpdpbusd %%zmm30, %%zmm31, %%zmm10\n\t"
                 "vpdpbusd %%zmm30, %%zmm31, %%zmm11\n\t"
                 "vpdpbusd %%zmm30, %%zmm31, %%zmm12\n\t"
                 "vpdpbusd %%zmm30, %%zmm31, %%zmm13\n\t"
                 "vpdpbusd %%zmm30, %%zmm31, %%zmm14\n\t"
                 "vpdpbusd %%zmm30, %%zmm31, %%zmm15\n\t"
                 "dec %0\n\t"
                 "jnz 1b"
                 : "+r"(iters)
                 :
                 : "zmm0", "zmm1", "zmm2", "zmm3", "zmm4", "zmm5", "zmm6", "zmm7", "zmm8", "zmm9",
                   "zmm10", "zmm11", "zmm12", "zmm13", "zmm14", "zmm15", "cc");
}

__attribute__((target("avx2,avxvnni"))) void loop_avxvnni(int64_t iters) {
    asm volatile("1:\n\t"
                 "%{vex%} vpdpbusd %%ymm14, %%ymm15, %%ymm0\n\t"
                 "%{vex%} vpdpbusd %%ymm14, %%ymm15, %%ymm1\n\t"
                 "%{vex%} vpdpbusd %%ymm14, %%ymm15, %%ymm2\n\t"
                 "%{vex%} vpdpbusd %%ymm14, %%ymm15, %%ymm3\n\t"
                 "%{vex%} vpdpbusd %%ymm14, %%ymm15, %%ymm4\n\t"
                 "%{vex%} vpdpbusd %%ymm14, %%ymm15, %%ymm5\n\t"
                 "%{vex%} vpdpbusd %%ymm14, %%ymm15, %%ymm6\n\t"
                 "%{vex%} vpdpbusd %%ymm14, %%ymm15, %%ymm7\n\t"
                 "%{vex%} vpdpbusd %%ymm14, %%ymm15, %%ymm8\n\t"
                 "%{vex%} vpdpbusd %%ymm14, %%ymm15, %%ymm9\n\t"
                 "%{vex%} vpdpbusd %%ymm14, %%ymm15, %%ymm10\n\t"
                 "%{vex%} vpdpbusd %%ymm14, %%ymm15, %%ymm11\n\t"
                 "dec %0\n\t"
                 "jnz 1b"
                 : "+r"(iters)
                 :
                 : "ymm0", "ymm1", "ymm2", "ymm3", "ymm4", "ymm5", "ymm6", "ymm7", "ymm8", "ymm9",
                   "ymm10", "ymm11", "cc");
}

// The exact-int32 AVX2 step of the vec_dot kernels: maddubs (u8·s8 pairs -> int16), madd with
// ones (-> int32), add: 32 MACs per step.
__attribute__((target("avx2"))) void loop_avx2(int64_t iters) {
    asm volatile("1:\n\t"
                 "vpmaddubsw %%ymm14, %%ymm13, %%ymm8\n\t"
                 "vpmaddwd %%ymm15, %%ymm8, %%ymm8\n\t"
                 "vpaddd %%ymm8, %%ymm0, %%ymm0\n\t"
                 "vpmaddubsw %%ymm14, %%ymm13, %%ymm9\n\t"
                 "vpmaddwd %%ymm15, %%ymm9, %%ymm9\n\t"
                 "vpaddd %%ymm9, %%ymm1, %%ymm1\n\t"
                 "vpmaddubsw %%ymm14, %%ymm13, %%ymm10\n\t"
                 "vpmaddwd %%ymm15, %%ymm10, %%ymm10\n\t"
                 "vpaddd %%ymm10, %%ymm2, %%ymm2\n\t"
                 "vpmaddubsw %%ymm14, %%ymm13, %%ymm11\n\t"
                 "vpmaddwd %%ymm15, %%ymm11, %%ymm11\n\t"
                 "vpaddd %%ymm11, %%ymm3, %%ymm3\n\t"
                 "vpmaddubsw %%ymm14, %%ymm13, %%ymm8\n\t"
                 "vpmaddwd %%ymm15, %%ymm8, %%ymm8\n\t"
                 "vpaddd %%ymm8, %%ymm4, %%ymm4\n\t"
                 "vpmaddubsw %%ymm14, %%ymm13, %%ymm9\n\t"
                 "vpmaddwd %%ymm15, %%ymm9, %%ymm9\n\t"
                 "vpaddd %%ymm9, %%ymm5, %%ymm5\n\t"
                 "vpmaddubsw %%ymm14, %%ymm13, %%ymm10\n\t"
                 "vpmaddwd %%ymm15, %%ymm10, %%ymm10\n\t"
                 "vpaddd %%ymm10, %%ymm6, %%ymm6\n\t"
                 "vpmaddubsw %%ymm14, %%ymm13, %%ymm11\n\t"
                 "vpmaddwd %%ymm15, %%ymm11, %%ymm11\n\t"
                 "vpaddd %%ymm11, %%ymm7, %%ymm7\n\t"
                 "dec %0\n\t"
                 "jnz 1b"
                 : "+r"(iters)
                 :
                 : "ymm0", "ymm1", "ymm2", "ymm3", "ymm4", "ymm5", "ymm6", "ymm7", "ymm8", "ymm9",
                   "ymm10", "ymm11", "cc");
}
#endif

struct Probe {
    const char* name = nullptr;
    void (*loop)(int64_t) = nullptr;
    int macs_per_iteration = 0;
    const char* path = ""; // the kernel path whose int8 kernels use it (kernel_path_name), or ""
};

#if defined(__x86_64__)
// AVX-VNNI (VEX-encoded vpdpbusd): CPUID leaf 7 sub-leaf 1, EAX bit 4 (clang 14's
// __builtin_cpu_supports does not know the name yet). The OS check for the 256-bit state is the
// AVX2 one.
bool has_avx_vnni() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid_count(7, 1, &a, &b, &c, &d) && (a & (1u << 4)) != 0;
}
#endif

// The probes this CPU can run, widest first.
std::vector<Probe> available_probes() {
    std::vector<Probe> probes;
#if defined(__x86_64__)
    const CpuFeatures f = detect_cpu_features();
    if (f.has_avx512_vnni_path())
        probes.push_back({"vpdpbusd zmm (AVX-512 VNNI)", loop_vnni512, 64 * kZmmChains, "avx512"});
    if (f.has_avx2_path() && has_avx_vnni())
        probes.push_back({"vpdpbusd ymm (AVX-VNNI)", loop_avxvnni, 32 * kYmmChains});
    if (f.has_avx2_path())
        probes.push_back({"maddubs+madd+add ymm (AVX2)", loop_avx2, 32 * kAvx2Chains, "avx2"});
#endif
    return probes;
}

// The probe of the int8 instructions the kernels of KernelPath::Auto use here (the AVX2 path's
// GEMMs run maddubs + madd even where AVX-VNNI exists); the widest when none matches (the
// reference path). Index into `probes`, which must not be empty.
size_t path_probe(const std::vector<Probe>& probes) {
    const std::string path = kernel_path_name(KernelPath::Auto);
    for (size_t i = 0; i < probes.size(); ++i)
        if (path == probes[i].path)
            return i;
    return 0;
}

// G MAC/s of `threads` threads each running the probe for `iters` iterations at once.
double run_probe(const Probe& p, int threads, int64_t iters, int reps) {
    double best = 0;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = Clock::now();
#pragma omp parallel num_threads(threads)
        p.loop(iters);
        const double sec = std::chrono::duration<double>(Clock::now() - t0).count();
        const double macs = static_cast<double>(iters) * p.macs_per_iteration * threads;
        best = std::max(best, macs / sec / 1e9);
    }
    return best;
}

// Iterations of p that take about 20 ms on one thread.
int64_t calibrated_iterations(const Probe& p) {
    int64_t iters = 1 << 10;
    for (;;) {
        const auto t0 = Clock::now();
        (void)p.loop(iters);
        if (std::chrono::duration<double>(Clock::now() - t0).count() > 0.02 || iters > (1LL << 34))
            return iters;
        iters *= 2;
    }
}

std::vector<uint8_t> random_matrix(DType t, int64_t rows, int64_t cols) {
    const size_t rb = dtype_row_bytes(t, static_cast<uint64_t>(cols));
    const int64_t pool = std::min<int64_t>(64, rows);
    std::vector<uint8_t> bytes(rb * static_cast<size_t>(rows));
    std::mt19937 rng(7);
    std::normal_distribution<float> nd(0.0f, 0.05f);
    std::vector<float> x(static_cast<size_t>(cols));
    for (int64_t r = 0; r < pool; ++r) {
        for (float& v : x)
            v = nd(rng);
        (void)quantize_row(t, x.data(), bytes.data() + r * rb, cols);
    }
    for (int64_t r = pool; r < rows; ++r)
        std::memcpy(bytes.data() + r * rb, bytes.data() + (r % pool) * rb, rb);
    return bytes;
}

} // namespace

std::vector<Int8Peak> measure_int8_peaks(int threads, int reps) {
    std::vector<Int8Peak> out;
    for (const Probe& p : available_probes()) {
        Int8Peak r;
        r.instruction = p.name;
        r.path = p.path;
        r.threads = threads;
        const int64_t iters = calibrated_iterations(p);
        r.gmacs_1 = run_probe(p, 1, iters, reps);
        r.gmacs_n = threads > 1 ? run_probe(p, threads, iters, reps) : r.gmacs_1;
        out.push_back(r);
    }
    return out;
}

double measure_int8_peak_now(int threads, std::string* instruction) {
    const std::vector<Probe> probes = available_probes();
    if (probes.empty()) {
        instruction->clear();
        return 0;
    }
    const Probe& p = probes[path_probe(probes)];
    *instruction = p.name;
    return run_probe(p, threads, calibrated_iterations(p), 1);
}

void report_gemm_share_of_peak(int threads, long long rows, long long cols, std::FILE* out) {
    std::vector<Int8Peak> peaks = measure_int8_peaks(threads, 5);
    if (peaks.empty()) {
        std::fprintf(out, "\nint8 MAC peak: this machine has none of the x86 int8 instructions\n");
        return;
    }
    constexpr int64_t kTokens = 512;
    std::mt19937 rng(3);
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::vector<float> x(static_cast<size_t>(cols * kTokens));
    for (float& v : x)
        v = nd(rng);
    std::vector<float> y(static_cast<size_t>(rows * kTokens));
    // Each matmul on 1 thread and on `threads`: on a shared machine the 1-thread figures are the
    // steadier pair (a lone thread is rarely descheduled mid-run; a team waits for its slowest).
    struct Timed {
        DType type;
        double gmacs[2] = {0, 0}; // 1 thread, `threads`; 0: failed
    };
    std::vector<Timed> timed;
    for (DType t : {DType::Q8_0, DType::Q5_0, DType::Q4_K, DType::Q5_K, DType::Q6_K, DType::IQ4_XS,
                    DType::Q3_K, DType::Q2_K}) {
        const std::vector<uint8_t> w = random_matrix(t, rows, cols);
        const TensorView view = make_tensor_view(t, {cols, rows, 1, 1}, w.data());
        Timed row{t};
        for (int i = 0; i < 2; ++i) {
            const KernelContext c{i == 0 ? 1 : threads, KernelPath::Auto};
            double best = 1e30;
            bool ok = true;
            for (int r = 0; r < 3 && ok; ++r) {
                const auto t0 = Clock::now();
                ok = static_cast<bool>(matmul(c, view, x.data(), cols, kTokens, y.data(), rows));
                best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
            }
            row.gmacs[i] = ok ? static_cast<double>(rows * cols * kTokens) / best / 1e9 : 0.0;
        }
        timed.push_back(row);
    }
    // Measured again after the matmuls (other load on the machine moves it); the larger counts,
    // so a share is never flattered by a slow measurement.
    const std::vector<Int8Peak> again = measure_int8_peaks(threads, 5);
    for (size_t i = 0; i < peaks.size() && i < again.size(); ++i) {
        peaks[i].gmacs_1 = std::max(peaks[i].gmacs_1, again[i].gmacs_1);
        peaks[i].gmacs_n = std::max(peaks[i].gmacs_n, again[i].gmacs_n);
    }
    std::fprintf(out, "\nint8 MAC peak (loops of independent instructions, best of 10 x ~20 ms; "
                      "1 MAC = one u8 x s8 product added):\n");
    for (const Int8Peak& p : peaks)
        std::fprintf(out, "  %-30s %7.0f G MAC/s on 1 thread, %7.0f on %d\n", p.instruction.c_str(),
                     p.gmacs_1, p.gmacs_n, p.threads);
    // The share is of the peak of the instructions the path that ran uses.
    const char* path = kernel_path_name(KernelPath::Auto);
    const Int8Peak* match = &peaks.front();
    for (const Int8Peak& p : peaks)
        if (p.path == path) {
            match = &p;
            break;
        }
    const Int8Peak& peak = *match;
    std::fprintf(out, "kernel path that ran: %s; shares below are of the %s peak\n", path,
                 peak.instruction.c_str());
    for (const Timed& t : timed) {
        if (t.gmacs[0] == 0 || t.gmacs[1] == 0) {
            std::fprintf(out, "%-6s T=512 prefill matmul failed\n", dtype_name(t.type).data());
            continue;
        }
        const bool gemm = gemm_q8_0_weight_type(t.type)
                              ? gemm_q8_0_available(KernelPath::Auto)
                              : gemm_kquant_available(t.type, KernelPath::Auto);
        // Q3_K and Q2_K run the AVX2 GEMM on the AVX-512 path too.
        const char* ran = gemm && std::string(path) == "avx512" && !gemm_q8_0_weight_type(t.type) &&
                                  !gemm_kquant_on_avx512(t.type)
                              ? "avx2"
                              : path;
        std::fprintf(out,
                     "%-6s prefill matmul T=512 (%lld x %lld, activations quantized inside, %s): "
                     "%.0f G MAC/s on 1 thread = %.1f %% of the %s peak; %.0f on %d = %.1f %%\n",
                     dtype_name(t.type).data(), rows, cols,
                     (std::string(ran) + (gemm ? " GEMM" : " vec_dot")).c_str(), t.gmacs[0],
                     100.0 * t.gmacs[0] / peak.gmacs_1, peak.instruction.c_str(), t.gmacs[1],
                     threads, 100.0 * t.gmacs[1] / peak.gmacs_n);
    }
}

} // namespace folio::bench
