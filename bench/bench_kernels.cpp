#include "bench_kernels.h"

#include "machine_peak.h"
#include "memory_bandwidth.h"

#include "kernels/kernel_table.h"
#include "kernels/matmul.h"
#include "kernels/weight_rows.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace folio::bench {

namespace {

using Clock = std::chrono::steady_clock;

// Working set of the matvec timing: enough copies of the matrix that one pass over them is
// several times the last-level cache, so the figure is a memory figure, not a cache figure.
constexpr size_t kMatvecWorkingSet = size_t{512} << 20;

struct Timing {
    double best = 0;   // seconds
    double median = 0; // seconds
};

template <typename Fn> Timing time_reps(int reps, Fn&& fn) {
    fn(); // warm-up
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = Clock::now();
        fn();
        t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return {t.front(), t[t.size() / 2]};
}

// rows × cols weight of type t: a pool of 64 quantized random rows repeated (kernel speed does
// not depend on the values, and quantizing 32M weights with the K-quant search would take
// seconds per type).
std::vector<uint8_t> make_matrix(DType t, int64_t rows, int64_t cols, uint32_t seed) {
    const size_t rb = dtype_row_bytes(t, static_cast<uint64_t>(cols));
    const int64_t pool = std::min<int64_t>(64, rows);
    std::vector<uint8_t> bytes(rb * static_cast<size_t>(rows));
    std::mt19937 rng(seed);
    std::normal_distribution<float> nd(0.0f, 0.05f);
    std::vector<float> x(static_cast<size_t>(cols));
    for (int64_t r = 0; r < pool; ++r) {
        for (float& v : x)
            v = nd(rng);
        // Types Folio does not write (the grid i-quants, TQ1_0/TQ2_0): random bytes, every grid
        // index equally likely.
        if (!quantize_row(t, x.data(), bytes.data() + r * rb, cols))
            for (size_t i = 0; i < rb; ++i)
                bytes[r * rb + i] = static_cast<uint8_t>(rng());
    }
    for (int64_t r = pool; r < rows; ++r)
        std::memcpy(bytes.data() + r * rb, bytes.data() + (r % pool) * rb, rb);
    return bytes;
}

} // namespace

