#include "kernels/matmul.h"

#include "kernels/decode_team.h"
#include "kernels/gemm_kquant.h"
#include "kernels/gemm_q8_0.h"
#include "kernels/kernel_table.h"
#include "kernels/parallel.h"
#include "kernels/thread_balance.h"
#include "kernels/thread_scratch.h"
#include "kernels/weight_rows.h"
#include "kernels/weight_types.h"

#include <algorithm>
#include <span>
#include <string>

namespace folio {

namespace {

// A thread's converted activations, kept from call to call and counted as kernel scratch.
struct ThreadActivations {
    QuantizedActivations xq;
    ScratchCount count;
    void note() { count.note(xq.storage.capacity()); }
};

Status check_weight(const TensorView& w, const char* what) {
    FOLIO_CHECK(check_tensor_view(w, what));
    if (w.ne[2] != 1 || w.ne[3] != 1)
        return make_error(ErrorCode::InvalidArgument,
                          std::string(what) + ": weight must be 2-D (slice experts first)");
    if (w.nb[1] < w.row_bytes())
        return make_error(ErrorCode::InvalidArgument, std::string(what) + ": row stride too small");
    return {};
}

// Work is cut into tiles of kRowChunk weight rows × kTokenBlock activation rows. The rows of W in
// a tile stay in L2 while groups of kMaxDotRows activation rows stream past them; consecutive
// tiles share their weight rows, and the static schedule hands each thread a contiguous range
// (so a matvec streams each thread's part of W exactly once). Tiling over tokens too keeps all
// threads busy when N is small and T large.
constexpr int64_t kRowChunk = 16;
constexpr int64_t kTokenBlock = 64;

// One activation row against several row sets of one weight type and K in one parallel region
// (decode): set i is n rows, `stride` bytes apart from w, against activation row x into y[0..n).
// Thread t streams one contiguous share of the R rows of all sets in order (R/threads each, or
// in proportion to the threads' measured speeds with ctx.balance), one fork for all. On the
// 2-core machines a fork and join costs ~3 µs and a barrier ~1.5 µs (cross-core line
// transfers), as much as streaming 100-150 KB.
struct RowSet {
    const uint8_t* w;
    size_t stride;
    int64_t n;
    const uint8_t* x;
    float* y;
    VecDotFn dot; // the set's weight type's kernels (rows_dot may be null)
    VecDotRowsFn rows_dot;
    size_t x_row_bytes; // of its activation row
};

// A set of rows of weight w against activation row x (converted for w's type) into y.
RowSet row_set(const KernelContext& ctx, const TensorView& w, int64_t i2, int64_t n,
               const QuantizedActivations& x, int64_t x_row, float* y) {
    const WeightType& t = *find_weight_type(w.type); // check_weight: a computable type
    return {w.row(0, i2),
            w.nb[1],
            n,
            x.row(x_row),
            y,
            weight_dot(t, ctx.path),
            weight_dot_rows(t, ctx.path),
            x.row_bytes};
}

// Below this many weight bytes a matvec stays on one thread: the fork would cost more than the
// second thread saves. Not higher: rows whose dot is slower than their bytes (the W_UK slices,
// 64 Q5_0 values a row, 180 KB per layer) still gain from the second thread (docs/NUMERICS.md).
constexpr double kMinMatvecBytesForThreads = 64.0 * 1024;

// Thread t's rows [begin, end) of the sets' `total` rows in order.
void matvec_share(int64_t k, std::span<const RowSet> sets, int64_t begin, int64_t end) {
    int64_t first = 0; // rows of the sets before s
    for (const RowSet& s : sets) {
        const int64_t r0 = std::max<int64_t>(0, begin - first),
                      r1 = std::min<int64_t>(s.n, end - first);
        first += s.n;
        for (int64_t r = r0; r < r1; r += s.rows_dot != nullptr ? kMaxDotRows : 1) {
            const uint8_t* w = s.w + r * s.stride;
            if (s.rows_dot != nullptr)
                s.rows_dot(k, w, s.stride, static_cast<int>(std::min<int64_t>(kMaxDotRows, r1 - r)),
                           s.x, s.y + r);
            else
                s.dot(k, w, s.x, s.x_row_bytes, 1, s.y + r, 0);
        }
    }
}

void matvec_sets(const KernelContext& ctx, int64_t k, std::span<const RowSet> sets) {
    int64_t total = 0;
    double bytes = 0;
    for (const RowSet& s : sets) {
        total += s.n;
        bytes += static_cast<double>(s.stride) * static_cast<double>(s.n);
    }
    if (ctx.team != nullptr) { // inside a decode region: this thread's share, no fork
        const double start = ctx.balance != nullptr ? balance_clock() : 0;
        const RowShare mine = team_share(ctx, total);
        matvec_share(k, sets, mine.begin, mine.end);
        if (ctx.balance != nullptr && ctx.team->threads > 1)
            ctx.balance->record(ctx.team->me,
                                static_cast<double>(mine.size()) / static_cast<double>(total),
                                balance_clock() - start);
        return;
    }
    const int threads =
        bytes < kMinMatvecBytesForThreads
            ? 1
            : static_cast<int>(std::min<int64_t>(std::max(1, ctx.n_threads), total));
    // Shares by the threads' measured speeds (kernels/thread_balance.h), equal without them.
    ThreadBalance* balance = threads > 1 ? ctx.balance : nullptr;
    parallel_for(threads, threads, [&](int64_t t) {
        const double start = balance != nullptr ? balance_clock() : 0;
        const RowShare mine = row_share(balance, threads, total, 1, static_cast<int>(t));
        matvec_share(k, sets, mine.begin, mine.end);
        if (balance != nullptr)
            balance->record(static_cast<int>(t),
                            static_cast<double>(mine.size()) / static_cast<double>(total),
                            balance_clock() - start);
    });
    if (balance != nullptr)
        balance->update(threads);
}

// rows_dot (may be null) takes groups of weight rows against a lone activation row.
void matmul_core(const KernelContext& ctx, VecDotFn dot, VecDotRowsFn rows_dot, const TensorView& w,
                 const QuantizedActivations& x, float* y, int64_t y_stride) {
    const int64_t k = w.ne[0], n = w.ne[1], t_count = x.n_rows;
    const int64_t n_chunks = (n + kRowChunk - 1) / kRowChunk;
    const int64_t n_tblocks = (t_count + kTokenBlock - 1) / kTokenBlock;
    const int64_t n_tiles = n_chunks * n_tblocks;
    const int threads =
        static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(ctx.n_threads, n_tiles)));
    parallel_for(threads, n_tiles, [&](int64_t tile) {
        const int64_t c = tile / n_tblocks, tb = tile % n_tblocks;
        const int64_t n0 = c * kRowChunk, n1 = std::min(n, n0 + kRowChunk);
        const int64_t t_end = std::min(t_count, (tb + 1) * kTokenBlock);
        for (int64_t t0 = tb * kTokenBlock; t0 < t_end; t0 += kMaxDotRows) {
            const int nx = static_cast<int>(std::min<int64_t>(kMaxDotRows, t_end - t0));
            if (nx == 1 && rows_dot != nullptr) {
                for (int64_t r = n0; r < n1; r += kMaxDotRows)
                    rows_dot(k, w.row(r), w.nb[1],
                             static_cast<int>(std::min<int64_t>(kMaxDotRows, n1 - r)), x.row(t0),
                             y + t0 * y_stride + r);
                continue;
            }
            for (int64_t r = n0; r < n1; ++r)
                dot(k, w.row(r), x.row(t0), x.row_bytes, nx, y + t0 * y_stride + r, y_stride);
        }
    });
}

} // namespace

