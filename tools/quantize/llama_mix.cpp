#include "quantize/llama_mix.h"

#include <cstdio>

namespace folio::tools {

namespace {

enum class Category { TokenEmbd, Output, AttnV, AttnK, AttnOutput, AttnQkv, FfnDown, Other };

bool has(const std::string& s, const char* part) {
    return s.find(part) != std::string::npos;
}

// tensor_get_category (order as there).
Category category_of(const std::string& name) {
    if (name == "output.weight")
        return Category::Output;
    if (name == "token_embd.weight")
        return Category::TokenEmbd;
    if (has(name, "attn_qkv.weight"))
        return Category::AttnQkv;
    if (has(name, "attn_kv_b.weight") || has(name, "attn_v.weight"))
        return Category::AttnV;
    if (has(name, "attn_k.weight"))
        return Category::AttnK;
    if (has(name, "attn_output.weight"))
        return Category::AttnOutput;
    if (has(name, "ffn_down"))
        return Category::FfnDown;
    return Category::Other;
}

bool use_more_bits(int i_layer, int n_layers) {
    return i_layer < n_layers / 8 || i_layer >= 7 * n_layers / 8 ||
           (i_layer - n_layers / 8) % 3 == 2;
}

bool fits(DType t, int64_t ne0) {
    return ne0 % static_cast<int64_t>(dtype_block(t).size) == 0;
}

// tensor_type_fallback.
DType fallback(DType t, int64_t ne0) {
    if (fits(t, ne0))
        return t;
    DType f = t;
    switch (t) {
    case DType::IQ4_XS:
        f = DType::IQ4_NL;
        break;
    case DType::Q2_K:
    case DType::Q3_K:
        f = DType::Q4_0;
        break;
    case DType::Q4_K:
        f = DType::Q5_0;
        break;
    case DType::Q5_K:
        f = DType::Q5_1;
        break;
    case DType::Q6_K:
        f = DType::Q8_0;
        break;
    default:
        break;
    }
    return fits(f, ne0) ? f : DType::F16;
}

} // namespace

DType llama_ftype_base_type(LlamaFtype ftype) {
    switch (ftype) {
    case LlamaFtype::Q3_K_M:
        return DType::Q3_K;
    case LlamaFtype::Q4_K_M:
        return DType::Q4_K;
    case LlamaFtype::Q5_K_M:
        return DType::Q5_K;
    case LlamaFtype::Q6_K:
        return DType::Q6_K;
    case LlamaFtype::IQ4_XS:
        return DType::IQ4_XS;
    }
    return DType::Q8_0;
}

DType LlamaMix::type_for(const std::string& name, int64_t ne0) {
    const DType base = llama_ftype_base_type(ftype_);
    const Category cat = category_of(name);
    DType t = base;
    if (cat == Category::Output || (m_.tied_embeddings && cat == Category::TokenEmbd)) {
        // The head: Q6_K unless the row does not take the base type's blocks (Q8_0).
        t = fits(base, ne0) ? DType::Q6_K : DType::Q8_0;
    } else if (cat == Category::TokenEmbd) {
        t = base;
    } else if (cat == Category::AttnV) {
        if (ftype_ == LlamaFtype::Q3_K_M)
            t = i_attention_wv_ < 2 ? DType::Q5_K : DType::Q4_K;
        else if (ftype_ == LlamaFtype::IQ4_XS && m_.n_gqa >= 4)
            t = DType::Q5_K;
        else if ((ftype_ == LlamaFtype::Q4_K_M || ftype_ == LlamaFtype::Q5_K_M) &&
                 use_more_bits(i_attention_wv_, m_.n_attention_wv))
            t = DType::Q6_K;
        if (m_.n_expert == 8)
            t = DType::Q8_0;
        ++i_attention_wv_;
    } else if (cat == Category::AttnK) {
        if (m_.n_expert == 8)
            t = DType::Q8_0;
    } else if (cat == Category::FfnDown) {
        // MoE files: the layer from the name (experts are not consecutive); dense: a counter.
        const int named_layer = m_.n_expert > 1 ? llama_layer_of(name) : -1;
        const int i_layer = named_layer >= 0 ? named_layer : i_ffn_down_;
        const int n_layer = m_.n_layer;
        if (ftype_ == LlamaFtype::Q3_K_M)
            t = i_layer < n_layer / 16 ? DType::Q5_K : DType::Q4_K; // (Q3_K only for Falcon)
        else if (ftype_ == LlamaFtype::Q4_K_M && use_more_bits(i_layer, n_layer))
            t = DType::Q6_K;
        else if (ftype_ == LlamaFtype::IQ4_XS && i_layer < n_layer / 8)
            t = DType::Q5_K; // no importance matrix
        else if (ftype_ == LlamaFtype::Q5_K_M && use_more_bits(i_layer, n_layer))
            t = DType::Q6_K;
        ++i_ffn_down_;
    } else if (cat == Category::AttnOutput) {
        if (m_.n_expert == 8) {
            if (ftype_ == LlamaFtype::Q3_K_M || ftype_ == LlamaFtype::Q4_K_M ||
                ftype_ == LlamaFtype::IQ4_XS)
                t = DType::Q5_K;
        } else if (ftype_ == LlamaFtype::Q3_K_M) {
            t = DType::Q4_K;
        }
    } else if (cat == Category::AttnQkv) {
        if (ftype_ == LlamaFtype::Q3_K_M)
            t = DType::Q4_K;
        else if (ftype_ == LlamaFtype::Q4_K_M)
            t = DType::Q5_K;
        else if (ftype_ == LlamaFtype::Q5_K_M)
            t = DType::Q6_K;
    }
    return fallback(t, ne0);
}

int llama_layer_of(const std::string& name) {
    int n = -1;
    return std::sscanf(name.c_str(), "blk.%d.", &n) == 1 ? n : -1;
}

} // namespace folio::tools
