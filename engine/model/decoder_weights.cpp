#include "model/decoder_weights.h"

#include "tensor/quantize.h"

#include <sstream>

namespace folio {

namespace {

std::string shape_text(const std::array<int64_t, 4>& ne, size_t n) {
    std::ostringstream s;
    s << "[";
    for (size_t i = 0; i < n; ++i)
        s << (i ? ", " : "") << ne[i];
    s << "]";
    return s.str();
}

struct Binder {
    const gguf::File& f;

    // The tensor `name` with exactly the shape `expect` (ggml order; missing dims are 1).
    Expected<TensorView> get(const std::string& name, std::vector<int64_t> expect,
                             bool optional = false) const {
        const gguf::TensorInfo* t = f.find_tensor(name);
        if (t == nullptr) {
            if (optional)
                return TensorView{};
            return make_error(ErrorCode::Format, f.path() + ": tensor '" + name + "' is missing");
        }
        std::array<int64_t, 4> want{1, 1, 1, 1};
        for (size_t i = 0; i < expect.size(); ++i)
            want[i] = expect[i];
        if (t->ne != want)
            return make_error(ErrorCode::Format, f.path() + ": tensor '" + name + "' has shape " +
                                                     shape_text(t->ne, 4) +
                                                     ", but the metadata implies " +
                                                     shape_text(want, 4));
        if (!dtype_is_computable(t->type))
            return make_error(ErrorCode::Unsupported, f.path() + ": tensor '" + name +
                                                          "' has type " +
                                                          std::string(dtype_name(t->type)) +
                                                          ", which Folio cannot compute with yet");
        return tensor_view_of(*t);
    }
    // A tensor the kernels read as plain floats (norm weights, biases, KDA's conv taps and
    // decay, GGUF_LAYOUT.md §2.9): llama-quantize keeps these f32. Everything llama.cpp runs
    // through a matmul (projections, the router, the indexer's head weights) takes any type the
    // matmul kernels support and is bound with get().
    Expected<TensorView> get_f32(const std::string& name, std::vector<int64_t> expect,
                                 bool optional = false) const {
        FOLIO_TRY(v, get(name, std::move(expect), optional));
        if (v.data != nullptr && v.type != DType::F32)
            return make_error(ErrorCode::Unsupported,
                              f.path() + ": tensor '" + name + "' must be f32, is " +
                                  std::string(dtype_name(v.type)) +
                                  " (Folio reads it as plain floats; requantize the model "
                                  "keeping 1-D tensors, biases and convolution weights in f32, "
                                  "as llama-quantize does)");
        return v;
    }
    bool has(const std::string& name) const { return f.find_tensor(name) != nullptr; }
};

// Layer il's MLA tensors (GGUF_LAYOUT §3.4, §5.2) and, with an indexer, §4.2's.
Status bind_mla(const Binder& b, const ModelConfig& c, const std::string& p, int64_t H,
                DecoderLayer& L) {
    const int64_t E = c.n_embd, kr = c.kv_lora_rank, dr = c.qk_rope, dn = c.qk_nope, dv = c.v_head;
    if (c.q_lora_rank > 0) {
        const int64_t qr = c.q_lora_rank;
        FOLIO_TRY(qa, b.get(p + "attn_q_a.weight", {E, qr}));
        FOLIO_TRY(qan, b.get_f32(p + "attn_q_a_norm.weight", {qr}));
        FOLIO_TRY(qb, b.get(p + "attn_q_b.weight", {qr, H * (dn + dr)}));
        L.q_a = qa;
        L.q_a_norm = qan;
        L.q_b = qb;
    } else {
        FOLIO_TRY(q, b.get(p + "attn_q.weight", {E, H * (dn + dr)}));
        L.q = q;
    }
    FOLIO_TRY(kva, b.get(p + "attn_kv_a_mqa.weight", {E, kr + dr}));
    FOLIO_TRY(kvn, b.get_f32(p + "attn_kv_a_norm.weight", {kr}));
    FOLIO_TRY(kb, b.get(p + "attn_k_b.weight", {dn, kr, H}));
    FOLIO_TRY(vb, b.get(p + "attn_v_b.weight", {kr, dv, H}));
    FOLIO_TRY(ao, b.get(p + "attn_output.weight", {H * dv, E}));
    L.kv_a_mqa = kva;
    L.kv_a_norm = kvn;
    L.k_b = kb;
    L.v_b = vb;
    L.attn_output = ao;
    if (c.has_indexer()) {
        const int64_t HI = c.indexer_heads, dI = c.indexer_head_dim;
        const int64_t q_in = c.q_lora_rank > 0 ? c.q_lora_rank : E;
        IndexerWeights& ix = L.indexer;
        FOLIO_TRY(iq, b.get(p + "indexer.attn_q_b.weight", {q_in, HI * dI}));
        FOLIO_TRY(ik, b.get(p + "indexer.attn_k.weight", {E, dI}));
        FOLIO_TRY(inw, b.get_f32(p + "indexer.k_norm.weight", {dI}));
        FOLIO_TRY(inb, b.get_f32(p + "indexer.k_norm.bias", {dI}));
        FOLIO_TRY(ip, b.get(p + "indexer.proj.weight", {E, HI})); // a matmul: any type
        ix.q_b = iq;
        ix.k = ik;
        ix.k_norm = inw;
        ix.k_norm_bias = inb;
        ix.proj = ip;
    }
    return {};
}

// Layer il's KDA tensors (GGUF_LAYOUT §5.2; conv weights and ssm_a are F32, trap 16/17).
Status bind_kda(const Binder& b, const ModelConfig& c, const std::string& p, int64_t H,
                DecoderLayer& L) {
    const int64_t E = c.n_embd, D = c.kda_head_dim, P = H * D, W = c.conv_kernel;
    KdaWeights& k = L.kda;
    FOLIO_TRY(q, b.get(p + "attn_q.weight", {E, P}));
    FOLIO_TRY(kk, b.get(p + "attn_k.weight", {E, P}));
    FOLIO_TRY(v, b.get(p + "attn_v.weight", {E, P}));
    FOLIO_TRY(cq, b.get_f32(p + "ssm_conv1d_q.weight", {W, 1, P}));
    FOLIO_TRY(ck, b.get_f32(p + "ssm_conv1d_k.weight", {W, 1, P}));
    FOLIO_TRY(cv, b.get_f32(p + "ssm_conv1d_v.weight", {W, 1, P}));
    FOLIO_TRY(fa, b.get(p + "ssm_f_a.weight", {E, D}));
    FOLIO_TRY(fb, b.get(p + "ssm_f_b.weight", {D, P}));
    FOLIO_TRY(dt, b.get_f32(p + "ssm_dt.bias", {P}));
    FOLIO_TRY(a, b.get_f32(p + "ssm_a", {1, H}));
    FOLIO_TRY(beta, b.get(p + "ssm_beta.weight", {E, H}));
    FOLIO_TRY(ga, b.get(p + "ssm_g_a.weight", {E, D}));
    FOLIO_TRY(gb, b.get(p + "ssm_g_b.weight", {D, P}));
    FOLIO_TRY(on, b.get_f32(p + "ssm_norm.weight", {D}));
    FOLIO_TRY(ao, b.get(p + "attn_output.weight", {P, E}));
    k.q = q;
    k.k = kk;
    k.v = v;
    k.conv_q = cq;
    k.conv_k = ck;
    k.conv_v = cv;
    k.f_a = fa;
    k.f_b = fb;
    k.dt_bias = dt;
    k.a = a;
    k.beta = beta;
    k.g_a = ga;
    k.g_b = gb;
    k.o_norm = on;
    L.attn_output = ao;
    return {};
}

} // namespace

Expected<DecoderWeights> bind_decoder_weights(const gguf::File& file, const ModelConfig& c) {
    Binder b{file};
    DecoderWeights w;
    const bool kimi = c.arch == "kimi-linear" || c.arch == "kimi-hybrid";
    const int64_t E = c.n_embd, V = c.n_vocab;
    FOLIO_TRY(tok, b.get("token_embd.weight", {E, V}));
    w.token_embd = tok;
    FOLIO_TRY(onorm, b.get_f32("output_norm.weight", {E}));
    w.output_norm = onorm;
    FOLIO_TRY(out, b.get("output.weight", {E, V}, !kimi)); // kimi-linear: required (trap 20)
    w.output = out.data ? out : tok;

    for (uint32_t il = 0; il < c.n_layer; ++il) {
        const std::string p = "blk." + std::to_string(il) + ".";
        const int64_t H = c.n_head[il];
        DecoderLayer L;
        FOLIO_TRY(an, b.get_f32(p + "attn_norm.weight", {E}));
        L.attn_norm = an;
        FOLIO_CHECK(c.is_kda_layer(il) ? bind_kda(b, c, p, H, L) : bind_mla(b, c, p, H, L));
        FOLIO_TRY(fn, b.get_f32(p + "ffn_norm.weight", {E}));
        L.ffn_norm = fn;
        if (!c.is_moe_layer(il)) {
            const int64_t F = c.n_ff[il];
            FOLIO_TRY(g, b.get(p + "ffn_gate.weight", {E, F}));
            FOLIO_TRY(u, b.get(p + "ffn_up.weight", {E, F}));
            FOLIO_TRY(d, b.get(p + "ffn_down.weight", {F, E}));
            L.ffn_gate = g;
            L.ffn_up = u;
            L.ffn_down = d;
        } else {
            const int64_t X = c.n_expert, Fe = c.n_ff_exp;
            FOLIO_TRY(gi, b.get(p + "ffn_gate_inp.weight", {E, X}));        // a matmul: any type
            FOLIO_TRY(bias, b.get_f32(p + "exp_probs_b.bias", {X}, !kimi)); // kimi: required
            FOLIO_TRY(ge, b.get(p + "ffn_gate_exps.weight", {E, Fe, X}));
            FOLIO_TRY(ue, b.get(p + "ffn_up_exps.weight", {E, Fe, X}));
            FOLIO_TRY(de, b.get(p + "ffn_down_exps.weight", {Fe, E, X}));
            L.gate_inp = gi;
            L.exp_probs_b = bias;
            L.gate_exps = ge;
            L.up_exps = ue;
            L.down_exps = de;
            // kimi-linear's shared experts are optional tensors; deepseek2/32 follow the count.
            const bool shared =
                c.n_expert_shared > 0 && (!kimi || b.has(p + "ffn_gate_shexp.weight"));
            if (shared) {
                const int64_t Fs = Fe * c.n_expert_shared;
                FOLIO_TRY(gs, b.get(p + "ffn_gate_shexp.weight", {E, Fs}));
                FOLIO_TRY(us, b.get(p + "ffn_up_shexp.weight", {E, Fs}));
                FOLIO_TRY(ds, b.get(p + "ffn_down_shexp.weight", {Fs, E}));
                L.gate_shexp = gs;
                L.up_shexp = us;
                L.down_shexp = ds;
            }
        }
        w.layers.push_back(L);
    }
    return w;
}

} // namespace folio
