#include "model/decoder/decode_region.h"

#include "kernels/decode_team.h"
#include "kernels/matmul.h"
#include "kernels/norm.h"
#include "model/decoder/moe_ffn.h"
#include "model/decoder/token_ffn.h"
#include "model/mixers/mixer_registry.h"

#include <algorithm>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace folio {

namespace {

// The largest token_ffn of any layer: MLPs and their gate rows in all.
void reserve_ffn(const ModelConfig& c, const DecoderWeights& w, int threads, DecoderScratch& s) {
    int64_t n_mlps = 1, f_total = 0;
    for (uint32_t il = 0; il < c.n_layer; ++il) {
        const DecoderLayer& L = w.layers[il];
        if (c.is_moe_layer(il)) {
            const bool shared = L.gate_shexp.data != nullptr;
            n_mlps = std::max<int64_t>(n_mlps, c.n_expert_used + (shared ? 1 : 0));
            f_total = std::max<int64_t>(f_total, c.n_expert_used * L.gate_exps.ne[1] +
                                                     (shared ? L.gate_shexp.ne[1] : 0));
        } else {
            f_total = std::max<int64_t>(f_total, L.ffn_gate.ne[1]);
        }
    }
    token_ffn_reserve(s.ffn.token, threads, n_mlps, f_total, c.n_embd);
    s.router.resize(static_cast<size_t>(std::max<int64_t>(1, c.n_expert)));
}

// Layer il's FFN on thread tk.team->me: x += FFN(RMSNorm(x)), this thread's rows.
void ffn_member(const ModelConfig& c, const DecoderLayer& L, uint32_t il, const KernelContext& tk,
                DecoderScratch& s, float* xn, TeamSteps& steps, Status& st) {
    const int64_t E = c.n_embd;
    const KernelContext one{1, tk.path};
    steps.run(st, [&] {
        rms_norm(one, s.x.data(), static_cast<const float*>(L.ffn_norm.data), xn, E, 1, E, E,
                 c.rms_eps);
        return Status{};
    });
    std::vector<TokenMlp> mlps;
    if (c.is_moe_layer(il)) {
        steps.run(st,
                  [&] { return matmul(tk, L.gate_inp, xn, E, 1, s.router.data(), c.n_expert); });
        team_barrier();
        // Every thread routes for itself (n_expert values): no barrier waits for one thread.
        steps.run(st, [&] { return token_mlps(c, L, s.router.data(), mlps); });
    } else {
        mlps.push_back({L.ffn_gate, L.ffn_up, L.ffn_down, 1.0f});
    }
    if (!steps.ok(st))
        mlps.clear();
    token_ffn_member(tk, mlps, xn, E, s.ffn.token, s.ffn_out.data(), s.x.data(), steps, st);
    team_barrier();
}

} // namespace

bool decode_region_fits(const DecoderModel& model, int64_t n, const EvalOptions& opt) {
#ifndef _OPENMP
    return false;
#endif
    const ModelConfig& c = model.config;
    if (n != 1 || opt.kernels.n_threads < 2 || !opt.decode_region)
        return false;
    for (uint32_t il = 0; il < c.n_layer; ++il)
        if (!layer_mixer(c.mixer[il]).decodes_in_team(c, model.weights.layers[il], il, opt))
            return false;
    return true;
}

Status decode_layers_in_region(const DecoderModel& model, DecoderState& state, DecoderScratch& s,
                               const EvalOptions& opt) {
    const ModelConfig& c = model.config;
    const int threads = opt.kernels.n_threads;
    const int64_t E = c.n_embd, pos0 = state.size();
    // Everything the threads share is sized here: nothing they share grows in the region.
    s.ffn_out.resize(static_cast<size_t>(E));
    s.team.xn.resize(static_cast<size_t>(threads));
    for (std::vector<float>& xn : s.team.xn)
        xn.resize(static_cast<size_t>(E));
    for (uint32_t il = 0; il < c.n_layer; ++il)
        layer_mixer(c.mixer[il]).reserve_team(c, il, pos0, threads, s);
    reserve_ffn(c, model.weights, threads, s);

    std::vector<Status> status(static_cast<size_t>(threads));
    TeamSteps steps;
#pragma omp parallel num_threads(threads)
    {
#ifdef _OPENMP
        const DecodeTeam team{omp_get_thread_num(), omp_get_num_threads()};
#else
        const DecodeTeam team{0, 1};
#endif
        KernelContext tk = opt.kernels;
        tk.team = &team;
        const KernelContext one{1, tk.path};
        Status st; // (a team smaller than asked for shares the rows among fewer threads)
        float* xn = s.team.xn[static_cast<size_t>(team.me)].data();
        for (uint32_t il = 0; il < c.n_layer; ++il) {
            const DecoderLayer& L = model.weights.layers[il];
            steps.run(st, [&] {
                rms_norm(one, s.x.data(), static_cast<const float*>(L.attn_norm.data), xn, E, 1, E,
                         E, c.rms_eps);
                return Status{};
            });
            layer_mixer(c.mixer[il])
                .decode_member(c, L, il, state, xn, s.x.data(), tk, opt, s, steps, st);
            PhaseTimer ffn(team.me == 0 ? opt.profile : nullptr, StepPhase::Ffn);
            ffn_member(c, L, il, tk, s, xn, steps, st);
        }
        status[static_cast<size_t>(team.me)] = st;
    }
    steps.errors.rethrow();
    if (opt.kernels.balance != nullptr)
        opt.kernels.balance->update(threads);
    for (const Status& st : status)
        FOLIO_CHECK(st);
    return {};
}

} // namespace folio
