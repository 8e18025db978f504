#pragma once
// The in-chunk pairwise terms of KDA's chunked delta rule (the Kimi Linear report, Kimi Team
// 2025; docs/KIMI_HYBRID.md), for one chunk of n tokens of one head with cumulative log-decays G
// (G_r = Σ_{t≤r} g_t, per channel, ≤ 0 and non-increasing in r):
//   A[r][i] = Σ_d q_r[d]·k_i[d]·exp(G_r[d] − G_i[d])          (i ≤ r, else 0)
//   L[r][i] = β_r · Σ_d k_r[d]·k_i[d]·exp(G_r[d] − G_i[d])    (i < r, else 0)
// Every exponent is ≤ 0, so no term can overflow; the exponent is formed directly per pair
// (no exp(G_r)·exp(−G_i) split, which overflows / loses all digits for strong decays).
// These ~n²·dk/2 exps dominated prefill when computed with scalar expf.
//
// Declarations only: the *_avx2.cpp file includes this header.

#include "kernels/kernel_context.h"

#include <cstdint>

namespace folio {

struct KdaPairs {
    int64_t n = 0, dk = 0;
    const float* G = nullptr; // n rows of dk, stride dk
    const float* q = nullptr; // n rows of dk, stride ld_qk (k the same)
    const float* k = nullptr;
    int64_t ld_qk = 0;
    const float* beta = nullptr; // one per row, stride beta_stride
    int64_t beta_stride = 0;
    float* A = nullptr; // n × n, row-major, written in full (upper triangle zeroed)
    float* L = nullptr; // n × n, row-major, written in full (diagonal and above zeroed)
};

using KdaPairsFn = void (*)(const KdaPairs& p);

// Decayed keys for the state update of one chunk, written transposed:
//   out[d·n + i] = exp(G_last[d] − G_i[d])·k_i[d]   (d < dk, i < n; G_last = row n−1)
using KdaDecayKeysFn = void (*)(const KdaPairs& p, float* out);

// The per-channel log-decay of one token (Kimi Linear's KDA gate), in place over a row of
// n_heads·dh channels: x[c] ← a[c / dh] · softplus(x[c] + dt[c]), softplus with PyTorch's threshold
// 20 (torch.nn.functional.softplus).
using KdaGateFn = void (*)(float* x, const float* dt, const float* a, int64_t n, int64_t dh);

namespace ref {
void kda_gate(float* x, const float* dt, const float* a, int64_t n, int64_t dh);
void kda_pairs(const KdaPairs& p);
void kda_decay_keys_t(const KdaPairs& p, float* out);
} // namespace ref

namespace avx2 {
void kda_gate(float* x, const float* dt, const float* a, int64_t n, int64_t dh);
void kda_pairs(const KdaPairs& p);
void kda_decay_keys_t(const KdaPairs& p, float* out);
} // namespace avx2

// AVX2 when not asked for the reference and the CPU has it.
KdaPairsFn kda_pairs_kernel(KernelPath path);
KdaDecayKeysFn kda_decay_keys_kernel(KernelPath path);
KdaGateFn kda_gate_kernel(KernelPath path);

} // namespace folio
