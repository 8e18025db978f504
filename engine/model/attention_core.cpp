#include "model/attention_core.h"

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

void attend_selected(const SelectedAttention& a, std::vector<float>& gather,
                     std::vector<float>& scores) {
    const int64_t n = a.n_keys, d = a.dqk;
    gather.resize(static_cast<size_t>(n * d));
    for (int64_t j = 0; j < n; ++j)
        a.kv->read_row(a.keys[j], gather.data() + j * d, d);
    scores.resize(static_cast<size_t>(a.n_heads * n));
    ConstMap Q(a.q, a.n_heads, d, Eigen::OuterStride<>(a.q_stride));
    ConstMap G(gather.data(), n, d, Eigen::OuterStride<>(d));
    MutMap S(scores.data(), a.n_heads, n, Eigen::OuterStride<>(n));
    S.noalias() = Q * G.transpose();
    for (int64_t h = 0; h < a.n_heads; ++h) {
        softmax_row(scores.data() + h * n, n, a.scale);
    }
    ConstMap Vg(gather.data(), n, a.dv, Eigen::OuterStride<>(d));
    MutMap O(a.out, a.n_heads, a.dv, Eigen::OuterStride<>(a.out_stride));
    O.noalias() = S * Vg;
}

} // namespace folio
