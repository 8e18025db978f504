#pragma once
// Read access to one layer's cached rows, block by block, for the attention kernels. Rows
// [0, n_rows) live in blocks of block_tokens rows; each block's bytes are in RAM or in the disk
// tier's mapping. For f32 storage block() returns the cache's own memory; other storage types
// are decoded into the caller's scratch. Read-only: safe to share between threads.

#include "cache/kv_codec.h"
#include "kernels/thread_scratch.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace folio {

struct KvView {
    int64_t n_rows = 0;
    int64_t row_floats = 0;
    int64_t block_tokens = 64;
    KvType type = KvType::F32;
    size_t row_bytes = 0;
    std::vector<const uint8_t*> raw; // per block

    int64_t n_blocks() const { return (n_rows + block_tokens - 1) / block_tokens; }
    int64_t rows_in_block(int64_t b) const {
        return std::min(block_tokens, n_rows - b * block_tokens);
    }
    // Rows of block b as f32, row stride row_floats.
    const float* block(int64_t b, std::vector<float>& scratch) const {
        if (type == KvType::F32)
            return reinterpret_cast<const float*>(raw[static_cast<size_t>(b)]);
        const int64_t n = rows_in_block(b);
        scratch.resize(static_cast<size_t>(n * row_floats));
        for (int64_t r = 0; r < n; ++r)
            kv_decode_row(type, raw[static_cast<size_t>(b)] + r * row_bytes, row_floats,
                          scratch.data() + r * row_floats);
        return scratch.data();
    }
    // Where row t's bytes are (in the storage type).
    const uint8_t* row_ptr(int64_t t) const {
        return raw[static_cast<size_t>(t / block_tokens)] +
               static_cast<size_t>(t % block_tokens) * row_bytes;
    }
    // The first n floats of row t.
    void read_row(int64_t t, float* dst, int64_t n) const {
        const uint8_t* src = raw[static_cast<size_t>(t / block_tokens)] +
                             static_cast<size_t>(t % block_tokens) * row_bytes;
        if (type == KvType::F32) {
            std::copy(reinterpret_cast<const float*>(src), reinterpret_cast<const float*>(src) + n,
                      dst);
            return;
        }
        thread_local ThreadScratch<float> scratch;
        std::vector<float>& tmp = scratch.resize(static_cast<size_t>(row_floats));
        kv_decode_row(type, src, row_floats, tmp.data());
        std::copy(tmp.data(), tmp.data() + n, dst);
    }
};

} // namespace folio
