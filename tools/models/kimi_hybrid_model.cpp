// kimi-hybrid (ours, docs/KIMI_HYBRID.md): a kimi-linear model whose MLA layers carry the
// deepseek32 lightning indexer. Written as the kimi-linear plan of the same preset, with the
// keys moved to the kimi-hybrid prefix and the indexer keys and tensors added: with the same
// seed every shared tensor has the same values as in the kimi-linear file.
#include "model/layer/tensor_names.h"
#include "model_plans.h"

namespace folio::tools {

namespace tn = folio::tensor_name;

namespace {

struct IndexerShape {
    uint32_t heads, dim, top_k;
};

// key_length = 2·rope.dimension_count of the kimi-linear preset, as llama.cpp's deepseek32
// graph requires (it views the indexer heads' nope part at key_length - n_rot).
IndexerShape indexer_for(const std::string& preset) {
    if (preset == "bench")
        return {8, 64, 2048};
    if (preset == "small")
        return {4, 64, 2048};
    return {4, 32, 32};
}

} // namespace

Status plan_kimi_hybrid(const std::string& preset, gguf::Writer& w,
                        std::vector<TensorPlan>& plans) {
    std::vector<TensorPlan> base;
    FOLIO_CHECK(plan_kimi_linear(preset, w, base));
    const std::string from = "kimi-linear.", to = "kimi-hybrid.";
    std::vector<gguf::KeyValue> moved;
    for (const gguf::KeyValue& kv : w.metadata())
        if (kv.key.rfind(from, 0) == 0)
            moved.push_back(kv);
    for (const gguf::KeyValue& kv : moved) {
        w.remove_key(kv.key);
        w.set_value(to + kv.key.substr(from.size()), kv.value);
    }
    w.set_string("general.architecture", "kimi-hybrid");
    w.set_string("general.name", "folio-kimi-hybrid-" + preset + "-random");
    const IndexerShape ix = indexer_for(preset);
    w.set_u32(to + "attention.indexer.head_count", ix.heads);
    w.set_u32(to + "attention.indexer.key_length", ix.dim);
    w.set_u32(to + "attention.indexer.top_k", ix.top_k);

    // The indexer of an MLA layer follows its attn_output; without q-LoRA its queries read the
    // normalized hidden state, so indexer.attn_q_b is [E, H_I·d_I].
    using I = TensorPlan::Init;
    const int64_t E = base.front().ne[0]; // token_embd.weight [E, V]
    for (const TensorPlan& p : base) {
        plans.push_back(p);
        const std::string b = tn::layer_prefix(p.layer);
        const bool mla_output = p.name == b + tn::kAttnOutput && plans.size() >= 2 &&
                                plans[plans.size() - 2].name == b + tn::kAttnVB;
        if (!mla_output)
            continue;
        auto add = [&](std::string name, std::vector<int64_t> ne, I init = I::Normal) {
            plans.push_back({std::move(name), std::move(ne), p.layer, p.n_layer, init});
        };
        add(b + tn::kIndexerQB, {E, int64_t(ix.heads) * ix.dim});
        add(b + tn::kIndexerK, {E, ix.dim});
        add(b + tn::kIndexerKNorm, {ix.dim}, I::Norm);
        add(b + tn::kIndexerKNormBias, {ix.dim}, I::SmallBias);
        add(b + tn::kIndexerProj, {E, ix.heads});
    }
    return {};
}

} // namespace folio::tools
