#include "model/mixers/mla_attention.h"

#include "core/region_errors.h"
#include "kernels/gemm_f32.h"
#include "kernels/matmul.h"
#include "kernels/norm.h"
#include "kernels/parallel.h"
#include "kernels/rope.h"
#include "kernels/weight_rows.h"
#include "model/attention/attention_core.h"
#include "model/attention/attention_flash.h"
#include "model/mixers/dsa_index_keys.h"
#include "model/mixers/dsa_indexer.h"
#include "model/mixers/mla_weights.h"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <numeric>

namespace folio {

namespace {

// Naive form: queries per pass over one head's keys and values (each pass reads all n_kv rows;
// the flash scratch is this many × 256 scores). 512 = a whole prefill batch in one pass:
// pp512 @ d16384 1.26–1.31× against 64 (bench file with f16 attn_k_b, 2 threads).
constexpr int64_t kNaiveQueries = 512;
constexpr int64_t kSplitKeys = kMlaSplitKeys; // decode: keys worth splitting (the header)
// Below that, the heads are split once heads × keys × (dqk + dv) reaches this (~12 keys of the
// bench shape's 16 heads; a fork costs ~3 us). Bench deepseek2 Q4_K_M tg64 from an empty
// context, 5 alternating runs each, median attention: 0.302 ms/token on one thread, 0.260 split
// from the first key, 0.270 split from 300000.
constexpr double kSplitHeadsWork = 100000;
// Absorbed-form prefill: query rows (queries × heads) per flash-attention task; their q, state
// and output rows (~1 KB each per 256 latent values) stay in L2 while the key tiles pass.
constexpr int64_t kFlashRows = 128;

// Dequantizes the 2-D slice h of a 3-D weight into rows of f32.
Status dequantize_slice(const TensorView& t, int64_t h, std::vector<float>& out) {
    FOLIO_TRY(slice, slice_matrix(t, h));
    out.resize(static_cast<size_t>(slice.ne[0] * slice.ne[1]));
    for (int64_t r = 0; r < slice.ne[1]; ++r)
        FOLIO_CHECK(
            dequantize_row(slice.type, slice.row(r), out.data() + r * slice.ne[0], slice.ne[0]));
    return {};
}

// Runs fn(h, one) for every head h, the heads spread over the threads, `one` a single-thread
// context for the head's kernels: the per-head products W_UK,h and W_UV,h of a batch in one
// parallel region instead of one per head. (Decode takes matmul_slices: all heads' inputs
// converted at once, each thread a contiguous share of all the slices' rows.)
template <typename Fn> Status for_each_head(const KernelContext& ctx, int64_t H, Fn fn) {
    const int threads = static_cast<int>(std::min<int64_t>(std::max(1, ctx.n_threads), H));
    const KernelContext one{1, ctx.path};
    std::vector<Status> status(static_cast<size_t>(H));
    RegionErrors errors; // a head's activations grow with the batch
    parallel_for(threads, H, [&](int64_t h) { errors.run([&] { status[h] = fn(h, one); }); });
    errors.rethrow();
    for (const Status& st : status)
        FOLIO_CHECK(st);
    return {};
}

// Query t of the batch (all heads: absorbed form) over the cached rows `keys`.
SelectedAttention selected_query(DecoderScratch& s, int64_t H, int64_t row, int64_t kr, float scale,
                                 const KvView& cache_rows, int64_t t, const int32_t* keys,
                                 int64_t n_keys, KernelPath path) {
    SelectedAttention a;
    a.q = s.qabs.data() + t * H * row;
    a.q_stride = row;
    a.n_heads = H;
    a.dqk = row;
    a.kv = &cache_rows;
    a.dv = kr;
    a.keys = keys;
    a.n_keys = n_keys;
    a.scale = scale;
    a.out = s.obar.data() + t * H * kr;
    a.out_stride = kr;
    a.path = path;
    return a;
}

// One query over many keys (decode): reading them waits on memory, so split the keys across
// the threads when there are enough of them. Fewer keys: split the heads, every thread over all
// the keys for its heads (each head's numbers as on one thread), once the work pays for the fork.
void attend_one_query(const SelectedAttention& a, const KernelContext& ctx) {
    if (ctx.n_threads > 1 && a.n_keys >= kSplitKeys) {
        attend_selected_split(a, ctx.n_threads);
        return;
    }
    const double work = double(a.n_heads) * double(a.n_keys) * double(a.dqk + a.dv);
    const int threads = ctx.n_threads < 2 || work < kSplitHeadsWork
                            ? 1
                            : static_cast<int>(std::min<int64_t>(ctx.n_threads, a.n_heads));
    RegionErrors errors; // the scratch grows with the keys
    parallel_for(threads, threads, [&](int64_t t) {
        errors.run([&] {
            SelectedAttention part = a;
            const int64_t h0 = a.n_heads * t / threads, h1 = a.n_heads * (t + 1) / threads;
            part.q += h0 * a.q_stride;
            part.out += h0 * a.out_stride;
            part.n_heads = h1 - h0;
            SelectedScratch scratch;
            attend_selected(part, scratch);
        });
    });
    errors.rethrow();
}

// Key ids 0 .. n-1 (a dense query's keys), kept in the scratch between calls.
const int32_t* all_keys(DecoderScratch& s, int64_t n) {
    if (s.all_keys.size() < static_cast<size_t>(n)) {
        const auto have = static_cast<int32_t>(s.all_keys.size());
        s.all_keys.resize(static_cast<size_t>(n));
        std::iota(s.all_keys.begin() + have, s.all_keys.end(), have);
    }
    return s.all_keys.data();
}

// Slices [h0, h1) of a 3-D weight (W_UK, W_UV: one slice per head).
TensorView head_slices(const TensorView& w, int64_t h0, int64_t h1) {
    TensorView v = w;
    v.data = w.row(0, h0);
    v.ne[2] = h1 - h0;
    return v;
}

// Decode over fewer than kSplitKeys keys (absorbed form): each thread takes a share of the
// heads through all three steps, q_abs = W_UK,hᵀ·q_nope,h, the attention, o_h = W_UV,h·ō_h, in
// one region: the heads do not meet until attn_output, so the two forks, joins and waits between
// the steps are saved. Each head's numbers are those of the step-by-step path (the same kernels
// on the same rows, one thread per head either way).
Status attend_decode_by_heads(const MlaWeights& L, int64_t dk, int64_t dn, int64_t dr,
                              const SelectedAttention& all, const KernelContext& ctx,
                              DecoderScratch& s) {
    const int64_t H = all.n_heads, row = all.dqk, kr = all.dv, dv = L.v_b.ne[1];
    const int threads = static_cast<int>(std::min<int64_t>(ctx.n_threads, H));
    const KernelContext one{1, ctx.path};
    std::vector<Status> status(static_cast<size_t>(threads));
    RegionErrors errors; // the slices' activations and the attention's scratch grow
    parallel_for(threads, threads, [&](int64_t t) {
        errors.run([&] {
            const int64_t h0 = H * t / threads, h1 = H * (t + 1) / threads;
            Status st = matmul_slices(one, head_slices(L.k_b, h0, h1), s.q.data() + h0 * dk, dk,
                                      s.qabs.data() + h0 * row, row);
            if (st) {
                for (int64_t h = h0; h < h1; ++h)
                    std::memcpy(s.qabs.data() + h * row + kr, s.q.data() + h * dk + dn,
                                sizeof(float) * dr);
                SelectedAttention part = all;
                part.q += h0 * all.q_stride;
                part.out += h0 * all.out_stride;
                part.n_heads = h1 - h0;
                SelectedScratch scratch;
                attend_selected(part, scratch);
                st = matmul_slices(one, head_slices(L.v_b, h0, h1), s.obar.data() + h0 * kr, kr,
                                   s.o.data() + h0 * dv, dv);
            }
            status[static_cast<size_t>(t)] = st;
        });
    });
    errors.rethrow();
    for (const Status& st : status)
        FOLIO_CHECK(st);
    return {};
}

// Queries [t0, T) attend to their selected keys only (absorbed form, all heads at once: the
// selected latent rows are shared by the heads).
void attend_sparse(DecoderScratch& s, int64_t H, int64_t row, int64_t kr, float scale,
                   const KvView& cache_rows, int64_t t0, int64_t T, const KernelContext& ctx) {
    auto query = [&](int64_t t) {
        return selected_query(s, H, row, kr, scale, cache_rows, t,
                              s.selected.data() + s.sel_offset[t],
                              s.sel_offset[t + 1] - s.sel_offset[t], ctx.path);
    };
    // Decode: one query over top_k keys scattered over the whole cache.
    if (T - t0 == 1) {
        attend_one_query(query(t0), ctx);
        return;
    }
    const int threads = static_cast<int>(std::min<int64_t>(std::max(1, ctx.n_threads), T - t0));
    RegionErrors errors; // the scratch grows with the keys
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        omp_set_num_threads(1);
        SelectedScratch scratch;
#pragma omp for schedule(dynamic, 1)
        for (int64_t t = t0; t < T; ++t)
            errors.run([&] { attend_selected(query(t), scratch); });
    }
    errors.rethrow();
}

// The naive form: per head K_h = [W_UK,h·c | k_pe], V_h = W_UV,h·c over every cached row,
// then standard causal attention of all T queries. The heads are the tasks: a thread builds one
// head's K_h and V_h and uses them at once, so the scratch is one head's n_kv rows per thread
// (not all heads' at once: 16 heads at depth 128K would be 1.3 GB), the rows are still in cache
// when the queries read them, and both threads build keys (the products are most of the work at
// depth).
Status attend_naive(const ModelConfig& c, const MlaWeights& L, int64_t H, int64_t T, int64_t pos0,
                    const KvView& cache_rows, const KernelContext& ctx, DecoderScratch& s) {
    const int64_t kr = c.kv_lora_rank, dr = c.qk_rope, dn = c.qk_nope, dk = c.qk_head(),
                  dv = c.v_head, row = kr + dr, n_kv = pos0 + T;
    const double work = double(H) * n_kv * (kr * (dn + dv) + T * (dk + dv));
    const int threads =
        work < 65536.0 ? 1 : static_cast<int>(std::min<int64_t>(std::max(1, ctx.n_threads), H));
    if (s.mla_heads.size() < static_cast<size_t>(threads))
        s.mla_heads.resize(static_cast<size_t>(threads));
    std::vector<Status> status(static_cast<size_t>(H));
    RegionErrors errors; // one head's K and V rows: n_kv each, per thread
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        omp_set_num_threads(1); // this task's ICV: nested kernels stay serial in here
        MlaHeadScratch& w = s.mla_heads[static_cast<size_t>(omp_get_thread_num())];
        errors.run([&] {
            w.k.resize(static_cast<size_t>(n_kv * dk));
            w.v.resize(static_cast<size_t>(n_kv * dv));
        });
#pragma omp for schedule(dynamic, 1)
        for (int64_t h = 0; h < H; ++h)
            errors.run([&] {
                // W_UK,h: kr rows of dn (row j = W_UK[:, j]); W_UV,h: dv rows of kr.
                status[h] = dequantize_slice(L.k_b, h, w.deq_k);
                if (status[h])
                    status[h] = dequantize_slice(L.v_b, h, w.deq_v);
                if (!status[h])
                    return;
                for (int64_t blk = 0; blk < cache_rows.n_blocks(); ++blk) {
                    const int64_t t0 = blk * cache_rows.block_tokens,
                                  nt = cache_rows.rows_in_block(blk);
                    const float* crow = cache_rows.block(blk, w.kv_block);
                    // K_nope = C·W_UK (kr × dn), V = C·W_UVᵀ (W_UV stored dv × kr).
                    gemm_f32_ab(ctx.path, nt, dn, kr, crow, row, w.deq_k.data(), dn,
                                w.k.data() + t0 * dk, dk);
                    gemm_f32_abt(ctx.path, nt, dv, kr, crow, row, w.deq_v.data(), kr,
                                 w.v.data() + t0 * dv, dv);
                    for (int64_t t = 0; t < nt; ++t)
                        std::memcpy(w.k.data() + (t0 + t) * dk + dn, crow + t * row + kr,
                                    sizeof(float) * dr);
                }
                for (int64_t q0 = 0; q0 < T; q0 += kNaiveQueries) {
                    AttentionBlock b;
                    b.q = s.q.data() + q0 * H * dk + h * dk;
                    b.q_stride = H * dk;
                    b.nq = std::min(T, q0 + kNaiveQueries) - q0;
                    b.dqk = dk;
                    b.k = w.k.data();
                    b.k_stride = dk;
                    b.v = w.v.data();
                    b.v_stride = dv;
                    b.dv = dv;
                    b.pos0 = pos0 + q0;
                    b.scale = c.kq_scale;
                    b.out = s.o.data() + q0 * H * dv + h * dv;
                    b.out_stride = H * dv;
                    attend_causal_flash(b, w.flash, ctx.path);
                }
            });
    }
    errors.rethrow();
    for (const Status& st : status)
        FOLIO_CHECK(st);
    return {};
}

