#pragma once
// Multi-query attention of one query's heads over key rows given one by one (DSA:
// the selected rows, read where they lie in the cache, no gather copy). All heads share the
// rows: keys are the first dqk floats of a row, values its first dv floats (MLA absorbed form,
// DeepSeek-V2, arXiv:2405.04434). The kernel keeps a running softmax per head (the flash-decoding
// partial state):
//   m[h] = max_j s_hj, l[h] = Σ_j exp(s_hj − m[h]), o[h] = Σ_j exp(s_hj − m[h])·v_j,
// with s_hj = scale·(q_h · k_j). Calling it again on more rows continues the same state, so the
// keys can be split into ranges (threads) and the partials merged (mqa_rows_merge).
//
// Declarations only: the *_avx2.cpp and *_avx512.cpp files include this header.

#include "kernels/kernel_context.h"

#include <cstdint>

namespace folio {

struct MqaRowsQuery {
    const float* q = nullptr; // n_heads rows of dqk floats, stride q_stride
    int64_t q_stride = 0;
    int64_t n_heads = 0;
    int64_t dqk = 0;
    int64_t dv = 0; // dv <= dqk
    float scale = 1.0f;
};

// The running state of one query: m[n_heads], l[n_heads], o[n_heads][dv].
struct MqaRowsState {
    float* m = nullptr;
    float* l = nullptr;
    float* o = nullptr;
};

// Continues `st` with rows[0 .. n) (each at least dqk floats).
using MqaRowsFn = void (*)(const MqaRowsQuery& q, const float* const* rows, int64_t n,
                           const MqaRowsState& st);

namespace ref {
void mqa_rows(const MqaRowsQuery& q, const float* const* rows, int64_t n, const MqaRowsState& st);
} // namespace ref

namespace avx2 {
void mqa_rows(const MqaRowsQuery& q, const float* const* rows, int64_t n, const MqaRowsState& st);
} // namespace avx2

namespace avx512 {
// 16 lanes, batches of 16 rows; dqk or dv not a multiple of 16: the AVX2 kernel.
void mqa_rows(const MqaRowsQuery& q, const float* const* rows, int64_t n, const MqaRowsState& st);
} // namespace avx512

// The kernel for `path` (AVX-512 under Auto when available, AVX2 when asked for / available).
MqaRowsFn mqa_rows_kernel(KernelPath path);

// An empty state: m = -inf, l = 0, o = 0.
void mqa_rows_init(const MqaRowsQuery& q, const MqaRowsState& st);

// out[h][·] (stride out_stride) = the softmax-weighted values of the merged partials
// parts[0 .. n_parts) (rows seen by none of them: zeros).
void mqa_rows_merge(const MqaRowsQuery& q, const MqaRowsState* parts, int n_parts, float* out,
                    int64_t out_stride);

} // namespace folio
