#include "model/decoder/layer_needs.h"

#include "cache/kv_codec.h"
#include "model/layer/layer_mixer.h"
#include "model/mixers/mixer_registry.h"

#include <charconv>
#include <string_view>

namespace folio {

namespace {

// The layer of a "blk.<il>.<name>" tensor; -1 for any other name.
int64_t layer_of_tensor(std::string_view name) {
    constexpr std::string_view prefix = "blk.";
    if (name.substr(0, prefix.size()) != prefix)
        return -1;
    name.remove_prefix(prefix.size());
    uint32_t il = 0;
    const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), il);
    if (ec != std::errc() || end == name.data() + name.size() || *end != '.')
        return -1;
    return il;
}

} // namespace

LayerKvBytes layer_kv_bytes(const ModelConfig& c, uint32_t il, KvType kv_type,
                            KvType token_row_type) {
    const LayerMixer& m = layer_mixer(c.mixer[il]);
    LayerKvBytes b;
    if (m.keeps_cache_rows(c, il))
        b.cache_row = static_cast<int64_t>(kv_row_bytes(kv_type, c.kv_lora_rank + c.qk_rope));
    b.token_row = static_cast<int64_t>(m.token_row_bytes(c, il, token_row_type));
    if (auto state = m.make_state(c, il))
        b.fixed = static_cast<int64_t>(state->bytes());
    return b;
}

PlanInput plan_input_of(const gguf::File& file, const ModelConfig& c, KvType kv_type,
                        KvType token_row_type, int64_t context_tokens) {
    PlanInput in;
    in.layers.resize(c.n_layer);
    in.context_tokens = context_tokens;
    for (const gguf::TensorInfo& t : file.tensors()) {
        const int64_t il = layer_of_tensor(t.name);
        if (il >= 0 && il < static_cast<int64_t>(c.n_layer))
            in.layers[static_cast<size_t>(il)].weight_bytes += t.size_bytes;
        else
            in.io_weight_bytes += t.size_bytes;
    }
    for (uint32_t il = 0; il < c.n_layer; ++il) {
        const LayerKvBytes b = layer_kv_bytes(c, il, kv_type, token_row_type);
        in.layers[il].kv_bytes_per_token = static_cast<uint64_t>(b.cache_row + b.token_row);
        in.layers[il].fixed_bytes = static_cast<uint64_t>(b.fixed);
    }
    return in;
}

} // namespace folio