// Keys seen by T queries after pos0 cached rows: T·pos0 + T(T+1)/2.
double keys_seen(int64_t T, int64_t pos0) {
    return double(T) * pos0 + 0.5 * double(T) * (T + 1);
}

} // namespace

double mla_naive_cost(const ModelConfig& c, uint32_t il, int64_t T, int64_t pos0) {
    const double H = c.n_head[il], kr = c.kv_lora_rank, dk = c.qk_head(), dv = c.v_head;
    return double(pos0 + T) * kr * (c.qk_nope + dv) * H + keys_seen(T, pos0) * (dk + dv) * H;
}

double mla_absorbed_cost(const ModelConfig& c, uint32_t il, int64_t T, int64_t pos0) {
    const double H = c.n_head[il], kr = c.kv_lora_rank, dr = c.qk_rope;
    return double(T) * kr * (c.qk_nope + c.v_head) * H + keys_seen(T, pos0) * (2 * kr + dr) * H;
}

bool mla_auto_takes_naive(const ModelConfig& c, uint32_t il, int64_t T, int64_t pos0,
                          bool float_kv_b) {
    return T > 1 && (float_kv_b || pos0 >= kNaiveQuantizedFromDepth) &&
           mla_naive_cost(c, il, T, pos0) < mla_absorbed_cost(c, il, T, pos0);
}

