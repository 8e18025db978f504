// kimi-linear (Kimi-Linear: KDA + NoPE MLA + MoE) random-weight models,
// in llama.cpp's layout (src/llama-model.cpp).
#include "decoder_blocks.h"
#include "model/layer/tensor_names.h"
#include "model_plans.h"

namespace folio::tools {

namespace tn = folio::tensor_name;

namespace {

struct KimiLinearShape {
    uint32_t vocab, merges, embd, layers, dense_layers, heads, kda_head, conv, kv_lora;
    uint32_t nope, rope, v_head, experts, experts_used, experts_shared, ff_exp, ff_dense;
    uint32_t ctx;
};

// tiny: the conformance kimi-linear-f32 shape (< 3 MB). small: ~100 MB in F32 for long-context
// runs. bench: the deepseek2 bench shape with Kimi-Linear's 3 KDA : 1 MLA schedule.
KimiLinearShape shape_for(const std::string& preset) {
    if (preset == "bench")
        return {32000, 400, 2048, 8, 1, 16, 128, 4, 256, 64, 32, 64, 32, 6, 1, 512, 4096, 1048576};
    if (preset == "small")
        return {4096, 400, 512, 8, 1, 8, 64, 4, 128, 64, 32, 64, 16, 4, 1, 96, 1024, 1048576};
    return {384, 100, 128, 4, 1, 4, 32, 4, 64, 32, 16, 32, 6, 2, 1, 32, 128, 4096};
}

// Layer il is MLA iff il + 1 is a multiple of 4 or il is the last layer (Kimi-Linear's
// full_attn_layers pattern: 3 KDA : 1 MLA, the last layer MLA), else KDA.
bool is_mla_layer(uint32_t il, uint32_t n_layer) {
    return (il + 1) % 4 == 0 || il + 1 == n_layer;
}

} // namespace

Status plan_kimi_linear(const std::string& preset, gguf::Writer& w,
                        std::vector<TensorPlan>& plans) {
    const KimiLinearShape s = shape_for(preset);
    const std::string a = "kimi-linear.";
    w.set_string("general.architecture", "kimi-linear");
    w.set_string("general.type", "model");
    w.set_string("general.name", "folio-kimi-linear-" + preset + "-random");
    w.set_u32(a + "context_length", s.ctx);
    w.set_u32(a + "embedding_length", s.embd);
    w.set_u32(a + "feed_forward_length", s.ff_dense);
    w.set_u32(a + "block_count", s.layers);
    w.set_u32(a + "attention.head_count", s.heads);
    // 0 = KDA (recurrent) layer, 1 = MLA layer, as an INT32 array.
    std::vector<int64_t> kv;
    for (uint32_t l = 0; l < s.layers; ++l)
        kv.push_back(is_mla_layer(l, s.layers) ? 1 : 0);
    w.set_int_array(a + "attention.head_count_kv", gguf::ValueType::I32, kv);
    w.set_f32(a + "attention.layer_norm_rms_epsilon", 1e-6f);
    w.set_u32(a + "vocab_size", s.vocab);
    w.set_u32(a + "ssm.conv_kernel", s.conv);
    w.set_u32(a + "kda.head_dim", s.kda_head);
    w.set_u32(a + "attention.kv_lora_rank", s.kv_lora);
    w.set_u32(a + "rope.dimension_count", s.rope);
    w.set_u32(a + "attention.key_length", s.kv_lora + s.rope);
    w.set_u32(a + "attention.key_length_mla", s.nope + s.rope);
    w.set_u32(a + "attention.value_length_mla", s.v_head);
    const MoeShape moe{s.experts, s.experts_used, s.experts_shared,
                       s.ff_exp,  s.dense_layers, 2.446f};
    write_moe_keys(w, a, moe);
    write_tokenizer(w, build_tiny_vocab(s.vocab, s.merges));

    using I = TensorPlan::Init;
    const int64_t E = s.embd, H = s.heads, V = s.vocab, D = s.kda_head, P = H * D;
    const int64_t dk = s.nope + s.rope;
    int64_t current_layer = -1;
    auto add = [&](std::string name, std::vector<int64_t> ne, I init = I::Normal) {
        plans.push_back({std::move(name), std::move(ne), current_layer, s.layers, init});
    };
    const AddTensor add_plan = [&](std::string name, std::vector<int64_t> ne, I init) {
        add(std::move(name), std::move(ne), init);
    };
    add(tn::kTokenEmbd, {E, V});
    add(tn::kOutputNorm, {E}, I::Norm);
    add(tn::kOutput, {E, V});
    for (uint32_t l = 0; l < s.layers; ++l) {
        const std::string b = tn::layer_prefix(l);
        current_layer = l;
        add(b + tn::kAttnNorm, {E}, I::Norm);
        if (!is_mla_layer(l, s.layers)) {
            add(b + tn::kKdaConvQ, {s.conv, 1, P, 1});
            add(b + tn::kKdaConvK, {s.conv, 1, P, 1});
            add(b + tn::kKdaConvV, {s.conv, 1, P, 1});
            add(b + tn::kAttnQ, {E, P});
            add(b + tn::kKdaK, {E, P});
            add(b + tn::kKdaV, {E, P});
            add(b + tn::kKdaFA, {E, D});
            add(b + tn::kKdaFB, {D, P});
            add(b + tn::kKdaBeta, {E, H});
            add(b + tn::kKdaA, {1, H, 1, 1}, I::NegativeDecay); // −exp(A_log)
            add(b + tn::kKdaDtBias, {P}, I::SmallBias);
            add(b + tn::kKdaGA, {E, D});
            add(b + tn::kKdaGB, {D, P});
            add(b + tn::kKdaNorm, {D}, I::Norm);
            add(b + tn::kAttnOutput, {P, E});
        } else {
            add(b + tn::kAttnQ, {E, H * dk});
            add(b + tn::kAttnKvAMqa, {E, s.kv_lora + s.rope});
            add(b + tn::kAttnKvANorm, {s.kv_lora}, I::Norm);
            add(b + tn::kAttnKB, {s.nope, s.kv_lora, H});
            add(b + tn::kAttnVB, {s.kv_lora, s.v_head, H});
            add(b + tn::kAttnOutput, {H * s.v_head, E});
        }
        add(b + tn::kFfnNorm, {E}, I::Norm);
        add_ffn_tensors(add_plan, b, E, l < s.dense_layers, s.ff_dense, moe);
    }
    return {};
}

} // namespace folio::tools
