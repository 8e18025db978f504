#include "core/fault_guard.h"

#include <atomic>
#include <csignal>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

namespace folio {

namespace {

struct Region {
    std::atomic<bool> used{false};
    std::atomic<uintptr_t> begin{0}, end{0}; // end == 0: not armed yet / disarmed
    std::atomic<bool> writable{false};
    std::atomic<uint64_t> faults{0};
};

constexpr int kRegions = 4096; // offload chunks are 16 MiB: 64 GiB of disk tier, plus the models
Region g_regions[kRegions];
struct sigaction g_previous {};
uintptr_t g_page = 4096;
std::once_flag g_installed;

// Chains to whatever handled SIGBUS before us; with the default action the faulting
// instruction runs again after we return and the process dies as it would have without us.
void pass_on(int sig, siginfo_t* info, void* ctx) {
    if (g_previous.sa_flags & SA_SIGINFO) {
        if (g_previous.sa_sigaction != nullptr) {
            g_previous.sa_sigaction(sig, info, ctx);
            return;
        }
    } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(sig);
        return;
    }
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, nullptr);
}

void on_sigbus(int sig, siginfo_t* info, void* ctx) {
    const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
    for (Region& r : g_regions) {
        const uintptr_t end = r.end.load(std::memory_order_acquire);
        if (end == 0 || addr < r.begin.load(std::memory_order_relaxed) || addr >= end)
            continue;
        // mmap is a plain system call: safe here although POSIX does not list it.
        const uintptr_t page = addr & ~(g_page - 1);
        const int prot =
            r.writable.load(std::memory_order_relaxed) ? PROT_READ | PROT_WRITE : PROT_READ;
        void* p = mmap(reinterpret_cast<void*>(page), g_page, prot,
                       MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            break;
        r.faults.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    pass_on(sig, info, ctx);
}

void install() {
    const long page = sysconf(_SC_PAGESIZE);
    if (page > 0)
        g_page = static_cast<uintptr_t>(page);
    struct sigaction sa {};
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, &g_previous);
}

} // namespace

FaultGuard::FaultGuard(const void* addr, size_t bytes, bool writable) {
    if (addr == nullptr || bytes == 0)
        return;
    std::call_once(g_installed, install);
    for (int i = 0; i < kRegions; ++i) {
        bool expected = false;
        if (!g_regions[i].used.compare_exchange_strong(expected, true))
            continue;
        Region& r = g_regions[i];
        r.faults.store(0, std::memory_order_relaxed);
        r.writable.store(writable, std::memory_order_relaxed);
        r.begin.store(reinterpret_cast<uintptr_t>(addr), std::memory_order_relaxed);
        r.end.store(reinterpret_cast<uintptr_t>(addr) + bytes, std::memory_order_release);
        slot_ = i;
        return;
    }
}

FaultGuard::~FaultGuard() {
    if (slot_ < 0)
        return;
    Region& r = g_regions[slot_];
    r.end.store(0, std::memory_order_release);
    r.begin.store(0, std::memory_order_relaxed);
    r.used.store(false, std::memory_order_release);
}

FaultGuard::FaultGuard(FaultGuard&& other) noexcept : slot_(other.slot_) {
    other.slot_ = -1;
}

FaultGuard& FaultGuard::operator=(FaultGuard&& other) noexcept {
    if (this != &other) {
        FaultGuard gone(std::move(*this));
        slot_ = other.slot_;
        other.slot_ = -1;
    }
    return *this;
}

uint64_t FaultGuard::faults() const {
    return slot_ < 0 ? 0 : g_regions[slot_].faults.load(std::memory_order_relaxed);
}

} // namespace folio
