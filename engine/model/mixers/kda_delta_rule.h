#pragma once
// The gated delta rule of Kimi Delta Attention for one head (Kimi Linear), fp32.
// State S is a row-major d_k × d_v matrix (S[i][j], i = key channel). Per token t:
//   S ← diag(exp(g_t))·S ;  u = β_t·(v_t − Sᵀk_t) ;  S ← S + k_t·uᵀ ;  o_t = Sᵀq_t
// (q already L2-normed and scaled by d_k^−1/2, k L2-normed, g ≤ 0 the per-channel log-decay).
// Two forms that compute the same function: the recurrence (decode) and the chunked form
// (prefill), which only ever exponentiates non-positive numbers (decays enter as pairwise
// differences g_i − g_j, i ≥ j).

#include <cstdint>
#include <vector>

namespace folio {

struct KdaSequence {
    int64_t n_tokens = 0, dk = 0, dv = 0;
    const float* q = nullptr; // n_tokens rows of dk, stride qk_stride (k the same)
    const float* k = nullptr;
    int64_t qk_stride = 0;
    const float* v = nullptr; // rows of dv
    int64_t v_stride = 0;
    const float* g = nullptr; // rows of dk
    int64_t g_stride = 0;
    const float* beta = nullptr; // one per token
    int64_t beta_stride = 0;
    float* out = nullptr; // rows of dv
    int64_t out_stride = 0;
};

// Token by token. S is read and updated in place.
void kda_recurrent(const KdaSequence& seq, float* S);

struct KdaChunkScratch {
    std::vector<float> G, eG, L, A, R, D, tmp;
};

// Chunks of `chunk` tokens aligned to the start of the sequence, the last one possibly shorter
// S is read and updated in place.
void kda_chunked(const KdaSequence& seq, int64_t chunk, float* S, KdaChunkScratch& scratch);

} // namespace folio
