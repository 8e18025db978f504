#pragma once
// Blocked (flash-style) causal attention for prefill. attend_mqa_flash, the MLA absorbed form: the
// same result as attend_mqa_causal (attention_core.h, which keeps the whole rows × keys score
// matrix) up to float rounding, but walking the cached rows one KV block (a tile of keys) at a
// time with an online softmax, so its scratch is rows × block_tokens scores plus one output row
// per query row whatever the depth, and each key tile is used while it is in cache. The running
// state is the decode kernel's (kernels/mqa_rows.h: m, l, o per row), finished by its
// mqa_rows_merge; the softmax step per tile is kernels/flash_tile.h.

#include "kernels/kernel_context.h"
#include "model/attention/attention_core.h"

#include <vector>

namespace folio {

// Scratch of attend_mqa_flash, kept by the caller between calls.
struct FlashScratch {
    std::vector<float> scores, state, rescale, block;
};

// b as for attend_mqa_causal. Single-threaded: callers parallelize over query blocks.
void attend_mqa_flash(const MqaBlock& b, FlashScratch& w, KernelPath path = KernelPath::Auto);

// b as for attend_causal (one head, keys and values in separate arrays, MLA's naive form), in
// tiles of 256 keys: the same result up to float rounding, with rows × 256 scores of scratch
// instead of rows × all keys (64 queries at depth 32K: 64 KB instead of 8 MB, out of L2 on
// every pass). Single-threaded.
void attend_causal_flash(const AttentionBlock& b, FlashScratch& w,
                         KernelPath path = KernelPath::Auto);

} // namespace folio