DType activation_format(DType weight_type) {
    const WeightType* w = find_weight_type(weight_type);
    return w ? w->activations : DType::F32;
}

Status quantize_activations(const KernelContext& ctx, DType weight_type, const float* x, int64_t k,
                            int64_t n_rows, int64_t x_stride, QuantizedActivations* out,
                            const int32_t* row_ids) {
    if (k < 0 || n_rows < 0 || (n_rows > 0 && x == nullptr))
        return make_error(ErrorCode::InvalidArgument, "quantize_activations: bad shape");
    const DType format = activation_format(weight_type);
    const ActivationFormat* af = find_activation_format(format);
    const int64_t bs = dtype_traits(format).block_size;
    if (k % bs != 0)
        return make_error(ErrorCode::InvalidArgument,
                          "quantize_activations: K = " + std::to_string(k) +
                              " is not a multiple of " + std::to_string(bs));
    out->format = format;
    out->k = k;
    out->n_rows = n_rows;
    if (format == DType::F32 && row_ids == nullptr) {
        out->row_bytes = static_cast<size_t>(x_stride) * sizeof(float);
        out->rows = x;
        return {};
    }
    out->row_bytes = af ? af->row_bytes(k) : static_cast<size_t>(k) * sizeof(float);
    // Every byte of a row is written below; storage kept by the caller is reused as it is (grown,
    // never shrunk), so a prefill does not allocate, zero and fault in a buffer per matmul.
    const size_t need = out->row_bytes * static_cast<size_t>(n_rows);
    if (out->storage.size() < need)
        out->storage.resize(need);
    out->rows = out->storage.data();
    const QuantizeRowFn quantize = af ? activation_quantizer(*af, ctx.path) : nullptr;
    void (*const finish)(uint8_t*, int64_t) = af ? af->finish_row : nullptr;
    uint8_t* dst = out->storage.data();
    const size_t rb = out->row_bytes;
    const int threads = std::max(1, std::min<int>(ctx.n_threads, static_cast<int>(n_rows)));
    parallel_for(threads, n_rows, [&](int64_t t) {
        const float* src = x + (row_ids ? row_ids[t] : t) * x_stride;
        if (quantize) {
            quantize(src, dst + t * rb, k);
            if (finish)
                finish(dst + t * rb, k);
        } else
            std::copy(src, src + k, reinterpret_cast<float*>(dst + t * rb));
    });
    return {};
}

