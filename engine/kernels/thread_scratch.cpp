#include "kernels/thread_scratch.h"

#include <atomic>

namespace folio {

namespace {
std::atomic<int64_t> held{0};
} // namespace

uint64_t thread_scratch_bytes() {
    const int64_t v = held.load(std::memory_order_relaxed);
    return v > 0 ? static_cast<uint64_t>(v) : 0;
}

void add_thread_scratch_bytes(int64_t delta) {
    held.fetch_add(delta, std::memory_order_relaxed);
}

} // namespace folio
