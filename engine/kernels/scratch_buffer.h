#pragma once
// Internal: a byte buffer its owner keeps across calls (prefill chunks, layers, matmuls), so the
// hot path does not allocate, zero and page-fault fresh memory per call. It grows to the largest
// size asked for and never shrinks; its bytes are not initialised (callers write before they
// read). The kernels keep them thread_local: OpenMP's worker threads live as long as the
// process, so each keeps its own buffers for every later call. Its capacity is counted in the
// kernels' scratch (kernels/thread_scratch.h).

#include "kernels/thread_scratch.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

namespace folio {

class ScratchBuffer {
public:
    // At least `bytes` bytes, 64-byte aligned; the contents are whatever was there before.
    uint8_t* get(size_t bytes) {
        if (bytes > capacity_) {
            const size_t rounded = (bytes + 63) / 64 * 64;
            data_.reset(); // the old contents are not kept: free first
            capacity_ = 0;
            count_.note(0);
            data_.reset(static_cast<uint8_t*>(std::aligned_alloc(64, rounded)));
            if (!data_)
                throw std::bad_alloc(); // as operator new would
            capacity_ = rounded;
            count_.note(capacity_);
        }
        return data_.get();
    }
    size_t capacity() const { return capacity_; }

private:
    struct Free {
        void operator()(uint8_t* p) const { std::free(p); }
    };
    std::unique_ptr<uint8_t, Free> data_;
    size_t capacity_ = 0;
    ScratchCount count_;
};

} // namespace folio
