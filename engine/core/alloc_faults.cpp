#include "core/alloc_faults.h"

#include <atomic>
#include <new>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace folio {

namespace {
std::atomic<size_t> g_min_bytes{0};
std::atomic<size_t> g_injected{0};
} // namespace

void arm_region_allocation_faults(size_t min_bytes) {
    g_min_bytes.store(min_bytes, std::memory_order_relaxed);
}

size_t region_allocation_faults() {
    return g_injected.load(std::memory_order_relaxed);
}

void region_allocation_fault_point(size_t bytes) {
    const size_t min = g_min_bytes.load(std::memory_order_relaxed);
    if (min == 0 || bytes < min)
        return;
#ifdef _OPENMP
    if (!omp_in_parallel())
        return;
#else
    return;
#endif
    g_injected.fetch_add(1, std::memory_order_relaxed);
    throw std::bad_alloc();
}

} // namespace folio
