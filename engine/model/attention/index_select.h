#pragma once
// The DSA indexer's selection (DeepSeek-V3.2-Exp): every query of a batch scores the cached index
// keys it can see (kernels/index_score.h) and keeps its top_k (model/attention/top_k_select.h).
//
// Prefill (at least one query per thread): blocks of queries per task, each block walking the
// keys a cache-sized chunk at a time, so the keys are read from memory once per block instead of
// once per query. Decode (fewer queries than threads): each query's keys are split over the
// threads, which also collect their range's top-k candidates while the scores are in cache.

#include "kernels/index_score.h"
#include "kernels/kernel_context.h"
#include "model/attention/top_k_select.h"

#include <cstdint>
#include <vector>

namespace folio {

// count queries of `heads` heads of `dim` floats; query i sees keys 0 .. first_visible + i - 1.
struct IndexQueries {
    const float* q = nullptr; // [count][heads][dim]
    const float* w = nullptr; // [count][heads] head weights (already scaled)
    int64_t count = 0, heads = 0, dim = 0;
    int64_t first_visible = 1;
};

// Buffers reused between calls (decode: no allocation per token).
struct IndexSelectScratch {
    std::vector<float> scores;
    TopKScratch topk;
    std::vector<TopKCandidates> parts; // one per thread
};

// Writes the top_k positions of query i (ascending) to selected[i·top_k ..]. Every query must see
// more than top_k keys. tiles: the layer's key tiles in `format`.
void select_index_keys(IndexKeyFormat format, const uint8_t* tiles, const IndexQueries& q,
                       int64_t top_k, const KernelContext& kctx, IndexSelectScratch& scratch,
                       int32_t* selected);

} // namespace folio
