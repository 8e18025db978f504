#include "model/deepseek2_weights.h"

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
            return make_error(ErrorCode::Format,
                              f.path() + ": tensor '" + name + "' has shape " + shape_text(t->ne, 4) +
                                  ", but the metadata implies " + shape_text(want, 4));
        if (!dtype_is_computable(t->type))
            return make_error(ErrorCode::Unsupported,
                              f.path() + ": tensor '" + name + "' has type " +
                                  std::string(dtype_name(t->type)) +
                                  ", which Folio cannot compute with yet");
        return tensor_view_of(*t);
    }
    // Norms, biases and the router must be F32 (GGUF_LAYOUT.md §2.9).
    Expected<TensorView> get_f32(const std::string& name, std::vector<int64_t> expect,
                                 bool optional = false) const {
        FOLIO_TRY(v, get(name, std::move(expect), optional));
        if (v.data != nullptr && v.type != DType::F32)
            return make_error(ErrorCode::Unsupported, f.path() + ": tensor '" + name + "' must be f32, is " +
                                                          std::string(dtype_name(v.type)));
        return v;
    }
};

} // namespace

Expected<Deepseek2Weights> bind_deepseek2_weights(const gguf::File& file, const ModelConfig& c) {
    Binder b{file};
    Deepseek2Weights w;
    const int64_t E = c.n_embd, V = c.n_vocab;
    FOLIO_TRY(tok, b.get("token_embd.weight", {E, V}));
    w.token_embd = tok;
    FOLIO_TRY(onorm, b.get_f32("output_norm.weight", {E}));
    w.output_norm = onorm;
    FOLIO_TRY(out, b.get("output.weight", {E, V}, true));
    w.output = out.data ? out : tok;

    const int64_t kr = c.kv_lora_rank, dr = c.qk_rope, dn = c.qk_nope, dv = c.v_head;
    for (uint32_t il = 0; il < c.n_layer; ++il) {
        const std::string p = "blk." + std::to_string(il) + ".";
        const int64_t H = c.n_head[il];
        Deepseek2Layer L;
        FOLIO_TRY(an, b.get_f32(p + "attn_norm.weight", {E}));
        L.attn_norm = an;
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
        FOLIO_TRY(fn, b.get_f32(p + "ffn_norm.weight", {E}));
        L.kv_a_mqa = kva;
        L.kv_a_norm = kvn;
        L.k_b = kb;
        L.v_b = vb;
        L.attn_output = ao;
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
            FOLIO_TRY(gi, b.get_f32(p + "ffn_gate_inp.weight", {E, X}));
            FOLIO_TRY(bias, b.get_f32(p + "exp_probs_b.bias", {X}, true));
            FOLIO_TRY(ge, b.get(p + "ffn_gate_exps.weight", {E, Fe, X}));
            FOLIO_TRY(ue, b.get(p + "ffn_up_exps.weight", {E, Fe, X}));
            FOLIO_TRY(de, b.get(p + "ffn_down_exps.weight", {Fe, E, X}));
            L.gate_inp = gi;
            L.exp_probs_b = bias;
            L.gate_exps = ge;
            L.up_exps = ue;
            L.down_exps = de;
            if (c.n_expert_shared > 0) {
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
