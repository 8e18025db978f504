#pragma once
// What each decoder layer of a model needs, from its metadata, its tensors and its mixer's own
// answers (model/layer/layer_mixer.h): the input of the device planner (backend/device_plan.h) and
// of the context defaults (runtime/context_plan.cpp).

#include "backend/device_plan.h"
#include "folio/cache.h"
#include "gguf/gguf_file.h"
#include "model/layer/model_config.h"

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

// Every layer's tensor bytes in `file` (the tensors under its "blk.<il>." prefix,
// model/layer/tensor_names.h), the rest as the embeddings' and output's, and each layer's KV bytes
// for `context_tokens` tokens.
PlanInput plan_input_of(const gguf::File& file, const ModelConfig& c, KvType kv_type,
                        KvType token_row_type, int64_t context_tokens);

} // namespace folio
