#pragma once
// What each decoder layer of a model keeps, from its mixer's own answers (model/layer_mixer.h):
// the input of the context defaults (runtime/context_plan.cpp).

#include "folio/cache.h"
#include "model/model_config.h"

#include <cstdint>

namespace folio {

// Bytes layer il keeps: per token in the paged KV cache (`cache_row`) and in RAM beside it
// (`token_row`), and per sequence in a recurrent state (`fixed`).
struct LayerKvBytes {
    int64_t cache_row = 0;
    int64_t token_row = 0;
    int64_t fixed = 0;
};
LayerKvBytes layer_kv_bytes(const ModelConfig& c, uint32_t il, KvType kv_type,
                            KvType token_row_type);

} // namespace folio
