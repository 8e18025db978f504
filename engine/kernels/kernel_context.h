#pragma once
// Per-call settings of the CPU kernels. There is no global state: every kernel takes the
// context explicitly.

namespace folio {

class ThreadBalance;
struct DecodeTeam;

// Which implementation runs. Auto = the fastest one this CPU supports (AVX2+FMA+F16C when
// present, checked at run time); Reference = the plain scalar kernels of kernels/reference/;
// Avx2 = the AVX2 kernels if the CPU has them, else the reference (tests use it to pin a path);
// Auto also takes the few AVX-512 VNNI kernels when the CPU has those.
enum class KernelPath { Auto, Reference, Avx2 };

struct KernelContext {
    int n_threads = 1; // OpenMP threads used by the kernel (over output rows)
    KernelPath path = KernelPath::Auto;
    // Decode's per-thread speeds (kernels/thread_balance.h): the one-token matvecs and MLPs
    // split their rows by them and record each thread's time. Null: equal shares.
    ThreadBalance* balance = nullptr;
    // Set inside a decode region (kernels/decode_team.h): the one-token matvecs compute only
    // this thread's share of their rows, on the calling thread, and fork nothing.
    const DecodeTeam* team = nullptr;
};

} // namespace folio