Status matmul(const KernelContext& ctx, const TensorView& w, const QuantizedActivations& x,
              float* y, int64_t y_stride) {
    FOLIO_CHECK(check_weight(w, "matmul"));
    if (x.format != activation_format(w.type) || x.k != w.ne[0])
        return make_error(ErrorCode::InvalidArgument,
                          "matmul: activations (K = " + std::to_string(x.k) + ", " +
                              std::string(dtype_name(x.format)) + ") do not fit a " +
                              std::string(dtype_name(w.type)) +
                              " weight with K = " + std::to_string(w.ne[0]));
    if (x.n_rows > 1 && y_stride < w.ne[1])
        return make_error(ErrorCode::InvalidArgument, "matmul: output stride < N");
    if (x.n_rows == 0 || w.ne[1] == 0)
        return {};
    // Prefill batches go to the GEMMs (kernels/gemm_q8_0.h, kernels/gemm_kquant.h).
    const bool batch = x.n_rows >= kGemmMinTokens;
    if (batch && gemm_q8_0_weight_type(w.type) && gemm_q8_0_available(ctx.path))
        gemm_q8_0(ctx, w, x, y, y_stride);
    else if (batch && gemm_kquant_available(w.type, ctx.path))
        gemm_kquant(ctx, w, x, y, y_stride);
    else {
        const WeightType& t = *find_weight_type(w.type); // check_weight: a computable type
        if (x.n_rows == 1) {
            const RowSet set = row_set(ctx, w, 0, w.ne[1], x, 0, y);
            matvec_sets(ctx, w.ne[0], {&set, 1});
        } else
            matmul_core(ctx, weight_dot(t, ctx.path), weight_dot_rows(t, ctx.path), w, x, y,
                        y_stride);
    }
    return {};
}

Status matmul(const KernelContext& ctx, const TensorView& w, const float* x, int64_t x_stride,
              int64_t n_tokens, float* y, int64_t y_stride) {
    FOLIO_CHECK(check_weight(w, "matmul"));
    if (n_tokens > 1 && x_stride < w.ne[0])
        return make_error(ErrorCode::InvalidArgument, "matmul: input stride < K");
    thread_local ThreadActivations t; // its storage is reused from call to call
    FOLIO_CHECK(quantize_activations(ctx, w.type, x, w.ne[0], n_tokens, x_stride, &t.xq));
    t.note();
    return matmul(ctx, w, t.xq, y, y_stride);
}

Status matmul_expert(const KernelContext& ctx, const TensorView& experts, int64_t e, const float* x,
                     int64_t x_stride, int64_t n_tokens, float* y, int64_t y_stride) {
    FOLIO_TRY(w, slice_matrix(experts, e));
    return matmul(ctx, w, x, x_stride, n_tokens, y, y_stride);
}