int run_bench_kernels(const BenchKernelsOptions& o, std::FILE* out) {
    if (o.threads < 1 || o.rows < 1 || o.cols < 256 || o.cols % 256 != 0 || o.reps < 1) {
        std::fprintf(out, "bench-kernels: need threads >= 1, rows >= 1, cols a multiple of 256\n");
        return 1;
    }
    const KernelContext ctx{o.threads, KernelPath::Auto};
    if (o.gemm_only) {
        report_gemm_share_of_peak(o.threads, o.rows, o.cols, out);
        return 0;
    }
    std::fprintf(out,
                 "folio bench-kernels: weight %lld rows x %lld cols, %d thread%s, kernels: %s\n",
                 static_cast<long long>(o.rows), static_cast<long long>(o.cols), o.threads,
                 o.threads == 1 ? "" : "s", kernel_path_name(ctx.path));

    // The yardstick is measured before and after the kernels (other load on the machine moves
    // it); ratios use the larger of the two, so they are never flattered by a slow measurement.
    const BandwidthResult bw_before = measure_read_bandwidth(size_t{1} << 30, o.threads, 5);
    std::fprintf(out, "memory read bandwidth (%d threads, %.2f GiB, best of 5): %.2f GB/s\n\n",
                 bw_before.threads, static_cast<double>(bw_before.bytes) / (1 << 30),
                 bw_before.gb_per_s);
    struct Row {
        std::string type;
        double bits_per_weight = 0;
        int copies = 0;
        double best_gbs = 0, median_gbs = 0;
        double gflops[2] = {0, 0}; // T = 64, T = 512
        bool ok = true;
    };
    std::vector<Row> rows;

    std::fprintf(out,
                 "matvec: y = W x, T = 1; %d reps after warm-up over a %.0f MiB working set "
                 "(copies of W); GB/s = weight bytes / time\n",
                 o.reps, static_cast<double>(kMatvecWorkingSet) / (1 << 20));
    const DType types[] = {
        DType::F32,     DType::F16,    DType::BF16,    DType::Q8_0,  DType::Q6_K,
        DType::Q5_K,    DType::Q5_1,   DType::Q5_0,    DType::Q4_K,  DType::Q4_1,
        DType::Q4_0,    DType::IQ4_NL, DType::IQ4_XS,  DType::MXFP4, DType::Q3_K,
        DType::Q2_K,    DType::IQ3_S,  DType::IQ3_XXS, DType::IQ2_S, DType::IQ2_XS,
        DType::IQ2_XXS, DType::IQ1_M,  DType::IQ1_S,   DType::TQ2_0, DType::TQ1_0};
    std::mt19937 rng(42);
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::vector<float> x(static_cast<size_t>(o.cols * 512));
    for (float& v : x)
        v = nd(rng);
    std::vector<float> y(static_cast<size_t>(o.rows * 512));

    for (DType t : types) {
        Row row;
        row.type = std::string(dtype_name(t));
        const size_t matrix_bytes =
            dtype_row_bytes(t, static_cast<uint64_t>(o.cols)) * static_cast<size_t>(o.rows);
        row.bits_per_weight =
            8.0 * static_cast<double>(matrix_bytes) / static_cast<double>(o.rows * o.cols);
        row.copies = static_cast<int>(
            std::max<size_t>(1, (kMatvecWorkingSet + matrix_bytes - 1) / matrix_bytes));
        std::vector<std::vector<uint8_t>> mats;
        mats.push_back(make_matrix(t, o.rows, o.cols, 1));
        for (int c = 1; c < row.copies; ++c)
            mats.push_back(mats.front());
        std::vector<TensorView> views;
        for (const auto& m : mats)
            views.push_back(make_tensor_view(t, {o.cols, o.rows, 1, 1}, m.data()));

        const Timing mv = time_reps(o.reps, [&] {
            for (const TensorView& v : views)
                row.ok = row.ok &&
                         static_cast<bool>(matmul(ctx, v, x.data(), o.cols, 1, y.data(), o.rows));
        });
        const double bytes = static_cast<double>(matrix_bytes) * row.copies;
        row.best_gbs = bytes / mv.best / 1e9;
        row.median_gbs = bytes / mv.median / 1e9;
        if (o.prefill && row.ok) {
            const int64_t toks[2] = {64, 512};
            for (int i = 0; i < 2; ++i) {
                const Timing mm = time_reps(i == 0 ? 3 : 2, [&] {
                    (void)matmul(ctx, views.front(), x.data(), o.cols, toks[i], y.data(), o.rows);
                });
                row.gflops[i] =
                    2.0 * static_cast<double>(o.rows * o.cols * toks[i]) / mm.best / 1e9;
            }
        }
        rows.push_back(row);
    }

    const BandwidthResult bw_after = measure_read_bandwidth(size_t{1} << 30, o.threads, 5);
    const double bw_gbs = std::max(bw_before.gb_per_s, bw_after.gb_per_s);
    std::fprintf(out, "%-6s %9s %7s %10s %10s %7s", "type", "bits/w", "copies", "best GB/s",
                 "med GB/s", "ratio");
    if (o.prefill)
        std::fprintf(out, " %14s %14s", "T=64 GFLOP/s", "T=512 GFLOP/s");
    std::fprintf(out, "\n");
    for (const Row& r : rows) {
        if (!r.ok) {
            std::fprintf(out, "%-6s matmul failed\n", r.type.c_str());
            continue;
        }
        std::fprintf(out, "%-6s %9.2f %7d %10.2f %10.2f %7.2f", r.type.c_str(), r.bits_per_weight,
                     r.copies, r.best_gbs, r.median_gbs, r.best_gbs / bw_gbs);
        if (o.prefill)
            std::fprintf(out, " %14.1f %14.1f", r.gflops[0], r.gflops[1]);
        std::fprintf(out, "\n");
    }
    std::fprintf(out,
                 "\nmemory read bandwidth after the kernels: %.2f GB/s; ratio = matvec best "
                 "GB/s / %.2f GB/s (the larger of the two measurements).\n",
                 bw_after.gb_per_s, bw_gbs);
    std::fprintf(
        out,
        "Activations are quantized per call inside the timed region (Q8_0 for "
        "q8_0/q5_0/q4_0/iq4_nl/mxfp4, Q8_1 for q5_1/q4_1, Q8_K for the k-quants, "
        "iq4_xs, the grid i-quants and tq1_0/tq2_0; GFLOP/s counts 2 ops per weight x token).\n");
    if (o.prefill)
        report_gemm_share_of_peak(o.threads, o.rows, o.cols, out);
    return 0;
}

} // namespace folio::bench
