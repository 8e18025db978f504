// deepseek2 (Kimi-K2 / DeepSeek-V3 / Kimi-VL text) random-weight models in
// llama.cpp's layout (src/llama-model.cpp).
#include "decoder_blocks.h"
#include "model/layer/tensor_names.h"
#include "model_plans.h"

namespace folio::tools {

namespace tn = folio::tensor_name;

namespace {

struct Deepseek2Shape {
    uint32_t vocab, merges, embd, layers, dense_layers, heads, q_lora, kv_lora;
    uint32_t nope, rope, v_head, experts, experts_used, experts_shared, ff_exp, ff_dense;
    uint32_t ctx;
    bool yarn;
};

// tiny: < 3 MB in F32 (tests, the demo model). small: ~120 MB in F32 (long context, cache).
// bench: the 920M-parameter / ~210M-active shape the decoder issue benchmarks against.
Deepseek2Shape shape_for(const std::string& preset) {
    if (preset == "bench")
        return {32000, 400, 2048, 8, 1, 16,  384,  256,    64,
                32,    64,  32,   6, 1, 512, 4096, 131072, true};
    if (preset == "small")
        return {4096, 400, 512, 8, 1, 8, 192, 128, 64, 32, 64, 16, 4, 1, 96, 1024, 131072, true};
    return {384, 100, 128, 4, 1, 4, 64, 64, 32, 16, 32, 8, 2, 1, 32, 128, 4096, false};
}

} // namespace

Status plan_deepseek2(const std::string& preset, gguf::Writer& w, std::vector<TensorPlan>& plans) {
    const Deepseek2Shape s = shape_for(preset);
    const std::string a = "deepseek2.";
    w.set_string("general.architecture", "deepseek2");
    w.set_string("general.type", "model");
    w.set_string("general.name", "folio-deepseek2-" + preset + "-random");
    w.set_u32(a + "context_length", s.ctx);
    w.set_u32(a + "embedding_length", s.embd);
    w.set_u32(a + "feed_forward_length", s.ff_dense);
    w.set_u32(a + "block_count", s.layers);
    w.set_u32(a + "attention.head_count", s.heads);
    w.set_u32(a + "attention.head_count_kv", 1);
    w.set_f32(a + "attention.layer_norm_rms_epsilon", 1e-6f);
    w.set_f32(a + "rope.freq_base", 50000.0f);
    w.set_u32(a + "vocab_size", s.vocab);
    w.set_u32(a + "attention.q_lora_rank", s.q_lora);
    w.set_u32(a + "attention.kv_lora_rank", s.kv_lora);
    w.set_u32(a + "attention.key_length", s.kv_lora + s.rope);
    w.set_u32(a + "attention.value_length", s.kv_lora);
    w.set_u32(a + "attention.key_length_mla", s.nope + s.rope);
    w.set_u32(a + "attention.value_length_mla", s.v_head);
    w.set_u32(a + "rope.dimension_count", s.rope);
    if (s.yarn) {
        // As Kimi-K2 writes them; yarn_log_multiplier = 0.1 * mscale_all_dim.
        w.set_string(a + "rope.scaling.type", "yarn");
        w.set_f32(a + "rope.scaling.factor", 32.0f);
        w.set_u32(a + "rope.scaling.original_context_length", 4096);
        w.set_f32(a + "rope.scaling.yarn_log_multiplier", 0.1f);
    }
    const MoeShape moe{s.experts, s.experts_used, s.experts_shared, s.ff_exp, s.dense_layers, 2.5f};
    write_moe_keys(w, a, moe);
    write_tokenizer(w, build_tiny_vocab(s.vocab, s.merges));

    using I = TensorPlan::Init;
    const int64_t E = s.embd, H = s.heads, V = s.vocab, dk = s.nope + s.rope;
    int64_t current_layer = -1;
    auto add = [&](std::string name, std::vector<int64_t> ne, I init = I::Normal) {
        plans.push_back({std::move(name), std::move(ne), current_layer, s.layers, init});
    };
    const AddTensor add_plan = [&](std::string name, std::vector<int64_t> ne, I init) {
        add(std::move(name), std::move(ne), init);
    };
    add(tn::kTokenEmbd, {E, V});
    for (uint32_t l = 0; l < s.layers; ++l) {
        const std::string b = tn::layer_prefix(l);
        current_layer = l;
        add(b + tn::kAttnNorm, {E}, I::Norm);
        add(b + tn::kAttnQA, {E, s.q_lora});
        add(b + tn::kAttnQANorm, {s.q_lora}, I::Norm);
        add(b + tn::kAttnQB, {s.q_lora, H * dk});
        add(b + tn::kAttnKvAMqa, {E, s.kv_lora + s.rope});
        add(b + tn::kAttnKvANorm, {s.kv_lora}, I::Norm);
        add(b + tn::kAttnKB, {s.nope, s.kv_lora, H});
        add(b + tn::kAttnVB, {s.kv_lora, s.v_head, H});
        add(b + tn::kAttnOutput, {H * s.v_head, E});
        add(b + tn::kFfnNorm, {E}, I::Norm);
        add_ffn_tensors(add_plan, b, E, l < s.dense_layers, s.ff_dense, moe);
    }
    current_layer = -1;
    add(tn::kOutputNorm, {E}, I::Norm);
    add(tn::kOutput, {E, V});
    return {};
}

} // namespace folio::tools
