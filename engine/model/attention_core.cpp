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

namespace {

// Copies the selected rows (d floats each) to gather[n][d], prefetching a few rows ahead: the
// rows are scattered over the whole cache, so without it every row waits for memory in turn.
void gather_rows(const SelectedAttention& a, const int32_t* keys, int64_t n, float* gather) {
    constexpr int64_t kAhead = 6;
    const int64_t d = a.dqk;
    const int64_t bytes = d * static_cast<int64_t>(sizeof(float));
    for (int64_t j = 0; j < n; ++j) {
        if (j + kAhead < n) {
            const char* p = reinterpret_cast<const char*>(a.kv->row_ptr(keys[j + kAhead]));
            for (int64_t off = 0; off < bytes; off += 64)
                __builtin_prefetch(p + off);
        }
        a.kv->read_row(keys[j], gather + j * d, d);
    }
}

} // namespace

void attend_selected(const SelectedAttention& a, std::vector<float>& gather,
                     std::vector<float>& scores) {
    const int64_t n = a.n_keys, d = a.dqk;
    gather.resize(static_cast<size_t>(n * d));
    gather_rows(a, a.keys, n, gather.data());
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

void attend_selected_split(const SelectedAttention& a, int parts) {
    const int64_t H = a.n_heads, d = a.dqk, dv = a.dv, n = a.n_keys;
    parts = static_cast<int>(std::clamp<int64_t>(parts, 1, std::max<int64_t>(1, n)));
    // Per part and head: the scaled score maximum, the softmax sum, the normalized output.
    std::vector<float> maxima(static_cast<size_t>(parts * H)), sums(maxima.size()),
        outs(static_cast<size_t>(parts * H * dv));
#pragma omp parallel for num_threads(parts) schedule(static, 1) if (parts > 1)
    for (int p = 0; p < parts; ++p) {
        thread_local std::vector<float> gather, scores;
        const int64_t j0 = n * p / parts, j1 = n * (p + 1) / parts, m = j1 - j0;
        gather.resize(static_cast<size_t>(m * d));
        gather_rows(a, a.keys + j0, m, gather.data());
        scores.resize(static_cast<size_t>(H * m));
        ConstMap Q(a.q, H, d, Eigen::OuterStride<>(a.q_stride));
        ConstMap G(gather.data(), m, d, Eigen::OuterStride<>(d));
        MutMap S(scores.data(), H, m, Eigen::OuterStride<>(m));
        S.noalias() = Q * G.transpose();
        for (int64_t h = 0; h < H; ++h) {
            float* row = scores.data() + h * m;
            const int64_t arg = std::max_element(row, row + m) - row;
            maxima[p * H + h] = row[arg] * a.scale;
            softmax_row(row, m, a.scale);
            sums[p * H + h] = 1.0f / row[arg]; // softmax of the maximum = exp(0) / sum
        }
        ConstMap Vg(gather.data(), m, dv, Eigen::OuterStride<>(d));
        MutMap O(outs.data() + p * H * dv, H, dv, Eigen::OuterStride<>(dv));
        O.noalias() = S * Vg;
    }
    for (int64_t h = 0; h < H; ++h) {
        float M = -std::numeric_limits<float>::infinity();
        for (int p = 0; p < parts; ++p)
            M = std::max(M, maxima[p * H + h]);
        std::vector<float> wts(static_cast<size_t>(parts));
        float total = 0.0f;
        for (int p = 0; p < parts; ++p) {
            wts[p] = sums[p * H + h] * std::exp(maxima[p * H + h] - M);
            total += wts[p];
        }
        float* o = a.out + h * a.out_stride;
        for (int64_t i = 0; i < dv; ++i) {
            float v = 0.0f;
            for (int p = 0; p < parts; ++p)
                v += wts[p] * outs[(p * H + h) * dv + i];
            o[i] = v / total;
        }
    }
}

} // namespace folio
