#include "model/layer/model_config.h"

#include "model/layer/tensor_names.h"

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
    // A per-layer key: a UINT32 scalar or an INT32/UINT32 array of n_layer elements.
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
                return make_error(
                    ErrorCode::Format,
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

float get_mscale(float s, float m) {
    return s <= 1.0f ? 1.0f : 0.1f * m * std::log(s) + 1.0f;
}

Status check(bool ok, const gguf::File& f, const std::string& what) {
    if (ok)
        return {};
    return make_error(ErrorCode::Format, f.path() + ": " + what);
}

// RoPE / YaRN as llama.cpp sets it up for deepseek2 / deepseek32 (src/llama-model.cpp); returns the
// softmax multiplier mscale (before squaring). `m_is_one`: deepseek32 always uses m = 1.
Expected<float> read_rope(const Reader& r, uint32_t n_ctx, uint32_t rope_dims, bool m_is_one,
                          ModelConfig& c) {
    const gguf::File& file = r.f;
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
    rp.beta_fast = 32.0f; // llama.cpp's fixed values for deepseek2 / deepseek32
    rp.beta_slow = 1.0f;
    const std::string type = scaling_type.value_or("linear");
    const float s = factor > 0.0f ? factor : 1.0f;
    rp.freq_scale = type == "none" ? 1.0f : 1.0f / s;
    float mscale = 1.0f; // softmax scale multiplier (before squaring)
    if (type == "yarn") {
        rp.ext_factor = 1.0f;
        // m_all = yarn_log_multiplier / 0.1 (the file stores 0.1·m_all); ggml multiplies cos/sin by
        // attn_factor·(1 + 0.1 ln s), so attn_factor divides that back out when the key exists.
        const float m_all = log_mul ? *log_mul / 0.1f : 0.0f;
        const float m = m_is_one ? 1.0f : m_all;
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
    return mscale;
}

// deepseek32 / kimi-hybrid indexer keys (src/llama-model.cpp, docs/KIMI_HYBRID.md).
Status read_indexer(const Reader& r, ModelConfig& c) {
    const gguf::File& file = r.f;
    FOLIO_TRY(heads, r.u32("attention.indexer.head_count"));
    FOLIO_TRY(dim, r.u32("attention.indexer.key_length"));
    FOLIO_TRY(top_k, r.u32("attention.indexer.top_k"));
    FOLIO_CHECK(
        check(heads > 0 && top_k > 0, file, "indexer head_count and top_k must be positive"));
    FOLIO_CHECK(check(dim >= c.qk_rope && dim % 2 == 0 && c.qk_rope % 2 == 0, file,
                      "attention.indexer.key_length must be even and >= rope.dimension_count"));
    c.indexer_heads = heads;
    c.indexer_head_dim = dim;
    c.indexer_top_k = top_k;
    c.indexer_rope = c.rope;
    c.indexer_rope.layout = RopeLayout::Neox; // rope part first, NEOX pairs
    return {};
}

} // namespace

Expected<ModelConfig> read_model_config(const gguf::File& file) {
    ModelConfig c;
    FOLIO_TRY(arch, file.architecture());
    c.arch = arch;
    const bool ds2 = arch == "deepseek2", ds32 = arch == "deepseek32";
    const bool kimi = arch == "kimi-linear" || arch == "kimi-hybrid";
    if (!ds2 && !ds32 && !kimi)
        return make_error(ErrorCode::Unsupported,
                          file.path() + ": architecture '" + arch +
                              "' is not supported (supported: deepseek2, deepseek32, kimi-linear, "
                              "kimi-hybrid)");
    Reader r{file, arch + "."};

    FOLIO_TRY(n_embd, r.u32("embedding_length"));
    FOLIO_TRY(block_count, r.u32("block_count"));
    FOLIO_TRY(nextn, r.u32("nextn_predict_layers", 0u));
    c.n_embd = n_embd;
    c.n_layer_file = block_count;
    FOLIO_CHECK(check(block_count > 0 && block_count <= 4096, file, "block_count out of range"));
    // deepseek32: block_count includes the MTP layers, which the decoder skips.
    FOLIO_CHECK(check(!ds32 || nextn < block_count, file, "nextn_predict_layers >= block_count"));
    const uint32_t n_layer = ds32 ? block_count - nextn : block_count;
    c.n_layer = n_layer;
    FOLIO_TRY(n_ctx, r.u32("context_length"));
    c.n_ctx_train = n_ctx;
    FOLIO_TRY(tokens, file.get_string_array("tokenizer.ggml.tokens"));
    FOLIO_TRY(vocab_key, r.u32("vocab_size", 0u));
    c.n_vocab = tokens ? static_cast<uint32_t>(tokens->size()) : vocab_key;
    FOLIO_CHECK(check(c.n_vocab > 0, file, "no vocabulary (tokenizer.ggml.tokens or vocab_size)"));

    // Per-layer arrays are sized by block_count; the decoder uses the first n_layer entries.
    FOLIO_TRY(heads, r.per_layer("attention.head_count", block_count));
    heads.resize(n_layer);
    c.n_head = heads;
    FOLIO_TRY(heads_kv,
              r.per_layer("attention.head_count_kv", block_count, heads.empty() ? 1u : heads[0]));
    heads_kv.resize(n_layer);
    c.n_head_kv = heads_kv;
    FOLIO_TRY(n_ff, r.per_layer("feed_forward_length", block_count, 0u));
    n_ff.resize(n_layer);
    c.n_ff = n_ff;
    FOLIO_TRY(eps, r.f32("attention.layer_norm_rms_epsilon"));
    c.rms_eps = eps;
    for (uint32_t il = 0; il < n_layer; ++il) {
        FOLIO_CHECK(check(c.n_head[il] > 0, file, "attention.head_count must be positive"));
        c.mixer.push_back(mixer_kind_of_layer(arch, c.n_head_kv[il]));
    }

    if (ds2) {
        // llama.cpp's "lite" rule (src/llama-model.cpp): 26/27-layer files (and 48 layers with
        // vocab 128256) never read q_lora_rank; every other deepseek2 file must carry the key
        // (0 = no q-LoRA).
        const bool lite = n_layer == 26 || n_layer == 27 || (n_layer == 48 && c.n_vocab == 128256);
        if (lite) {
            c.q_lora_rank = 0;
        } else {
            FOLIO_TRY(q_lora, r.u32("attention.q_lora_rank"));
            c.q_lora_rank = q_lora;
        }
    } else if (ds32) {
        FOLIO_TRY(q_lora, r.u32("attention.q_lora_rank")); // no lite path
        FOLIO_CHECK(
            check(q_lora > 0, file, "deepseek32 requires q-LoRA (attention.q_lora_rank > 0)"));
        c.q_lora_rank = q_lora;
    } else {
        // kimi-linear does not read q_lora_rank: q-LoRA is detected by attn_q_a_norm (as
        // llama.cpp does); its rank is that tensor's length.
        for (uint32_t il = 0; il < n_layer && c.q_lora_rank == 0; ++il) {
            if (c.is_kda_layer(il))
                continue;
            const gguf::TensorInfo* t =
                file.find_tensor(tensor_name::layer_tensor(il, tensor_name::kAttnQANorm));
            if (t != nullptr)
                c.q_lora_rank = static_cast<uint32_t>(t->ne[0]);
        }
        FOLIO_TRY(head_dim, r.u32("kda.head_dim"));
        FOLIO_TRY(conv, r.u32("ssm.conv_kernel"));
        FOLIO_CHECK(check(head_dim > 0 && conv > 0 && conv <= 64, file,
                          "kda.head_dim / ssm.conv_kernel out of range"));
        c.kda_head_dim = head_dim;
        c.conv_kernel = conv;
        c.mla_rope = false; // NoPE MLA (Kimi Linear)
    }
    FOLIO_TRY(kv_lora, r.u32("attention.kv_lora_rank"));
    c.kv_lora_rank = kv_lora;
    FOLIO_TRY(rope_dims, r.u32("rope.dimension_count"));
    c.qk_rope = rope_dims;
    FOLIO_TRY(key_mla, r.u32("attention.key_length_mla", 0u));
    FOLIO_TRY(value_mla, r.u32("attention.value_length_mla", 0u));
    FOLIO_CHECK(
        check(key_mla > 0 && value_mla > 0, file,
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
        FOLIO_CHECK(
            check(n_expert % c.n_expert_group == 0 && c.n_expert_group_used <= c.n_expert_group,
                  file, "expert_group_count must divide expert_count"));
    FOLIO_TRY(scale, r.f32("expert_weights_scale", 0.0f));
    c.expert_weights_scale = scale;
    FOLIO_TRY(norm, file.get_bool(r.prefix + "expert_weights_norm"));
    // kimi-linear ignores the key and always normalizes (src/llama-model.cpp).
    c.expert_weights_norm = kimi ? true : norm.value_or(false);
    FOLIO_TRY(gating, r.u32("expert_gating_func", 1u));
    FOLIO_CHECK(check(gating >= 1 && gating <= 3, file,
                      "expert_gating_func " + std::to_string(gating) + " is not supported"));
    c.gating = static_cast<GatingFunc>(gating);

    FOLIO_TRY(mscale, read_rope(r, n_ctx, rope_dims, ds32, c));
    c.kq_scale = mscale * mscale / std::sqrt(static_cast<float>(c.qk_head()));
    if (kimi)
        c.kq_scale = 1.0f / std::sqrt(static_cast<float>(c.qk_head())); // no RoPE, no mscale
    if (ds32 || arch == "kimi-hybrid")
        FOLIO_CHECK(read_indexer(r, c));
    return c;
}

} // namespace folio
