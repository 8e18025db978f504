#include "model/attention/attention_core.h"

#include "core/region_errors.h"
#include "kernels/gemm_f32.h"
#include "kernels/mqa_rows.h"
#include "kernels/softmax.h"
#include "kernels/thread_scratch.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace folio {

namespace {
// softmax(row·scale) over n values with the kernels' softmax (vectorized exp on AVX2): the
// exponentials dominate attention at long context. One thread: callers parallelize over heads.
void softmax_row(float* row, int64_t n, float scale) {
    softmax(KernelContext{1, KernelPath::Auto}, row, n, 1, n, scale);
}

} // namespace

void attend_causal(const AttentionBlock& b, std::vector<float>& scores) {
    const int64_t n_keys = b.pos0 + b.nq; // the last query sees all of them
    scores.resize(static_cast<size_t>(b.nq * n_keys));
    constexpr KernelPath path = KernelPath::Auto;
    gemm_f32_abt(path, b.nq, n_keys, b.dqk, b.q, b.q_stride, b.k, b.k_stride, scores.data(),
                 n_keys);

    for (int64_t i = 0; i < b.nq; ++i) {
        float* row = scores.data() + i * n_keys;
        const int64_t visible = b.pos0 + i + 1;
        softmax_row(row, visible, b.scale);
        for (int64_t j = visible; j < n_keys; ++j)
            row[j] = 0.0f;
    }

    gemm_f32_ab(path, b.nq, b.dv, n_keys, scores.data(), n_keys, b.v, b.v_stride, b.out,
                b.out_stride);
}

void attend_mqa_causal(const MqaBlock& b, std::vector<float>& scores, std::vector<float>& block) {
    const KvView& kv = *b.kv;
    const int64_t nq = (b.n_rows + b.rows_per_query - 1) / b.rows_per_query;
    const int64_t n_keys = b.pos0 + nq;
    const int64_t bt = kv.block_tokens, stride = kv.row_floats;
    const int64_t n_blocks = (n_keys + bt - 1) / bt;
    scores.resize(static_cast<size_t>(b.n_rows * n_keys));
    constexpr KernelPath path = KernelPath::Auto;
    for (int64_t blk = 0; blk < n_blocks; ++blk) {
        const int64_t k0 = blk * bt, nk = std::min(bt, n_keys - k0);
        gemm_f32_abt(path, b.n_rows, nk, b.dqk, b.q, b.q_stride, kv.block(blk, block), stride,
                     scores.data() + k0, n_keys);
    }
    for (int64_t r = 0; r < b.n_rows; ++r) {
        float* row = scores.data() + r * n_keys;
        const int64_t visible = b.pos0 + r / b.rows_per_query + 1;
        softmax_row(row, visible, b.scale);
        for (int64_t j = visible; j < n_keys; ++j)
            row[j] = 0.0f;
    }
    for (int64_t blk = 0; blk < n_blocks; ++blk) {
        const int64_t k0 = blk * bt, nk = std::min(bt, n_keys - k0);
        gemm_f32_ab(path, b.n_rows, b.dv, nk, scores.data() + k0, n_keys, kv.block(blk, block),
                    stride, b.out, b.out_stride, blk > 0);
    }
}

namespace {

// Pointers to the f32 rows of keys[0 .. n): the cache's own rows for f32 storage, else rows
// decoded into `decoded`.
const float* const* selected_rows(const SelectedAttention& a, const int32_t* keys, int64_t n,
                                  SelectedScratch& w) {
    w.rows.resize(static_cast<size_t>(n));
    const KvView& kv = *a.kv;
    if (kv.type == KvType::F32) {
        for (int64_t j = 0; j < n; ++j)
            w.rows[j] = reinterpret_cast<const float*>(kv.row_ptr(keys[j]));
        return w.rows.data();
    }
    const int64_t d = a.dqk;
    w.decoded.resize(static_cast<size_t>(n * d));
    for (int64_t j = 0; j < n; ++j) {
        kv.read_row(keys[j], w.decoded.data() + j * d, d);
        w.rows[j] = w.decoded.data() + j * d;
    }
    return w.rows.data();
}

MqaRowsQuery rows_query(const SelectedAttention& a) {
    MqaRowsQuery q;
    q.q = a.q;
    q.q_stride = a.q_stride;
    q.n_heads = a.n_heads;
    q.dqk = a.dqk;
    q.dv = a.dv;
    q.scale = a.scale;
    return q;
}

// The running softmax state of one query over keys[0 .. n) (mqa_rows.h), in w.state.
MqaRowsState attend_range(const SelectedAttention& a, const int32_t* keys, int64_t n,
                          SelectedScratch& w) {
    const MqaRowsQuery q = rows_query(a);
    w.state.resize(static_cast<size_t>(q.n_heads * (2 + q.dv)));
    const MqaRowsState st{w.state.data(), w.state.data() + q.n_heads,
                          w.state.data() + 2 * q.n_heads};
    mqa_rows_init(q, st);
    mqa_rows_kernel(a.path)(q, selected_rows(a, keys, n, w), n, st);
    return st;
}

} // namespace

void attend_selected(const SelectedAttention& a, SelectedScratch& w) {
    const MqaRowsState st = attend_range(a, a.keys, a.n_keys, w);
    mqa_rows_merge(rows_query(a), &st, 1, a.out, a.out_stride);
}

MqaRowsState attend_selected_part(const SelectedAttention& a, int parts, int p) {
    thread_local SelectedScratch w;
    thread_local ScratchCount held;
    const int64_t j0 = a.n_keys * p / parts, j1 = a.n_keys * (p + 1) / parts;
    const MqaRowsState st = attend_range(a, a.keys + j0, j1 - j0, w);
    held.note(w.rows.capacity() * sizeof(const float*) +
              (w.decoded.capacity() + w.state.capacity()) * sizeof(float));
    return st;
}

void attend_selected_merge(const SelectedAttention& a, const MqaRowsState* states, int parts) {
    mqa_rows_merge(rows_query(a), states, parts, a.out, a.out_stride);
}

int attend_split_parts(const SelectedAttention& a, int threads) {
    return static_cast<int>(std::clamp<int64_t>(threads, 1, std::max<int64_t>(1, a.n_keys)));
}

void attend_selected_split(const SelectedAttention& a, int parts) {
    parts = attend_split_parts(a, parts);
    std::vector<MqaRowsState> states(static_cast<size_t>(parts));
    RegionErrors errors; // the thread's scratch grows with the keys
#pragma omp parallel for num_threads(parts) schedule(static, 1) if (parts > 1)
    for (int p = 0; p < parts; ++p)
        errors.run([&] { states[p] = attend_selected_part(a, parts, p); });
    errors.rethrow();
    attend_selected_merge(a, states.data(), parts);
}

} // namespace folio