Status mla_attention(const ModelConfig& c, const DecoderLayer& layer, uint32_t il,
                     DecoderState& state, const float* xn, int64_t T, const EvalOptions& opt,
                     DecoderScratch& s, float* out) {
    const MlaWeights& L = mixer_weights_of<MlaWeights>(layer);
    const KernelContext& kctx = opt.kernels;
    const MlaForm form = opt.mla;
    PagedKv& cache = state.kv();
    const int64_t E = c.n_embd, H = c.n_head[il], kr = c.kv_lora_rank, dr = c.qk_rope,
                  dn = c.qk_nope, dk = c.qk_head(), dv = c.v_head;
    const int64_t pos0 = cache.size();
    const int64_t row = kr + dr;
    PhaseTimer project(opt.profile, StepPhase::MlaProject);

    // q = attn_q_b · RMSNorm(attn_q_a · x) (or attn_q · x): [T][H·dk], per head [nope | rope].
    s.q.resize(static_cast<size_t>(T * H * dk));
    s.kv.resize(static_cast<size_t>(T * row));
    float* rows = s.kv.data();
    const int64_t qr = c.q_lora_rank;
    if (qr > 0)
        s.qa.resize(static_cast<size_t>(T * qr));
    // The first q projection (attn_q_a, or attn_q without a q LoRA) and
    // [c | k_pe] = attn_kv_a_mqa · x (written straight into the cache rows) share their input:
    // in decode one region streams both.
    const TensorView& q_first = qr > 0 ? L.q_a : L.q;
    float* const q_first_out = qr > 0 ? s.qa.data() : s.q.data();
    if (T == 1) {
        const TensorView ws[] = {q_first, L.kv_a_mqa};
        float* const ys[] = {q_first_out, rows};
        FOLIO_CHECK(matmul_one_input(kctx, ws, xn, ys));
    } else {
        FOLIO_CHECK(matmul(kctx, q_first, xn, E, T, q_first_out, q_first.ne[1]));
        FOLIO_CHECK(matmul(kctx, L.kv_a_mqa, xn, E, T, rows, row));
    }
    if (qr > 0) {
        rms_norm(kctx, s.qa.data(), static_cast<const float*>(L.q_a_norm.data), s.qa.data(), qr, T,
                 qr, qr, c.rms_eps);
        FOLIO_CHECK(matmul(kctx, L.q_b, s.qa.data(), qr, T, s.q.data(), H * dk));
    }
    rms_norm(kctx, rows, static_cast<const float*>(L.kv_a_norm.data), rows, kr, T, row, row,
             c.rms_eps);

    // RoPE (NORM pairs, YaRN) on q_pe of every head and on the shared k_pe, at their positions;
    // kimi-linear's MLA layers use no position encoding at all (NoPE).
    std::vector<int32_t> positions(static_cast<size_t>(T));
    std::iota(positions.begin(), positions.end(), static_cast<int32_t>(pos0));
    if (c.mla_rope) {
        FOLIO_CHECK(rope(kctx, c.rope, s.q.data() + dn, dr, H, T, dk, H * dk, positions.data()));
        FOLIO_CHECK(rope(kctx, c.rope, rows + kr, dr, 1, T, row, row, positions.data()));
    }
    FOLIO_CHECK(cache.store(il, rows, T));

    // DSA (DeepSeek-V3.2-Exp): queries that see more than top_k keys attend only to the keys the
    // indexer selects; the first n_dense queries see at most top_k keys and stay dense.
    int64_t n_dense = T;
    project.stop();
    if (L.indexer.q_b.data != nullptr) {
        PhaseTimer index(opt.profile, StepPhase::Indexer);
        const float* q_in = c.q_lora_rank > 0 ? s.qa.data() : xn;
        const int64_t q_in_dim = c.q_lora_rank > 0 ? c.q_lora_rank : E;
        FOLIO_TRY(n, dsa_index(c, L.indexer, index_keys_of(state, il), q_in, q_in_dim, xn, T, pos0,
                               kctx, s));
        n_dense = n;
    }

    const int64_t n_kv = pos0 + T;
    PhaseTimer attend(opt.profile, StepPhase::Attention);
    // Auto: the cheaper form; with quantized W_UK / W_UV the naive one only at depth (see
    // kNaiveQuantizedFromDepth).
    const bool float_kv_b =
        activation_format(L.k_b.type) == DType::F32 && activation_format(L.v_b.type) == DType::F32;
    const bool naive =
        n_dense == T &&
        (form == MlaForm::Naive ||
         (form == MlaForm::Auto && mla_auto_takes_naive(c, il, T, pos0, float_kv_b)));

    // Rows 0 .. pos0 + T, block by block. Sparse queries read (and mark as used) only the
    // blocks of their selected keys.
    const KvView cache_rows = cache.view(il, n_kv, n_dense > 0);
    if (n_dense < T)
        cache.mark_rows(il, s.selected.data() + s.sel_offset[n_dense],
                        s.sel_offset[T] - s.sel_offset[n_dense]);

    s.o.resize(static_cast<size_t>(T * H * dv));
    if (naive) {
        FOLIO_CHECK(attend_naive(c, L, H, T, pos0, cache_rows, kctx, s));
    } else if (T == 1 && n_dense == 1 && pos0 + 1 < kSplitKeys && kctx.n_threads > 1) {
        // Decode over few keys: each thread a share of the heads, all three steps in one region.
        s.qabs.resize(static_cast<size_t>(H * row));
        s.obar.resize(static_cast<size_t>(H * kr));
        FOLIO_CHECK(
            attend_decode_by_heads(L, dk, dn, dr,
                                   selected_query(s, H, row, kr, c.kq_scale, cache_rows, 0,
                                                  all_keys(s, pos0 + 1), pos0 + 1, kctx.path),
                                   kctx, s));
    } else {
        // Absorbed form: q_abs,h = W_UK,hᵀ·q_nope,h (mul_mat with the [dn, kr] slice h), attention
        // over the cached rows with keys [c | k_pe] and values c, then o_h = W_UV,h·ō_h.
        s.qabs.resize(static_cast<size_t>(T * H * row));
        if (T == 1) { // decode: all heads' slices in one region
            FOLIO_CHECK(matmul_slices(kctx, L.k_b, s.q.data(), dk, s.qabs.data(), row));
            for (int64_t h = 0; h < H; ++h)
                std::memcpy(s.qabs.data() + h * row + kr, s.q.data() + h * dk + dn,
                            sizeof(float) * dr);
        } else {
            FOLIO_CHECK(for_each_head(kctx, H, [&](int64_t h, const KernelContext& one) -> Status {
                FOLIO_CHECK(matmul_expert(one, L.k_b, h, s.q.data() + h * dk, H * dk, T,
                                          s.qabs.data() + h * row, H * row));
                for (int64_t t = 0; t < T; ++t)
                    std::memcpy(s.qabs.data() + (t * H + h) * row + kr,
                                s.q.data() + t * H * dk + h * dk + dn, sizeof(float) * dr);
                return {};
            }));
        }
        s.obar.resize(static_cast<size_t>(T * H * kr));
        // All heads share the cached rows: batch them so each key row is read once per task.
        if (n_dense == 1) {
            // One dense query (decode) over all its pos0 + 1 keys: the same kernel as the
            // sparse queries, rows read in place and split over the threads, each row once for
            // all heads.
            attend_one_query(selected_query(s, H, row, kr, c.kq_scale, cache_rows, 0,
                                            all_keys(s, pos0 + 1), pos0 + 1, kctx.path),
                             kctx);
        } else if (n_dense > 0) {
            // Prefill: blocks of queries, each with all its heads (rows [t][h] are contiguous
            // in qabs and obar), over tiles of keys with an online softmax (attention_flash.h).
            const double work = double(H) * n_dense * (pos0 + n_dense) * (row + kr);
            const int threads = work < 65536.0 ? 1 : std::max(1, kctx.n_threads);
            const int64_t queries_per_task = std::max<int64_t>(1, kFlashRows / H);
            const int64_t tasks = (n_dense + queries_per_task - 1) / queries_per_task;
            RegionErrors errors; // the tile scratch grows with the keys
#pragma omp parallel num_threads(                                                                  \
    static_cast <int>(std::min <int64_t>(threads, tasks))) if (threads > 1 && tasks > 1)
            {
                FlashScratch scratch;
#pragma omp for schedule(dynamic, 1)
                for (int64_t task = 0; task < tasks; ++task)
                    errors.run([&] {
                        const int64_t q0 = task * queries_per_task,
                                      q1 = std::min(n_dense, q0 + queries_per_task);
                        MqaBlock b;
                        b.q = s.qabs.data() + q0 * H * row;
                        b.q_stride = row;
                        b.n_rows = (q1 - q0) * H;
                        b.rows_per_query = H;
                        b.dqk = row;
                        b.kv = &cache_rows; // V = c, the first kr values of each cached row
                        b.dv = kr;
                        b.pos0 = pos0 + q0;
                        b.scale = c.kq_scale;
                        b.out = s.obar.data() + q0 * H * kr;
                        b.out_stride = kr;
                        attend_mqa_flash(b, scratch, kctx.path);
                    });
            }
            errors.rethrow();
        }
        if (n_dense < T)
            attend_sparse(s, H, row, kr, c.kq_scale, cache_rows, n_dense, T, kctx);
        if (T == 1)
            FOLIO_CHECK(matmul_slices(kctx, L.v_b, s.obar.data(), kr, s.o.data(), dv));
        else
            FOLIO_CHECK(for_each_head(kctx, H, [&](int64_t h, const KernelContext& one) {
                return matmul_expert(one, L.v_b, h, s.obar.data() + h * kr, H * kr, T,
                                     s.o.data() + h * dv, H * dv);
            }));
    }
    attend.stop();
    PhaseTimer out_proj(opt.profile, StepPhase::MlaProject);
    return matmul(kctx, layer.attn_output, s.o.data(), H * dv, T, out, E);
}

} // namespace folio
