#include "model/mixers/mla_mixer.h"

#include "cache/kv_codec.h"
#include "model/layer/tensor_names.h"
#include "model/mixers/dsa_index_keys.h"
#include "model/mixers/mla_attention.h"
#include "model/mixers/mla_decode_team.h"
#include "model/mixers/mla_weights.h"

namespace folio {

// Layer il's MLA tensors and, with an indexer, the indexer's (src/llama-model.cpp).
Status MlaMixer::bind(const WeightBinder& b, const ModelConfig& c, uint32_t il,
                      DecoderLayer& layer) const {
    namespace tn = tensor_name;
    const std::string p = tn::layer_prefix(il);
    const int64_t H = c.n_head[il];
    const int64_t E = c.n_embd, kr = c.kv_lora_rank, dr = c.qk_rope, dn = c.qk_nope, dv = c.v_head;
    layer.mixer = std::make_shared<MlaWeights>();
    MlaWeights& L = mixer_weights_of<MlaWeights>(layer);
    if (c.q_lora_rank > 0) {
        const int64_t qr = c.q_lora_rank;
        FOLIO_TRY(qa, b.get(p + tn::kAttnQA, {E, qr}));
        FOLIO_TRY(qan, b.get_f32(p + tn::kAttnQANorm, {qr}));
        FOLIO_TRY(qb, b.get(p + tn::kAttnQB, {qr, H * (dn + dr)}));
        L.q_a = qa;
        L.q_a_norm = qan;
        L.q_b = qb;
    } else {
        FOLIO_TRY(q, b.get(p + tn::kAttnQ, {E, H * (dn + dr)}));
        L.q = q;
    }
    FOLIO_TRY(kva, b.get(p + tn::kAttnKvAMqa, {E, kr + dr}));
    FOLIO_TRY(kvn, b.get_f32(p + tn::kAttnKvANorm, {kr}));
    FOLIO_TRY(kb, b.get(p + tn::kAttnKB, {dn, kr, H}));
    FOLIO_TRY(vb, b.get(p + tn::kAttnVB, {kr, dv, H}));
    FOLIO_TRY(ao, b.get(p + tn::kAttnOutput, {H * dv, E}));
    L.kv_a_mqa = kva;
    L.kv_a_norm = kvn;
    L.k_b = kb;
    L.v_b = vb;
    layer.attn_output = ao;
    if (c.has_indexer()) {
        const int64_t HI = c.indexer_heads, dI = c.indexer_head_dim;
        const int64_t q_in = c.q_lora_rank > 0 ? c.q_lora_rank : E;
        IndexerWeights& ix = L.indexer;
        FOLIO_TRY(iq, b.get(p + tn::kIndexerQB, {q_in, HI * dI}));
        FOLIO_TRY(ik, b.get(p + tn::kIndexerK, {E, dI}));
        FOLIO_TRY(inw, b.get_f32(p + tn::kIndexerKNorm, {dI}));
        FOLIO_TRY(inb, b.get_f32(p + tn::kIndexerKNormBias, {dI}));
        FOLIO_TRY(ip, b.get(p + tn::kIndexerProj, {E, HI})); // a matmul: any type (issue 21)
        ix.q_b = iq;
        ix.k = ik;
        ix.k_norm = inw;
        ix.k_norm_bias = inb;
        ix.proj = ip;
    }
    return {};
}

std::unique_ptr<TokenRows> MlaMixer::make_token_rows(const ModelConfig& c, uint32_t,
                                                     int64_t max_tokens, KvType type) const {
    if (!c.has_indexer())
        return nullptr;
    return std::make_unique<DsaIndexKeys>(c.indexer_head_dim, max_tokens, type);
}

size_t MlaMixer::token_row_bytes(const ModelConfig& c, uint32_t, KvType type) const {
    return c.has_indexer() ? kv_row_bytes(type, c.indexer_head_dim) : 0;
}

Status MlaMixer::eval(const ModelConfig& c, const DecoderLayer& L, uint32_t il, DecoderState& state,
                      const float* xn, int64_t T, const EvalOptions& opt, DecoderScratch& s,
                      float* out) const {
    return mla_attention(c, L, il, state, xn, T, opt, s, out);
}

bool MlaMixer::decodes_in_team(const ModelConfig& c, const DecoderLayer& L, uint32_t il,
                               const EvalOptions& opt) const {
    return mla_decode_team_fits(c, L, il, opt);
}

void MlaMixer::reserve_team(const ModelConfig& c, uint32_t il, int64_t pos0, int threads,
                            DecoderScratch& s) const {
    mla_decode_reserve(c, il, pos0, threads, s);
}

void MlaMixer::decode_member(const ModelConfig& c, const DecoderLayer& L, uint32_t il,
                             DecoderState& state, const float* xn, float* x,
                             const KernelContext& tk, const EvalOptions& opt, DecoderScratch& s,
                             TeamSteps& steps, Status& st) const {
    mla_decode_member(c, L, il, state, xn, x, tk, opt, s, steps, st);
}

} // namespace folio
