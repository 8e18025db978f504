#include "model/decoder/token_ffn.h"

#include "core/alloc_faults.h"
#include "core/region_errors.h"
#include "kernels/activations.h"
#include "kernels/decode_team.h"
#include "kernels/matmul.h"
#include "kernels/thread_balance.h"

#include <algorithm>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace folio {

namespace {

// Below this many weight bytes in all, one thread: a region costs more than it saves.
constexpr size_t kMinBytesForThreads = size_t{512} << 10;

// Shares are cut at multiples of 16 rows (whole cache lines of f32 output, and the
// element-wise kernels' vector tails only at the very end).
constexpr int64_t kShareAlign = 16;

Status rows_of(const KernelContext& one, const TensorView& w, const QuantizedActivations& x,
               RowShare r, float* y) {
    if (r.end <= r.begin)
        return {};
    FOLIO_TRY(part, slice_rows(w, r.begin, r.end));
    return matmul(one, part, x, y + r.begin, w.ne[1]);
}

// The MLPs' shapes checked; f0[i] = offset of MLP i's F values (f0[n] = all of them).
Status offsets_of(std::span<const TokenMlp> mlps, int64_t E, std::vector<int64_t>& f0,
                  size_t& bytes) {
    const auto n = static_cast<int64_t>(mlps.size());
    f0.assign(static_cast<size_t>(n + 1), 0);
    bytes = 0;
    for (int64_t i = 0; i < n; ++i) {
        const TokenMlp& m = mlps[i];
        const int64_t F = m.gate.ne[1];
        if (m.gate.ne[0] != E || m.up.ne[0] != E || m.up.ne[1] != F || m.down.ne[0] != F ||
            m.down.ne[1] != E)
            return make_error(ErrorCode::InvalidArgument,
                              "token_ffn: MLP " + std::to_string(i) + " has mismatched shapes");
        f0[i + 1] = f0[i] + F;
        for (const TensorView* w : {&m.gate, &m.up, &m.down})
            bytes += w->nb[1] * static_cast<size_t>(w->ne[1]);
    }
    return {};
}

// Thread `me` of `threads`: its shares of the gates and ups, one barrier, its shares of the
// downs and of the weighted sum (added to residual[r] too when residual is set). `input(type)`
// gives xn converted for a weight of that type. A failed step skips the thread's remaining
// work but not the barrier.
template <typename Input>
void member(const KernelContext& one, ThreadBalance* balance, int threads, int me,
            std::span<const TokenMlp> mlps, const std::vector<int64_t>& f0, Input&& input,
            int64_t E, TokenFfnScratch& s, float* out, float* residual, RegionErrors& errors,
            Status& st) {
    const auto n = static_cast<int64_t>(mlps.size());
    double start = balance != nullptr ? balance_clock() : 0;
    int64_t mine = 0; // gate / up rows this thread took
    for (int64_t i = 0; i < n && st.has_value() && !errors.failed(); ++i) {
        const TokenMlp& m = mlps[i];
        const RowShare r = row_share(balance, threads, m.gate.ne[1], kShareAlign, me);
        float* g = s.g.data() + f0[i];
        float* u = s.u.data() + f0[i];
        errors.run([&] {
            const QuantizedActivations* xg = input(m.gate.type);
            const QuantizedActivations* xu = xg != nullptr ? input(m.up.type) : nullptr;
            if (xg == nullptr || xu == nullptr) {
                st = make_error(ErrorCode::OutOfMemory, "token_ffn: input not converted");
                return;
            }
            st = rows_of(one, m.gate, *xg, r, g);
            if (st.has_value())
                st = rows_of(one, m.up, *xu, r, u);
            if (st.has_value() && r.size() > 0)
                swiglu(one, g + r.begin, u + r.begin, g + r.begin, r.size());
        });
        mine += r.size();
    }
    if (balance != nullptr && f0[n] > 0)
        balance->record(me, static_cast<double>(mine) / static_cast<double>(f0[n]),
                        balance_clock() - start);
#pragma omp barrier
    const RowShare r = row_share(balance, threads, E, kShareAlign, me);
    start = balance != nullptr ? balance_clock() : 0;
    for (int64_t i = 0; i < n && st.has_value() && !errors.failed(); ++i) {
        const TokenMlp& m = mlps[i];
        // Every thread converts the whole hidden vector for itself (F values, cheap): no
        // second barrier waits for one thread to do it.
        QuantizedActivations& h = s.down_inputs[static_cast<size_t>(me * n + i)];
        errors.run([&] {
            st = quantize_activations(one, m.down.type, s.g.data() + f0[i], m.down.ne[0], 1,
                                      m.down.ne[0], &h);
            if (st.has_value())
                st = rows_of(one, m.down, h, r, s.y.data() + i * E);
        });
    }
    // This thread's output rows of every MLP are its own: the sum needs no second barrier.
    if (st.has_value() && !errors.failed()) {
        float* dst = out + r.begin;
        std::fill(dst, dst + r.size(), 0.0f);
        for (int64_t i = 0; i < n; ++i) {
            const float w = mlps[i].weight;
            const float* src = s.y.data() + i * E + r.begin;
            for (int64_t j = 0; j < r.size(); ++j)
                dst[j] += w * src[j];
        }
        if (residual != nullptr)
            for (int64_t j = r.begin; j < r.end; ++j)
                residual[j] += out[j];
    }
    if (balance != nullptr)
        balance->record(me, static_cast<double>(r.size()) / static_cast<double>(E),
                        balance_clock() - start);
}

} // namespace

