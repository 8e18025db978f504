#pragma once
// Rows of the KV cache in their storage type (CacheOptions::kv_type): f32 as computed, f16 and
// bf16 rounded to nearest even, q8_0 in GGML's block layout (block_q8_0 of ggml/src/ggml-common.h:
// 32 int8 and an fp16 scale per block). q8_0 rows whose length is not a multiple of 32 are
// zero-padded.

#include "folio/cache.h"

#include <cstddef>
#include <cstdint>

namespace folio {

size_t kv_row_bytes(KvType type, int64_t n);
void kv_encode_row(KvType type, const float* src, int64_t n, void* dst);
void kv_decode_row(KvType type, const void* src, int64_t n, float* dst);

} // namespace folio
