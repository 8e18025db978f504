#pragma once
// Internal: the kernels' per-thread scratch, counted. Matmuls, GEMM packing, the KV codec and
// the attention keep buffers in thread_local storage that grow to the largest call and live as
// long as their thread (the kernel threads end when the engine parks its team,
// runtime/thread_park.h). Each buffer here adds its capacity to one process-wide count, so the
// memory statistics (EngineStats::scratch_bytes) show what they hold instead of leaving it out.
//
// The count is the one piece of process-wide mutable state in the kernels: thread_local
// buffers belong to no object the engine could ask, so they report to it.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace folio {

// Bytes held by every thread's counted scratch now.
uint64_t thread_scratch_bytes();
// A buffer's capacity changed by `delta` bytes.
void add_thread_scratch_bytes(int64_t delta);

// Reports the capacity of what it watches to the count: note() after the buffer may have
// grown, and its destructor takes it back (at thread exit for a thread_local).
class ScratchCount {
public:
    ScratchCount() = default;
    ScratchCount(const ScratchCount&) = delete;
    ScratchCount& operator=(const ScratchCount&) = delete;
    ~ScratchCount() { add_thread_scratch_bytes(-static_cast<int64_t>(counted_)); }
    void note(size_t bytes) {
        if (bytes != counted_)
            add_thread_scratch_bytes(static_cast<int64_t>(bytes) - static_cast<int64_t>(counted_));
        counted_ = bytes;
    }

private:
    size_t counted_ = 0;
};

// A vector of T kept across calls by one thread: at least n elements, its contents kept (as
// std::vector::resize), its capacity counted.
template <typename T> class ThreadScratch {
public:
    std::vector<T>& resize(size_t n) {
        if (values_.size() < n)
            values_.resize(n);
        count_.note(values_.capacity() * sizeof(T));
        return values_;
    }
    std::vector<T>& values() { return values_; }

private:
    std::vector<T> values_;
    ScratchCount count_;
};

} // namespace folio