Status token_ffn(const KernelContext& kctx, std::span<const TokenMlp> mlps, const float* xn,
                 int64_t E, TokenFfnScratch& s, float* out) {
    const auto n = static_cast<int64_t>(mlps.size());
    std::vector<int64_t> f0;
    size_t bytes = 0;
    FOLIO_CHECK(offsets_of(mlps, E, f0, bytes));
    s.g.resize(static_cast<size_t>(f0[n]));
    s.u.resize(static_cast<size_t>(f0[n]));
    s.y.resize(static_cast<size_t>(n * E));

    // xn converted once per activation format the gates and ups take (usually one); entries
    // past `formats` are left from earlier calls.
    size_t formats = 0;
    auto input = [&](DType type) -> const QuantizedActivations* {
        const DType f = activation_format(type);
        for (size_t j = 0; j < formats; ++j)
            if (s.inputs[j].format == f)
                return &s.inputs[j];
        return nullptr;
    };
    for (const TokenMlp& m : mlps)
        for (const TensorView* w : {&m.gate, &m.up}) {
            if (input(w->type) != nullptr)
                continue;
            if (s.inputs.size() <= formats)
                s.inputs.resize(formats + 1);
            FOLIO_CHECK(quantize_activations(kctx, w->type, xn, E, 1, E, &s.inputs[formats]));
            ++formats;
        }

    int threads = bytes < kMinBytesForThreads ? 1 : std::max(1, kctx.n_threads);
#ifndef _OPENMP
    threads = 1;
#endif
    if (s.down_inputs.size() < static_cast<size_t>(threads * n))
        s.down_inputs.resize(static_cast<size_t>(threads * n));
    std::vector<Status> status(static_cast<size_t>(threads));
    const KernelContext one{1, kctx.path};
    // Shares by the threads' measured speeds (each thread times its own rows, not its waits).
    ThreadBalance* balance = threads > 1 ? kctx.balance : nullptr;
    RegionErrors errors; // converting an input may allocate (its storage grows)

#pragma omp parallel num_threads(threads) if (threads > 1)
    {
#ifdef _OPENMP
        const int me = omp_get_thread_num();
#else
        const int me = 0;
#endif
        Status st;
        member(one, balance, threads, me, mlps, f0, input, E, s, out, nullptr, errors, st);
        status[static_cast<size_t>(me)] = st;
    }
    errors.rethrow();
    if (balance != nullptr)
        balance->update(threads);
    for (const Status& st : status)
        FOLIO_CHECK(st);
    return {};
}

void token_ffn_reserve(TokenFfnScratch& s, int threads, int64_t n_mlps, int64_t f_total,
                       int64_t E) {
    s.g.resize(static_cast<size_t>(f_total));
    s.u.resize(static_cast<size_t>(f_total));
    s.y.resize(static_cast<size_t>(n_mlps * E));
    if (s.down_inputs.size() < static_cast<size_t>(threads * n_mlps))
        s.down_inputs.resize(static_cast<size_t>(threads * n_mlps));
    if (s.team_inputs.size() < static_cast<size_t>(threads))
        s.team_inputs.resize(static_cast<size_t>(threads));
}

void token_ffn_member(const KernelContext& tk, std::span<const TokenMlp> mlps, const float* xn,
                      int64_t E, TokenFfnScratch& s, float* out, float* residual, TeamSteps& steps,
                      Status& st) {
    RegionErrors& errors = steps.errors;
    const DecodeTeam& team = *tk.team;
    const auto n = static_cast<int64_t>(mlps.size());
    const KernelContext one{1, tk.path};
    std::vector<int64_t> f0;
    std::vector<QuantizedActivations>* mine = nullptr;
    size_t used = 0; // of *mine
    steps.run(st, [&]() -> Status {
        size_t bytes = 0;
        FOLIO_CHECK(offsets_of(mlps, E, f0, bytes));
        if (s.g.size() < static_cast<size_t>(f0[n]) || s.y.size() < static_cast<size_t>(n * E) ||
            s.down_inputs.size() < static_cast<size_t>(team.threads * n) ||
            s.team_inputs.size() < static_cast<size_t>(team.threads))
            return make_error(ErrorCode::Internal, "token_ffn_member: scratch not reserved");
        // xn converted by this thread for itself, once per activation format, into
        // buffers kept from call to call (the first calls add them).
        mine = &s.team_inputs[static_cast<size_t>(team.me)];
        for (const TokenMlp& m : mlps)
            for (const TensorView* w : {&m.gate, &m.up}) {
                const DType f = activation_format(w->type);
                if (std::any_of(mine->begin(), mine->begin() + static_cast<ptrdiff_t>(used),
                                [&](const QuantizedActivations& q) { return q.format == f; }))
                    continue;
                if (mine->size() <= used) {
                    region_allocation_fault_point(sizeof(float) * static_cast<size_t>(E));
                    mine->emplace_back();
                }
                FOLIO_CHECK(quantize_activations(one, w->type, xn, E, 1, E, &(*mine)[used]));
                ++used;
            }
        return {};
    });
    if (!steps.ok(st)) {
        f0.assign(static_cast<size_t>(n + 1), 0); // nothing to do, but the barrier is met
        mlps = {};
    }
    auto input = [&](DType type) -> const QuantizedActivations* {
        const DType f = activation_format(type);
        for (size_t j = 0; j < used; ++j)
            if ((*mine)[j].format == f)
                return &(*mine)[j];
        return nullptr;
    };
    member(one, team.threads > 1 ? tk.balance : nullptr, team.threads, team.me, mlps, f0, input, E,
           s, out, residual, errors, st);
}

} // namespace folio
