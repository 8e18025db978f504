#pragma once
// Internal: what the threads of an OpenMP region throw, carried out of it. An exception may not
// leave a parallel region (the OpenMP specification: a throw inside a region must be caught by
// the same thread in that region); libgomp calls std::terminate, so a std::bad_alloc from a
// scratch buffer growing on a worker thread used to end the whole process. Each thread runs its
// share through run(): the first exception is kept and the thread's later shares are skipped
// (the step fails anyway), barriers and work-sharing constructs are still met, and the thread
// that opened the region calls rethrow() after it, where Engine::step turns std::bad_alloc into
// a failed request (ErrorCode::OutOfMemory, "out of memory while …").
//
//     RegionErrors errors;
//     #pragma omp parallel
//     {
//         errors.run([&] { setup(); });
//         #pragma omp for
//         for (...) errors.run([&] { body(i); });
//     }
//     errors.rethrow();

#include <atomic>
#include <exception>
#include <mutex>

namespace folio {

class RegionErrors {
public:
    // fn() unless a thread of the region already failed; what fn throws is kept, not propagated.
    template <typename Fn> void run(Fn&& fn) noexcept {
        if (failed_.load(std::memory_order_relaxed))
            return;
        try {
            fn();
        } catch (...) {
            keep(std::current_exception());
        }
    }
    bool failed() const noexcept { return failed_.load(std::memory_order_relaxed); }
    // After the region, on the thread that opened it: throws the first exception kept, if any.
    void rethrow() const {
        if (failed_.load(std::memory_order_acquire))
            std::rethrow_exception(first_);
    }

private:
    void keep(std::exception_ptr e) noexcept {
        std::lock_guard lk(m_);
        if (!first_) {
            first_ = std::move(e);
            failed_.store(true, std::memory_order_release);
        }
    }
    std::mutex m_;
    std::exception_ptr first_;
    std::atomic<bool> failed_{false};
};

} // namespace folio
