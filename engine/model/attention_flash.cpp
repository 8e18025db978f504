#include "model/attention_flash.h"

#include "kernels/flash_tile.h"
#include "kernels/gemm_f32.h"
#include "kernels/mqa_rows.h"

#include <algorithm>

namespace folio {

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
    const GemmF32Fn gemm = gemm_f32_kernel(path);
    for (int64_t blk = 0; blk < n_blocks; ++blk) {
        const int64_t k0 = blk * bt, nk = std::min(bt, n_keys - k0);
        const float* rows = kv.block(blk, w.block);
        // Rows of queries that see none of this tile's keys need no scores: the rows are in
        // query order, so they are the first ones (before the tile's first key).
        const int64_t first_query = std::clamp<int64_t>(k0 - b.pos0, 0, nq);
        const int64_t r0 = first_query * b.rows_per_query;
        if (r0 >= R)
            break;
        GemmF32 qk; // S = Q·Kᵀ for rows r0.., the keys being the tile's first dqk floats
        qk.m = R - r0;
        qk.n = nk;
        qk.k = b.dqk;
        qk.a = b.q + r0 * b.q_stride;
        qk.lda = b.q_stride;
        qk.b = rows;
        qk.ldb = stride;
        qk.b_transposed = true;
        qk.c = w.scores.data() + r0 * nk;
        qk.ldc = nk;
        gemm(qk);
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
                for (int64_t d = 0; d < b.dv; ++d)
                    st.o[r * b.dv + d] *= w.rescale[r];
        GemmF32 pv; // O += P·V, the values being the first dv floats of the rows
        pv.m = R - r0;
        pv.n = b.dv;
        pv.k = nk;
        pv.a = t.s;
        pv.lda = nk;
        pv.b = rows;
        pv.ldb = stride;
        pv.c = st.o + r0 * b.dv;
        pv.ldc = b.dv;
        pv.accumulate = true;
        gemm(pv);
    }
    mqa_rows_merge(q, &st, 1, b.out, b.out_stride);
}

} // namespace folio
