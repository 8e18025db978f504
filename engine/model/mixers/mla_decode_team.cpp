#include "model/mixers/mla_decode_team.h"

#include "kernels/decode_team.h"
#include "kernels/matmul.h"
#include "kernels/norm.h"
#include "kernels/rope.h"
#include "model/attention/attention_core.h"
#include "model/mixers/mla_attention.h"
#include "model/mixers/mla_weights.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace folio {

namespace {

// Slices [h0, h1) of a 3-D weight (W_UK, W_UV: one slice per head).
TensorView head_slices(const TensorView& w, int64_t h0, int64_t h1) {
    TensorView v = w;
    v.data = w.row(0, h0);
    v.ne[2] = h1 - h0;
    return v;
}

// The token's query over its n_kv keys, all heads (mla_attention's selected_query).
SelectedAttention query_of(const ModelConfig& c, uint32_t il, DecoderScratch& s, const KvView& view,
                           int64_t n_kv, KernelPath path) {
    const int64_t kr = c.kv_lora_rank, row = kr + c.qk_rope;
    SelectedAttention a;
    a.q = s.qabs.data();
    a.q_stride = row;
    a.n_heads = c.n_head[il];
    a.dqk = row;
    a.kv = &view;
    a.dv = kr;
    a.keys = s.all_keys.data();
    a.n_keys = n_kv;
    a.scale = c.kq_scale;
    a.out = s.obar.data();
    a.out_stride = kr;
    a.path = path;
    return a;
}

} // namespace

bool mla_decode_team_fits(const ModelConfig& c, const DecoderLayer& L, uint32_t il,
                          const EvalOptions& opt) {
    return c.mixer[il] == MixerKind::Mla &&
           mixer_weights_of<MlaWeights>(L).indexer.q_b.data == nullptr && opt.mla != MlaForm::Naive;
}

void mla_decode_reserve(const ModelConfig& c, uint32_t il, int64_t pos0, int threads,
                        DecoderScratch& s) {
    const int64_t H = c.n_head[il], kr = c.kv_lora_rank, row = kr + c.qk_rope;
    s.q.resize(static_cast<size_t>(H * c.qk_head()));
    s.kv.resize(static_cast<size_t>(row));
    s.qa.resize(static_cast<size_t>(std::max<int64_t>(1, c.q_lora_rank)));
    s.qabs.resize(static_cast<size_t>(H * row));
    s.obar.resize(static_cast<size_t>(H * kr));
    s.o.resize(static_cast<size_t>(H * c.v_head));
    const int64_t n_kv = pos0 + 1;
    if (s.all_keys.size() < static_cast<size_t>(n_kv)) {
        const auto have = static_cast<int32_t>(s.all_keys.size());
        s.all_keys.resize(static_cast<size_t>(n_kv));
        std::iota(s.all_keys.begin() + have, s.all_keys.end(), have);
    }
    s.team.states.assign(static_cast<size_t>(threads), MqaRowsState{});
    s.team.qa.resize(static_cast<size_t>(threads));
    for (std::vector<float>& qa : s.team.qa)
        qa.resize(static_cast<size_t>(std::max<int64_t>(1, c.q_lora_rank)));
}

