#include "cache/kv_codec.h"

#include "kernels/thread_scratch.h"
#include "kernels/weight_rows.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace folio {

namespace {

constexpr int64_t kQ8Block = 32;

DType storage_dtype(KvType t) {
    switch (t) {
    case KvType::F32:
        return DType::F32;
    case KvType::F16:
        return DType::F16;
    case KvType::BF16:
        return DType::BF16;
    case KvType::Q8_0:
        return DType::Q8_0;
    }
    return DType::F32;
}

int64_t padded(KvType t, int64_t n) {
    return t == KvType::Q8_0 ? (n + kQ8Block - 1) / kQ8Block * kQ8Block : n;
}

} // namespace

size_t kv_row_bytes(KvType type, int64_t n) {
    return dtype_row_bytes(storage_dtype(type), static_cast<uint64_t>(padded(type, n)));
}

void kv_encode_row(KvType type, const float* src, int64_t n, void* dst) {
    if (type == KvType::F32) {
        std::memcpy(dst, src, sizeof(float) * n);
        return;
    }
    const int64_t np = padded(type, n);
    if (np == n) {
        (void)quantize_row(storage_dtype(type), src, dst, n);
        return;
    }
    thread_local ThreadScratch<float> scratch;
    std::vector<float>& tmp = scratch.resize(static_cast<size_t>(np));
    std::fill(tmp.begin(), tmp.begin() + np, 0.0f);
    std::memcpy(tmp.data(), src, sizeof(float) * n);
    (void)quantize_row(storage_dtype(type), tmp.data(), dst, np);
}

void kv_decode_row(KvType type, const void* src, int64_t n, float* dst) {
    if (type == KvType::F32) {
        std::memcpy(dst, src, sizeof(float) * n);
        return;
    }
    const int64_t np = padded(type, n);
    if (np == n) {
        (void)dequantize_row(storage_dtype(type), src, dst, n);
        return;
    }
    thread_local ThreadScratch<float> scratch;
    std::vector<float>& tmp = scratch.resize(static_cast<size_t>(np));
    (void)dequantize_row(storage_dtype(type), src, tmp.data(), np);
    std::memcpy(dst, tmp.data(), sizeof(float) * n);
}

} // namespace folio
