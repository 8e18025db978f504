#include "runtime/candidate_order.h"

#include <array>
#include <cstring>

namespace folio {

namespace {

// A key that sorts ascending in the order wanted: larger logits get smaller keys.
uint32_t descending_key(float v) {
    if (v != v)
        return 0xFFFFFFFFu; // NaN: last
    if (v == 0.0f)
        v = 0.0f; // -0 is +0
    uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    const uint32_t ascending = (u & 0x80000000u) != 0 ? ~u : u | 0x80000000u;
    return ~ascending; // at most ~(-inf's key) = 0xFF800000: below NaN's
}

constexpr int kDigitBits = 11;
constexpr uint32_t kBuckets = 1u << kDigitBits;
constexpr int kPasses = (32 + kDigitBits - 1) / kDigitBits;

} // namespace

void order_candidates(std::span<const float> logits, std::vector<int32_t>& ids,
                      CandidateScratch& scratch) {
    const size_t n = logits.size();
    // key << 32 | id: ids start ascending, and each pass is stable, so equal keys keep them so.
    std::vector<uint64_t>& a = scratch.a;
    std::vector<uint64_t>& b = scratch.b;
    a.resize(n);
    b.resize(n);
    std::array<std::array<uint32_t, kBuckets>, kPasses> counts{};
    for (size_t i = 0; i < n; ++i) {
        const uint32_t key = descending_key(logits[i]);
        a[i] = uint64_t{key} << 32 | static_cast<uint32_t>(i);
        for (int p = 0; p < kPasses; ++p)
            ++counts[p][(key >> (p * kDigitBits)) & (kBuckets - 1)];
    }
    for (int p = 0; p < kPasses; ++p) {
        std::array<uint32_t, kBuckets>& c = counts[p];
        const uint32_t shift = 32 + p * kDigitBits;
        // Every key has the same digit here: the pass would move nothing.
        if (n > 0 && c[(a[0] >> shift) & (kBuckets - 1)] == n)
            continue;
        uint32_t at = 0;
        for (uint32_t d = 0; d < kBuckets; ++d) {
            const uint32_t count = c[d];
            c[d] = at;
            at += count;
        }
        for (size_t i = 0; i < n; ++i)
            b[c[(a[i] >> shift) & (kBuckets - 1)]++] = a[i];
        a.swap(b);
    }
    ids.resize(n);
    for (size_t i = 0; i < n; ++i)
        ids[i] = static_cast<int32_t>(a[i] & 0xFFFFFFFFu);
}

} // namespace folio
