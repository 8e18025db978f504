#include "model/model_config.h"

#include <cmath>

namespace folio {

namespace {

struct Reader {
    const gguf::File& f;
    std::string prefix;

    Error missing(const std::string& key) const {
        return make_error(ErrorCode::Format, f.path() + ": required key '" + key + "' is missing");
    }
    Expected<uint32_t> u32(const std::string& name, std::optional<uint32_t> fallback = {}) const {
        const std::string key = prefix + name;
        FOLIO_TRY(v, f.get_u32(key));
        if (v)
            return *v;
        if (fallback)
            return *fallback;
        return missing(key);
    }
    Expected<float> f32(const std::string& name, std::optional<float> fallback = {}) const {
        const std::string key = prefix + name;
        FOLIO_TRY(v, f.get_f32(key));
        if (v)
            return *v;
        if (fallback)
            return *fallback;
        return missing(key);
    }
    // A per-layer key: a UINT32 scalar or an INT32/UINT32 array of n_layer elements (§1.8).
    Expected<std::vector<uint32_t>> per_layer(const std::string& name, uint32_t n_layer,
                                              std::optional<uint32_t> fallback = {}) const {
        const std::string key = prefix + name;
        const gguf::KeyValue* kv = f.find_key(key);
        if (kv == nullptr) {
            if (!fallback)
                return missing(key);
            return std::vector<uint32_t>(n_layer, *fallback);
        }
        if (kv->value.type == gguf::ValueType::Array) {
            FOLIO_CHECK(f.get_int_array(key)); // type check: an integer array
            const std::vector<int64_t>& arr = kv->value.array->ints;
            if (arr.size() != n_layer)
                return make_error(ErrorCode::Format,
                                  f.path() + ": key '" + key + "' has " + std::to_string(arr.size()) +
                                      " elements, expected block_count = " + std::to_string(n_layer));
            std::vector<uint32_t> out;
            for (int64_t v : arr) {
                if (v < 0 || v > 0xFFFFFFFFll)
                    return make_error(ErrorCode::Format, f.path() + ": key '" + key +
                                                             "' has out-of-range element " +
                                                             std::to_string(v));
                out.push_back(static_cast<uint32_t>(v));
            }
            return out;
        }
        FOLIO_TRY(v, u32(name));
        return std::vector<uint32_t>(n_layer, v);
    }
};

float get_mscale(float s, float m) { return s <= 1.0f ? 1.0f : 0.1f * m * std::log(s) + 1.0f; }

Status check(bool ok, const gguf::File& f, const std::string& what) {
    if (ok)
        return {};
    return make_error(ErrorCode::Format, f.path() + ": " + what);
}

} // namespace

Expected<ModelConfig> read_model_config(const gguf::File& file) {
    ModelConfig c;
    FOLIO_TRY(arch, file.architecture());
    c.arch = arch;
    if (arch != "deepseek2")
        return make_error(ErrorCode::Unsupported,
                          file.path() + ": architecture '" + arch +
                              "' is not supported yet (supported: deepseek2)");
    Reader r{file, arch + "."};

    FOLIO_TRY(n_embd, r.u32("embedding_length"));
    FOLIO_TRY(n_layer, r.u32("block_count"));
    c.n_embd = n_embd;
    c.n_layer = n_layer;
    FOLIO_TRY(n_ctx, r.u32("context_length"));
    c.n_ctx_train = n_ctx;
    FOLIO_TRY(tokens, file.get_string_array("tokenizer.ggml.tokens"));
    FOLIO_TRY(vocab_key, r.u32("vocab_size", 0u));
    c.n_vocab = tokens ? static_cast<uint32_t>(tokens->size()) : vocab_key;
    FOLIO_CHECK(check(c.n_vocab > 0, file, "no vocabulary (tokenizer.ggml.tokens or vocab_size)"));
    FOLIO_CHECK(check(n_layer > 0 && n_layer <= 4096, file, "block_count out of range"));

    FOLIO_TRY(heads, r.per_layer("attention.head_count", n_layer));
    c.n_head = heads;
    FOLIO_TRY(heads_kv, r.per_layer("attention.head_count_kv", n_layer, heads.empty() ? 1u : heads[0]));
    c.n_head_kv = heads_kv;
    FOLIO_TRY(n_ff, r.per_layer("feed_forward_length", n_layer, 0u));
    c.n_ff = n_ff;
    FOLIO_TRY(eps, r.f32("attention.layer_norm_rms_epsilon"));
    c.rms_eps = eps;

    // The "lite" rule (§3.2): 26/27-layer files (and 48 layers with vocab 128256) never read
    // q_lora_rank; every other deepseek2 file must carry the key (0 = no q-LoRA).
    const bool lite = n_layer == 26 || n_layer == 27 || (n_layer == 48 && c.n_vocab == 128256);
    if (lite) {
        c.q_lora_rank = 0;
    } else {
        FOLIO_TRY(q_lora, r.u32("attention.q_lora_rank"));
        c.q_lora_rank = q_lora;
    }
    FOLIO_TRY(kv_lora, r.u32("attention.kv_lora_rank"));
    c.kv_lora_rank = kv_lora;
    FOLIO_TRY(rope_dims, r.u32("rope.dimension_count"));
    c.qk_rope = rope_dims;
    FOLIO_TRY(key_mla, r.u32("attention.key_length_mla", 0u));
    FOLIO_TRY(value_mla, r.u32("attention.value_length_mla", 0u));
    FOLIO_CHECK(check(key_mla > 0 && value_mla > 0, file,
                      "only MLA files (attention.key_length_mla / value_length_mla with split "
                      "attn_k_b / attn_v_b tensors) are supported; legacy attn_kv_b files are not"));
    FOLIO_CHECK(check(key_mla > rope_dims && rope_dims % 2 == 0, file,
                      "attention.key_length_mla must exceed an even rope.dimension_count"));
    c.qk_nope = key_mla - rope_dims;
    c.v_head = value_mla;

    FOLIO_TRY(n_expert, r.u32("expert_count", 0u));
    c.n_expert = n_expert;
    if (n_expert > 0) {
        FOLIO_TRY(used, r.u32("expert_used_count"));
        FOLIO_TRY(shared, r.u32("expert_shared_count", 0u));
        FOLIO_TRY(ff_exp, r.u32("expert_feed_forward_length"));
        c.n_expert_used = used;
        c.n_expert_shared = shared;
        c.n_ff_exp = ff_exp;
        FOLIO_CHECK(check(used > 0 && used <= n_expert, file, "expert_used_count out of range"));
    }
    FOLIO_TRY(lead, r.u32("leading_dense_block_count", 0u));
    c.n_dense_lead = lead;
    FOLIO_TRY(groups, r.u32("expert_group_count", 1u));
    FOLIO_TRY(groups_used, r.u32("expert_group_used_count", 1u));
    c.n_expert_group = groups == 0 ? 1 : groups;
    c.n_expert_group_used = groups_used == 0 ? 1 : groups_used;
    if (c.n_expert_group > 1)
        FOLIO_CHECK(check(n_expert % c.n_expert_group == 0 && c.n_expert_group_used <= c.n_expert_group,
                          file, "expert_group_count must divide expert_count"));
    FOLIO_TRY(scale, r.f32("expert_weights_scale", 0.0f));
    c.expert_weights_scale = scale;
    FOLIO_TRY(norm, file.get_bool(r.prefix + "expert_weights_norm"));
    c.expert_weights_norm = norm.value_or(false);
    FOLIO_TRY(gating, r.u32("expert_gating_func", 1u));
    FOLIO_CHECK(check(gating >= 1 && gating <= 3, file,
                      "expert_gating_func " + std::to_string(gating) + " is not supported"));
    c.gating = static_cast<GatingFunc>(gating);

    // RoPE / YaRN as llama.cpp sets it up for deepseek2 (§3.3).
    FOLIO_TRY(base, r.f32("rope.freq_base", 10000.0f));
    FOLIO_TRY(scaling_type, file.get_string(r.prefix + "rope.scaling.type"));
    FOLIO_TRY(factor, r.f32("rope.scaling.factor", 0.0f));
    FOLIO_TRY(orig_ctx, r.u32("rope.scaling.original_context_length", n_ctx));
    FOLIO_TRY(attn_factor_key, r.f32("rope.scaling.attn_factor", 1.0f));
    FOLIO_TRY(log_mul, file.get_f32(r.prefix + "rope.scaling.yarn_log_multiplier"));
    FOLIO_TRY(beta_fast, r.f32("rope.scaling.yarn_beta_fast", 0.0f));
    FOLIO_TRY(beta_slow, r.f32("rope.scaling.yarn_beta_slow", 0.0f));
    c.yarn_beta_fast_file = beta_fast;
    c.yarn_beta_slow_file = beta_slow;

    RopeParams& rp = c.rope;
    rp.n_dims = rope_dims;
    rp.layout = RopeLayout::Norm;
    rp.freq_base = base;
    rp.n_ctx_orig = static_cast<int>(orig_ctx);
    rp.beta_fast = 32.0f; // llama.cpp's fixed values for deepseek2 (trap 8)
    rp.beta_slow = 1.0f;
    const std::string type = scaling_type.value_or("linear");
    const float s = factor > 0.0f ? factor : 1.0f;
    rp.freq_scale = type == "none" ? 1.0f : 1.0f / s;
    float mscale = 1.0f; // softmax scale multiplier (before squaring)
    if (type == "yarn") {
        rp.ext_factor = 1.0f;
        // m_all = yarn_log_multiplier / 0.1 (trap 7); ggml multiplies cos/sin by
        // attn_factor·(1 + 0.1 ln s), so attn_factor divides that back out when the key exists.
        const float m_all = log_mul ? *log_mul / 0.1f : 0.0f;
        const float m = m_all;
        if (log_mul)
            rp.attn_factor = get_mscale(s, m) / get_mscale(s, m_all) / (1.0f + 0.1f * std::log(s)) *
                             attn_factor_key;
        else
            rp.attn_factor = attn_factor_key;
        mscale = rp.attn_factor * (1.0f + 0.1f * std::log(s)) * get_mscale(s, m_all);
    } else {
        rp.ext_factor = 0.0f;
        rp.attn_factor = attn_factor_key;
    }
    c.kq_scale = mscale * mscale / std::sqrt(static_cast<float>(c.qk_head()));
    return c;
}

} // namespace folio
