#pragma once
// Causal scaled-dot-product attention of one head over a block of queries, in f32 with Eigen
// GEMMs: O = softmax(Q·Kᵀ·scale + causal mask)·V. Query i sits at position pos0 + i and sees
// keys 0 .. pos0 + i. Shared by both MLA forms (MODEL_SPEC.md §4.2, §4.3).

#include <cstdint>
#include <vector>

namespace folio {

struct AttentionBlock {
    const float* q = nullptr; // nq rows of dqk floats, row stride q_stride
    int64_t q_stride = 0;
    int64_t nq = 0;
    int64_t dqk = 0;
    const float* k = nullptr; // key rows (at least pos0 + nq of them), stride k_stride
    int64_t k_stride = 0;
    const float* v = nullptr; // value rows, dv floats each, stride v_stride
    int64_t v_stride = 0;
    int64_t dv = 0;
    int64_t pos0 = 0;
    float scale = 1.0f;
    float* out = nullptr; // nq rows of dv floats, stride out_stride
    int64_t out_stride = 0;
};

// `scores` is scratch space (resized as needed). Single-threaded: callers parallelize over
// heads and query blocks.
void attend_causal(const AttentionBlock& b, std::vector<float>& scores);

} // namespace folio