void mla_decode_member(const ModelConfig& c, const DecoderLayer& layer, uint32_t il,
                       DecoderState& state, const float* xn, float* x, const KernelContext& tk,
                       const EvalOptions& opt, DecoderScratch& s, TeamSteps& steps, Status& st) {
    const MlaWeights& L = mixer_weights_of<MlaWeights>(layer);
    const DecodeTeam& team = *tk.team;
    const KernelContext one{1, tk.path};
    PagedKv& cache = state.kv();
    const int64_t E = c.n_embd, H = c.n_head[il], kr = c.kv_lora_rank, dr = c.qk_rope,
                  dn = c.qk_nope, dk = c.qk_head(), dv = c.v_head, row = kr + dr,
                  qr = c.q_lora_rank;
    const int64_t pos0 = cache.size(), n_kv = pos0 + 1;
    const int32_t position = static_cast<int32_t>(pos0);
    float* rows = s.kv.data();
    float* qa_mine = s.team.qa[static_cast<size_t>(team.me)].data();
    TeamScratch& sh = s.team;
    // Thread 0 times the phases (its waits at the barriers included).
    StepProfile* profile = team.me == 0 ? opt.profile : nullptr;
    PhaseTimer project(profile, StepPhase::MlaProject);

    // The first q projection and [c | k_pe] share their input: one set of rows.
    steps.run(st, [&] {
        const TensorView ws[] = {qr > 0 ? L.q_a : L.q, L.kv_a_mqa};
        float* const ys[] = {qr > 0 ? s.qa.data() : s.q.data(), rows};
        return matmul_one_input(tk, ws, xn, ys);
    });
    team_barrier();
    if (qr > 0)
        steps.run(st, [&] {
            rms_norm(one, s.qa.data(), static_cast<const float*>(L.q_a_norm.data), qa_mine, qr, 1,
                     qr, qr, c.rms_eps);
            return matmul(tk, L.q_b, qa_mine, qr, 1, s.q.data(), H * dk);
        });
    if (team.me == 0)
        steps.run(st, [&]() -> Status {
            rms_norm(one, rows, static_cast<const float*>(L.kv_a_norm.data), rows, kr, 1, row, row,
                     c.rms_eps);
            if (c.mla_rope)
                FOLIO_CHECK(rope(one, c.rope, rows + kr, dr, 1, 1, row, row, &position));
            FOLIO_CHECK(cache.store(il, rows, 1));
            sh.view = cache.view(il, n_kv, true);
            return {};
        });
    team_barrier();
    project.stop();

    PhaseTimer attend(profile, StepPhase::Attention);
    const int heads_threads = static_cast<int>(std::min<int64_t>(team.threads, H));
    const int64_t h0 = team.me < heads_threads ? H * team.me / heads_threads : H,
                  h1 = team.me < heads_threads ? H * (team.me + 1) / heads_threads : H;
    const SelectedAttention all = query_of(c, il, s, sh.view, n_kv, tk.path);
    // This thread's heads: RoPE of q_pe, q_abs = W_UK,hᵀ·q_nope,h, q_pe after it.
    auto heads_in = [&]() -> Status {
        if (h1 <= h0)
            return {};
        if (c.mla_rope)
            FOLIO_CHECK(rope(one, c.rope, s.q.data() + h0 * dk + dn, dr, h1 - h0, 1, dk, H * dk,
                             &position));
        FOLIO_CHECK(matmul_slices(one, head_slices(L.k_b, h0, h1), s.q.data() + h0 * dk, dk,
                                  s.qabs.data() + h0 * row, row));
        for (int64_t h = h0; h < h1; ++h)
            std::memcpy(s.qabs.data() + h * row + kr, s.q.data() + h * dk + dn, sizeof(float) * dr);
        return {};
    };
    if (n_kv < kMlaSplitKeys) {
        // Few keys: every step of a share of the heads, as attend_decode_by_heads.
        steps.run(st, [&]() -> Status {
            FOLIO_CHECK(heads_in());
            if (h1 <= h0)
                return {};
            SelectedAttention part = all;
            part.q += h0 * all.q_stride;
            part.out += h0 * all.out_stride;
            part.n_heads = h1 - h0;
            SelectedScratch scratch;
            attend_selected(part, scratch);
            return matmul_slices(one, head_slices(L.v_b, h0, h1), s.obar.data() + h0 * kr, kr,
                                 s.o.data() + h0 * dv, dv);
        });
        team_barrier();
    } else {
        // Many keys: a share of the keys each (attend_selected_split's parts), merged by one.
        steps.run(st, heads_in);
        team_barrier();
        const int parts = attend_split_parts(all, team.threads);
        if (team.me < parts)
            steps.run(st, [&]() -> Status {
                sh.states[static_cast<size_t>(team.me)] = attend_selected_part(all, parts, team.me);
                return {};
            });
        team_barrier();
        if (team.me == 0)
            steps.run(st, [&]() -> Status {
                attend_selected_merge(all, sh.states.data(), parts);
                return {};
            });
        team_barrier();
        steps.run(st, [&] { return matmul_slices(tk, L.v_b, s.obar.data(), kr, s.o.data(), dv); });
        team_barrier();
    }
    attend.stop();

    PhaseTimer out_proj(profile, StepPhase::MlaProject);
    steps.run(st, [&]() -> Status {
        FOLIO_CHECK(matmul(tk, layer.attn_output, s.o.data(), H * dv, 1, s.ffn_out.data(), E));
        const RowShare r = team_share(tk, E);
        for (int64_t i = r.begin; i < r.end; ++i)
            x[i] += s.ffn_out[i];
        return {};
    });
    team_barrier();
}

} // namespace folio
