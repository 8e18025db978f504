#include "model/layer_needs.h"

#include "cache/kv_codec.h"
#include "model/layer_mixer.h"
#include "model/mixers/mixer_registry.h"

namespace folio {

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

} // namespace folio