Status matmul_slices(const KernelContext& ctx, const TensorView& w, const float* x,
                     int64_t x_stride, float* y, int64_t y_stride) {
    FOLIO_TRY(first, slice_matrix(w, 0));
    FOLIO_CHECK(check_weight(first, "matmul_slices"));
    const int64_t k = w.ne[0], n = w.ne[1], slices = w.ne[2];
    if (w.ne[3] != 1 || y_stride < n)
        return make_error(ErrorCode::InvalidArgument,
                          "matmul_slices: a 3-D weight and an output stride >= N are needed");
    thread_local ThreadActivations t; // its storage is reused from call to call
    FOLIO_CHECK(
        quantize_activations(KernelContext{1, ctx.path}, w.type, x, k, slices, x_stride, &t.xq));
    t.note();
    thread_local std::vector<RowSet> sets;
    sets.clear();
    for (int64_t h = 0; h < slices; ++h)
        sets.push_back(row_set(ctx, w, h, n, t.xq, h, y + h * y_stride));
    matvec_sets(ctx, k, sets);
    return {};
}

Status matmul_one_input(const KernelContext& ctx, std::span<const TensorView> ws, const float* x,
                        std::span<float* const> ys) {
    if (ws.empty() || ws.size() != ys.size())
        return make_error(ErrorCode::InvalidArgument, "matmul_one_input: one output per weight");
    for (const TensorView& w : ws) {
        FOLIO_CHECK(check_weight(w, "matmul_one_input"));
        if (w.ne[0] != ws[0].ne[0])
            return make_error(ErrorCode::InvalidArgument,
                              "matmul_one_input: the weights differ in K");
    }
    const int64_t k = ws[0].ne[0];
    // x converted once per activation format the weights take (usually one).
    thread_local std::vector<QuantizedActivations> xqs;
    thread_local ScratchCount xqs_count;
    if (xqs.size() < ws.size())
        xqs.resize(ws.size()); // before any row pointer into them is taken
    size_t formats = 0;
    thread_local std::vector<RowSet> sets;
    sets.clear();
    for (size_t i = 0; i < ws.size(); ++i) {
        const DType format = activation_format(ws[i].type);
        size_t f = 0;
        while (f < formats && xqs[f].format != format)
            ++f;
        if (f == formats) {
            FOLIO_CHECK(quantize_activations(ctx, ws[i].type, x, k, 1, k, &xqs[formats]));
            ++formats;
        }
        sets.push_back(row_set(ctx, ws[i], 0, ws[i].ne[1], xqs[f], 0, ys[i]));
    }
    size_t held = 0;
    for (const QuantizedActivations& q : xqs)
        held += q.storage.capacity();
    xqs_count.note(held);
    matvec_sets(ctx, k, sets);
    return {};
}

Status matmul_expert_gathered(const KernelContext& ctx, const TensorView& experts, int64_t e,
                              const float* x, int64_t x_stride, int64_t n_tokens,
                              const int32_t* token_ids, int64_t n_ids, float* y, int64_t y_stride) {
    FOLIO_TRY(w, slice_matrix(experts, e));
    FOLIO_CHECK(check_weight(w, "matmul_expert_gathered"));
    for (int64_t i = 0; i < n_ids; ++i)
        if (token_ids[i] < 0 || token_ids[i] >= n_tokens)
            return make_error(ErrorCode::InvalidArgument, "matmul_expert_gathered: token index " +
                                                              std::to_string(token_ids[i]) +
                                                              " outside [0, " +
                                                              std::to_string(n_tokens) + ")");
    if (n_ids == 0)
        return {};
    thread_local ThreadActivations t; // kept from call to call, as the buffer below
    thread_local ThreadScratch<float> rows;
    FOLIO_CHECK(quantize_activations(ctx, w.type, x, w.ne[0], n_ids, x_stride, &t.xq, token_ids));
    t.note();
    const int64_t n = w.ne[1];
    std::vector<float>& tmp = rows.resize(static_cast<size_t>(n * n_ids));
    FOLIO_CHECK(matmul(ctx, w, t.xq, tmp.data(), n));
    for (int64_t i = 0; i < n_ids; ++i)
        std::copy(tmp.begin() + i * n, tmp.begin() + (i + 1) * n, y + token_ids[i] * y_stride);
    return {};
}

} // namespace folio
