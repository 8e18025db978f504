#include "model/attention_core.h"

#include "kernels/mqa_rows.h"
#include "kernels/softmax.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>

namespace folio {

namespace {
using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMajor, 0, Eigen::OuterStride<>>;
using MutMap = Eigen::Map<RowMajor, 0, Eigen::OuterStride<>>;
// softmax(row·scale) over n values with the kernels' softmax (vectorized exp on AVX2): the
// exponentials dominate attention at long context. One thread: callers parallelize over heads.
void softmax_row(float* row, int64_t n, float scale) {
    softmax(KernelContext{1, KernelPath::Auto}, row, n, 1, n, scale);
}

} // namespace

void attend_causal(const AttentionBlock& b, std::vector<float>& scores) {
    const int64_t n_keys = b.pos0 + b.nq; // the last query sees all of them
    scores.resize(static_cast<size_t>(b.nq * n_keys));
    ConstMap Q(b.q, b.nq, b.dqk, Eigen::OuterStride<>(b.q_stride));
    ConstMap K(b.k, n_keys, b.dqk, Eigen::OuterStride<>(b.k_stride));
    MutMap S(scores.data(), b.nq, n_keys, Eigen::OuterStride<>(n_keys));
    S.noalias() = Q * K.transpose();

    for (int64_t i = 0; i < b.nq; ++i) {
        float* row = scores.data() + i * n_keys;
        const int64_t visible = b.pos0 + i + 1;
        softmax_row(row, visible, b.scale);
        for (int64_t j = visible; j < n_keys; ++j)
            row[j] = 0.0f;
    }

    ConstMap V(b.v, n_keys, b.dv, Eigen::OuterStride<>(b.v_stride));
    MutMap O(b.out, b.nq, b.dv, Eigen::OuterStride<>(b.out_stride));
    O.noalias() = S * V;
}

void attend_mqa_causal(const MqaBlock& b, std::vector<float>& scores, std::vector<float>& block) {
    const KvView& kv = *b.kv;
    const int64_t nq = (b.n_rows + b.rows_per_query - 1) / b.rows_per_query;
    const int64_t n_keys = b.pos0 + nq;
    const int64_t bt = kv.block_tokens, stride = kv.row_floats;
    const int64_t n_blocks = (n_keys + bt - 1) / bt;
    scores.resize(static_cast<size_t>(b.n_rows * n_keys));
    ConstMap Q(b.q, b.n_rows, b.dqk, Eigen::OuterStride<>(b.q_stride));
    MutMap S(scores.data(), b.n_rows, n_keys, Eigen::OuterStride<>(n_keys));
    for (int64_t blk = 0; blk < n_blocks; ++blk) {
        const int64_t k0 = blk * bt, nk = std::min(bt, n_keys - k0);
        ConstMap K(kv.block(blk, block), nk, b.dqk, Eigen::OuterStride<>(stride));
        S.middleCols(k0, nk).noalias() = Q * K.transpose();
    }
    for (int64_t r = 0; r < b.n_rows; ++r) {
        float* row = scores.data() + r * n_keys;
        const int64_t visible = b.pos0 + r / b.rows_per_query + 1;
        softmax_row(row, visible, b.scale);
        for (int64_t j = visible; j < n_keys; ++j)
            row[j] = 0.0f;
    }
    MutMap O(b.out, b.n_rows, b.dv, Eigen::OuterStride<>(b.out_stride));
    for (int64_t blk = 0; blk < n_blocks; ++blk) {
        const int64_t k0 = blk * bt, nk = std::min(bt, n_keys - k0);
        ConstMap V(kv.block(blk, block), nk, b.dv, Eigen::OuterStride<>(stride));
        if (blk == 0)
            O.noalias() = S.middleCols(k0, nk) * V;
        else
            O.noalias() += S.middleCols(k0, nk) * V;
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

void attend_selected_split(const SelectedAttention& a, int parts) {
    parts = static_cast<int>(std::clamp<int64_t>(parts, 1, std::max<int64_t>(1, a.n_keys)));
    std::vector<MqaRowsState> states(static_cast<size_t>(parts));
#pragma omp parallel for num_threads(parts) schedule(static, 1) if (parts > 1)
    for (int p = 0; p < parts; ++p) {
        thread_local SelectedScratch w;
        const int64_t j0 = a.n_keys * p / parts, j1 = a.n_keys * (p + 1) / parts;
        states[p] = attend_range(a, a.keys + j0, j1 - j0, w);
    }
    mqa_rows_merge(rows_query(a), states.data(), parts, a.out, a.out_stride);
}

} // namespace folio
