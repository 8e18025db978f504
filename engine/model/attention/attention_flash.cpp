#include "model/attention/attention_flash.h"

#include "kernels/flash_tile.h"
#include "kernels/gemm_f32.h"
#include "kernels/mqa_rows.h"

#include <algorithm>

namespace folio {

namespace {

constexpr int64_t kKeyTile = 256; // keys per tile of attend_causal_flash (K and V not paged)

// R query rows (rows_per_query per query position, query i at position pos0 + i) and their
// running softmax state, the decode kernel's (kernels/mqa_rows.h), over tiles of keys.
struct FlashRows {
    MqaRowsQuery q;
    int64_t rows_per_query = 1;
    int64_t pos0 = 0;
    MqaRowsState st;
    FlashScratch* w = nullptr;
    FlashTileFn step = nullptr;
    GemmF32Fn gemm = nullptr;
};

FlashRows start_rows(const float* q, int64_t q_stride, int64_t R, int64_t rows_per_query,
                     int64_t dqk, int64_t dv, int64_t pos0, float scale, int64_t max_tile,
                     FlashScratch& w, KernelPath path) {
    FlashRows f;
    f.q.q = q;
    f.q.q_stride = q_stride;
    f.q.n_heads = R;
    f.q.dqk = dqk;
    f.q.dv = dv;
    f.q.scale = scale;
    f.rows_per_query = rows_per_query;
    f.pos0 = pos0;
    w.state.resize(static_cast<size_t>(R * (2 + dv)));
    f.st = MqaRowsState{w.state.data(), w.state.data() + R, w.state.data() + 2 * R};
    mqa_rows_init(f.q, f.st);
    w.scores.resize(static_cast<size_t>(R * max_tile));
    w.rescale.resize(static_cast<size_t>(R));
    f.w = &w;
    f.step = flash_tile_kernel(path);
    f.gemm = gemm_f32_kernel(path);
    return f;
}

// Keys k0 .. k0 + nk − 1 (rows of k and v, ldk / ldv floats apart): S = Q·Kᵀ, the softmax
// step, O = f·O + P·V. False when no row sees them (nor any later key).
bool add_key_tile(const FlashRows& f, int64_t k0, int64_t nk, const float* k, int64_t ldk,
                  const float* v, int64_t ldv) {
    const int64_t R = f.q.n_heads, dv = f.q.dv;
    const int64_t nq = (R + f.rows_per_query - 1) / f.rows_per_query;
    // Rows of queries that see none of this tile's keys need no scores: the rows are in query
    // order, so they are the first ones (before the tile's first key).
    const int64_t first_query = std::clamp<int64_t>(k0 - f.pos0, 0, nq);
    const int64_t r0 = first_query * f.rows_per_query;
    if (r0 >= R)
        return false;
    FlashScratch& w = *f.w;
    GemmF32 qk; // S = Q·Kᵀ for rows r0..
    qk.m = R - r0;
    qk.n = nk;
    qk.k = f.q.dqk;
    qk.a = f.q.q + r0 * f.q.q_stride;
    qk.lda = f.q.q_stride;
    qk.b = k;
    qk.ldb = ldk;
    qk.b_transposed = true;
    qk.c = w.scores.data() + r0 * nk;
    qk.ldc = nk;
    f.gemm(qk);
    FlashTile t;
    t.s = w.scores.data() + r0 * nk;
    t.rows = R - r0;
    t.nk = nk;
    t.ld = nk;
    t.vis0 = f.pos0 + first_query + 1 - k0;
    t.rows_per_query = f.rows_per_query;
    t.scale = f.q.scale;
    t.m = f.st.m + r0;
    t.l = f.st.l + r0;
    t.rescale = w.rescale.data() + r0;
    f.step(t);
    for (int64_t r = r0; r < R; ++r)
        if (w.rescale[r] != 1.0f)
            for (int64_t d = 0; d < dv; ++d)
                f.st.o[r * dv + d] *= w.rescale[r];
    GemmF32 pv; // O += P·V
    pv.m = R - r0;
    pv.n = dv;
    pv.k = nk;
    pv.a = t.s;
    pv.lda = nk;
    pv.b = v;
    pv.ldb = ldv;
    pv.c = f.st.o + r0 * dv;
    pv.ldc = dv;
    pv.accumulate = true;
    f.gemm(pv);
    return true;
}

} // namespace

void attend_mqa_flash(const MqaBlock& b, FlashScratch& w, KernelPath path) {
    const KvView& kv = *b.kv;
    const int64_t nq = (b.n_rows + b.rows_per_query - 1) / b.rows_per_query;
    const int64_t n_keys = b.pos0 + nq; // the last query sees all of them
    const int64_t bt = kv.block_tokens, stride = kv.row_floats;
    // The decode kernel's state with the query rows as its "heads"; a tile is a KV block, the
    // values the first dv floats of its rows.
    const FlashRows f = start_rows(b.q, b.q_stride, b.n_rows, b.rows_per_query, b.dqk, b.dv, b.pos0,
                                   b.scale, bt, w, path);
    for (int64_t blk = 0; blk * bt < n_keys; ++blk) {
        const float* rows = kv.block(blk, w.block);
        if (!add_key_tile(f, blk * bt, std::min(bt, n_keys - blk * bt), rows, stride, rows, stride))
            break;
    }
    mqa_rows_merge(f.q, &f.st, 1, b.out, b.out_stride);
}

void attend_causal_flash(const AttentionBlock& b, FlashScratch& w, KernelPath path) {
    const int64_t n_keys = b.pos0 + b.nq;
    const FlashRows f =
        start_rows(b.q, b.q_stride, b.nq, 1, b.dqk, b.dv, b.pos0, b.scale, kKeyTile, w, path);
    for (int64_t k0 = 0; k0 < n_keys; k0 += kKeyTile)
        if (!add_key_tile(f, k0, std::min(kKeyTile, n_keys - k0), b.k + k0 * b.k_stride, b.k_stride,
                          b.v + k0 * b.v_stride, b.v_stride))
            break;
    mqa_rows_merge(f.q, &f.st, 1, b.out, b.out_stride);
}

} // namespace folio
