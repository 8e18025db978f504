#include "model/attention_flash.h"

#include "kernels/flash_tile.h"
#include "kernels/mqa_rows.h"

#include <Eigen/Core>

#include <algorithm>

namespace folio {

namespace {
using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMajor, 0, Eigen::OuterStride<>>;
using MutMap = Eigen::Map<RowMajor, 0, Eigen::OuterStride<>>;
} // namespace

void attend_mqa_flash(const MqaBlock& b, FlashScratch& w, KernelPath path) {
    const KvView& kv = *b.kv;
    const int64_t R = b.n_rows;
    const int64_t nq = (R + b.rows_per_query - 1) / b.rows_per_query;
    const int64_t n_keys = b.pos0 + nq; // the last query sees all of them
    const int64_t bt = kv.block_tokens, stride = kv.row_floats;
    const int64_t n_blocks = (n_keys + bt - 1) / bt;

    // The decode kernel's state with the R query rows as its "heads".
    MqaRowsQuery q;
    q.q = b.q;
    q.q_stride = b.q_stride;
    q.n_heads = R;
    q.dqk = b.dqk;
    q.dv = b.dv;
    q.scale = b.scale;
    w.state.resize(static_cast<size_t>(R * (2 + b.dv)));
    const MqaRowsState st{w.state.data(), w.state.data() + R, w.state.data() + 2 * R};
    mqa_rows_init(q, st);
    w.scores.resize(static_cast<size_t>(R * bt));
    w.rescale.resize(static_cast<size_t>(R));

    const FlashTileFn step = flash_tile_kernel(path);
    ConstMap Q(b.q, R, b.dqk, Eigen::OuterStride<>(b.q_stride));
    MutMap O(st.o, R, b.dv, Eigen::OuterStride<>(b.dv));
    for (int64_t blk = 0; blk < n_blocks; ++blk) {
        const int64_t k0 = blk * bt, nk = std::min(bt, n_keys - k0);
        const float* rows = kv.block(blk, w.block);
        ConstMap K(rows, nk, b.dqk, Eigen::OuterStride<>(stride));
        MutMap S(w.scores.data(), R, nk, Eigen::OuterStride<>(nk));
        // Rows of queries that see none of this tile's keys need no scores: the rows are in
        // query order, so they are the first ones (before the tile's first key).
        const int64_t first_query = std::clamp<int64_t>(k0 - b.pos0, 0, nq);
        const int64_t r0 = first_query * b.rows_per_query;
        if (r0 >= R)
            break;
        S.bottomRows(R - r0).noalias() = Q.bottomRows(R - r0) * K.transpose();
        FlashTile t;
        t.s = w.scores.data() + r0 * nk;
        t.rows = R - r0;
        t.nk = nk;
        t.ld = nk;
        t.vis0 = b.pos0 + first_query + 1 - k0;
        t.rows_per_query = b.rows_per_query;
        t.scale = b.scale;
        t.m = st.m + r0;
        t.l = st.l + r0;
        t.rescale = w.rescale.data() + r0;
        step(t);
        for (int64_t r = r0; r < R; ++r)
            if (w.rescale[r] != 1.0f)
                O.row(r) *= w.rescale[r];
        ConstMap V(rows, nk, b.dv, Eigen::OuterStride<>(stride));
        O.bottomRows(R - r0).noalias() += S.bottomRows(R - r0) * V;
    }
    mqa_rows_merge(q, &st, 1, b.out, b.out_stride);
}

} // namespace folio
