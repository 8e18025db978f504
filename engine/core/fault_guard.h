#pragma once
// SIGBUS guard for file mappings. Touching a mapped page whose file was truncated underneath
// (another program rewrote the model file while we use it) or whose disk read failed (EIO on a
// bad sector of the offload file) raises SIGBUS, which would kill the whole app. Regions
// registered here are covered instead: the handler maps a zero page over the faulting page,
// counts the fault against the region and returns, so the faulting read sees zeros and the
// program goes on. The owner polls faults() after each piece of work and throws that work away
// with a clear error: nothing computed from the zeros ever reaches the user.
//
// The registry is process-wide because signal dispositions are: it is the engine's one piece
// of global state, a fixed array of atomics the signal handler can read without locks.
// Faults outside registered regions go to the handler that was installed before ours (or the
// default action), so real crashes still crash.

#include <cstddef>
#include <cstdint>

namespace folio {

class FaultGuard {
public:
    FaultGuard() = default;
    // Covers [addr, addr + bytes). `writable`: the replacement pages accept writes (mappings
    // opened read-write). Without a free registry slot the region is simply not covered.
    FaultGuard(const void* addr, size_t bytes, bool writable);
    ~FaultGuard();
    FaultGuard(FaultGuard&& other) noexcept;
    FaultGuard& operator=(FaultGuard&& other) noexcept;
    FaultGuard(const FaultGuard&) = delete;
    FaultGuard& operator=(const FaultGuard&) = delete;

    // Pages of the region that faulted (and now read as zeros) since it was registered.
    uint64_t faults() const;

private:
    int slot_ = -1;
};

} // namespace folio
