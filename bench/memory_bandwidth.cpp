#include "memory_bandwidth.h"
#include "cache/huge_bytes.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace folio::bench {

BandwidthResult measure_read_bandwidth(size_t bytes, int threads, int reps) {
    const size_t n = bytes / sizeof(double);
    // In 2 MiB pages (the hardware prefetchers do not stop every 4 KiB): the yardstick is the
    // fastest read this machine does, whichever pages the weights are in
    // (runtime/weights_memory.h). On the 2-vCPU VMs it read the same as 4 KiB pages within
    // their noise.
    auto* data = reinterpret_cast<double*>(allocate_huge_pages(n * sizeof(double)));
    if (data == nullptr)
        return {};
#pragma omp parallel for num_threads(threads) schedule(static)
    // Touch every page first (first-touch by the reading threads, so pages are local).
    for (int64_t i = 0; i < static_cast<int64_t>(n); ++i)
        data[i] = static_cast<double>(i & 7);

    BandwidthResult result;
    result.bytes = n * sizeof(double);
    result.threads = threads;
    volatile double sink = 0;
    for (int r = 0; r < reps; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        double total = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : total)
        for (int64_t i = 0; i < static_cast<int64_t>(n); i += 4) {
            double s = data[i];
            if (i + 1 < static_cast<int64_t>(n))
                s += data[i + 1];
            if (i + 2 < static_cast<int64_t>(n))
                s += data[i + 2];
            if (i + 3 < static_cast<int64_t>(n))
                s += data[i + 3];
            total += s;
        }
        auto t1 = std::chrono::steady_clock::now();
        sink = sink + total;
        double secs = std::chrono::duration<double>(t1 - t0).count();
        if (secs > 0)
            result.gb_per_s =
                std::max(result.gb_per_s, static_cast<double>(result.bytes) / secs / 1e9);
    }
    (void)sink;
    std::free(data);
    return result;
}

} // namespace folio::bench
